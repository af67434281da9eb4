// Drawing one Plotly figure composed in Python (tenleave_widget/table/panels/figures.py) with the
// partial plotly.js bundle: the theme (colours and fonts from JupyterLab's CSS variables,
// read at draw time), the trimmed modebar, and Plotly.react so a new state updates the
// chart in place. plotly.js itself comes from the page (./plotly-slot.ts): a table's ESM
// does not carry it.

import type { PlotlyElement } from "plotly.js-basic-dist-min";
import { chartAsked, plotlyNow, withPlotly } from "./plotly-slot";
import type { FigureJSON } from "../protocol";

type Obj = Record<string, unknown>;

export interface Theme {
  fg: string;
  fg2: string;
  bg: string;
  grid: string;
  line: string;
  font: string;
  /** the panels' font size in px (the table's size control and zoom scale it) */
  size: number;
}

/** The theme of the page around `el`: JupyterLab's variables, or plain light defaults. */
export function readTheme(el: HTMLElement): Theme {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  const size = parseFloat(css.fontSize);
  return {
    fg: v("--jp-ui-font-color1", "#222222"),
    fg2: v("--jp-ui-font-color2", "#555555"),
    bg: v("--jp-layout-color1", "#ffffff"),
    grid: v("--jp-border-color2", "#e0e0e0"),
    line: v("--jp-border-color1", "#999999"),
    font: v("--jp-ui-font-family", "system-ui, sans-serif"),
    size: Number.isFinite(size) && size > 0 ? size : 13,
  };
}

const AXES = /^[xy]axis\d*$/;

const obj = (x: unknown): Obj => (x !== null && typeof x === "object" ? (x as Obj) : {});
const num = (x: unknown, fallback: number): number => (typeof x === "number" ? x : fallback);

/** `layout` in the page's theme: colours, font family, sizes scaled with the table. */
export function themed(layout: Obj, t: Theme): Obj {
  const k = t.size / 14;
  const font = (f: unknown, size: number, color = t.fg): Obj => ({
    ...obj(f),
    family: t.font,
    color,
    size: Math.round(num(obj(f).size, size) * k * 10) / 10,
  });
  const out: Obj = { ...layout };
  out.font = font(layout.font, 12);
  // the title is the panel's HTML heading (it wraps; js/panels/panels.ts): none in the chart
  const title = String(obj(layout.title).text ?? "");
  const lines = title === "" ? 0 : title.split("<br>").length;
  out.title = { text: "" };
  for (const key of ["legend", "legend2"]) {
    if (key in layout || key === "legend")
      out[key] = { ...obj(layout[key]), font: font(obj(layout[key]).font, 11), bgcolor: "rgba(0,0,0,0)" };
  }
  out.hoverlabel = { ...obj(layout.hoverlabel), bgcolor: t.bg, bordercolor: t.line, font: font({}, 12) };
  out.modebar = { bgcolor: "rgba(0,0,0,0)", color: t.fg2, activecolor: t.fg };
  out.paper_bgcolor = "rgba(0,0,0,0)";
  out.plot_bgcolor = "rgba(0,0,0,0)";
  const margin = obj(layout.margin);
  const top = Math.max(10, num(margin.t, 36) - 22 * lines);
  out.margin = Object.fromEntries(
    Object.entries({ ...margin, t: top }).map(([side, px]) => [side, typeof px === "number" ? Math.round(px * k) : px]),
  );
  out.height = Math.round((num(layout.height, 240) - 22 * lines) * k);
  for (const [key, axis] of Object.entries(layout)) {
    if (!AXES.test(key)) continue;
    const a = obj(axis);
    out[key] = {
      ...a,
      color: t.fg,
      gridcolor: t.grid,
      linecolor: t.line,
      zerolinecolor: t.line,
      tickfont: font(a.tickfont, 11),
      title: { ...obj(a.title), font: font(obj(a.title).font, 11, t.fg2) },
    };
  }
  if (Array.isArray(layout.annotations)) {
    // on the panel's own background: a grid line behind a note does not cross its words;
    // a note's offset in px scales with the fonts and margins (below the plot, "… and 7
    // more" kept clear of the axis title at the large sizes)
    out.annotations = layout.annotations.map((a: unknown) => {
      const note = obj(a);
      const shifted: Obj = {};
      for (const key of ["xshift", "yshift"])
        if (typeof note[key] === "number") shifted[key] = Math.round(note[key] * k);
      return { ...note, ...shifted, bgcolor: t.bg, font: font(note.font, 13) };
    });
  }
  if (Array.isArray(layout.shapes)) {
    out.shapes = layout.shapes.map((s: unknown) =>
      obj(s).type === "line" ? { ...obj(s), line: { ...obj(obj(s).line), color: t.fg2 } } : s,
    );
  }
  return out;
}

