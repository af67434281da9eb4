// The HTML export (tenleave_widget/programs/export.py): a page that steps through a game with the
// widget's own renderer (mountTable: the table and its odds panels), from table states all
// computed in Python at export time. No kernel, no network: the states travel as JSON
// inside the page, each position as a patch of the one before it (export.py: "the page's
// encoding"), undone here.

import "./widget.css";
import "./export.css";
import "./plotly-runtime"; // one page, offline: plotly.js inlined with the table

import { mountTable } from "./mount";
import type { TableSource } from "./mount";
import type { Intent, TableState } from "./protocol";
import { WORDS } from "./words";

interface PackedData {
  format: string;
  players: string[];
  /** The perspectives in the page: a seat, or null for the teacher's view. */
  perspectives: (number | null)[];
  total: number;
  /** patches[p][t]: the table (and its panels) after t turns, seen from perspectives[p], as
   *  a patch of the state before it (t - 1 in the same view; t = 0: the view before's). */
  patches: Patch[][];
}

interface ExportData extends Omit<PackedData, "patches"> {
  /** states[p][t]: the table (and its panels) after t turns, seen from perspectives[p]. */
  states: TableState[][];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** 0: the value before; [0, v]: v; [1, {key: patch}, deleted keys?]: an object patched;
 *  [2, n, [patch...]]: the array before's first n items, then items patched. */
type Patch = 0 | [0, Json] | [1, Record<string, Patch>, string[]?] | [2, number, Patch[]];

function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The value that patch `e` makes of `prev` (which is not changed: unchanged parts are
 *  shared). export.py's `unpatch`. */
export function unpatch(prev: Json | undefined, e: Patch): Json {
  if (e === 0) return prev === undefined ? null : prev;
  if (e[0] === 0) return e[1];
  if (e[0] === 1) {
    const base = prev !== null && typeof prev === "object" && !Array.isArray(prev) ? prev : {};
    const out: { [key: string]: Json } = { ...base };
    for (const key of e[2] ?? []) delete out[key];
    let added = false;
    for (const [key, sub] of Object.entries(e[1])) {
      const had = Object.prototype.hasOwnProperty.call(out, key);
      added ||= !had;
      out[key] = unpatch(had ? out[key] : null, sub);
    }
    if (!added) return out;
    // The page's JSON is written with its keys sorted (by code point, as Python sorts): a
    // new key takes its sorted place, as if the state had been parsed on its own.
    const sorted: { [key: string]: Json } = {};
    for (const key of Object.keys(out).sort(byCodePoint)) sorted[key] = out[key] ?? null;
    return sorted;
  }
  const base = Array.isArray(prev) ? prev : [];
  const n = e[1];
  return [...base.slice(0, n), ...e[2].map((sub, i) => unpatch(n + i < base.length ? base[n + i] : null, sub))];
}

/** The states of the page, each a patch of the one before it, undone. */
export function unpack(data: PackedData): ExportData {
  const states: TableState[][] = [];
  let prev: Json = null;
  for (const row of data.patches) {
    const view: Json[] = [];
    for (const e of row) {
      prev = unpatch(prev, e);
      view.push(prev);
    }
    prev = view[0] ?? null;
    states.push(view as unknown as TableState[]);
  }
  const { patches: _patches, ...rest } = data;
  return { ...rest, states };
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

  // The states share their unchanged parts: each position shown gets its own copy (made
  // once), as if it had been parsed on its own (plotly.js may annotate what it draws).
  const copies = new Map<string, TableState>();
  const current = (): TableState => {
    const key = `${p}/${turn}`;
    let state = copies.get(key);
    if (!state) {
      const shared = data.states[p]?.[turn];
      if (!shared) throw new Error(`no state for perspective ${p}, turn ${turn}`);
      state = structuredClone(shared);
      copies.set(key, state);
    }
    return { ...state, show_odds: showOdds, size: size ?? state.size };
  };
  const update = (): void => {
    main.dataset.turn = String(turn);
    const seat = data.perspectives[p];
    main.dataset.view = seat === null || seat === undefined ? "all" : String(seat);
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
      ArrowLeft: turn - 1,
      ArrowRight: turn + 1,
      Home: 0,
      End: data.total,
    };
    const next = keys[ev.key];
    if (next === undefined) return;
    ev.preventDefault();
    send({ kind: "goto", turn: next });
  });
  update();
  document.body.dataset.ready = "1";
}

function start(): void {
  const main = document.getElementById("tenleave-export");
  const packed = document.getElementById("tenleave-data");
  if (!main || !packed) return;
  let data: ExportData;
  try {
    data = unpack(JSON.parse(packed.textContent ?? "") as PackedData);
  } catch (err) {
    main.append(WORDS.damaged(String(err)));
    return;
  }
  show(main, data);
  // For the tests (tests/browser/test_export_page.py): the states the page draws from.
  (window as unknown as { tenleaveExport: unknown }).tenleaveExport = { states: data.states };
}

start();
