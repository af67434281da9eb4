// Where the table finds plotly.js. The bundle is not in the table's own ESM: anywidget
// saves each widget's ESM in the notebook, once per table, so plotly.js (1.19 MB) lives
// in one small runtime widget per kernel (tenleave_widget/widget/plotly_runtime.py,
// js/plotly-runtime.ts) that every table references. Whichever bundle loads plotly.js
// publishes it here, on `globalThis`; the table draws at once and its panels follow as
// soon as Plotly is there (at once, when it already is).

import type { PlotlyStatic } from "plotly.js-basic-dist-min";

interface Slot {
  plotly: PlotlyStatic | null;
  waiters: ((plotly: PlotlyStatic) => void)[];
}

const KEY = "__tenleave_plotly__";

function slot(): Slot {
  const g = globalThis as unknown as Record<string, Slot | undefined>;
  g[KEY] ??= { plotly: null, waiters: [] };
  return g[KEY];
}

/** Make `plotly` the page's plotly.js (the first one published stays). */
export function publish(plotly: PlotlyStatic): void {
  const s = slot();
  if (s.plotly) return;
  s.plotly = plotly;
  for (const w of s.waiters.splice(0)) w(plotly);
}

/** The page's plotly.js, or null while none is published yet. */
export function plotlyNow(): PlotlyStatic | null {
  return slot().plotly;
}

/** Call `use` with the page's plotly.js: now if it is there, else when it is published. */
export function withPlotly(use: (plotly: PlotlyStatic) => void): void {
  const s = slot();
  if (s.plotly) use(s.plotly);
  else s.waiters.push(use);
}