/** The traces in the theme: bar outlines in the border colour, texts outside bars in the
 *  foreground colour (plotly picks a contrasting colour inside a bar by itself). */
export function themedData(data: Obj[], t: Theme): Obj[] {
  return data.map((trace) => {
    const out: Obj = { ...trace };
    if (trace.type === "bar") {
      const marker = obj(trace.marker);
      const neutral = trace.meta === "neutral"; // no colour of its own: the theme's
      out.marker = {
        ...marker,
        ...(neutral ? { color: t.fg2, pattern: { ...obj(marker.pattern), fgcolor: t.bg } } : {}),
        line: { ...obj(marker.line), color: t.line },
      };
      out.outsidetextfont = { color: t.fg, family: t.font };
    }
    if (trace.meta === "key") {
      // a legend entry that only shows a marker shape (the review graph's key): theme colour
      const marker = obj(trace.marker);
      out.marker = { ...marker, color: t.fg2, line: { ...obj(marker.line), color: t.fg2 } };
    }
    if (typeof trace.textposition === "string" && trace.type === "scatter") {
      out.textfont = { color: t.fg, family: t.font };
    }
    return out;
  });
}

/** The words of a figure that plots nothing (table/panels/figures.py `_words_figure`: no trace,
 *  its axes hidden, one note), or null. */
export function wordsOnly(figure: FigureJSON): string | null {
  const layout = obj(figure.layout);
  const notes = layout.annotations;
  if (figure.data.length !== 0 || !Array.isArray(notes) || notes.length !== 1) return null;
  if (obj(layout.xaxis).visible !== false) return null;
  return String(obj(notes[0]).text ?? "")
    .split("<br>")
    .join(" ");
}

const CONFIG = (name: string): Obj => ({
  displaylogo: false,
  responsive: false, // a ResizeObserver follows the output's width (the window may not change)
  modeBarButtons: [["toImage"]],
  toImageButtonOptions: { format: "png", filename: `tenleave-${name}`, scale: 2 },
  displayModeBar: "hover",
});

/** Draw (first time) or update in place (Plotly.react) `figure` in `el`: at once when
 *  plotly.js is in the page, else as soon as it is (only the last figure asked is drawn). */
export function drawFigure(el: HTMLElement, name: string, figure: FigureJSON, theme: Theme): Promise<PlotlyElement> {
  // plotly.js keeps (and annotates) the objects it is given: never the model's own
  const copy = JSON.parse(JSON.stringify(figure)) as { data: Obj[]; layout: Obj };
  const asked = (latest.get(el) ?? 0) + 1;
  latest.set(el, asked);
  return new Promise((resolve, reject) => {
    withPlotly((Plotly) => {
      if (latest.get(el) !== asked) return; // a newer figure came while plotly.js loaded
      Plotly.react(el, themedData(copy.data, theme), themed(copy.layout, theme), CONFIG(name)).then(resolve, reject);
    });
  });
}

/** The number of the last figure asked of each chart element. */
const latest = new WeakMap<HTMLElement, number>();

export function purge(el: HTMLElement): void {
  latest.set(el, (latest.get(el) ?? 0) + 1); // nothing waiting is drawn any more
  plotlyNow()?.purge(el);
}

export function resize(el: HTMLElement): void {
  const Plotly = plotlyNow();
  if (Plotly && el.isConnected && el.offsetWidth > 0) void Plotly.Plots.resize(el);
}

/** The width in px plotly.js last drew `el` at (rounded), or null before its first draw. */
export function drawnWidth(el: HTMLElement): number | null {
  const width = (el as PlotlyElement)._fullLayout?.width;
  return typeof width === "number" ? Math.round(width) : null;
}

