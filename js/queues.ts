// The queues (front, position I, first) and the Safe Area.

import { faceDown, faceUp } from "./cards";
import { h, roman } from "./dom";
import type { TableState } from "./protocol";
import type { Send, UiState } from "./send";

export function queuesBlock(model: TableState, ui: UiState, send: Send): HTMLElement {
  const view = model.view;
  const viewer = view.seat;
  const offers = model.offers;
  const peekable = new Set(offers.peek.map(([q, i]) => `${q}:${i}`));
  const tokenPositions = new Set(view.token_positions);
  const canPlayHere = (q: number) =>
    offers.active && ui.selected !== null && offers.play_queues.includes(q);
  return h(
    "div",
    { class: "tl-queues", role: "list", "aria-label": "Queues, front (position I) first" },
    view.queues.map((queue, q) =>
      h(
        "div",
        {
          class: "tl-queue",
          role: "listitem",
          "data-testid": `queue-${q}`,
          "aria-label": `Queue ${q + 1}, ${queue.length} of ${view.queue_capacity} cards`,
        },
        h(
          "div",
          { class: "tl-qhead" },
          h("span", { class: "tl-qname" }, `Queue ${q + 1}`),
          h("span", { class: "tl-qcount" }, `${queue.length}/${view.queue_capacity}`),
          offers.active && offers.rotate.includes(q)
            ? h(
                "button",
                {
                  type: "button",
                  class: "tl-btn tl-rotate",
                  "data-testid": `rotate-${q}`,
                  "data-focus": `rotate-${q}`,
                  "aria-label": `Rotate queue ${q + 1}: its front card goes to the back`,
                  onclick: () => send({ kind: "rotate", queue: q }),
                },
                "⟲ rotate",
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
                  title: tokenPositions.has(i + 1) ? "Human Defense position" : "",
                },
                roman(i),
              ),
              card
                ? faceDown(
                    view, card, q, i, viewer, peekable.has(`${q}:${i}`), offers.active, send,
                  )
                : h("span", { class: "tl-empty", "aria-label": "empty place" }, "·"),
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
                "data-focus": `play-${q}`,
                onclick: () => {
                  const card = ui.selected;
                  if (card !== null) send({ kind: "play", card, queue: q });
                },
              },
              `Play ${ui.selected ?? ""} here`,
            )
          : null,
      ),
    ),
    h(
      "div",
      { class: "tl-safe", "data-testid": "safe", "aria-label": "Safe Area (escaped cards)" },
      h("div", { class: "tl-qhead" }, h("span", { class: "tl-qname" }, "Safe Area")),
      h(
        "div",
        { class: "tl-safecards" },
        view.safe.length
          ? view.safe.map((s) => faceUp(view, s.owner, s.card, "escaped"))
          : h("span", { class: "tl-muted" }, "no card has escaped yet"),
      ),
    ),
  );
}
