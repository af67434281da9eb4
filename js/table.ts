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

/** Build the whole table for the current model state. */
export function buildTable(
  model: TableState,
  ui: UiState,
  send: Send,
  rerender: () => void,
): HTMLElement[] {
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
    return parts;
  }
  parts.push(topBar(model, send));
  parts.push(statusLine(model));
  const coach = coachBlock(model, ui, send);
  if (coach) parts.push(coach);
  if (model.view.finished) parts.push(gameOverBlock(model, ui, send));
  const note = model.mode === "replay" ? noteBlock(model) : null;
  const projector = model.size === "projector";
  if (model.mode === "replay") parts.push(replayBlock(model, send));
  const lesson = lessonBlock(model, send);
  if (lesson) parts.push(lesson);
  if (note && !projector) parts.push(note);
  parts.push(queuesBlock(model, ui, send));
  parts.push(keyBlock(model));
  const hand = handBlock(model, ui, send, rerender);
  if (hand) parts.push(hand);
  parts.push(eventsBlock(model, ui));
  parts.push(seatsBlock(model));
  if (note && projector) parts.push(note); // the board first on a projector, then the note
  return parts;
}
