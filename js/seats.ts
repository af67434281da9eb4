// The seats: hand sizes, penalty piles and scores, the seat to move, the winners.

import { colourOf, faceUp, initialOf, seatName } from "./cards";
import { h } from "./dom";
import type { TableState } from "./protocol";
import { WORDS } from "./words";

/** The columns' headings, the same at every size: plain words that a class reads from the
 *  back of the room (what each number is, not the game's names for it), each one word or
 *  two, so that the scores stay one line a row beside a teaching column. */
const HEADINGS = WORDS.headings;

export function seatsBlock(model: TableState): HTMLElement {
  const view = model.view;
  return h(
    "table",
    { class: "tl-seats", "data-testid": "seats" },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        HEADINGS.map((words) => h("th", { scope: "col" }, words)),
      ),
    ),
    h(
      "tbody",
      null,
      view.players.map((_, s) => {
        const hand = view.hands[s];
        // the teacher's view at small and medium size: every hand's cards (hand.ts shows
        // the hand of the seat to move alone)
        const cards = view.seat === null && (model.size === "small" || model.size === "medium") ? hand?.cards : null;
        const winner = view.winners?.includes(s) ?? false;
        return h(
          "tr",
          {
            class: `${view.to_move === s ? "tl-tomove" : ""} ${winner ? "tl-winner" : ""}`,
            "data-testid": `seat-${s}`,
            "data-penalty": view.penalty[s] ?? 0,
            "data-hand": hand?.size ?? 0,
          },
          h(
            "th",
            { scope: "row" },
            h("span", { class: `tl-chip tl-c-${colourOf(view, s)}`, "aria-hidden": "true" }, initialOf(view, s)),
            " ",
            seatName(view, s, view.seat),
            model.narration.roles?.[s]
              ? h("span", { class: "tl-role", "data-testid": `role-${s}` }, ` (${model.narration.roles[s]})`)
              : null,
            // "to move" in words at large and projector size (small, medium: the ◀ alone,
            // the status line says it)
            view.to_move === s
              ? h("span", { class: "tl-turnmark" }, " ◀", h("span", { class: "tl-tomove-words" }, WORDS.toMove))
              : null,
            winner ? h("span", { class: "tl-turnmark" }, " ★ winner") : null,
          ),
          h(
            "td",
            { class: cards ? "tl-handcards" : "tl-handcount" },
            // the teacher's view shows each hand (its cards); a seat's, how many of each back
            cards
              ? cards.map((c) => faceUp(view, s, c, WORDS.inHand))
              : hand
                ? [
                    String(hand.size),
                    hand.size === 0 ? null : h("span", { class: "tl-handmix" }, WORDS.handMix(hand.marked, hand.plain)),
                  ]
                : "",
          ),
          h(
            "td",
            { class: "tl-pile" },
            (view.swatted[s] ?? []).map((c) => faceUp(view, s, c, "swatted")),
          ),
          h("td", { class: "tl-score" }, String(view.penalty[s] ?? 0)),
        );
      }),
    ),
  );
}
