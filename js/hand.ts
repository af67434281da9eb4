// The viewer's hand (every hand in the teacher's view) and the turn's action buttons.

import { faceUp } from "./cards";
import { button, h } from "./dom";
import type { TableState } from "./protocol";
import type { Send, UiState } from "./send";
import { WORDS } from "./words";

export function handBlock(model: TableState, ui: UiState, send: Send, rerender: () => void): HTMLElement | null {
  const view = model.view;
  const viewer = view.seat;
  const offers = model.offers;
  const hands: [number, string[]][] = [];
  if (viewer !== null) {
    const cards = view.hands[viewer]?.cards;
    if (cards) hands.push([viewer, cards]);
  } else {
    // the teacher's view: every hand at large size; else only the hand of the seat to
    // move (the scores show every hand, seats.ts), so that the table fits a screen
    const only = model.size !== "large" && view.to_move !== null ? view.to_move : null;
    view.hands.forEach((hd, s) => {
      // an empty hand (the game is over) takes no row of its own: one line says so below
      if (hd.cards && hd.cards.length > 0 && (only === null || s === only)) hands.push([s, hd.cards]);
    });
  }
  // the game is over: every hand is empty, one line says so
  const empty = view.finished && hands.every(([, cards]) => cards.length === 0);
  const noCards = empty
    ? h(
        "div",
        { class: "tl-handrow", "data-testid": "hands-empty" },
        h("span", { class: "tl-handname" }, viewer === null ? WORDS.hands : WORDS.yourHand),
        WORDS.noCardsLeft,
      )
    : null;
  if (empty) hands.length = 0;
  const actions = h(
    "div",
    { class: "tl-actions" },
    offers.active && offers.wake ? button("wake", WORDS.wake, () => send({ kind: "wake" }), "tl-wake") : null,
    offers.active && offers.end
      ? button(
          "end",
          WORDS.endTurn,
          () => {
            ui.focusNext = ["hand-first", "again", "root"];
            send({ kind: "end" });
          },
          "tl-end",
        )
      : null,
    offers.active && offers.reset ? button("reset", WORDS.resetTurn, () => send({ kind: "reset" })) : null,
    offers.undo ? button("undo", WORDS.undo, () => send({ kind: "undo" })) : null,
  );
  const best = model.best;
  let bestDrawn = false;
  const rows = hands.map(([s, cards]) =>
    h(
      "div",
      { class: "tl-handrow", "data-testid": `hand-${s}` },
      h("span", { class: "tl-handname" }, viewer === null ? `${view.players[s] ?? s}:` : WORDS.yourHand),
      cards.map((c, idx) => {
        const playable = viewer !== null && offers.active && offers.play_cards.includes(c);
        const selected = ui.selected === c && ui.selectedIndex === idx;
        if (!playable) {
          const shown = faceUp(view, s, c, WORDS.inHand);
          // replay with a review, "show the best move": the best card of the seat to move
          if (best && s === view.to_move && c === best.card && !bestDrawn) {
            bestDrawn = true;
            shown.classList.add("tl-best");
            shown.setAttribute("data-testid", "best-card");
            shown.setAttribute("aria-label", `${shown.getAttribute("aria-label") ?? c}, ${WORDS.bestCard}`);
          }
          return shown;
        }
        const card = faceUp(view, s, c, selected ? WORDS.chosen : WORDS.choose);
        return h(
          "button",
          {
            type: "button",
            class: `tl-handbtn ${selected ? "tl-selected" : ""}`,
            "aria-pressed": selected ? "true" : "false",
            "aria-label": card.getAttribute("aria-label") ?? c,
            "data-card": c,
            "data-focus": `hand-${c}-${idx}`,
            "data-hand-index": idx,
            "data-group": "hand",
            "data-testid": `hand-card-${c}`,
            onclick: () => {
              ui.selected = selected ? null : c;
              ui.selectedIndex = selected ? null : idx;
              ui.focusNext = selected ? [] : ["play-first"];
              rerender();
            },
          },
          card,
        );
      }),
    ),
  );
  for (const b of actions.querySelectorAll("button")) b.setAttribute("data-group", "actions");
  if (!rows.length && !noCards && !offers.undo) return null;
  return h(
    "div",
    { class: "tl-hand" },
    rows,
    noCards,
    model.pending.length
      ? h("div", { class: "tl-pending", "data-testid": "pending" }, `${WORDS.thisTurn}${model.pending.join("; ")}`)
      : null,
    actions,
  );
}
