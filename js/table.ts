// Draws one seat's view of the table (docs/view.md) and turns clicks and keys into
// intents. It holds no game rules: what may be clicked comes from `offers`, computed by
// Python with the engine.

import { h, roman } from "./dom";
import type {
  Child,
} from "./dom";
import type { Intent, TableCard, TableModel, View } from "./types";

export const INITIALS: Record<string, string> = {
  red: "R",
  yellow: "Y",
  green: "G",
  blue: "B",
  purple: "P",
};

/** Local, browser-only state of one rendered table (never game state). */
export interface UiState {
  selected: string | null;
  /** Swats already revealed (so a redraw does not replay their animation). */
  animated: Set<string>;
}

export type Send = (intent: Intent) => void;

function seatName(view: View, seat: number, viewer: number | null): string {
  const name = view.players[seat] ?? `Seat ${seat + 1}`;
  return seat === viewer ? `${name} (you)` : name;
}

function colourOf(view: View, seat: number): string {
  return view.colours[seat] ?? "grey";
}

function initialOf(view: View, seat: number): string {
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
    `${colour} (${initialOf(view, owner)}) mosquito of ${view.players[owner] ?? ""}, ` +
    `value ${value}, ${back} back${extra ? `, ${extra}` : ""}`;
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
    `${colour} (${initialOf(view, c.owner)}) mosquito of ${view.players[c.owner] ?? ""}`,
    `face down, ${c.back} back`,
    c.value === null ? "value unknown" : `value ${c.value}`,
  ];
  if (viewer !== null && c.peeked_by.includes(viewer) && c.owner !== viewer) {
    parts.push("you peeked at it");
  }
  if (c.peeked_by.length) {
    parts.push(`peeked by ${c.peeked_by.map((s) => view.players[s] ?? s).join(", ")}`);
  }
  parts.push(`queue ${q + 1}, position ${roman(i)}`);
  return parts.join(", ");
}

