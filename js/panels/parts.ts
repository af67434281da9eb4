// Small pieces shared by the panel components: a panel frame, a percentage, a bar.

import { h, type Child } from "../dom";

/** A panel: a heading in plain words, an optional one-line explanation, its body. */
export function frame(id: string, title: string, explain: string, ...body: Child[]): HTMLElement {
  return h(
    "section",
    { class: `tl-panel tl-panel-${id}`, "aria-label": title },
    h("h3", { class: "tl-panel-title" }, title),
    explain ? h("p", { class: "tl-panel-explain" }, explain) : null,
    ...body,
  );
}

export function percent(p: number): string {
  if (p <= 1e-9) return "0%"; // floating-point dust is not a chance
  if (p >= 1 - 1e-9) return "100%";
  if (p > 0 && p < 0.005) return "<1%";
  if (p < 1 && p > 0.995) return ">99%";
  return `${Math.round(p * 100)}%`;
}

/** A horizontal bar of `fraction` (0..1) of the row's width, with a text label. */
export function bar(fraction: number, cls: string, label: string): HTMLElement {
  const width = Math.max(0, Math.min(1, fraction)) * 100;
  return h(
    "div",
    { class: "tl-bar-track" },
    h("div", { class: `tl-bar ${cls}`, style: `width: ${width.toFixed(2)}%` }),
    h("span", { class: "tl-bar-value" }, label),
  );
}

/** The colour class of a seat's colour name (tl-c-red ...). */
export function colourClass(colour: string | undefined): string {
  return `tl-c-${colour ?? "grey"}`;
}

/** A card notation for people: "?*" is shown as "?✱" (a marked back). */
export function cardText(card: string): string {
  return card.replace("*", "✱");
}
