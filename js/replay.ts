// The replay controls: first / previous / next / last, the slider, the perspective menu,
// and the teacher's note.

import { button, h } from "./dom";
import type { TableState } from "./protocol";
import type { Send } from "./send";
import "./compact-replay.css";
import { WORDS } from "./words";

export function replayBlock(model: TableState, send: Send): HTMLElement {
  const view = model.view;
  const r = model.replay;
  const go = (turn: number) => send({ kind: "goto", turn: Math.max(0, Math.min(r.total, turn)) });
  const select = h(
    "select",
    {
      "data-testid": "perspective",
      "data-focus": "perspective",
      "aria-label": WORDS.perspective,
      onchange: (ev: Event) => {
        const v = (ev.target as HTMLSelectElement).value;
        send({ kind: "perspective", seat: v === "all" ? null : Number(v) });
      },
    },
    h("option", { value: "all", selected: model.perspective === null }, WORDS.teacherView),
    view.players.map((p, s) => h("option", { value: s, selected: model.perspective === s }, WORDS.viewOf(p))),
  );
  return h(
    "div",
    { class: "tl-replay", "data-testid": "replay" },
    h(
      "div",
      { class: "tl-replaybar" },
      button("first", "|◀", () => go(0), "", WORDS.firstTurn),
      button("prev", "◀", () => go(r.turn - 1), "", WORDS.previousTurn),
      h("input", {
        type: "range",
        min: 0,
        max: r.total,
        value: r.turn,
        "data-testid": "slider",
        "data-focus": "slider",
        "aria-label": WORDS.turn,
        onchange: (ev: Event) => go(Number((ev.target as HTMLInputElement).value)),
      }),
      button("next", "▶", () => go(r.turn + 1), "", WORDS.nextTurn),
      button("last", "▶|", () => go(r.total), "", WORDS.lastTurn),
      h("span", { class: "tl-turncount", "data-testid": "turn" }, WORDS.turnCount(r.turn, r.total)),
      select,
      button("branch", WORDS.playOn, () => send({ kind: "branch" }), "tl-branch", WORDS.playOnLabel),
    ),
  );
}

/** The teacher's note on the turn shown (below the table at projector size). */
export function noteBlock(model: TableState): HTMLElement | null {
  const r = model.replay;
  return r.note
    ? h(
        "div",
        { class: "tl-note", "data-testid": "note", role: "note" },
        h("strong", null, WORDS.noteOn((r.note_turn ?? 0) + 1)),
        // one line per step of the story (each queue, the new token, the scores), so a
        // note reads on a projector instead of being one dense paragraph
        r.note
          .split(/(?<=[.!])\s+(?=(?:Queue \d|Pass \d|A new Human|Penalties so far|Then |Thanks to|Final penalties))/)
          .map((line, i) => (i === 0 ? h("span", null, line) : h("span", { class: "tl-noteline" }, line))),
      )
    : null;
}
