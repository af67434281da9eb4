// The turns in words (narration from Python) and the swats revealed queue by queue.

import { faceUp } from "./cards";
import { h } from "./dom";
import type { TableState } from "./protocol";
import type { UiState } from "./send";

/** A swat's words on one queue: the sum and the rule ("2 + 3 + 5 = 10 — swing and miss",
 *  "... > 10 — Human Defense III+IV swats"), then which cards went where (": all escape",
 *  " Cy's 4"), a span of its own that a compact table leaves out (the penalty piles show
 *  it; the title keeps it), with how many cards were swatted in its place. */
function explain(text: string, step: number, swatted: number): HTMLElement {
  const dash = text.indexOf(" — ");
  const colon = dash < 0 ? -1 : text.indexOf(": ", dash);
  const swats = dash < 0 ? -1 : text.indexOf(" swats ", dash);
  const cut = colon >= 0 ? colon : swats >= 0 ? swats + " swats".length : -1;
  return h(
    "span",
    { class: "tl-explain", style: `--tl-step:${step}`, title: text },
    cut < 0 ? text : text.slice(0, cut),
    cut < 0 ? null : h("span", { class: "tl-swatlist" }, text.slice(cut)),
    cut < 0 || colon >= 0 ? null : h("span", { class: "tl-swatn" }, ` ${swatted} card${swatted === 1 ? "" : "s"}`),
  );
}

export function eventsBlock(model: TableState, ui: UiState): HTMLElement {
  const view = model.view;
  const turns = model.narration.turns;
  const seen = new Set<string>();
  const blocks = turns.map((tw) => {
    const who = view.players[tw.seat] ?? "";
    const swats = tw.swats.map((sw, si) => {
      const id = `${tw.turn}:${tw.pending ? "p" : ""}:${si}`;
      const animate = !ui.animated.has(id);
      seen.add(id);
      let step = 0;
      return h(
        "div",
        { class: `tl-swat ${animate ? "tl-animate" : ""}`, "data-testid": "swat" },
        h("div", { class: "tl-swathead" }, sw.title),
        sw.queues.map((sq) =>
          h(
            "div",
            { class: "tl-swatrow" },
            h("span", { class: "tl-qname" }, `Queue ${sq.queue + 1}:`),
            sq.cards.map((fc) => {
              const el = faceUp(view, fc.owner, fc.card, fc.swatted ? "swatted" : "escaped");
              el.classList.add(fc.swatted ? "tl-hit" : "tl-miss");
              el.style.setProperty("--tl-step", String(step++));
              return el;
            }),
            explain(sq.text, step++, sq.cards.filter((fc) => fc.swatted).length),
          ),
        ),
      );
    });
    return h(
      "div",
      { class: `tl-turnwords ${tw.pending ? "tl-inprogress" : ""}`, "data-turn": tw.turn },
      h(
        "div",
        { class: "tl-lastevent", "data-testid": "last-event" },
        h("strong", null, tw.pending ? "This turn: " : `Turn ${tw.turn + 1} (${who}): `),
        tw.lines.join(" "),
      ),
      swats,
    );
  });
  ui.animated = seen;
  return h(
    "div",
    { class: "tl-events", "data-testid": "events" },
    blocks.length ? blocks : h("div", { class: "tl-lastevent" }, "No turn played yet."),
  );
}
