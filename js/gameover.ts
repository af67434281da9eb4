// Game over: the final scores and the winner(s) on the table, and "Play again".

import { button, h } from "./dom";
import type { TableState } from "./protocol";
import type { Send, UiState } from "./send";
import { coachSummary } from "./coach";
import { WORDS } from "./words";

export function gameOverBlock(model: TableState, ui: UiState, send: Send): HTMLElement {
  const view = model.view;
  const winners = new Set(view.winners ?? []);
  const order = view.players.map((_, s) => s).sort((a, b) => (view.penalty[a] ?? 0) - (view.penalty[b] ?? 0));
  return h(
    "section",
    { class: "tl-gameover", "data-testid": "gameover", "aria-label": WORDS.gameOverLabel },
    h("h3", { class: "tl-gameover-title" }, WORDS.gameOver),
    h(
      "ol",
      { class: "tl-final" },
      order.map((s) =>
        h(
          "li",
          { class: winners.has(s) ? "tl-final-winner" : "" },
          `${view.players[s] ?? ""}: ${view.penalty[s] ?? 0}`,
          winners.has(s) ? h("strong", null, winners.size > 1 ? WORDS.sharesWin : WORDS.wins) : null,
        ),
      ),
    ),
    coachSummary(model, ui, send),
    model.offers.again
      ? button(
          "again",
          WORDS.again,
          () => {
            ui.focusNext = ["hand-first", "root"];
            send({ kind: "again" });
          },
          "tl-again",
        )
      : model.mode === "replay"
        ? null
        : h("p", { class: "tl-muted" }, WORDS.runAgain),
  );
}
