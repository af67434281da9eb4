// The HTML export (tenleave_widget/programs/export.py): a page that steps through a game with the
// widget's own renderer (mountTable: the table and its odds panels), from table states all
// computed in Python at export time. No kernel, no network: the states travel as JSON
// inside the page.

import "./widget.css";
import "./export.css";
import "./plotly-runtime"; // one page, offline: plotly.js inlined with the table

import { mountTable } from "./mount";
import type { TableSource } from "./mount";
import type { Intent, TableState } from "./protocol";

interface ExportData {
  format: string;
  players: string[];
  /** The perspectives in the page: a seat, or null for the teacher's view. */
  perspectives: (number | null)[];
  total: number;
  /** states[p][t]: the table (and its panels) after t turns, seen from perspectives[p]. */
  states: TableState[][];
}

function show(main: HTMLElement, data: ExportData): void {
  let p = 0;
  let turn = 0;
  let showOdds = true;
  let size: TableState["size"] | null = null; // the table's size control, if used
  const redraws: (() => void)[] = [];
  const tableEl = document.createElement("section");
  tableEl.className = "tl-export-table";
  main.querySelector(".tl-export-loading")?.remove();
  main.append(tableEl);

  const current = (): TableState => {
    const state = data.states[p]?.[turn];
    if (!state) throw new Error(`no state for perspective ${p}, turn ${turn}`);
    return { ...state, show_odds: showOdds, size: size ?? state.size };
  };
  const update = (): void => {
    main.dataset["turn"] = String(turn);
    const seat = data.perspectives[p];
    main.dataset["view"] = seat === null || seat === undefined ? "all" : String(seat);
    for (const redraw of redraws) redraw();
  };
  const send = (intent: Intent): void => {
    if (intent.kind === "goto") {
      turn = Math.max(0, Math.min(data.total, intent.turn));
    } else if (intent.kind === "perspective") {
      const index = data.perspectives.indexOf(intent.seat);
      if (index < 0) return; // a seat's export holds that seat's view only
      p = index;
    } else if (intent.kind === "odds") {
      showOdds = intent.show;
    } else if (intent.kind === "size") {
      const sizes: string[] = ["small", "medium", "large", "projector"];
      if (sizes.includes(intent.size)) size = intent.size as TableState["size"];
    } else {
      return; // a replay: nothing else can be done
    }
    update();
  };
  const source: TableSource = {
    get: current,
    subscribe: (redraw) => {
      redraws.push(redraw);
      return () => redraws.splice(redraws.indexOf(redraw), 1);
    },
    send,
  };
  mountTable(tableEl, source);
  // The arrow keys also work before the table has the focus (the page's only control).
  document.addEventListener("keydown", (ev) => {
    if (ev.target !== document.body) return;
    const keys: Record<string, number> = {
      ArrowLeft: turn - 1, ArrowRight: turn + 1, Home: 0, End: data.total,
    };
    const next = keys[ev.key];
    if (next === undefined) return;
    ev.preventDefault();
    send({ kind: "goto", turn: next });
  });
  update();
  document.body.dataset["ready"] = "1";
}

function start(): void {
  const main = document.getElementById("tenleave-export");
  const packed = document.getElementById("tenleave-data");
  if (!main || !packed) return;
  let data: ExportData;
  try {
    data = JSON.parse(packed.textContent ?? "") as ExportData;
  } catch (err) {
    main.append(`This page is damaged and cannot be shown: ${String(err)}`);
    return;
  }
  show(main, data);
}

start();
