// The top bar: SleepKid, the Human Defense token, the status line, the odds switch.

import { h, roman } from "./dom";
import type { TableState } from "./protocol";
import type { Send } from "./send";
import { coachControl } from "./coach";
import { WORDS } from "./words";

/** The status line: its own row, two lines high whatever it says (nothing moves). */
export function statusLine(model: TableState): HTMLElement {
  return h("div", { class: "tl-status", "data-testid": "status", title: model.status }, model.status);
}

/** The top bar; `status` (the status line) goes in it, before the size control, on a
 *  replay (except at large size: one row less above the board). */
export function topBar(model: TableState, send: Send, status: HTMLElement | null = null): HTMLElement {
  const view = model.view;
  const awake = view.events.some((e) => e.kind === "swat");
  const tokenPositions = new Set(view.token_positions);
  // replay with a review, "show the best move": the best turn wakes SleepKid before its play
  const bestWakes = model.best?.wake;
  return h(
    "div",
    { class: "tl-top" },
    h(
      "span",
      {
        class: `tl-sleepkid ${awake ? "tl-awake" : "tl-asleep"}${bestWakes ? " tl-best-wake" : ""}`,
        "data-testid": "sleepkid",
        "aria-label": `${awake ? WORDS.awakeLabel : WORDS.asleepLabel}${bestWakes ? WORDS.bestWakes : ""}`,
        role: "img",
      },
      awake ? WORDS.awake : WORDS.asleep,
      bestWakes
        ? h("span", { class: "tl-wake-mark", "data-testid": "best-wake", "aria-hidden": "true" }, WORDS.bestWakeMark)
        : null,
    ),
    h(
      "span",
      { class: "tl-token", "data-testid": "token", "aria-label": WORDS.tokenLabel(view.token) },
      WORDS.token,
      h("strong", null, view.token),
      " ",
      [0, 1, 2, 3].map((p) => h("span", { class: `tl-pos ${tokenPositions.has(p + 1) ? "tl-pos-on" : ""}` }, roman(p))),
    ),
    status,
    h(
      "label",
      { class: "tl-size" },
      WORDS.size,
      h(
        "select",
        {
          "data-testid": "size",
          "data-focus": "size",
          onchange: (ev: Event) => send({ kind: "size", size: (ev.target as HTMLSelectElement).value }),
        },
        (["small", "medium", "large", "projector"] as const).map((s) =>
          h("option", { value: s, selected: model.size === s }, s),
        ),
      ),
    ),
    h(
      "label",
      { class: "tl-odds-toggle" },
      h("input", {
        type: "checkbox",
        "data-testid": "odds-toggle",
        "data-focus": "odds-toggle",
        checked: model.show_odds,
        onchange: (ev: Event) => send({ kind: "odds", show: (ev.target as HTMLInputElement).checked }),
      }),
      WORDS.showOdds,
    ),
    coachControl(model, send),
  );
}
