// "Penalties so far": each seat's penalty after each turn (SVG), tied lines offset so
// none hides another, a marker shape per seat, names written at the line ends.

import { h } from "../dom";
import { colourClass, frame } from "./parts";
import { marker, s } from "./svg";
import type { TimelineChart } from "./types";

const W = 300;
const H = 160;
const M = { l: 26, r: 84, t: 10, b: 26 };
const TIE_GAP = 3.2; // px between tied lines

/** Per turn index: each seat's vertical offset (px) so that tied seats sit side by side. */
function offsets(penalty: number[][], n: number): number[][] {
  const seats = penalty.length;
  const out = penalty.map(() => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    const groups = new Map<number, number[]>();
    for (let seat = 0; seat < seats; seat++) {
      const v = penalty[seat]?.[i] ?? 0;
      groups.set(v, [...(groups.get(v) ?? []), seat]);
    }
    for (const group of groups.values()) {
      group.forEach((seat, rank) => {
        const row = out[seat];
        if (row) row[i] = (rank - (group.length - 1) / 2) * TIE_GAP;
      });
    }
  }
  return out;
}

export function timelinePanel(t: TimelineChart, players: string[], colours: string[]): HTMLElement {
  const n = t.turns.length;
  const explain = "Each player's penalty after each turn; lower is better. Lines that tie are drawn side by side.";
  if (n === 0) {
    return frame("timeline", "Penalties so far", explain, h("p", { class: "tl-empty-note" }, "No turn played yet."));
  }
  const expected = t.expected.filter((e): e is number => e !== null);
  const top = Math.max(4, ...t.penalty.flat(), ...expected.map((e) => Math.ceil(e)));
  const first = t.turns[0] ?? 0;
  const last = t.turns[n - 1] ?? 0;
  const span = Math.max(1, last - first);
  const x = (turn: number): number => M.l + ((turn - first) / span) * (W - M.l - M.r);
  const y = (v: number): number => H - M.b - (v / top) * (H - M.t - M.b);
  const off = offsets(t.penalty, n);
  const svg = s("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "tl-timeline",
    role: "img",
    "aria-label":
      `Penalties after turn ${last}: ` + players.map((p, seat) => `${p} ${t.penalty[seat]?.[n - 1] ?? 0}`).join(", "),
  });
  // axes and grid
  const ticks = [0, Math.round(top / 2), top];
  for (const v of ticks) {
    svg.append(s("line", { x1: M.l, x2: W - M.r, y1: y(v), y2: y(v), class: "tl-grid" }));
    svg.append(s("text", { x: M.l - 5, y: y(v) + 4, class: "tl-tick", "text-anchor": "end" }, String(v)));
  }
  svg.append(s("text", { x: M.l, y: H - 8, class: "tl-tick", "text-anchor": "start" }, `turn ${first}`));
  svg.append(s("text", { x: W - M.r, y: H - 8, class: "tl-tick", "text-anchor": "end" }, `turn ${last}`));
  // the viewer's penalty + expected penalty of a swat then
  if (expected.length > 0) {
    const pts = t.turns.map((turn, i) => [turn, t.expected[i]] as const).filter((p): p is readonly [number, number] => p[1] !== null);
    svg.append(
      s("polyline", { points: pts.map(([turn, e]) => `${x(turn)},${y(e)}`).join(" "), class: "tl-expected" }),
    );
  }
  // one line per seat
  t.penalty.forEach((values, seat) => {
    const cls = colourClass(colours[seat]);
    const pts = values.map((v, i) => `${x(t.turns[i] ?? 0)},${y(v) + (off[seat]?.[i] ?? 0)}`);
    const g = s("g", { class: `tl-series ${cls}` });
    g.append(s("polyline", { points: pts.join(" "), class: "tl-line" }));
    const every = Math.max(1, Math.ceil(n / 24)); // markers, not a smear, on long games
    values.forEach((v, i) => {
      if (i % every === 0 || i === n - 1) {
        g.append(marker(seat, x(t.turns[i] ?? 0), y(v) + (off[seat]?.[i] ?? 0), 3, "tl-mark"));
      }
    });
    svg.append(g);
  });
  // names at the line ends, tied seats named together, labels kept apart
  const finals = new Map<number, number[]>();
  t.penalty.forEach((values, seat) => {
    const v = values[n - 1] ?? 0;
    finals.set(v, [...(finals.get(v) ?? []), seat]);
  });
  let lastY = -Infinity;
  for (const v of [...finals.keys()].sort((a, b) => b - a)) {
    const seats = finals.get(v) ?? [];
    const ly = Math.max(y(v) + 4, lastY + 12);
    lastY = ly;
    svg.append(
      s("text", { x: W - M.r + 6, y: ly, class: "tl-endlabel" }, `${seats.map((k) => players[k]).join(", ")}: ${v}`),
    );
  }
  const legend = h(
    "ul",
    { class: "tl-legend" },
    players.map((p, seat) => {
      const key = s("svg", { viewBox: "0 0 24 12", class: `tl-linekey ${colourClass(colours[seat])}`, "aria-hidden": "true" });
      key.append(s("line", { x1: 1, x2: 23, y1: 6, y2: 6, class: "tl-line" }), marker(seat, 12, 6, 3, "tl-mark"));
      return h("li", null, key, p);
    }),
    t.viewer !== null && expected.length > 0
      ? h(
          "li",
          null,
          h("span", { class: "tl-swatch tl-expected-key", "aria-hidden": "true" }),
          `${players[t.viewer] ?? ""}'s penalty + the expected penalty of a swat right then`,
        )
      : null,
  );
  return frame("timeline", "Penalties so far", explain, svg, legend);
}
