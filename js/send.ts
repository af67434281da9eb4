// How a component sends an intent, and the browser-only state of one rendered table.

import type { Intent } from "./protocol";

export type Send = (intent: Intent) => void;

/** Local, browser-only state of one rendered table (never game state). */
export interface UiState {
  selected: string | null;
  /** Swats already revealed (so a redraw does not replay their animation). */
  animated: Set<string>;
}
