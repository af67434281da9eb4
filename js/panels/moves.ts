// The moves panel: each move's one-swat value (the odds) and its whole-game value (the
// lookahead evaluation: expected final margin and penalty, with 95% intervals, filled in
// while the player thinks), ranked by the measure the switch chooses.

import { h } from "../dom";
import type { Send } from "../send";
import { bar, frame } from "./parts";
import type { MoveChart, MovesChart } from "./types";

const SHOWN = 8;

const signed = (x: number): string => (x > 0 ? "+" : x < 0 ? "−" : "") + Math.abs(x).toFixed(2);
const interval = (ci: number[], fmt: (x: number) => string): string =>
  ci.length === 2 ? ` [${fmt(ci[0] ?? 0)}, ${fmt(ci[1] ?? 0)}]` : "";

function gameWords(m: MoveChart): string {
  if (m.margin === null) return "whole game: …";
  return `whole game: margin ${signed(m.margin)}${interval(m.margin_ci95, signed)}`;
}

function finalWords(m: MoveChart): string {
  if (m.final === null) return "";
  return `final penalty ${m.final.toFixed(1)}${interval(m.final_ci95, (x) => x.toFixed(1))}`;
}

/** The margin's interval on a scale shared by the rows: a strip from lo to hi, a mark at
 *  the mean, and the figures in words beside it. */
function marginStrip(m: MoveChart, lo: number, hi: number): HTMLElement {
  const span = Math.max(hi - lo, 1e-9);
  const at = (x: number): number => ((x - lo) / span) * 100;
  if (m.margin === null) {
    return h("div", { class: "tl-bar-track" }, h("span", { class: "tl-bar-value" }, "…"));
  }
  const [a, b] = m.margin_ci95.length === 2 ? m.margin_ci95 : [m.margin, m.margin];
  return h(
    "div",
    { class: "tl-bar-track" },
    h(
      "div",
      { class: "tl-ci-track" },
      h("div", { class: "tl-ci", style: `left: ${at(a ?? 0).toFixed(2)}%; width: ${Math.max(at(b ?? 0) - at(a ?? 0), 0.5).toFixed(2)}%` }),
      h("div", { class: "tl-ci-mean", style: `left: ${at(m.margin).toFixed(2)}%` }),
    ),
    h("span", { class: "tl-bar-value" }, signed(m.margin)),
  );
}

function measureSwitch(moves: MovesChart, send: Send): HTMLElement {
  const option = (measure: "swat" | "game", text: string): HTMLElement => {
    const on = moves.measure === measure;
    const button = h(
      "button",
      { type: "button", class: `tl-measure${on ? " tl-measure-on" : ""}`, "aria-pressed": on ? "true" : "false", "data-measure": measure, "data-focus": `measure-${measure}` },
      text,
    );
    button.addEventListener("click", () => {
      if (!on) send({ kind: "measure", measure });
    });
    return button;
  };
  return h(
    "div",
    { class: "tl-measures", role: "group", "aria-label": "Rank the moves by" },
    option("swat", "One swat ahead"),
    option("game", "Whole game"),
  );
}

function progressWords(moves: MovesChart): string {
  if (moves.target === 0) return "";
  if (moves.worlds >= moves.target) return `Whole game: ${moves.worlds} sampled worlds played out to the end.`;
  return `Whole game: thinking… ${moves.worlds} of ${moves.target} worlds.`;
}

export function movesPanel(moves: MovesChart, players: string[], send?: Send): HTMLElement {
  const who = moves.seat === null ? "" : (players[moves.seat] ?? "");
  const game = moves.measure === "game";
  const what = game ? "value over the whole game" : "penalty of one swat right after";
  const title = who ? `${who}'s moves: ${what}` : `Moves: ${what}`;
  const explain = game
    ? "The expected margin at the end of the game: the mover's final penalty minus the others' average (lower wins), with its 95% interval, from sampled worlds consistent with what the mover knows, played out to the end."
    : "The expected penalty to the mover if SleepKid woke right after the move. It counts that one swat only, not the rest of the game: lower is better for the next swat, not always for the game.";
  // target 0: no whole-game values here (e.g. an HTML export): the one-swat panel only
  const lookahead = moves.target > 0;
  const controls = send && lookahead && moves.moves.length > 0 ? measureSwitch(moves, send) : null;
  if (moves.moves.length === 0) {
    return frame("moves", title, explain, h("p", { class: "tl-empty-note" }, moves.empty));
  }
  const top = Math.max(...moves.moves.map((m) => m.expected_penalty), 1);
  const shown = moves.moves.slice(0, SHOWN);
  const rest = moves.moves.length - shown.length;
  const ends = moves.moves.flatMap((m) => (m.margin === null ? [] : m.margin_ci95.length === 2 ? m.margin_ci95 : [m.margin]));
  const lo = Math.min(...ends, 0);
  const hi = Math.max(...ends, 0);
  const mark = game ? " ★ best for the game" : " ★ lowest";
  return frame(
    "moves",
    title,
    explain,
    controls,
    h("p", { class: "tl-moves-progress", "data-worlds": String(moves.worlds), "data-target": String(moves.target) }, progressWords(moves)),
    h(
      "ol",
      { class: "tl-rows" },
      shown.map((m) => {
        const swat = `one swat ${m.expected_penalty.toFixed(2)}`;
        const words = lookahead ? [swat, gameWords(m), finalWords(m)].filter((w) => w !== "") : [swat];
        return h(
          "li",
          {
            class: `tl-bar-row${m.best ? " tl-best" : ""}`,
            "data-margin": m.margin === null ? "" : String(m.margin),
            "aria-label": `${m.label}: ${words.join(", ")}${m.best ? ` (${mark.slice(3)})` : ""}`,
          },
          h("span", { class: "tl-row-label" }, m.label, m.best ? h("span", { class: "tl-best-mark" }, mark) : null),
          game ? marginStrip(m, lo, hi) : bar(m.expected_penalty / top, "tl-move", m.expected_penalty.toFixed(2)),
          lookahead
            ? h("span", { class: "tl-row-words" }, game ? [m.margin === null ? "" : `margin${interval(m.margin_ci95, signed)}`, swat, finalWords(m)].filter((w) => w).join(" · ") : gameWords(m))
            : null,
        );
      }),
    ),
    rest > 0 ? h("p", { class: "tl-panel-explain" }, `… and ${rest} more, each ${game ? "worse for the game" : "higher"}.`) : null,
  );
}
