// The odds panels: the Plotly figures composed in Python (PanelData.figures, from
// tenleave_widget/table/panels/figures.py) drawn with the bundled partial plotly.js, plus what a
// figure does not do (the title, the message of an empty or finished state, the moves'
// switch, a visually hidden text alternative per chart). No access to any widget model, so
// the widget and the HTML export draw them alike. A `PanelsView` stays in the page across
// states: a chart whose figure did not change is left as it is, a chart the panel showed
// just before (a move taken back) is put back as it was, and any other is drawn over the
// older of the two (Plotly.react, in the same task: no frame shows a panel without its chart).
// While the whole-game analysis runs, the moves' chart of a state is drawn first, in a task
// of its own.

import "./panels.css";
import { h } from "../dom";
import type { Send } from "../send";
import { detailsSwitch } from "./details";
import { legendList, splitLegend } from "./legend";
import type { SplitLegend } from "./legend";
import { movesControls } from "./moves";
import { drawFigure, drawnWidth, purge, readTheme, resize, themed, wordsOnly } from "./plot";
import { plotlyNow } from "./plotly-slot";
import { oddsModelControls, suggestControls } from "./suggest";
import type { Theme } from "./plot";
import { FIGURE_KEYS } from "../protocol";
import type { PanelData, PanelFigure } from "../protocol";

export type { PanelData } from "../protocol";

/** A chart element plotly.js drew, and what it drew there (the figure and theme as JSON). */
interface Chart {
  el: HTMLElement;
  drawn: string;
}

interface Slot {
  section: HTMLElement;
  heading: HTMLElement;
  controls: HTMLElement;
  /** The chart element in the page. */
  plot: HTMLElement;
  /** The chart the panel showed before the one in the page (out of the page), or null. */
  kept: Chart | null;
  /** The words of a figure with nothing to plot (shown instead of the chart). */
  words: HTMLElement;
  alt: HTMLElement;
  caption: HTMLElement;
  /** A legend drawn in HTML (./legend.ts) above and below the chart. */
  legendTop: HTMLElement;
  legendBottom: HTMLElement;
  legendKey: string;
  figure: PanelFigure | null;
  /** The figure and theme drawn in `plot` (the same again is not redrawn). */
  drawn: string;
}

/** The chart drawn first of a state: the moves' (the whole-game figures come in it). */
const FIRST_DRAWN = "moves";

/** The review charts whose points send a `goto` when clicked. */
const clickable = new WeakSet<HTMLElement>();

export class PanelsView {
  /** `.tl-panels`: its `data-revision` counts the states drawn, set once plotly.js has
   *  drawn every chart of a state (a benchmark and the tests wait on it); `data-shown`
   *  is the state shown (its words; its charts drawn in turn: each panel's `data-drawn`). */
  readonly element: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly message: HTMLElement;
  private readonly switches: HTMLElement;
  private readonly grid: HTMLElement;
  private readonly slots = new Map<string, Slot>();
  private readonly resizer: ResizeObserver | null;
  private readonly themeWatch: MutationObserver | null;
  private revision = 0;
  private theme: Theme | null = null;
  private waiting: PanelData | null = null;

  /** `send`, when given, draws the controls that send intents (the moves' measure switch,
   *  a click on a review point: `goto`). */
  constructor(private readonly send?: Send) {
    this.heading = h("h2", { class: "tl-panels-title" });
    this.message = h("p", { class: "tl-panels-message" });
    this.grid = h("div", { class: "tl-panel-grid" });
    this.switches = h("div", { class: "tl-panels-switches" });
    this.element = h("div", { class: "tl-panels" }, this.heading, this.switches, this.message, this.grid);
    this.resizer =
      typeof ResizeObserver === "undefined"
        ? null
        : new ResizeObserver((entries) =>
            entries.forEach((e) => {
              // only a width other than the one the chart was drawn at: a chart's own height
              // changes with its figure, and its first report is the width it was drawn at
              // (a relayout there would draw the chart twice)
              const el = e.target as HTMLElement;
              const width = Math.round(e.contentRect.width);
              // hidden (its figure is words only): shown again at its width, not redrawn
              if (width === 0 || width === drawnWidth(el)) return;
              resize(el);
            }),
          );
    // JupyterLab's theme switch changes these attributes of <body>: redraw in its colours
    this.themeWatch =
      typeof MutationObserver === "undefined"
        ? null
        : new MutationObserver(() => {
            this.retheme();
            setTimeout(() => this.retheme(), 300); // the new theme's stylesheet may come later
          });
    this.themeWatch?.observe(document.body, {
      attributes: true,
      attributeFilter: ["data-jp-theme-light", "data-jp-theme-name", "class"],
    });
  }

