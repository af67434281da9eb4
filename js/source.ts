// Where a mounted table's states come from and where its intents go: the anywidget model
// (table-widget.ts), a fixed state on a plain page, or an exported game (export.ts).

import type { Intent, TableState } from "./protocol";

/** Where the table states come from and where the intents go. */
export interface TableSource {
  get(): TableState;
  /** Call `redraw` whenever the state changed; returns the unsubscribe function. */
  subscribe(redraw: () => void): () => void;
  send(intent: Intent): void;
  /** Whether a live kernel answers (a live model only): `false` shows "not connected". */
  connected?: () => boolean;
}