/** Small figures with what the panels' figures use (horizontal bars with texts inside and
 *  out, patterns, a vertical bar, lines with markers, two axes, legends, notes, shapes). */
const WARM_UP: { data: Obj[]; layout: Obj }[] = [
  {
    data: [
      {
        type: "bar",
        orientation: "h",
        x: [0.4, 0.7],
        y: ["a", "b"],
        text: ["40", "70"],
        textposition: "inside",
        insidetextanchor: "start",
        marker: { color: "#4477aa", line: { width: 1 } },
        name: "a",
        hovertext: ["a", "b"],
        hoverinfo: "text",
        legendgroup: "g",
      },
      {
        type: "bar",
        orientation: "h",
        x: [0.6, 0.3],
        y: ["a", "b"],
        text: ["60", "30"],
        textposition: "outside",
        marker: { color: "#ee6677", pattern: { shape: "/" } },
        name: "b",
        hoverinfo: "skip",
      },
      {
        type: "bar",
        x: ["x", "y"],
        y: [1, 2],
        xaxis: "x2",
        yaxis: "y2",
        marker: { color: "#228833" },
        name: "c",
        legend: "legend2",
      },
    ],
    layout: {
      width: 320,
      height: 240,
      barmode: "stack",
      showlegend: true,
      font: { size: 12 },
      margin: { l: 40, r: 10, t: 20, b: 40 },
      xaxis: { domain: [0, 0.6], title: { text: "x" }, range: [0, 1] },
      yaxis: { automargin: true },
      xaxis2: { domain: [0.7, 1], anchor: "y2" },
      yaxis2: { anchor: "x2" },
      legend: { orientation: "h", y: -0.3 },
      legend2: { orientation: "h", y: 1.1 },
      annotations: [{ text: "note", x: 0.5, y: 1, xref: "paper", yref: "paper", showarrow: false, bgcolor: "#fff" }],
      shapes: [
        { type: "line", x0: 0.5, x1: 0.5, y0: 0, y1: 1, yref: "paper", line: { dash: "dot" } },
        { type: "rect", x0: 0, x1: 0.2, y0: 0, y1: 1, yref: "paper", opacity: 0.2 },
      ],
    },
  },
  {
    data: [
      {
        type: "scatter",
        mode: "lines+markers+text",
        x: [0, 1, 2],
        y: [1, 3, 2],
        text: ["", "", "end"],

        line: { dash: "dash" },
        marker: { symbol: "circle-open" },
        name: "l",
      },
      { type: "scatter", mode: "lines", x: [0, 2], y: [2, 2], connectgaps: true, name: "m" },
    ],
    layout: {
      width: 320,
      height: 200,
      showlegend: true,
      margin: { l: 40, r: 10, t: 10, b: 40 },
      xaxis: { title: { text: "turn" }, dtick: 1 },
      yaxis: { title: { text: "points" } },
      annotations: [{ text: "a<br>note", x: 1, y: 3, showarrow: true }],
    },
  },
];

/** Once plotly.js is in the page and the page is idle, draw small figures like the panels'
 *  out of sight, one per idle moment, and remove them: plotly.js's first chart on a page
 *  costs about twice a later one (its code compiled as it first runs), and a table's first
 *  state comes after the kernel's work, while the page waits. Nothing is drawn once a
 *  table has asked for a chart (its own charts do the same). */
export function warmUpWhenIdle(): void {
  const idle = (then: () => void): void => {
    if (typeof requestIdleCallback === "function") requestIdleCallback(then, { timeout: 3000 });
    else setTimeout(then, 50);
  };
  const step = (i: number): void => {
    const Plotly = plotlyNow();
    const figure = WARM_UP[i];
    if (Plotly === null || figure === undefined || chartAsked() || !document.body) return;
    const el = document.createElement("div");
    el.setAttribute("aria-hidden", "true");
    Object.assign(el.style, {
      position: "fixed",
      left: "-10000px",
      top: "0",
      width: "320px",
      visibility: "hidden",
      pointerEvents: "none",
    });
    document.body.append(el);
    const done = (): void => {
      Plotly.purge(el);
      el.remove();
      idle(() => step(i + 1));
    };
    Plotly.react(el, figure.data, figure.layout, { displayModeBar: false }).then(done, done);
  };
  idle(() => step(0));
}
