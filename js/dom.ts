// A tiny DOM builder: h("div", {class: "x", "aria-label": "y"}, child, ...).

export type Child = Node | string | number | null | undefined | false | Child[];

export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (typeof value === "function") {
        el.addEventListener(name.replace(/^on/, ""), value);
      } else if (value === true) {
        el.setAttribute(name, "");
      } else {
        el.setAttribute(name, String(value));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

export const ROMAN = ["I", "II", "III", "IV", "V", "VI"];

export function roman(position: number): string {
  return ROMAN[position] ?? String(position + 1);
}

/** A plain action button; `testid` also names it for focus restoring. */
export function button(
  testid: string,
  text: string,
  onclick: () => void,
  cls = "",
  label: string | null = null,
): HTMLButtonElement {
  return h(
    "button",
    {
      type: "button",
      class: `tl-btn ${cls}`,
      "data-testid": testid,
      "data-focus": testid,
      "aria-label": label,
      onclick,
    },
    text,
  );
}
