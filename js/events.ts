// The turns in words (narration from Python) and the swats revealed queue by queue.

import { faceUp } from "./cards";
import { h } from "./dom";
import type { TableState } from "./protocol";
import type { UiState } from "./send";
import { WORDS } from "./words";

/** A swat's words on one queue: the sum and the rule ("2 + 3 + 5 = 10 — swing and miss",
 *  "... > 10 — Human Defense III+IV swats"), then which cards went where (": all escape",
 *  " Cy's 4"), a span of its own that a compact table leaves out (the penalty piles show
 *  it; the title keeps it), with how many cards were swatted in its place. */
function explain(text: string, step: number, row: number, swatted: number): HTMLElement {
  const dash = text.indexOf(" — ");
  const colon = dash < 0 ? -1 : text.indexOf(": ", dash);
  const swats = dash < 0 ? -1 : text.indexOf(" swats ", dash);
  // nothing swatted (": all escape"): the words are short, nothing to leave out
  const cut = swatted === 0 ? -1 : colon >= 0 ? colon : swats >= 0 ? swats + " swats".length : -1;
  return h(
    "span",
    // --tl-row: where the swat's cards are not shown, the words wait for the rows above
    // only, not for the flips of cards no one sees
    { class: "tl-explain", style: `--tl-step:${step};--tl-row:${row}`, title: text },
    token(cut < 0 ? text : text.slice(0, cut)),
    cut < 0 ? null : h("span", { class: "tl-swatlist" }, text.slice(cut)),
    cut < 0 || colon >= 0 ? null : h("span", { class: "tl-swatn" }, WORDS.cardsSwatted(swatted)),
  );
}

/** "... — Human Defense III+IV swats": the token in a span of its own, which a compact
 *  table leaves out (the swat's title line names it). */
function token(words: string): (string | HTMLElement)[] {
  const m = / — Human Defense( \S+) swats/.exec(words);
  if (!m || m[1] === undefined) return [words];
  const at = m.index + WORDS.tokenSwatMark.length;
  return [words.slice(0, at), h("span", { class: "tl-swattoken" }, m[1]), words.slice(at + m[1].length)];
}

export function eventsBlock(model: TableState, ui: UiState): HTMLElement {
  const view = model.view;
  const turns = model.narration.turns;
  const seen = new Set<string>();
  const blocks = turns.map((tw) => {
    const who = view.players[tw.seat] ?? "";
    const reasons = new Set(tw.swats.map((sw) => `${sw.title.replace(/ \(Human Defense [^)]*\)$/, "")}.`));
    const swats = tw.swats.map((sw, si) => {
      const id = `${tw.turn}:${tw.pending ? "p" : ""}:${si}`;
      const animate = !ui.animated.has(id);
      seen.add(id);
      let step = 0;
      return h(
        "div",
        { class: `tl-swat ${animate ? "tl-animate" : ""}`, "data-testid": "swat" },
        h("div", { class: "tl-swathead" }, sw.title),
        sw.queues.map((sq, row) =>
          h(
            "div",
            // an empty queue's row ("empty: nothing to swat"): a compact table leaves it out
            { class: `tl-swatrow${sq.cards.length === 0 ? " tl-swatempty" : ""}` },
            h("span", { class: "tl-qname" }, `Queue ${sq.queue + 1}:`),
            sq.cards.map((fc) => {
              const el = faceUp(view, fc.owner, fc.card, fc.swatted ? WORDS.swatted : WORDS.escaped);
              el.classList.add(fc.swatted ? "tl-hit" : "tl-miss");
              el.style.setProperty("--tl-step", String(step++));
              return el;
            }),
            explain(sq.text, step++, row, sq.cards.filter((fc) => fc.swatted).length),
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
        h("strong", null, tw.pending ? WORDS.thisTurn : WORDS.turnOf(tw.turn + 1, who)),
        // a line that names a swat ("Daybreak: SleepKid swats.") is marked: a compact replay
        // leaves it out, as the swat's own title line below says it
        tw.lines.map((line, i) => {
          const text = i === 0 ? line : ` ${line}`;
          if (reasons.has(line)) return h("span", { class: "tl-swatline" }, text);
          // ... and the game's end, which the status line says too
          return line.startsWith(WORDS.overLine) ? h("span", { class: "tl-overline" }, text) : text;
        }),
      ),
      swats,
    );
  });
  ui.animated = seen;
  return h(
    "div",
    { class: "tl-events", "data-testid": "events" },
    blocks.length ? blocks : h("div", { class: "tl-lastevent" }, WORDS.noTurnYet),
  );
}