function faceDown(
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
  const label = tableCardLabel(view, c, q, i, viewer) + (peekable ? ". Press to peek" : "");
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
    c.peeked_by.length
      ? h("span", { class: "tl-eye", "aria-hidden": "true" }, peekedByMe ? "◉" : "○")
      : null,
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

/** A plain action button; `testid` also names it for focus restoring. */
function button(
  testid: string,
  text: string,
  onclick: () => void,
  cls = "",
  label: string | null = null,
): HTMLButtonElement {
  return h(
    "button",
    {
      type: "button",
      class: `tl-btn ${cls}`,
      "data-testid": testid,
      "data-focus": testid,
      "aria-label": label,
      onclick,
    },
    text,
  );
}

function topBar(model: TableModel, send: Send): HTMLElement {
  const view = model.view;
  const awake = view.events.some((e) => e.kind === "swat");
  const tokenPositions = new Set(view.token_positions);
  return h(
    "div",
    { class: "tl-top" },
    h(
      "span",
      {
        class: `tl-sleepkid ${awake ? "tl-awake" : "tl-asleep"}`,
        "data-testid": "sleepkid",
        "aria-label": awake ? "SleepKid woke up and swatted" : "SleepKid is asleep",
        role: "img",
      },
      awake ? "SleepKid: awake! ☀" : "SleepKid: asleep ☾",
    ),
    h(
      "span",
      { class: "tl-token", "data-testid": "token", "aria-label": `Human Defense token ${view.token}` },
      "Human Defense ",
      h("strong", null, view.token),
      " ",
      [0, 1, 2, 3].map((p) =>
        h("span", { class: `tl-pos ${tokenPositions.has(p + 1) ? "tl-pos-on" : ""}` }, roman(p)),
      ),
    ),
    h("span", { class: "tl-status", "data-testid": "status", role: "status" }, model.status),
    h(
      "label",
      { class: "tl-odds-toggle" },
      h("input", {
        type: "checkbox",
        "data-testid": "odds-toggle",
        "data-focus": "odds-toggle",
        checked: model.show_odds,
        onchange: (ev: Event) =>
          send({ kind: "odds", show: (ev.target as HTMLInputElement).checked }),
      }),
      " show odds",
    ),
  );
}

function queuesBlock(model: TableModel, ui: UiState, send: Send): HTMLElement {
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

function seatsBlock(model: TableModel): HTMLElement {
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
        h("th", { scope: "col" }, "Seat"),
        h("th", { scope: "col" }, "Hand"),
        h("th", { scope: "col" }, "Penalty pile"),
        h("th", { scope: "col" }, "Score"),
      ),
    ),
    h(
      "tbody",
      null,
      view.players.map((_, s) => {
        const hand = view.hands[s];
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
            h(
              "span",
              { class: `tl-chip tl-c-${colourOf(view, s)}`, "aria-hidden": "true" },
              initialOf(view, s),
            ),
            " ",
            seatName(view, s, view.seat),
            view.to_move === s ? h("span", { class: "tl-turnmark" }, " ◀ to move") : null,
            winner ? h("span", { class: "tl-turnmark" }, " ★ winner") : null,
          ),
          h(
            "td",
            null,
            hand ? `${hand.size} (${hand.marked} marked, ${hand.plain} plain)` : "",
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

function handBlock(model: TableModel, ui: UiState, send: Send, rerender: () => void): HTMLElement | null {
  const view = model.view;
  const viewer = view.seat;
  const offers = model.offers;
  const hands: [number, string[]][] = [];
  if (viewer !== null) {
    const cards = view.hands[viewer]?.cards;
    if (cards) hands.push([viewer, cards]);
  } else {
    view.hands.forEach((hd, s) => {
      if (hd.cards) hands.push([s, hd.cards]);
    });
  }
  const actions = h(
    "div",
    { class: "tl-actions" },
    offers.active && offers.wake
      ? button("wake", "Wake SleepKid", () => send({ kind: "wake" }), "tl-wake")
      : null,
    offers.active && offers.end
      ? button("end", "End turn", () => send({ kind: "end" }), "tl-end")
      : null,
    offers.active && offers.reset
      ? button("reset", "Start the turn again", () => send({ kind: "reset" }))
      : null,
    offers.undo ? button("undo", "Undo my last turn", () => send({ kind: "undo" })) : null,
  );
  const rows = hands.map(([s, cards]) =>
    h(
      "div",
      { class: "tl-handrow", "data-testid": `hand-${s}` },
      h("span", { class: "tl-handname" }, viewer === null ? `${view.players[s] ?? s}:` : "Your hand:"),
      cards.map((c, idx) => {
        const playable = viewer !== null && offers.active && offers.play_cards.includes(c);
        const selected = ui.selected === c;
        if (!playable) return faceUp(view, s, c, "in hand");
        const card = faceUp(view, s, c, selected ? "selected" : "in hand, press to choose");
        return h(
          "button",
          {
            type: "button",
            class: `tl-handbtn ${selected ? "tl-selected" : ""}`,
            "aria-pressed": selected ? "true" : "false",
            "aria-label": card.getAttribute("aria-label") ?? c,
            "data-card": c,
            "data-focus": `hand-${c}-${idx}`,
            "data-testid": `hand-card-${c}`,
            onclick: () => {
              ui.selected = selected ? null : c;
              rerender();
            },
          },
          card,
        );
      }),
    ),
  );
  if (!rows.length && !offers.undo) return null;
  return h(
    "div",
    { class: "tl-hand" },
    rows,
    model.pending.length
      ? h("div", { class: "tl-pending", "data-testid": "pending" }, `This turn: ${model.pending.join("; ")}`)
      : null,
    actions,
  );
}

function eventsBlock(model: TableModel, ui: UiState): HTMLElement {
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
            h("span", { class: "tl-explain", style: `--tl-step:${step++}` }, sq.text),
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
    { class: "tl-events", "aria-live": "polite", "data-testid": "events" },
    blocks.length ? blocks : h("div", { class: "tl-lastevent" }, "No turn played yet."),
  );
}

function replayBlock(model: TableModel, send: Send): HTMLElement {
  const view = model.view;
  const r = model.replay;
  const go = (turn: number) => send({ kind: "goto", turn: Math.max(0, Math.min(r.total, turn)) });
  const select = h(
    "select",
    {
      "data-testid": "perspective",
      "data-focus": "perspective",
      "aria-label": "Perspective",
      onchange: (ev: Event) => {
        const v = (ev.target as HTMLSelectElement).value;
        send({ kind: "perspective", seat: v === "all" ? null : Number(v) });
      },
    },
    h("option", { value: "all", selected: model.perspective === null }, "Teacher (all cards)"),
    view.players.map((p, s) =>
      h("option", { value: s, selected: model.perspective === s }, `${p}'s view`),
    ),
  );
  return h(
    "div",
    { class: "tl-replay", "data-testid": "replay" },
    h(
      "div",
      { class: "tl-replaybar" },
      button("first", "|◀", () => go(0), "", "First turn"),
      button("prev", "◀", () => go(r.turn - 1), "", "Previous turn"),
      h("input", {
        type: "range",
        min: 0,
        max: r.total,
        value: r.turn,
        "data-testid": "slider",
        "data-focus": "slider",
        "aria-label": "Turn",
        onchange: (ev: Event) => go(Number((ev.target as HTMLInputElement).value)),
      }),
      button("next", "▶", () => go(r.turn + 1), "", "Next turn"),
      button("last", "▶|", () => go(r.total), "", "Last turn"),
      h("span", { class: "tl-turncount", "data-testid": "turn" }, `after ${r.turn} of ${r.total} turns`),
      select,
    ),
    r.note
      ? h(
          "div",
          { class: "tl-note", "data-testid": "note", role: "note" },
          h("strong", null, `Note on turn ${(r.note_turn ?? 0) + 1}: `),
          r.note,
        )
      : null,
  );
}

function coverBlock(model: TableModel, send: Send): HTMLElement {
  return h(
    "div",
    { class: "tl-cover", "data-testid": "cover" },
    h("p", null, model.cover.text),
    h(
      "button",
      {
        type: "button",
        class: "tl-btn",
        "data-testid": "uncover",
        "data-focus": "uncover",
        onclick: () => send({ kind: "uncover" }),
      },
      "I am ready: show my hand",
    ),
  );
}

/** Build the whole table for the current model state. */
export function buildTable(
  model: TableModel,
  ui: UiState,
  send: Send,
  rerender: () => void,
): HTMLElement[] {
  if (ui.selected !== null && !model.offers.play_cards.includes(ui.selected)) ui.selected = null;
  const parts: HTMLElement[] = [];
  const msg = model.message;
  parts.push(
    h(
      "div",
      {
        class: `tl-message ${msg.level ? `tl-${msg.level}` : ""}`,
        role: "alert",
        "data-testid": "message",
        "data-message-id": msg.id,
      },
      msg.text,
    ),
  );
  if (model.cover.shown) {
    parts.push(coverBlock(model, send));
    return parts;
  }
  parts.push(topBar(model, send));
  if (model.mode === "replay") parts.push(replayBlock(model, send));
  parts.push(queuesBlock(model, ui, send));
  const hand = handBlock(model, ui, send, rerender);
  if (hand) parts.push(hand);
  parts.push(eventsBlock(model, ui));
  parts.push(seatsBlock(model));
  return parts;
}
