// Mounts a live table in an element: draws the current table state on every change,
// keeps the keyboard focus across redraws, and handles the replay keys. It works from any
// source of table states: the anywidget model (widget.ts) or a fixed state on a plain page.

import { h } from "./dom";
import { PanelsView } from "./panels/panels";
import { lessonKey } from "./lesson";
import { buildTable } from "./table";
import type { Intent, TableState } from "./protocol";
import type { UiState } from "./send";

/** Where the table states come from and where the intents go. */
export interface TableSource {
  get(): TableState;
  /** Call `redraw` whenever the state changed; returns the unsubscribe function. */
  subscribe(redraw: () => void): () => void;
  send(intent: Intent): void;
  /** Whether a live kernel answers (a live model only): `false` shows "not connected". */
  connected?: () => boolean;
}

const REPLAY_KEYS: Record<string, (turn: number, total: number) => number> = {
  ArrowLeft: (t) => t - 1,
  ArrowRight: (t) => t + 1,
  Home: () => 0,
  End: (_t, total) => total,
};

/** Draw the table of `source` into `el`; returns the clean-up function. */
export function mountTable(el: HTMLElement, source: TableSource): () => void {
  const root = document.createElement("div");
  root.className = "tl-root";
  root.tabIndex = 0;
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "10 to Leave table");
  el.appendChild(root);
  const ui: UiState = { selected: null, selectedIndex: null, animated: new Set<string>(), focusNext: [] };
  // A polite live region that stays in the DOM (the content around it is redrawn): it
  // announces each turn's narration once.
  const live = h("div", { class: "tl-live", "aria-live": "polite", "data-testid": "live" });
  const content = h("div", { class: "tl-content" });
  root.append(live, content);
  let announced = "";

  const focusTarget = (key: string): HTMLElement | null => {
    if (key === "root") return root;
    if (key === "hand-first") return content.querySelector<HTMLElement>('[data-group="hand"]');
    return content.querySelector<HTMLElement>(`[data-focus="${key}"]`);
  };
  const send = (intent: Intent): void => source.send(intent);

  // The state last drawn in full: when only its panels' data changes (the moves' whole-game
  // values fill in, chunk by chunk), only the panels are redrawn. Rebuilding the table then
  // would detach its controls under the user and could spend a pending focus move
  // (`ui.focusNext`) on a state the user's last action has not reached yet.
  let drawn: TableState | null = null;
  let side: HTMLElement | null = null;
  // The panels stay in the page across states (their charts are updated in place).
  const panels = new PanelsView(send);
  const aside = h("aside", { class: "tl-side", "aria-label": "Odds panels" }, panels.element);
  const sideFor = (state: TableState): HTMLElement | null =>
    (state.show_odds || state.panels.figures["review"] !== undefined) && !state.cover.shown && state.panels.state ? aside : null;
  const onlyPanelsChanged = (state: TableState): boolean =>
    drawn !== null &&
    side !== null &&
    sideFor(state) !== null &&
    state.panels !== drawn.panels &&
    (Object.keys(state) as (keyof TableState)[]).every((key) => key === "panels" || state[key] === drawn?.[key]);

  /** Redraw the panels alone (their controls keep the focus: PanelsView.update). */
  const drawPanels = (state: TableState): void => {
    panels.update(state.panels);
    drawn = state;
  };

  /** A new state from the source: the panels alone when only they changed, else all. */
  const update = (): void => {
    const state = source.get();
    if (onlyPanelsChanged(state)) drawPanels(state);
    else draw();
  };

  const draw = (): void => {
    const state = source.get();
    drawn = state;
    const focused = document.activeElement;
    const focusKey =
      focused instanceof HTMLElement && root.contains(focused)
        ? focused.getAttribute("data-focus")
        : null;
    const rootFocused = focused === root;
    const hadFocus = rootFocused || (focused instanceof HTMLElement && root.contains(focused));
    const view = state.view;
    root.dataset["mode"] = state.mode;
    root.dataset["turns"] = String(view.turns_applied);
    root.dataset["toMove"] = view.to_move === null ? "" : String(view.to_move);
    root.dataset["perspective"] = state.perspective === null ? "all" : String(state.perspective);
    root.dataset["busy"] = state.busy ? "1" : "0";
    root.dataset["pending"] = String(state.pending.length);
    root.classList.toggle("tl-busy", state.busy);
    for (const size of ["small", "medium", "large", "projector"]) {
      root.classList.toggle(`tl-size-${size}`, state.size === size);
    }
    const offline = source.connected !== undefined && !source.connected();
    root.dataset["connected"] = offline ? "0" : "1";
    const main = h("div", { class: "tl-main" }, ...buildTable(state, ui, send, draw));
    side = sideFor(state);
    const layout = h("div", { class: "tl-layout" }, main, side);
    if (side === null) aside.remove();
    if (offline) layout.inert = true;
    content.replaceChildren(
      offline
        ? h(
            "div",
            { class: "tl-offline", role: "status", "data-testid": "offline" },
            "Not connected — run the cell to play. (This table was saved with the notebook; no Python kernel is behind it.)",
          )
        : "",
      layout,
    );
    if (side !== null) panels.update(state.panels); // in the page now: the charts get its width
    const cover = state.cover.shown ? focusTarget("uncover") : null;
    const next = ui.focusNext.map(focusTarget).find((el) => el !== null && el !== root);
    if (cover && hadFocus) {
      // The hot-seat cover appeared while the table had the focus: "I am ready" takes it.
      ui.focusNext = [];
      cover.focus({ preventScroll: false });
    } else if (next && !state.busy) {
      ui.focusNext = [];
      next.focus({ preventScroll: false });
    } else if (focusKey) {
      const again = content.querySelector<HTMLElement>(`[data-focus="${focusKey}"]`);
      (again ?? root).focus({ preventScroll: true });
    } else if (rootFocused) {
      root.focus({ preventScroll: true });
    }
    const words = state.narration.turns[state.narration.turns.length - 1];
    const say = words
      ? [...words.lines, ...words.swats.flatMap((sw) => sw.queues.map((q) => `Queue ${q.queue + 1}: ${q.text}`))].join(" ")
      : "";
    const text = [say, state.status].filter(Boolean).join(" ");
    if (text !== announced) {
      announced = text;
      live.textContent = text;
    }
  };

  /** Arrow keys move within a group of controls (the hand, the Play here buttons, the
   *  action buttons, the cards of one queue). */
  const moveInGroup = (target: HTMLElement, key: string): boolean => {
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
  };

  /** Number keys 1–5 choose a hand card of that value (again: the next one). */
  const chooseByNumber = (key: string): boolean => {
    if (!/^[1-5]$/.test(key)) return false;
    const buttons = [...content.querySelectorAll<HTMLElement>('[data-group="hand"]')].filter(
      (b) => (b.getAttribute("data-card") ?? "").startsWith(key),
    );
    if (buttons.length === 0) return false;
    const current = buttons.findIndex((b) => Number(b.getAttribute("data-hand-index")) === ui.selectedIndex);
    const pick = buttons[(current + 1) % buttons.length];
    pick?.click();
    return true;
  };

  const onKey = (ev: KeyboardEvent): void => {
    const target = ev.target as HTMLElement | null;
    const tag = target?.tagName ?? "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (ev.key === "Escape" && ui.selected !== null) {
      ui.selected = null;
      ui.selectedIndex = null;
      draw();
      return;
    }
    if (target && target !== root && moveInGroup(target, ev.key)) {
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    if (!ev.ctrlKey && !ev.metaKey && !ev.altKey && chooseByNumber(ev.key)) {
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    const state = source.get();
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

  root.addEventListener("keydown", onKey);
  const unsubscribe = source.subscribe(update);
  draw();
  return () => {
    unsubscribe();
    root.removeEventListener("keydown", onKey);
    panels.dispose();
  };
}
