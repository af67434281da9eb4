// "Chance each card is swatted now": one bar per table card, in its owner's colour.

import { h } from "../dom";
import { bar, colourClass, frame, percent } from "./parts";
import type { CardChart } from "./types";

export function cardRiskPanel(cards: CardChart[], colours: string[]): HTMLElement {
  const body =
    cards.length === 0
      ? h("p", { class: "tl-empty-note" }, "No card on the table: nothing can be swatted.")
      : h(
          "ul",
          { class: "tl-rows" },
          cards.map((c) =>
            h(
              "li",
              { class: "tl-bar-row", "aria-label": `${c.label}: swatted ${percent(c.p_swatted)}` },
              h("span", { class: "tl-row-label" }, c.label),
              bar(c.p_swatted, `tl-owner ${colourClass(colours[c.owner])}`, percent(c.p_swatted)),
            ),
          ),
        );
  return frame(
    "cards",
    "Chance each card is swatted now",
    "One bar per card on the table (queue · position · owner (value)), in the owner's colour.",
    body,
  );
}
