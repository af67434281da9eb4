// The panels' Details switch: plain words by default (tenleave_widget/table/panels/plain.py),
// the analyst's figures and words (expected values, margins, 95% intervals) on demand. A UI
// preference kept in Python (the table's session), so every redraw and export agrees.

import { h } from "../dom";
import type { Send } from "../send";
import { WORDS } from "../words";

export function detailsSwitch(on: boolean, send: Send): HTMLElement {
  const button = h(
    "button",
    {
      type: "button",
      class: `tl-btn tl-details${on ? " tl-details-on" : ""}`,
      "aria-pressed": on ? "true" : "false",
      "data-focus": "details",
      "data-testid": "details",
      title: on ? WORDS.detailsOnLabel : WORDS.detailsOffLabel,
    },
    on ? WORDS.detailsOn : WORDS.details,
  );
  button.addEventListener("click", () => send({ kind: "details", show: !on }));
  return button;
}