  /** Show `data`: the charts present are updated in place, the others removed. */
  update(data: PanelData): void {
    if (!this.element.isConnected) {
      // not in the page yet (drawn, then appended): the charts need its width and theme
      if (this.waiting === null) requestAnimationFrame(() => this.drawWaiting());
      this.waiting = data;
      return;
    }
    this.waiting = null;
    this.element.dataset.state = data.state;
    this.heading.textContent = data.title;
    this.message.textContent = data.message;
    this.message.hidden = data.message === "";
    this.switches.replaceChildren(
      ...(this.send && data.state !== "hidden" ? [detailsSwitch(data.details, this.send)] : []),
    );
    const keys = FIGURE_KEYS.filter((key) => data.figures[key] !== undefined);
    for (const [key, slot] of this.slots) {
      if (!keys.includes(key as (typeof FIGURE_KEYS)[number])) {
        this.resizer?.unobserve(slot.plot);
        purge(slot.plot);
        if (slot.kept) purge(slot.kept.el);
        slot.section.remove();
        this.slots.delete(key);
      }
    }
    this.theme = readTheme(this.element);
    const focused = document.activeElement;
    const focusKey =
      focused instanceof HTMLElement && this.grid.contains(focused) ? focused.getAttribute("data-focus") : null;
    const shown: [string, Slot, PanelFigure][] = [];
    keys.forEach((key, i) => {
      const figure = data.figures[key];
      if (!figure) return;
      const slot = this.slots.get(key) ?? this.make(key);
      if (this.grid.children[i] !== slot.section) this.grid.insertBefore(slot.section, this.grid.children[i] ?? null);
      slot.heading.textContent = figure.name;
      slot.alt.textContent = figure.alt;
      slot.caption.textContent = figure.caption ?? "";
      slot.caption.hidden = !figure.caption;
      slot.controls.replaceChildren(...this.controls(key, data));
      shown.push([key, slot, figure]);
    });
    // drawn once every panel is in the grid: plotly.js measures a chart's width as it draws
    // it, and a chart drawn before the panels after it were placed took the grid's whole
    // row (the outcome chart twice its panel's width at 900 px, until a resize 100 ms later)
    if (focusKey) this.grid.querySelector<HTMLElement>(`[data-focus="${focusKey}"]`)?.focus({ preventScroll: true });
    this.revision += 1;
    const revision = this.revision;
    this.element.dataset.shown = String(revision);
    // while the whole-game analysis runs, the moves' chart first, in a task of its own
    // (the figures a player waits for), then the others in their order in the page
    const waited = data.moves.worlds > 0 && !data.moves.done;
    if (waited) shown.sort(([a], [b]) => Number(b === FIRST_DRAWN) - Number(a === FIRST_DRAWN));
    // drawn: every chart's Plotly.react settled (a newer state's charts replace a state's
    // still to draw, and mark it drawn instead)
    void this.drawInTurn(revision, shown, waited ? 1 : shown.length).then(() => {
      if (revision === this.revision) this.element.dataset.revision = String(revision);
    });
  }

