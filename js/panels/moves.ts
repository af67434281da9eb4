// The one-swat measure: each move's expected penalty if SleepKid woke right after it.

import { h } from "../dom";
import { bar, frame } from "./parts";
import type { MovesChart } from "./types";

const SHOWN = 8;

export function movesPanel(moves: MovesChart, players: string[]): HTMLElement {
  const who = moves.seat === null ? "" : (players[moves.seat] ?? "");
  const title = who
    ? `${who}'s moves: penalty of one swat right after`
    : "Moves: penalty of one swat right after";
  const explain =
    "The expected penalty to the mover if SleepKid woke right after the move. It counts that one swat only, not the rest of the game: lower is better for the next swat, not always for the game.";
  if (moves.moves.length === 0) {
    return frame("moves", title, explain, h("p", { class: "tl-empty-note" }, moves.empty));
  }
  const top = Math.max(...moves.moves.map((m) => m.expected_penalty), 1);
  const shown = moves.moves.slice(0, SHOWN);
  const rest = moves.moves.length - shown.length;
  return frame(
    "moves",
    title,
    explain,
    h(
      "ol",
      { class: "tl-rows" },
      shown.map((m) =>
        h(
          "li",
          {
            class: `tl-bar-row${m.best ? " tl-best" : ""}`,
            "aria-label": `${m.label}: ${m.expected_penalty.toFixed(2)}${m.best ? " (lowest)" : ""}`,
          },
          h("span", { class: "tl-row-label" }, m.label, m.best ? h("span", { class: "tl-best-mark" }, " ★ lowest") : null),
          bar(m.expected_penalty / top, "tl-move", m.expected_penalty.toFixed(2)),
        ),
      ),
    ),
    rest > 0 ? h("p", { class: "tl-panel-explain" }, `… and ${rest} more, each higher.`) : null,
  );
}
