// The table's keys: Escape drops the chosen card, arrow keys move within a group of
// controls, number keys 1–5 choose a hand card, and in a replay the lesson keys and the
// replay keys (←/→, Home/End) move through the game.

import { lessonKey } from "./lesson";
import type { TableState } from "./protocol";
import type { Send, UiState } from "./send";

const REPLAY_KEYS: Record<string, (turn: number, total: number) => number> = {
  ArrowLeft: (t) => t - 1,
  ArrowRight: (t) => t + 1,
  Home: () => 0,
  End: (_t, total) => total,
};

/** What the key handler reads and calls. */
export interface KeyTable {
  root: HTMLElement;
  /** The redrawn part of the table (the controls live in it). */
  content: HTMLElement;
  ui: UiState;
  state: () => TableState;
  send: Send;
  /** Redraw the whole table (after a local change of `ui`). */
  draw: () => void;
}

/** Arrow keys move within a group of controls (the hand, the Play here buttons, the
 *  action buttons, the cards of one queue). */
function moveInGroup(content: HTMLElement, target: HTMLElement, key: string): boolean {
  const group = target.getAttribute("data-group");
  if (!group) return false;
  const vertical = group.startsWith("queue-");
  const back = vertical ? "ArrowUp" : "ArrowLeft";
  const fwd = vertical ? "ArrowDown" : "ArrowRight";
  if (key !== back && key !== fwd) return false;
  const all = [...content.querySelectorAll<HTMLElement>(`[data-group="${group}"]`)];
  const i = all.indexOf(target);
  const j = Math.max(0, Math.min(all.length - 1, i + (key === fwd ? 1 : -1)));
  all[j]?.focus();
  return true;
}

/** Number keys 1–5 choose a hand card of that value (again: the next one). */
function chooseByNumber(content: HTMLElement, ui: UiState, key: string): boolean {
  if (!/^[1-5]$/.test(key)) return false;
  const buttons = [...content.querySelectorAll<HTMLElement>('[data-group="hand"]')].filter((b) =>
    (b.getAttribute("data-card") ?? "").startsWith(key),
  );
  if (buttons.length === 0) return false;
  const current = buttons.findIndex((b) => Number(b.getAttribute("data-hand-index")) === ui.selectedIndex);
  const pick = buttons[(current + 1) % buttons.length];
  pick?.click();
  return true;
}

/** The keydown handler of a mounted table. */
export function keyHandler(table: KeyTable): (ev: KeyboardEvent) => void {
  const { root, content, ui, send } = table;
  return (ev: KeyboardEvent): void => {
    const target = ev.target as HTMLElement | null;
    const tag = target?.tagName ?? "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (ev.key === "Escape" && ui.selected !== null) {
      ui.selected = null;
      ui.selectedIndex = null;
      table.draw();
      return;
    }
    if (target && target !== root && moveInGroup(content, target, ev.key)) {
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    if (!ev.ctrlKey && !ev.metaKey && !ev.altKey && chooseByNumber(content, ui, ev.key)) {
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    const state = table.state();
    if (state.mode !== "replay") return;
    if (!ev.ctrlKey && !ev.metaKey && !ev.altKey && lessonKey(ev.key, state, send)) {
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    const move = REPLAY_KEYS[ev.key];
    if (!move) return;
    ev.preventDefault();
    ev.stopPropagation();
    const r = state.replay;
    const turn = Math.max(0, Math.min(r.total, move(r.turn, r.total)));
    if (turn !== r.turn) send({ kind: "goto", turn });
  };
}
