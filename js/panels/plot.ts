// Drawing one Plotly figure composed in Python (tenleave_widget/table/panels/figures.py) with the
// partial plotly.js bundle: the theme (colours and fonts from JupyterLab's CSS variables,
// read at draw time), the trimmed modebar, and Plotly.react so a new state updates the
// chart in place. plotly.js itself comes from the page (./plotly-slot.ts): a table's ESM
// does not carry it.

import type { PlotlyElement } from "plotly.js-basic-dist-min";
import { plotlyNow, withPlotly } from "./plotly-slot";
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
