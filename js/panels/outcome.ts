// "If SleepKid woke now": each queue's chance of ending under, exactly at, or over 10.

import { h } from "../dom";
import { cardText, frame, percent } from "./parts";
import type { OutcomeChart } from "./types";

const PARTS = [
  { key: "p_under", cls: "tl-under", name: "under 10", meaning: "the highest card is swatted" },
  { key: "p_exact", cls: "tl-exact", name: "exactly 10", meaning: "every flipped card escapes" },
  { key: "p_over", cls: "tl-over", name: "over 10", meaning: "the Human Defense token swats" },
] as const;

function row(q: OutcomeChart): HTMLElement {
  const name = `Queue ${q.queue + 1}`;
  if (q.empty) {
    return h(
      "li",
      { class: "tl-outcome-row" },
      h("span", { class: "tl-row-label" }, name),
      h("span", { class: "tl-empty-note" }, "empty: nothing to swat"),
    );
  }
  const words = PARTS.map((p) => `${p.name} ${percent(q[p.key])}`).join(", ");
  const segments = PARTS.filter((p) => q[p.key] > 0).map((p) =>
    h(
      "span",
      {
        class: `tl-seg ${p.cls}`,
        style: `flex-grow: ${q[p.key].toFixed(4)}`,
        title: `P(${p.name}) ${percent(q[p.key])}: ${p.meaning}`,
      },
      q[p.key] >= 0.12 ? percent(q[p.key]) : "",
    ),
  );
  return h(
    "li",
    { class: "tl-outcome-row", "aria-label": `${name} (${q.cards.map(cardText).join(" ")}): ${words}` },
    h(
      "span",
      { class: "tl-row-label" },
      name,
      h("span", { class: "tl-row-cards" }, q.cards.map(cardText).join(" ")),
    ),
    h("span", { class: "tl-stack", "aria-hidden": "true" }, segments),
    h("span", { class: "tl-row-words", "aria-hidden": "true" }, words),
  );
}

export function outcomePanel(queues: OutcomeChart[]): HTMLElement {
  const legend = h(
    "ul",
    { class: "tl-legend", "aria-label": "Legend" },
    PARTS.map((p) =>
      h(
        "li",
        null,
        h("span", { class: `tl-swatch ${p.cls}`, "aria-hidden": "true" }),
        h("strong", null, `P(${p.name})`),
        `: ${p.meaning}`,
      ),
    ),
  );
  return frame(
    "outcome",
    "If SleepKid woke now: how each queue would end",
    "Each queue is flipped from the front until its total reaches 10. Cards front first; ? is a value you do not know (✱ a marked back).",
    legend,
    h("ul", { class: "tl-rows" }, queues.map(row)),
  );
}
