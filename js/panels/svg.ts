// A tiny SVG builder: s("line", {x1: 0, ...}, child, ...).

const NS = "http://www.w3.org/2000/svg";

export function s(
  tag: string,
  attrs: Record<string, string | number> = {},
  ...children: (SVGElement | string)[]
): SVGElement {
  const el = document.createElementNS(NS, tag) as SVGElement;
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  for (const c of children) el.append(c);
  return el;
}

/** A marker shape per seat (so lines are told apart without colour), centred on x, y. */
export function marker(seat: number, x: number, y: number, r: number, cls: string): SVGElement {
  switch (seat % 5) {
    case 0:
      return s("circle", { cx: x, cy: y, r, class: cls });
    case 1:
      return s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: cls });
    case 2:
      return s("path", { d: `M${x},${y - r * 1.2} L${x + r * 1.2},${y + r} L${x - r * 1.2},${y + r} Z`, class: cls });
    case 3:
      return s("path", { d: `M${x},${y - r * 1.3} L${x + r * 1.3},${y} L${x},${y + r * 1.3} L${x - r * 1.3},${y} Z`, class: cls });
    default:
      return s("path", {
        d: `M${x - r},${y - r} L${x + r},${y + r} M${x - r},${y + r} L${x + r},${y - r}`,
        class: `${cls} tl-mark-cross`,
      });
  }
}
