// A chart's legend in HTML instead of plotly.js's: plotly.js draws its legend again on
// every Plotly.react (about a third of the outcome chart's redraw), while the legend's
// entries seldom change. Used for a figure whose legend entries are all bars (the outcome
// chart: its three ends and the queues' totals) and that says how much room its legends
// take (`layout.meta.legend_px`, table/panels/figures.py): the legends are taken out of the figure,
// its margins and height shrink by that room, and the entries are drawn above the chart
// (a legend placed above the plot) or below it, each with a swatch of the bar's colour
// and pattern. Colours come from the panels' CSS variables (the theme follows by itself).

import { h } from "../dom";
import type { FigureJSON } from "../protocol";

type Obj = Record<string, unknown>;

const obj = (x: unknown): Obj => (x !== null && typeof x === "object" ? (x as Obj) : {});

export interface LegendEntry {
  name: string;
  /** the bar's colour, or "" for a neutral bar (the theme's second text colour) */
  colour: string;
  /** plotly's pattern shape ("", ".", "/", "\\", "x", "-", "|", "+") */
  pattern: string;
  /** the pattern's colour, or "" (neutral: the panel's background) */
  patternColour: string;
}

export interface SplitLegend {
  figure: FigureJSON;
  top: LegendEntry[];
  bottom: LegendEntry[];
}

/** `figure` without its legends, and their entries (null: plotly.js draws its legend). */
export function splitLegend(figure: FigureJSON): SplitLegend | null {
  const layout = figure.layout;
  const room = obj(obj(layout.meta).legend_px);
  if (Object.keys(room).length === 0 || layout.showlegend !== true) return null;
  const shown = figure.data.filter((t) => t.showlegend === true);
  if (shown.length === 0 || shown.some((t) => t.type !== "bar")) return null;
  const top: LegendEntry[] = [];
  const bottom: LegendEntry[] = [];
  for (const trace of shown) {
    const which = typeof trace.legend === "string" ? trace.legend : "legend";
    const y = obj(layout[which]).y;
    const marker = obj(trace.marker);
    const pattern = obj(marker.pattern);
    const neutral = trace.meta === "neutral";
    (typeof y === "number" && y < 0.5 ? bottom : top).push({
      name: String(trace.name ?? ""),
      colour: neutral || typeof marker.color !== "string" ? "" : marker.color,
      pattern: typeof pattern.shape === "string" ? pattern.shape : "",
      patternColour: neutral || typeof pattern.fgcolor !== "string" ? "" : pattern.fgcolor,
    });
  }
  const px = (key: string): number => (typeof room[key] === "number" ? room[key] : 0);
  const margin = obj(layout.margin);
  const out: Obj = {
    ...layout,
    showlegend: false,
    height: (typeof layout.height === "number" ? layout.height : 240) - px("t") - px("b"),
    margin: { ...margin, t: Number(margin.t ?? 36) - px("t"), b: Number(margin.b ?? 36) - px("b") },
  };
  return {
    figure: { data: figure.data.map((t) => (t.showlegend === true ? { ...t, showlegend: false } : t)), layout: out },
    top,
    bottom,
  };
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag: string, attrs: Record<string, string>): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

let patterns = 0;

/** The strokes of a plotly.js pattern shape in a 6 px tile. */
function strokes(shape: string): string {
  switch (shape) {
    case "/":
      return "M-1,7 L7,-1";
    case "\\":
      return "M-1,-1 L7,7";
    case "x":
      return "M-1,7 L7,-1 M-1,-1 L7,7";
    case "-":
      return "M0,3 L6,3";
    case "|":
      return "M3,0 L3,6";
    case "+":
      return "M0,3 L6,3 M3,0 L3,6";
    default:
      return "";
  }
}

/** A swatch: the bar's colour with its pattern over it. */
function swatch(entry: LegendEntry): SVGElement {
  const box = svg("svg", {
    class: "tl-swatch",
    width: "16",
    height: "12",
    viewBox: "0 0 16 12",
    "aria-hidden": "true",
  });
  const fill = entry.colour || "var(--tl-p-fg2)";
  const ink = entry.patternColour || "var(--tl-p-bg)";
  box.append(
    svg("rect", { x: "0.5", y: "0.5", width: "15", height: "11", style: `fill: ${fill}; stroke: var(--tl-p-border)` }),
  );
  if (entry.pattern !== "") {
    patterns += 1;
    const id = `tl-legend-pattern-${patterns}`;
    const tile = svg("pattern", { id, width: "6", height: "6", patternUnits: "userSpaceOnUse" });
    tile.append(
      entry.pattern === "."
        ? svg("circle", { cx: "3", cy: "3", r: "1.2", style: `fill: ${ink}` })
        : svg("path", { d: strokes(entry.pattern), style: `stroke: ${ink}; stroke-width: 1.2` }),
    );
    const defs = svg("defs", {});
    defs.append(tile);
    box.append(defs, svg("rect", { x: "1", y: "1", width: "14", height: "10", fill: `url(#${id})` }));
  }
  return box;
}

/** The legend's list (empty: nothing to show). */
export function legendList(entries: LegendEntry[]): HTMLElement[] {
  return entries.map((e) => h("li", { class: "tl-legend-entry" }, swatch(e), h("span", {}, e.name)));
}
