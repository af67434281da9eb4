// The class report (tenleave_widget/programs/class_report.py): one offline page whose
// charts are Plotly figures composed in Python, drawn here with the bundled plotly.js,
// in the page's theme (light or dark). Each chart is a figure named by its heading, with
// a text alternative holding its numbers (written by Python, beside the chart).

import "./plotly-runtime"; // one page, offline: plotly.js inlined

import { drawFigure, readTheme, resize } from "./panels/plot";
import type { PanelFigure } from "./protocol";

function charts(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>("[data-figure]"));
}

function draw(figures: Record<string, PanelFigure>): Promise<unknown> {
  return Promise.all(
    charts().map((el) => {
      const key = el.dataset.figure ?? "";
      const f = figures[key];
      if (!f) return Promise.reject(new Error(`no figure ${key}`));
      // the drawing is hidden from screen readers (its text alternative is read
      // instead); the modebar's download button stays reachable
      return drawFigure(el, key, f.figure, readTheme(el)).then(() => {
        for (const svg of el.querySelectorAll("svg")) svg.setAttribute("aria-hidden", "true");
      });
    }),
  );
}

function main(): void {
  const text = document.getElementById("tenleave-figures")?.textContent ?? "{}";
  const figures = JSON.parse(text) as Record<string, PanelFigure>;
  draw(figures).then(
    () => {
      document.body.dataset.ready = "1";
    },
    (e: unknown) => {
      document.body.dataset.ready = "error";
      console.error(e);
    },
  );
  window.addEventListener("resize", () => charts().forEach(resize));
  // the theme follows the system's light or dark setting
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    void draw(figures);
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
else main();
