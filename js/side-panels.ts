// The odds panels beside the table, and the diff that decides a redraw: when only the
// panels' data changed (the moves' whole-game values fill in, chunk by chunk), only the
// panels are redrawn. Rebuilding the table then would detach its controls under the user
// and could spend a pending focus move (`ui.focusNext`) on a state the user's last action
// has not reached yet.

import { h } from "./dom";
import { PanelsView } from "./panels/panels";
import type { TableState } from "./protocol";
import type { Send } from "./send";
import { WORDS } from "./words";

/** Whether `state` differs from `drawn` in its panels' data alone. */
export function onlyPanelsChanged(drawn: TableState, state: TableState): boolean {
  return (
    state.panels !== drawn.panels &&
    (Object.keys(state) as (keyof TableState)[]).every((key) => key === "panels" || state[key] === drawn[key])
  );
}

/** The side column: it stays in the page across states (its charts are updated in place). */
export class SidePanels {
  readonly panels: PanelsView;
  readonly aside: HTMLElement;

  constructor(send: Send) {
    this.panels = new PanelsView(send);
    this.aside = h("aside", { class: "tl-side", "aria-label": WORDS.oddsPanels }, this.panels.element);
  }

  /** The teacher's note at the top of the side column, above the panels (table.ts says
   *  when), or none. */
  setNote(note: HTMLElement | null): void {
    this.aside.querySelector(":scope > .tl-note")?.remove();
    if (note) this.aside.prepend(note);
    this.aside.setAttribute("aria-label", note ? WORDS.noteAndOdds : WORDS.oddsPanels);
  }

  /** The side column for `state`, or null when it shows no panels. */
  sideFor(state: TableState): HTMLElement | null {
    return (state.show_odds || state.panels.figures.review !== undefined) && !state.cover.shown && state.panels.state
      ? this.aside
      : null;
  }
}
