// The key: what the card styles and symbols mean, and how to peek or rotate.

import { h } from "./dom";
import type { TableState } from "./protocol";
import { WORDS } from "./words";

export function keyBlock(model: TableState): HTMLElement {
  const o = model.offers;
  const hint = o.active
    ? [
        o.play_cards.length ? WORDS.hintPlay : "",
        o.peek.length ? WORDS.hintPeek : "",
        o.rotate.length ? WORDS.hintRotate : "",
        o.wake_why,
        o.end ? WORDS.hintEnd : "",
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
      { class: "tl-keylist", "aria-label": WORDS.key },
      h("li", null, h("span", { class: "tl-k tl-k-marked", "aria-hidden": "true" }, "✱"), WORDS.keyMarked),
      h("li", null, h("span", { class: "tl-k tl-k-plain", "aria-hidden": "true" }, "?"), WORDS.keyPlain),
      h("li", null, h("span", { class: "tl-k", "aria-hidden": "true" }, "◉"), WORDS.keyYouPeeked),
      h("li", null, h("span", { class: "tl-k", "aria-hidden": "true" }, "○"), WORDS.keySomeonePeeked),
      o.active
        ? h("li", null, h("span", { class: "tl-k tl-k-peekable", "aria-hidden": "true" }, "?"), WORDS.keyMayPeek)
        : null,
      o.active
        ? h("li", null, h("span", { class: "tl-k tl-k-selected", "aria-hidden": "true" }, "3"), WORDS.keyChosen)
        : null,
      h("li", null, h("span", { class: "tl-k tl-k-changed", "aria-hidden": "true" }, "!"), WORDS.keyChanged),
    ),
  );
}
