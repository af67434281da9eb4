// The hot-seat cover: shown between two humans' turns, hides the table.

import { h } from "./dom";
import type { TableState } from "./protocol";
import type { Send } from "./send";

export function coverBlock(model: TableState, send: Send): HTMLElement {
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
        onclick: () => send({ kind: "uncover" }),
      },
      "I am ready: show my hand",
    ),
  );
}
