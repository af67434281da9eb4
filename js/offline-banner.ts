// The "not connected" banner: a table saved with its notebook and drawn without a Python
// kernel behind it says so, and its controls are inert.

import { h } from "./dom";
import type { TableSource } from "./source";
import { WORDS } from "./words";

/** Whether the source is a live model whose kernel does not answer. */
export function isOffline(source: TableSource): boolean {
  return source.connected !== undefined && !source.connected();
}

/** The banner shown above an offline table. */
export function offlineBanner(): HTMLElement {
  return h("div", { class: "tl-offline", role: "status", "data-testid": "offline" }, WORDS.offline);
}
