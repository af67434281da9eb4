// Draws one table state (a seat's view of the table, docs/view.md, and what Python says
// about it) and turns clicks and keys into intents. It holds no game rules: what may be
// clicked comes from `offers`, computed by Python with the engine. One component per file:
// topbar, replay, queues, hand, events, seats, cover (cards.ts draws the cards).

import { coverBlock } from "./cover";
import { h } from "./dom";
import { eventsBlock } from "./events";
import { handBlock } from "./hand";
import type { TableState } from "./protocol";
import { queuesBlock } from "./queues";
import { noteBlock, replayBlock } from "./replay";
import { seatsBlock } from "./seats";
import type { Send, UiState } from "./send";
import { gameOverBlock } from "./gameover";
import { keyBlock } from "./key";
import { lessonBlock } from "./lesson";
import { statusLine, topBar } from "./topbar";
import { coachBlock } from "./coach";

/** The table drawn for one state: the lesson (for above the table and its panels, the
 *  whole width: at projector size it is in the table's teaching column instead), the
 *  table's parts, and the teacher's note when it goes at the top of the side column, above
 *  the odds panels (`sideNote`, see `noteBeside`). */
export interface BuiltTable {
  lesson: HTMLElement | null;
  parts: HTMLElement[];
  sideNote: HTMLElement | null;
}

/** Whether the teacher's note goes beside the table: at small and medium size, once a
 *  lesson's answer is shown in the teacher's view (the answer often says "the teacher's
 *  note on the table explains it"). Below the scores, its place otherwise at these sizes,
 *  it would be out of a 1280x720 screen. */
function noteBeside(model: TableState): boolean {
  return (
    (model.size === "small" || model.size === "medium") &&
    model.perspective === null &&
    model.lesson !== null &&
    model.lesson.index !== null &&
    model.lesson.answer !== ""
  );
}

/** The hand, the last turn and the scores, with a teaching column beside them. */
function boardRow(board: HTMLElement[], teach: HTMLElement | null): HTMLElement {
  return h(
    "div",
    { class: `tl-boardrow${teach ? " tl-with-teach" : ""}` },
    h("div", { class: "tl-board" }, board),
    teach,
  );
}

/** Build the whole table for the current model state (`panelsBeside`: whether the odds
 *  panels are drawn beside it, in the side column). */
export function buildTable(
  model: TableState,
  ui: UiState,
  send: Send,
  rerender: () => void,
  panelsBeside: boolean,
): BuiltTable {
  if (ui.selected !== null && !model.offers.play_cards.includes(ui.selected)) {
    ui.selected = null;
    ui.selectedIndex = null;
  }
  const parts: HTMLElement[] = [];
  const msg = model.message;
  parts.push(
    h(
      "div",
      {
        class: `tl-message ${msg.level ? `tl-${msg.level}` : ""}`,
        role: "alert",
        "data-testid": "message",
        "data-message-id": msg.id,
      },
      msg.text,
    ),
  );
  if (model.cover.shown) {
    parts.push(coverBlock(model, ui, send));
    return { lesson: null, parts, sideNote: null };
  }
  const inline = model.mode === "replay" && model.size !== "large";
  parts.push(topBar(model, send, inline ? statusLine(model) : null));
  if (!inline) parts.push(statusLine(model));
  const coach = coachBlock(model, ui, send);
  if (coach) parts.push(coach);
  if (model.view.finished) parts.push(gameOverBlock(model, ui, send));
  const note = model.mode === "replay" ? noteBlock(model) : null;
  const lesson = lessonBlock(model, send);
  if (model.mode === "replay") parts.push(replayBlock(model, send));
  parts.push(queuesBlock(model, ui, send));
  parts.push(keyBlock(model));
  const hand = handBlock(model, ui, send, rerender);
  const board = [hand, eventsBlock(model, ui), seatsBlock(model)].filter((el): el is HTMLElement => el !== null);
  if (model.size !== "projector") {
    if (note && noteBeside(model)) {
      // the note beside the table: above the odds panels when they are beside it, else in
      // a teaching column beside the hand, the last turn and the scores (as at projector
      // size); a note taller than its box (widget.css) scrolls in it, by keys too
      note.tabIndex = 0;
      note.dataset.focus = "note";
      if (panelsBeside) {
        parts.push(...board);
        return { lesson, parts, sideNote: note };
      }
      parts.push(boardRow(board, h("div", { class: "tl-teach" }, note)));
      return { lesson, parts, sideNote: null };
    }
    parts.push(...board);
    if (note) parts.push(note); // below the scores (the board first)
    return { lesson, parts, sideNote: null };
  }
  // Projector: the queues take the whole width; below them the hand, the last turn and
  // the scores, with the teaching column beside them (the lesson's question and answer,
  // the teacher's note), so that neither pushes the scores off a 1280x720 screen.
  const teach = lesson || note ? h("div", { class: "tl-teach" }, lesson, note) : null;
  parts.push(boardRow(board, teach));
  return { lesson: null, parts, sideNote: null };
}