  /** Draw the charts of state `revision` in `queue`'s order: the first `now` in this task
   *  (the page shows them at once), the others in the next one (a newer state by then
   *  draws them instead). A section's `data-drawn` is the state its chart shows. Resolves
   *  once they settled, or when a newer state came. */
  private drawInTurn(revision: number, queue: [string, Slot, PanelFigure][], now: number): Promise<void> {
    const draws: Promise<unknown>[] = [];
    const drawSome = (some: [string, Slot, PanelFigure][]): void => {
      for (const [key, slot, figure] of some) {
        const mark = (): void => {
          if (revision === this.revision) slot.section.dataset.drawn = String(revision);
        };
        draws.push(this.draw(key, slot, figure).then(mark));
      }
    };
    drawSome(queue.slice(0, now));
    return new Promise((resolve) => {
      const rest = (): void => {
        if (revision !== this.revision) {
          resolve();
          return;
        }
        drawSome(queue.slice(now));
        void Promise.allSettled(draws).then(() => resolve());
      };
      if (queue.length > now) setTimeout(rest, 0);
      else rest();
    });
  }

  /** What a panel shows below its chart besides the figure (switches, words). */
  private controls(key: string, data: PanelData): HTMLElement[] {
    if (key === "moves") return movesControls(data.moves, this.send, data.details);
    if (key === "suggest") return suggestControls(data.suggest, this.send);
    if (key === "outcome") return oddsModelControls(data.suggest, this.send);
    return [];
  }

  private drawWaiting(): void {
    const data = this.waiting;
    this.waiting = null;
    if (data === null) return;
    if (this.element.isConnected) this.update(data);
    else {
      this.waiting = data; // not shown yet: look again next frame (until a new state)
      requestAnimationFrame(() => this.drawWaiting());
    }
  }

  /** Stop watching the page (the table was removed). */
  dispose(): void {
    this.resizer?.disconnect();
    this.themeWatch?.disconnect();
    for (const slot of this.slots.values()) {
      purge(slot.plot);
      if (slot.kept) purge(slot.kept.el);
    }
    this.slots.clear();
  }

  private make(key: string): Slot {
    const plot = plotElement(key);
    const words = h("p", { class: "tl-plot-words", "aria-hidden": "true", hidden: "" });
    const alt = h("p", { class: "tl-visually-hidden" });
    const controls = h("div", { class: "tl-panel-controls" });
    const id = `tl-panel-title-${key}-${Math.random().toString(36).slice(2, 9)}`;
    const heading = h("h3", { class: "tl-panel-title", id });
    // the caption is read on the page (aria-hidden is on the chart only), so the alt need not repeat it
    const caption = h("p", { class: "tl-panel-caption", "data-testid": `caption-${key}` });
    const legendTop = h("ul", { class: "tl-legend", hidden: "" });
    const legendBottom = h("ul", { class: "tl-legend", hidden: "" });
    const section = h(
      "section",
      { class: `tl-panel tl-panel-${key}`, "data-figure": key, "aria-labelledby": id },
      heading,
      legendTop,
      plot,
      legendBottom,
      words,
      caption,
      controls,
      alt,
    );
    const slot: Slot = {
      section,
      heading,
      controls,
      plot,
      words,
      alt,
      caption,
      legendTop,
      legendBottom,
      legendKey: "",
      figure: null,
      kept: null,
      drawn: "",
    };
    this.slots.set(key, slot);
    this.resizer?.observe(plot);
    return slot;
  }

