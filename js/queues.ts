// The queues (front, position I, first) and the Safe Area.

import { faceDown, faceUp } from "./cards";
import { h, roman } from "./dom";
import type { TableState } from "./protocol";
import type { Send, UiState } from "./send";
import { WORDS } from "./words";

/** Where the focus goes after a peek or a rotate: End turn once a card is played, else the
 *  hand (the turn still needs its play). */
const AFTER_EXTRA = ["end", "hand-first", "root"];

export function queuesBlock(model: TableState, ui: UiState, send: Send): HTMLElement {
  const view = model.view;
  const viewer = view.seat;
  const offers = model.offers;
  const peekable = new Set(offers.peek.map(([q, i]) => `${q}:${i}`));
  const tokenPositions = new Set(view.token_positions);
  const canPlayHere = (q: number) => offers.active && ui.selected !== null && offers.play_queues.includes(q);
  const firstPlay = view.queues.findIndex((_, q) => canPlayHere(q));
  // what the last turn (or the turn in progress) changed on the table
  const changed = new Map<number, string>();
  for (const e of view.events) {
    if (e.kind === "play") changed.set(e.key, "played");
    else if (e.kind === "peek") changed.set(e.key, "peeked");
  }
  for (const e of view.events) {
    if (e.kind === "rotate") {
      const queue = view.queues[e.queue] ?? [];
      const moved = queue[queue.length - 1];
      if (moved && !changed.has(moved.key)) changed.set(moved.key, "rotated");
    }
  }
  const BADGE = WORDS.badges;
  // replay with a review, "show the best move": the queue it plays on, the queue it rotates
  const best = model.best;
  const bestPlays = (q: number) => best !== null && best.queue === q;
  const bestRotates = (q: number) => best !== null && best.rotate === q;
  const rotateWhen = best?.rotate_when === "after" ? "after" : "first";
  return h(
    "div",
    { class: "tl-queues", role: "list", "aria-label": WORDS.queuesLabel },
    view.queues.map((queue, q) =>
      h(
        "div",
        {
          class: `tl-queue${bestPlays(q) ? " tl-best" : ""}${bestRotates(q) ? " tl-best-rotate" : ""}`,
          role: "listitem",
          "data-testid": `queue-${q}`,
          "aria-label": `Queue ${q + 1}, ${queue.length} of ${view.queue_capacity} cards${
            bestPlays(q) ? WORDS.bestPlaysHere : ""
          }${bestRotates(q) ? WORDS.bestRotates(rotateWhen === "first" ? "before" : "after") : ""}`,
        },
        h(
          "div",
          { class: "tl-qhead" },
          h("span", { class: "tl-qname" }, `Queue ${q + 1}`),
          h("span", { class: "tl-qcount" }, `${queue.length}/${view.queue_capacity}`),
          bestRotates(q)
            ? h(
                "span",
                { class: "tl-rotate-mark", "data-testid": "best-rotate", "aria-hidden": "true" },
                WORDS.rotate(rotateWhen),
              )
            : null,
          offers.active && offers.rotate.includes(q)
            ? h(
                "button",
                {
                  type: "button",
                  class: "tl-btn tl-rotate",
                  "data-testid": `rotate-${q}`,
                  "data-focus": `rotate-${q}`,
                  "aria-label": WORDS.rotateLabel(q + 1),
                  onclick: () => {
                    ui.focusNext = AFTER_EXTRA;
                    send({ kind: "rotate", queue: q });
                  },
                },
                WORDS.rotateButton,
              )
            : null,
        ),
        h(
          "ol",
          { class: "tl-slots" },
          Array.from({ length: view.queue_capacity }, (_, i) => {
            const card = queue[i];
            return h(
              "li",
              { class: `tl-slot ${tokenPositions.has(i + 1) ? "tl-defended" : ""}` },
              h(
                "span",
                {
                  class: "tl-slotpos",
                  title: tokenPositions.has(i + 1) ? WORDS.tokenPlace : "",
                },
                roman(i),
              ),
              card
                ? (() => {
                    const el = faceDown(view, card, q, i, viewer, peekable.has(`${q}:${i}`), offers.active, send);
                    el.setAttribute("data-group", `queue-${q}`);
                    if (el.tagName === "BUTTON") {
                      // a peek (Python answers it): focus then moves on like after a rotate
                      el.addEventListener("click", () => {
                        ui.focusNext = AFTER_EXTRA;
                      });
                    }
                    const what = changed.get(card.key);
                    if (what) {
                      el.classList.add("tl-changed", `tl-changed-${what}`);
                      el.setAttribute(
                        "aria-label",
                        `${el.getAttribute("aria-label") ?? ""}, ${WORDS.changedLastTurn(what)}`,
                      );
                      return h(
                        "span",
                        { class: "tl-changed-wrap" },
                        el,
                        h("span", { class: "tl-badge", "aria-hidden": "true" }, BADGE[what] ?? what),
                      );
                    }
                    return el;
                  })()
                : h("span", { class: "tl-empty", "aria-label": WORDS.emptyPlace }, "·"),
            );
          }),
        ),
        canPlayHere(q)
          ? h(
              "button",
              {
                type: "button",
                class: "tl-btn tl-playhere",
                "data-testid": `play-${q}`,
                "data-focus": q === firstPlay ? "play-first" : `play-${q}`,
                "data-group": "play",
                "aria-label": WORDS.playHereLabel(ui.selected ?? "", q + 1),
                onclick: () => {
                  const card = ui.selected;
                  if (card !== null) {
                    ui.focusNext = ["end", "wake", "root"];
                    send({ kind: "play", card, queue: q });
                  }
                },
              },
              WORDS.playHere((ui.selected ?? "").replace("*", "✱")),
            )
          : h("span", { class: "tl-playhere-slot", "aria-hidden": "true" }),
      ),
    ),
    h(
      "div",
      { class: "tl-safe", role: "listitem", "data-testid": "safe", "aria-label": WORDS.safeLabel },
      h("div", { class: "tl-qhead" }, h("span", { class: "tl-qname" }, WORDS.safe)),
      h(
        "div",
        { class: "tl-safecards" },
        view.safe.length
          ? view.safe.map((s) => faceUp(view, s.owner, s.card, WORDS.escaped))
          : h("span", { class: "tl-muted" }, WORDS.noneEscaped),
      ),
    ),
  );
}
