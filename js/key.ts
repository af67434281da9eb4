// The key: what the card styles and symbols mean, and how to peek or rotate.

import { h } from "./dom";
import type { TableState } from "./protocol";

export function keyBlock(model: TableState): HTMLElement {
  const o = model.offers;
  const hint = o.active
    ? [
        o.play_cards.length
          ? "Choose a card in your hand (or press its number key), then Play here under a queue."
          : "",
        o.peek.length ? "To peek: press a face-down card with a dashed border." : "",
        o.rotate.length ? "To rotate: press ⟲ rotate above a queue." : "",
        o.wake_why,
        o.end ? "Then End turn." : "",
      ]
        .filter(Boolean)
        .join(" ")
    : "";
  return h(
    "div",
    { class: "tl-key", "data-testid": "key" },
    hint ? h("p", { class: "tl-keyhint", "data-testid": "hint" }, hint) : h("p", { class: "tl-keyhint" }, ""),
    h(
      "ul",
      { class: "tl-keylist", "aria-label": "Key" },
      h(
        "li",
        null,
        h("span", { class: "tl-k tl-k-marked", "aria-hidden": "true" }, "✱"),
        "marked back: a 3, 4 or 5 (double border)",
      ),
      h("li", null, h("span", { class: "tl-k tl-k-plain", "aria-hidden": "true" }, "?"), "plain back: a 1, 2 or 5"),
      h("li", null, h("span", { class: "tl-k", "aria-hidden": "true" }, "◉"), "you peeked"),
      h("li", null, h("span", { class: "tl-k", "aria-hidden": "true" }, "○"), "someone peeked"),
      o.active
        ? h("li", null, h("span", { class: "tl-k tl-k-peekable", "aria-hidden": "true" }, "?"), "you may peek")
        : null,
      o.active
        ? h("li", null, h("span", { class: "tl-k tl-k-selected", "aria-hidden": "true" }, "3"), "your chosen card")
        : null,
      h("li", null, h("span", { class: "tl-k tl-k-changed", "aria-hidden": "true" }, "!"), "changed last turn"),
    ),
  );
}
