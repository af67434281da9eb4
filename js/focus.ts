// Keeping the keyboard focus across redraws: where it was before the table was rebuilt,
// and where it goes after (the hot-seat cover, the next sensible control after an action,
// the same control again, or the table itself).

import type { TableState } from "./protocol";
import type { UiState } from "./send";

/** Where the focus was before a redraw. */
export interface FocusBefore {
  /** The `data-focus` key of the focused control inside the table, if any. */
  key: string | null;
  /** The table element itself had the focus. */
  rootFocused: boolean;
  /** The table or anything in it had the focus. */
  hadFocus: boolean;
}

export function focusBefore(root: HTMLElement): FocusBefore {
  const focused = document.activeElement;
  const inside = focused instanceof HTMLElement && root.contains(focused);
  const rootFocused = focused === root;
  return {
    key: inside ? focused.getAttribute("data-focus") : null,
    rootFocused,
    hadFocus: rootFocused || inside,
  };
}

/** The element a focus key names: "root", "hand-first" or a control's `data-focus`. */
export function focusTarget(root: HTMLElement, content: HTMLElement, key: string): HTMLElement | null {
  if (key === "root") return root;
  if (key === "hand-first") return content.querySelector<HTMLElement>('[data-group="hand"]');
  return content.querySelector<HTMLElement>(`[data-focus="${key}"]`);
}

/** Put the focus back after `content` was redrawn for `state`. */
export function restoreFocus(
  root: HTMLElement,
  content: HTMLElement,
  state: TableState,
  ui: UiState,
  before: FocusBefore,
): void {
  const target = (key: string): HTMLElement | null => focusTarget(root, content, key);
  const cover = state.cover.shown ? target("uncover") : null;
  const next = ui.focusNext.map(target).find((el) => el !== null && el !== root);
  if (cover && before.hadFocus) {
    // The hot-seat cover appeared while the table had the focus: "I am ready" takes it.
    ui.focusNext = [];
    cover.focus({ preventScroll: false });
  } else if (next && !state.busy) {
    ui.focusNext = [];
    next.focus({ preventScroll: false });
  } else if (before.key) {
    const again = content.querySelector<HTMLElement>(`[data-focus="${before.key}"]`);
    (again ?? root).focus({ preventScroll: true });
  } else if (before.rootFocused) {
    root.focus({ preventScroll: true });
  }
}
