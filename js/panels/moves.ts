// What the moves' figure does not draw: the switch that chooses what ranks the moves (one
// swat ahead or the whole game), and how far the one analysis of the position has come
// (data-done: it has stopped, its figures and its ★ are final).

import { h } from "../dom";
import type { Send } from "../send";
import type { MovesChart } from "../protocol";
import { DETAILS_WORDS, WORDS } from "../words";

function measureSwitch(moves: MovesChart, send: Send): HTMLElement {
  const option = (measure: "swat" | "game", text: string): HTMLElement => {
    const on = moves.measure === measure;
    const button = h(
      "button",
      {
        type: "button",
        class: `tl-measure${on ? " tl-measure-on" : ""}`,
        "aria-pressed": on ? "true" : "false",
        "data-measure": measure,
        "data-focus": `measure-${measure}`,
      },
      text,
    );
    button.addEventListener("click", () => {
      if (!on) send({ kind: "measure", measure });
    });
    return button;
  };
  return h(
    "div",
    { class: "tl-measures", role: "group", "aria-label": WORDS.rankBy },
    option("swat", WORDS.oneSwat),
    option("game", WORDS.wholeGame),
  );
}

function progressWords(moves: MovesChart, details: boolean): string {
  if (moves.target === 0) return "";
  if (!details) {
    // plain words (tenleave_widget/table/panels/plain.py)
    return moves.done ? WORDS.gamesDone(moves.worlds) : WORDS.gamesSoFar(moves.worlds);
  }
  return moves.done ? DETAILS_WORDS.worldsDone(moves.worlds) : DETAILS_WORDS.worldsSoFar(moves.worlds);
}

/** The controls above the moves' figure (none in an export: no whole-game values there). */
export function movesControls(moves: MovesChart, send?: Send, details = true): HTMLElement[] {
  if (moves.target === 0) return [];
  return [
    ...(send && moves.moves.length > 0 ? [measureSwitch(moves, send)] : []),
    h(
      "p",
      {
        class: "tl-moves-progress",
        "data-worlds": String(moves.worlds),
        "data-target": String(moves.target),
        "data-done": moves.done ? "true" : "false",
      },
      progressWords(moves, details),
    ),
  ];
}
