// The cards: face up (hand, penalty pile, Safe Area, flipped in a swat) and face down
// (in a queue, as a button on the seat's turn).

import { h, roman } from "./dom";
import type { Child } from "./dom";
import type { Send } from "./send";
import type { TableCard, View } from "./protocol";
import { WORDS } from "./words";

export const INITIALS: Record<string, string> = {
  red: "R",
  yellow: "Y",
  green: "G",
  blue: "B",
  purple: "P",
};

export function seatName(view: View, seat: number, viewer: number | null): string {
  const name = view.players[seat] ?? WORDS.seat(seat + 1);
  return seat === viewer ? WORDS.you(name) : name;
}

export function colourOf(view: View, seat: number): string {
  return view.colours[seat] ?? "grey";
}

export function initialOf(view: View, seat: number): string {
  return INITIALS[colourOf(view, seat)] ?? "?";
}

function cardValue(card: string): number {
  return Number.parseInt(card, 10);
}

function backOfNotation(card: string): "marked" | "plain" {
  return card.endsWith("*") ? "marked" : "plain";
}

/** A face-up card (hand, penalty pile, Safe Area, flipped). */
export function faceUp(view: View, owner: number, card: string, extra = ""): HTMLElement {
  const colour = colourOf(view, owner);
  const back = backOfNotation(card);
  const value = cardValue(card);
  const label =
    WORDS.cardUp(colour, initialOf(view, owner), view.players[owner] ?? "", value, back) + (extra ? `, ${extra}` : "");
  return h(
    "span",
    {
      class: `tl-card tl-up tl-c-${colour} tl-${back}`,
      role: "img",
      "aria-label": label,
      "data-owner": owner,
      "data-card": card,
    },
    h("span", { class: "tl-ini", "aria-hidden": "true" }, initialOf(view, owner)),
    h("span", { class: "tl-val", "aria-hidden": "true" }, String(value)),
    h("span", { class: "tl-hint", "aria-hidden": "true" }, back === "marked" ? "✱" : ""),
  );
}

function tableCardLabel(view: View, c: TableCard, q: number, i: number, viewer: number | null) {
  const colour = colourOf(view, c.owner);
  const parts = [
    WORDS.cardDown(colour, initialOf(view, c.owner), view.players[c.owner] ?? ""),
    WORDS.faceDown(c.back),
    c.value === null ? WORDS.valueUnknown : WORDS.value(c.value),
  ];
  if (viewer !== null && c.peeked_by.includes(viewer) && c.owner !== viewer) {
    parts.push(WORDS.youPeekedAtIt);
  }
  if (c.peeked_by.length) {
    parts.push(WORDS.peekedBy(c.peeked_by.map((s) => view.players[s] ?? s).join(", ")));
  }
  parts.push(WORDS.place(q + 1, roman(i)));
  return parts.join(", ");
}

/** A face-down card at queue `q`, position `i`. */
export function faceDown(
  view: View,
  c: TableCard,
  q: number,
  i: number,
  viewer: number | null,
  peekable: boolean,
  clickable: boolean,
  send: Send,
): HTMLElement {
  const colour = colourOf(view, c.owner);
  const peekedByMe = viewer !== null && c.peeked_by.includes(viewer) && c.owner !== viewer;
  const label = tableCardLabel(view, c, q, i, viewer) + (peekable ? WORDS.pressToPeek : "");
  const attrs = {
    class:
      `tl-card tl-down tl-c-${colour} tl-${c.back}` +
      (peekedByMe ? " tl-peeked" : "") +
      (peekable ? " tl-peekable" : ""),
    "aria-label": label,
    title: label,
    "data-owner": c.owner,
    "data-key": c.key,
    "data-back": c.back,
    "data-value": c.value === null ? "" : c.value,
    "data-queue": q,
    "data-position": i,
    "data-focus": `card-${c.key}`,
  };
  const body: Child[] = [
    h("span", { class: "tl-ini", "aria-hidden": "true" }, initialOf(view, c.owner)),
    h("span", { class: "tl-val", "aria-hidden": "true" }, c.value === null ? "?" : String(c.value)),
    h("span", { class: "tl-hint", "aria-hidden": "true" }, c.back === "marked" ? "✱" : ""),
    c.peeked_by.length ? h("span", { class: "tl-eye", "aria-hidden": "true" }, peekedByMe ? "◉" : "○") : null,
  ];
  if (clickable) {
    // On the seat's turn every face-down card is a button: Python answers a peek that
    // is not allowed (a second action, say) with a message.
    return h(
      "button",
      { ...attrs, type: "button", onclick: () => send({ kind: "peek", queue: q, position: i }) },
      body,
    );
  }
  return h("span", { ...attrs, role: "img" }, body);
}
