// The odds panels: a pure function of the panel data (tenleave_widget/table/charts.py), with
// no access to any widget model, so the widget and the HTML export draw them alike.

import "./panels.css";
import { h } from "../dom";
import type { Send } from "../send";
import { cardRiskPanel } from "./cardRisk";
import { movesPanel } from "./moves";
import { outcomePanel } from "./outcome";
import { timelinePanel } from "./timeline";
import type { PanelData } from "./types";

export type { PanelData } from "./types";

/** `send`, when given, draws the controls that send intents (the moves' measure switch). */
export function renderPanels(data: PanelData, send?: Send): HTMLElement {
  const root = h("div", { class: "tl-panels", "data-state": data.state });
  root.append(h("h2", { class: "tl-panels-title" }, data.title));
  if (data.state === "hidden") {
    root.append(h("p", { class: "tl-panels-message" }, data.message));
    return root;
  }
  if (data.state === "finished") {
    root.append(h("p", { class: "tl-panels-message" }, data.message));
    root.append(h("div", { class: "tl-panel-grid" }, timelinePanel(data.timeline, data.players, data.colours)));
    return root;
  }
  root.append(
    h(
      "div",
      { class: "tl-panel-grid" },
      outcomePanel(data.outcome),
      movesPanel(data.moves, data.players, send),
      cardRiskPanel(data.cards, data.colours),
      timelinePanel(data.timeline, data.players, data.colours),
    ),
  );
  return root;
}
