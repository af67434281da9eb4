// The polite live region: it stays in the DOM while the content around it is redrawn, and
// announces each turn's narration (and the status line) once.

import { h } from "./dom";
import type { TableState } from "./protocol";
import { WORDS } from "./words";

/** What a screen reader hears for a state: the last turn's narration, then the status. */
export function announcement(state: TableState): string {
  const words = state.narration.turns[state.narration.turns.length - 1];
  const say = words
    ? [...words.lines, ...words.swats.flatMap((sw) => sw.queues.map((q) => WORDS.queueLine(q.queue + 1, q.text)))].join(
        " ",
      )
    : "";
  return [say, state.status].filter(Boolean).join(" ");
}

export class LiveRegion {
  readonly element = h("div", { class: "tl-live", "aria-live": "polite", "data-testid": "live" });
  private announced = "";

  /** Announce the state's words, unless they are the ones announced last. */
  announce(state: TableState): void {
    const text = announcement(state);
    if (text !== this.announced) {
      this.announced = text;
      this.element.textContent = text;
    }
  }
}
