// What the figure of "What their plays suggest" does not draw (the figure itself is
// composed in Python: tenleave_widget/table/panels/suggest_chart.py): the rationality control
// (how carefully the opponents are taken to play), the biggest change in plain words, the
// analyst's figures under a disclosure, and the outcome panel's switch that reads the
// queue odds from the rules alone or from the players' choices too. Each button sends an
// intent that Python checks.

import { h } from "../dom";
import type { Send } from "../send";
import type { SuggestChart } from "../protocol";
import { WORDS } from "../words";

interface Option {
  value: string;
  text: string;
}

/** A group of buttons, one pressed: a click on another sends `pick(value)`. */
function choices(
  label: string,
  name: string,
  options: Option[],
  current: string,
  pick: (value: string) => void,
): HTMLElement {
  return h(
    "div",
    { class: "tl-measures", role: "group", "aria-label": label, "data-control": name },
    h("span", { class: "tl-choices-label", "aria-hidden": "true" }, label),
    ...options.map(({ value, text }) => {
      const on = value === current;
      const button = h(
        "button",
        {
          type: "button",
          class: `tl-measure${on ? " tl-measure-on" : ""}`,
          "aria-pressed": on ? "true" : "false",
          "data-value": value,
          "data-focus": `${name}-${value}`,
        },
        text,
      );
      button.addEventListener("click", () => {
        if (!on) pick(value);
      });
      return button;
    }),
  );
}

const LEVELS: Option[] = WORDS.levels;

/** The controls and words below the figure (none when the panel is not computed). */
export function suggestControls(chart: SuggestChart, send?: Send): HTMLElement[] {
  if (chart.state === "off") return [];
  const out: HTMLElement[] = [];
  if (send && (chart.state === "ready" || chart.state === "reading")) {
    out.push(choices(WORDS.theyPlay, "level", LEVELS, chart.level, (level) => send({ kind: "rationality", level })));
  }
  if (chart.state === "reading") out.push(h("p", { class: "tl-suggest-reason tl-suggest-reading" }, chart.message));
  if (chart.reason) out.push(h("p", { class: "tl-suggest-reason", "data-testid": "suggest-reason" }, chart.reason));
  if (chart.details) {
    out.push(
      h("details", { class: "tl-suggest-details" }, h("summary", null, WORDS.forAnalysts), h("p", null, chart.details)),
    );
  }
  return out;
}

/** The outcome panel's switch: its odds from the rules alone, or their plays too. */
export function oddsModelControls(chart: SuggestChart, send?: Send): HTMLElement[] {
  if (chart.state === "off" || !send) return [];
  return [
    choices(WORDS.oddsFrom, "odds-model", WORDS.oddsModels, chart.odds_model, (model) =>
      send({ kind: "odds_model", model }),
    ),
  ];
}