  private draw(key: string, slot: Slot, figure: PanelFigure): Promise<unknown> {
    slot.figure = figure;
    const theme = this.theme ?? readTheme(this.element);
    // Words only (no card on the table, no turn played, a turn half played): in HTML, with
    // the chart hidden as it was (none before the panel's first chart: a table's first
    // state draws only the charts that plot something). A move and its take-back then
    // redraw no chart for it, and the chart comes back as it was; plotly.js would rebuild
    // the whole chart twice.
    // A state often leaves a chart as it was (the timeline on a preview): Plotly.react
    // would still recompute and redraw all of it (its arrays are new objects).
    const drawn = JSON.stringify([figure.figure, theme]);
    const words = drawn === slot.drawn ? null : wordsOnly(figure.figure);
    if (words !== null) {
      slot.words.textContent = words;
      slot.words.style.minHeight = `${Number(themed(figure.figure.layout, theme).height) || 0}px`;
      slot.words.hidden = false;
      slot.plot.hidden = true;
      slot.legendTop.hidden = slot.legendBottom.hidden = true;
      return Promise.resolve();
    }
    slot.words.hidden = true;
    slot.plot.hidden = false;
    const split = splitLegend(figure.figure);
    showLegend(slot, split);
    if (drawn === slot.drawn) return Promise.resolve();
    const kept = slot.kept;
    if (kept !== null && kept.drawn === drawn && fits(kept.el, slot.plot)) {
      // the chart of a state shown just before (a move and its take-back): put back as it was
      this.show(slot, kept);
      return Promise.resolve();
    }
    if (slot.plot.classList.contains("js-plotly-plot") && plotlyNow() !== null) {
      // the chart on screen is kept for a take-back: the new figure is drawn over the older
      // chart (or in a new element) put in its place, in this task (no frame without a chart)
      this.show(slot, kept ?? { el: plotElement(key), drawn: "" });
    }
    slot.drawn = drawn;
    return drawFigure(slot.plot, key, split ? split.figure : figure.figure, theme).then(
      (el) => {
        if (key !== "review" || clickable.has(el) || !this.send) return;
        clickable.add(el);
        const send = this.send;
        el.on("plotly_click", (event) => {
          const turn = event.points[0]?.customdata;
          if (typeof turn === "number") send({ kind: "goto", turn });
        });
      },
      (error: unknown) => {
        slot.drawn = ""; // not drawn: the same figure is tried again next time
        throw error;
      },
    );
  }

  /** Put `chart` in the page in place of the slot's chart, which the slot keeps instead. */
  private show(slot: Slot, chart: Chart): void {
    const shown: Chart = { el: slot.plot, drawn: slot.drawn };
    shown.el.replaceWith(chart.el);
    chart.el.hidden = false;
    this.resizer?.unobserve(shown.el);
    this.resizer?.observe(chart.el);
    slot.plot = chart.el;
    slot.drawn = chart.drawn;
    slot.kept = shown;
  }

  /** Redraw every chart in the page's current theme. */
  retheme(): void {
    if (!this.element.isConnected) return;
    const theme = readTheme(this.element);
    if (this.theme && JSON.stringify(theme) === JSON.stringify(this.theme)) return;
    this.theme = theme;
    for (const [key, slot] of this.slots) if (slot.figure) void this.draw(key, slot, slot.figure);
  }
}

/** The HTML legend of `split` around the slot's chart (none: plotly.js draws it). */
function showLegend(slot: Slot, split: SplitLegend | null): void {
  const key = split === null ? "" : JSON.stringify([split.top, split.bottom]);
  if (key !== slot.legendKey) {
    slot.legendKey = key;
    slot.legendTop.replaceChildren(...legendList(split?.top ?? []));
    slot.legendBottom.replaceChildren(...legendList(split?.bottom ?? []));
  }
  slot.legendTop.hidden = slot.legendTop.childElementCount === 0;
  slot.legendBottom.hidden = slot.legendBottom.childElementCount === 0;
}

/** A chart's element (empty until plotly.js draws in it). */
function plotElement(key: string): HTMLElement {
  return h("div", { class: "tl-plot", "aria-hidden": "true", "data-figure": key });
}

/** Whether the chart `el` was drawn at the width of `shown` (the element in the page; a
 *  hidden one, 0 px wide, fits any: the chart is resized when it shows, ResizeObserver). */
function fits(el: HTMLElement, shown: HTMLElement): boolean {
  const width = Math.round(shown.getBoundingClientRect().width);
  return width === 0 || width === drawnWidth(el);
}

/** Draw `data` once, in a new element (a static page; the table keeps a PanelsView). */
export function renderPanels(data: PanelData, send?: Send): HTMLElement {
  const view = new PanelsView(send);
  view.update(data);
  return view.element;
}
