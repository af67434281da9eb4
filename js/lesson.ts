// The lesson on a replay table (RULES.md §8, tenleave_widget/table/session/lesson.py): the question
// of the moment on the table, Previous / Next moment, and the answer shown on demand. The
// table moves to each moment's position and view; the page never scrolls away.

import { button, h } from "./dom";
import type { TableState } from "./protocol";
import type { Send } from "./send";
import "./lesson.css";
import { WORDS } from "./words";

/** The lesson's keys: PageDown / N next moment, PageUp / P previous, A the answer
 *  (PageDown and PageUp are what a presenter's remote sends). */
export function lessonKey(key: string, model: TableState, send: Send): boolean {
  const l = model.lesson;
  if (!l || model.mode !== "replay") return false;
  const k = key.length === 1 ? key.toLowerCase() : key;
  if (k === "PageDown" || k === "n") {
    const next = l.index === null ? 0 : l.index + 1;
    if (next < l.total) send({ kind: "moment", index: next });
    return true;
  }
  if (k === "PageUp" || k === "p") {
    if (l.index !== null && l.index > 0) send({ kind: "moment", index: l.index - 1 });
    return true;
  }
  if (k === "a" && l.index !== null) {
    send({ kind: "reveal", show: !l.revealed });
    return true;
  }
  return false;
}

/** The lesson block: under the replay bar, above the queues. */
export function lessonBlock(model: TableState, send: Send): HTMLElement | null {
  const l = model.lesson;
  if (!l || model.mode !== "replay") return null;
  const i = l.index;
  const first = i === null;
  const where = i === null ? WORDS.questions(l.total) : WORDS.questionOf(i + 1, l.total, (l.turn ?? 0) + 1);
  // short labels, so that the bar is one line above the table (their titles say more)
  const prev = button(
    "lesson-prev",
    WORDS.previous,
    () => i !== null && i > 0 && send({ kind: "moment", index: i - 1 }),
    "tl-lessonbtn",
    WORDS.previousMoment,
  );
  prev.disabled = first || i === 0;
  const next = button(
    "lesson-next",
    first ? WORDS.startLesson : WORDS.nextMoment,
    () => send({ kind: "moment", index: i === null ? 0 : i + 1 }),
    "tl-lessonbtn tl-lessonnext",
    WORDS.nextMomentLabel,
  );
  next.disabled = i !== null && i + 1 >= l.total;
  const reveal = first
    ? null
    : button(
        "lesson-answer",
        l.revealed ? WORDS.hideAnswer : WORDS.showAnswer,
        () => send({ kind: "reveal", show: !l.revealed }),
        "tl-lessonbtn",
        l.revealed ? WORDS.hideAnswerLabel : WORDS.showAnswerLabel,
      );
  const back =
    !first && !l.here
      ? button(
          "lesson-back",
          WORDS.backToQuestion,
          () => send({ kind: "moment", index: i }),
          "tl-lessonbtn",
          WORDS.backToQuestionN(i + 1),
        )
      : null;
  return h(
    "section",
    {
      class: "tl-lesson",
      "data-testid": "lesson",
      "aria-label": WORDS.lesson,
      "data-moment": i === null ? "" : String(i),
    },
    h(
      "div",
      { class: "tl-lessonbar" },
      h("strong", { class: "tl-lessontitle" }, l.title || WORDS.lesson),
      h("span", { class: "tl-lessonwhere", "data-testid": "lesson-where", title: i === null ? null : l.view }, where),
      first ? null : prev,
      next,
      reveal,
      back,
    ),
    // the answer in the question's place (Hide the answer brings the question back), so
    // that the table after the turn still fits the screen below it
    first
      ? null
      : l.answer
        ? h(
            "p",
            { class: "tl-answer", "data-testid": "answer", "aria-live": "polite" },
            h("strong", null, WORDS.answer),
            l.answer,
          )
        : h("p", { class: "tl-question", "data-testid": "question", "aria-live": "polite" }, l.question),
  );
}
