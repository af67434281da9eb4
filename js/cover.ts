// The hot-seat cover: shown between two humans' turns, hides the table.

import { h } from "./dom";
import type { TableState } from "./protocol";
import type { Send, UiState } from "./send";
import { WORDS } from "./words";

/** The cover; its "I am ready" button takes the focus when the cover appears (mount.ts),
 *  and after it the focus moves to the uncovered seat's hand. */
export function coverBlock(model: TableState, ui: UiState, send: Send): HTMLElement {
  return h(
    "div",
    { class: "tl-cover", "data-testid": "cover" },
    h("p", null, model.cover.text),
    h(
      "button",
      {
        type: "button",
        class: "tl-btn",
        "data-testid": "uncover",
        "data-focus": "uncover",
        onclick: () => {
          ui.focusNext = ["hand-first", "root"];
          send({ kind: "uncover" });
        },
      },
      WORDS.ready,
    ),
  );
}
