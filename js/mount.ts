// Mounts a live table in an element: draws the current table state on every change (the
// panels alone when only they changed: side-panels.ts), keeps the keyboard focus across
// redraws (focus.ts), handles the keys (keyboard.ts), announces each turn (live-region.ts)
// and says when no kernel is behind it (offline-banner.ts). It works from any source of
// table states (source.ts): the anywidget model (widget.ts) or a fixed state on a plain page.

import { h } from "./dom";
import { focusBefore, restoreFocus } from "./focus";
import { keyHandler } from "./keyboard";
import { LiveRegion } from "./live-region";
import { isOffline, offlineBanner } from "./offline-banner";
import { onlyPanelsChanged, SidePanels } from "./side-panels";
import { buildTable } from "./table";
import type { Intent, PanelData, TableState } from "./protocol";
import type { UiState } from "./send";
import type { TableSource } from "./source";
import { WORDS } from "./words";

export type { TableSource } from "./source";

/** Draw the table of `source` into `el`; returns the clean-up function. */
export function mountTable(el: HTMLElement, source: TableSource): () => void {
  const root = document.createElement("div");
  root.className = "tl-root";
  root.tabIndex = 0;
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", WORDS.table);
  el.appendChild(root);
  const ui: UiState = { selected: null, selectedIndex: null, animated: new Set<string>(), focusNext: [] };
  const live = new LiveRegion();
  const content = h("div", { class: "tl-content" });
  root.append(live.element, content);
  const send = (intent: Intent): void => source.send(intent);

  // The state last drawn in full, and the side column it showed.
  let drawn: TableState | null = null;
  let side: HTMLElement | null = null;
  const panels = new SidePanels(send);
  const layout = h("div", { class: "tl-layout" });

  // The charts of a drawn table wait for the frame after the table's (plotly.js takes
  // ~30 ms of a click's page time: the table is on screen without waiting for it); a
  // newer state before then replaces the charts' data, so each frame draws them once.
  let chartsDue: PanelData | null = null;
  const chartsLater = (data: PanelData): void => {
    const first = chartsDue === null;
    chartsDue = data;
    if (!first) return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        const due = chartsDue;
        chartsDue = null;
        if (due !== null && side !== null) panels.panels.update(due);
      }, 0),
    );
  };

  /** A new state from the source: the panels alone when only they changed, else all. */
  const update = (): void => {
    const state = source.get();
    if (drawn !== null && side !== null && panels.sideFor(state) !== null && onlyPanelsChanged(drawn, state)) {
      // Redraw the panels alone (their controls keep the focus: PanelsView.update).
      chartsDue = null;
      panels.panels.update(state.panels);
      drawn = state;
    } else draw();
  };

  const draw = (): void => {
    const state = source.get();
    drawn = state;
    const before = focusBefore(root);
    const view = state.view;
    root.dataset.mode = state.mode;
    root.dataset.turns = String(view.turns_applied);
    root.dataset.toMove = view.to_move === null ? "" : String(view.to_move);
    root.dataset.perspective = state.perspective === null ? "all" : String(state.perspective);
    root.dataset.busy = state.busy ? "1" : "0";
    root.dataset.pending = String(state.pending.length);
    root.classList.toggle("tl-busy", state.busy);
    for (const size of ["small", "medium", "large", "projector"]) {
      root.classList.toggle(`tl-size-${size}`, state.size === size);
    }
    const offline = isOffline(source);
    root.dataset.connected = offline ? "0" : "1";
    side = panels.sideFor(state);
    const built = buildTable(state, ui, send, draw, side !== null);
    const main = h("div", { class: "tl-main" }, ...built.parts);
    panels.setNote(built.sideNote);
    // Only the lesson and the table are replaced: the layout and the side column stay in
    // the page (moving them out and back made the browser restyle every node of the
    // charts, ~10 ms a move). The lesson is above the table and its panels (their whole
    // width), the table and the side column side by side.
    const oldMain = layout.querySelector(":scope > .tl-main");
    if (oldMain) oldMain.replaceWith(main);
    else layout.prepend(main);
    const oldLesson = layout.querySelector(":scope > .tl-lesson");
    if (built.lesson === null) oldLesson?.remove();
    else if (oldLesson) oldLesson.replaceWith(built.lesson);
    else layout.prepend(built.lesson);
    if (side === null) panels.aside.remove();
    else if (panels.aside.parentElement !== layout) layout.append(panels.aside);
    layout.inert = offline;
    content.querySelector(":scope > .tl-offline")?.remove();
    if (offline) content.prepend(offlineBanner());
    if (layout.parentElement !== content) content.append(layout);
    if (side !== null) chartsLater(state.panels); // in the page now: the charts get its width
    restoreFocus(root, content, state, ui, before);
    live.announce(state);
  };

  const onKey = keyHandler({ root, content, ui, state: () => source.get(), send, draw });
  root.addEventListener("keydown", onKey);
  const unsubscribe = source.subscribe(update);
  draw();
  return () => {
    unsubscribe();
    root.removeEventListener("keydown", onKey);
    panels.panels.dispose();
  };
}
