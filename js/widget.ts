// The anywidget front end of tenleave_widget.TableWidget (see tenleave_widget/widget.py).
import "./widget.css";

import type { AnyModel, RenderProps } from "@anywidget/types";

import { buildTable } from "./table";
import type { UiState } from "./table";
import type { Intent, TableModel } from "./types";

type Model = AnyModel<TableModel>;

function snapshot(model: Model): TableModel {
  return {
    view: model.get("view"),
    mode: model.get("mode"),
    perspective: model.get("perspective"),
    offers: model.get("offers"),
    pending: model.get("pending"),
    message: model.get("message"),
    narration: model.get("narration"),
    replay: model.get("replay"),
    cover: model.get("cover"),
    busy: model.get("busy"),
    show_odds: model.get("show_odds"),
    status: model.get("status"),
  };
}

const REPLAY_KEYS: Record<string, (turn: number, total: number) => number> = {
  ArrowLeft: (t) => t - 1,
  ArrowRight: (t) => t + 1,
  Home: () => 0,
  End: (_t, total) => total,
};

function render({ model, el }: RenderProps<TableModel>): () => void {
  const root = document.createElement("div");
  root.className = "tl-root";
  root.tabIndex = 0;
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "10 to Leave table");
  el.appendChild(root);
  const ui: UiState = { selected: null, animated: new Set<string>() };

  const send = (intent: Intent): void => {
    model.send(intent);
  };

  const draw = (): void => {
    const state = snapshot(model);
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
    if (model.get("mode") !== "replay") return;
    const move = REPLAY_KEYS[ev.key];
    if (!move) return;
    ev.preventDefault();
    ev.stopPropagation();
    const r = model.get("replay");
    const turn = Math.max(0, Math.min(r.total, move(r.turn, r.total)));
    if (turn !== r.turn) send({ kind: "goto", turn });
  };

  root.addEventListener("keydown", onKey);
  model.on("change", draw);
  draw();
  return () => {
    model.off("change", draw);
    root.removeEventListener("keydown", onKey);
  };
}

export default { render };
