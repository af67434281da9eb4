// The plotly.js runtime: the ESM of tenleave_widget.widget.PlotlyRuntime (one small widget
// per kernel that every table references, so a saved notebook stores plotly.js once
// however many tables it holds). Loading it publishes Plotly for the tables'
// panels (js/panels/plotly-slot.ts); the standalone bundle (js/widget.ts) and the HTML
// export (js/export.ts) import it too.

import Plotly from "plotly.js-basic-dist-min";

import { publish } from "./panels/plotly-slot";

publish(Plotly);

/** anywidget runs `initialize` when the model is created, before (and without) any view. */
function initialize(): void {
  publish(Plotly);
}

function render({ el }: { el: HTMLElement }): void {
  el.hidden = true; // nothing to see: it only brings plotly.js
}

export default { initialize, render };
