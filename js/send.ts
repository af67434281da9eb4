// How a component sends an intent, and the browser-only state of one rendered table.

import type { Intent } from "./protocol";

export type Send = (intent: Intent) => void;

/** Local, browser-only state of one rendered table (never game state). */
export interface UiState {
  /** The chosen hand card's notation (what a play sends) ... */
  selected: string | null;
  /** ... and its index in the hand (only that one card is highlighted). */
  selectedIndex: number | null;
  /** Swats already revealed (so a redraw does not replay their animation). */
  animated: Set<string>;
  /** Where the keyboard focus goes once a control with this `data-focus` is drawn
   *  (the next sensible control after an action), tried in order. */
  focusNext: string[];
  /** The coach's question last drawn (a new one takes the focus once). */
  asked?: string;
}
