// Mounts a live table in an element: draws the current table state on every change,
// keeps the keyboard focus across redraws, and handles the replay keys. It works from any
// source of table states: the anywidget model (widget.ts) or a fixed state on a plain page.

import { buildTable } from "./table";
import type { Intent, TableState } from "./protocol";
import type { UiState } from "./send";

/** Where the table states come from and where the intents go. */
export interface TableSource {
  get(): TableState;
  /** Call `redraw` whenever the state changed; returns the unsubscribe function. */
  subscribe(redraw: () => void): () => void;
  send(intent: Intent): void;
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
  const ui: UiState = { selected: null, animated: new Set<string>() };
  const send = (intent: Intent): void => source.send(intent);

  const draw = (): void => {
    const state = source.get();
    const focused = document.activeElement;
    const focusKey =
      focused instanceof HTMLElement && root.contains(focused)
        ? focused.getAttribute("data-focus")
        : null;
    const rootFocused = focused === root;
    const view = state.view;
    root.dataset["mode"] = state.mode;
    root.dataset["turns"] = String(view.turns_applied);
    root.dataset["toMove"] = view.to_move === null ? "" : String(view.to_move);
    root.dataset["perspective"] = state.perspective === null ? "all" : String(state.perspective);
    root.dataset["busy"] = state.busy ? "1" : "0";
    root.dataset["pending"] = String(state.pending.length);
    root.classList.toggle("tl-busy", state.busy);
    root.replaceChildren(...buildTable(state, ui, send, draw));
    if (focusKey) {
      const again = root.querySelector<HTMLElement>(`[data-focus="${focusKey}"]`);
      (again ?? root).focus({ preventScroll: true });
    } else if (rootFocused) {
      root.focus({ preventScroll: true });
    }
  };

  const onKey = (ev: KeyboardEvent): void => {
    const target = ev.target as HTMLElement | null;
    const tag = target?.tagName ?? "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (ev.key === "Escape" && ui.selected !== null) {
      ui.selected = null;
      draw();
      return;
    }
    const state = source.get();
    if (state.mode !== "replay") return;
    const move = REPLAY_KEYS[ev.key];
    if (!move) return;
    ev.preventDefault();
    ev.stopPropagation();
    const r = state.replay;
    const turn = Math.max(0, Math.min(r.total, move(r.turn, r.total)));
    if (turn !== r.turn) send({ kind: "goto", turn });
  };

  root.addEventListener("keydown", onKey);
  const unsubscribe = source.subscribe(draw);
  draw();
  return () => {
    unsubscribe();
    root.removeEventListener("keydown", onKey);
  };
}
