// The coach at the table: its control (off / after / before), the "Are you sure?"
// question, "Show me" and, at game over, the seat's summary with its decisions worth a
// second look. Python checks every answer (table/coach/table.py).

import { button, h } from "./dom";
import type { TableState } from "./protocol";
import type { Send, UiState } from "./send";
import { WORDS } from "./words";

const MODES = WORDS.coachModes;

/** The coach's control, for the top bar (play and hot-seat). */
export function coachControl(model: TableState, send: Send): HTMLElement | null {
  if (!model.coach.control) return null;
  return h(
    "label",
    { class: "tl-coach-control" },
    WORDS.coach,
    h(
      "select",
      {
        "data-testid": "coach-mode",
        "data-focus": "coach-mode",
        onchange: (ev: Event) => send({ kind: "coach", mode: (ev.target as HTMLSelectElement).value }),
      },
      MODES.map(([value, text]) => h("option", { value, selected: model.coach.mode === value }, text)),
    ),
  );
}

/** The question, "Show me" and "Back to the game", under the status line (or null). */
export function coachBlock(model: TableState, ui: UiState, send: Send): HTMLElement | null {
  const c = model.coach;
  const showMe = (turn: number): HTMLButtonElement =>
    button("coach-show", WORDS.showMe, () => {
      ui.focusNext = ["coach-return", "root"];
      send({ kind: "showme", turn });
    });
  const back =
    c.showing !== null
      ? button("coach-return", WORDS.backToGame, () => {
          ui.focusNext = c.ask ? ["coach-back", "root"] : ["hand-first", "root"];
          send({ kind: "showme", turn: null });
        })
      : null;
  if (c.ask) {
    const key = `${model.view.turns_applied}:${c.ask.text}`;
    if (ui.asked !== key) {
      // a new question takes the focus: "Take it back" (Tab reaches "Play it anyway")
      ui.asked = key;
      ui.focusNext = ["coach-back", "root"];
    }
    return h(
      "section",
      {
        class: "tl-coach tl-coach-ask",
        role: "alertdialog",
        "aria-labelledby": "tl-coach-ask-text",
        "data-testid": "coach-ask",
      },
      h("p", { class: "tl-coach-text", id: "tl-coach-ask-text" }, c.ask.text),
      h(
        "div",
        { class: "tl-coach-buttons" },
        button(
          "coach-back",
          WORDS.takeItBack,
          () => {
            ui.focusNext = ["hand-first", "root"];
            send({ kind: "confirm", answer: "back" });
          },
          "tl-coach-primary",
        ),
        button("coach-play", WORDS.playAnyway, () => {
          ui.focusNext = ["hand-first", "root"];
          send({ kind: "confirm", answer: "play" });
        }),
        back ?? showMe(model.view.turns_applied),
      ),
      h("details", { class: "tl-coach-detail" }, h("summary", null, WORDS.details), c.ask.detail),
    );
  }
  ui.asked = "";
  if (back) return h("div", { class: "tl-coach", "data-testid": "coach-bar" }, back);
  if (c.show !== null && !model.view.finished)
    return h("div", { class: "tl-coach", "data-testid": "coach-bar" }, showMe(c.show));
  return null;
}

/** At game over: the seat's summary and its decisions worth a second look, each a link
 *  that moves the finished game's table back to that decision, the better move drawn. */
export function coachSummary(model: TableState, ui: UiState, send: Send): HTMLElement | null {
  const c = model.coach;
  if (!c.summary) return null;
  return h(
    "div",
    { class: "tl-coach-summary", "data-testid": "coach-summary" },
    h("p", null, c.summary),
    c.looks.length
      ? h(
          "div",
          null,
          h("p", { class: "tl-muted" }, WORDS.secondLook),
          h(
            "ul",
            { class: "tl-coach-looks" },
            c.looks.map((look) =>
              h(
                "li",
                null,
                h(
                  "a",
                  {
                    href: "#",
                    class: "tl-coach-look",
                    "data-testid": `coach-look-${look.turn}`,
                    "data-focus": `coach-look-${look.turn}`,
                    onclick: (ev: Event) => {
                      ev.preventDefault();
                      ui.focusNext = ["coach-return", "root"];
                      send({ kind: "showme", turn: look.turn });
                    },
                  },
                  look.text,
                ),
              ),
            ),
          ),
        )
      : h("p", { class: "tl-muted" }, WORDS.noSecondLook),
  );
}
