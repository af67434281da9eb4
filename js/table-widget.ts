// The anywidget front end of tenleave_widget.widget.TableWidget (without plotly.js: the
// runtime widget, js/plotly-runtime.ts, brings it once per page): the model's traitlets
// (one per key of TableState) are the table state; clicks go back as custom messages.
//
// `renderTableState` draws a table state computed in Python without a live model (a
// static page, an HTML export): import it from the same bundle.
import "./widget.css";

import type { AnyModel, RenderProps } from "@anywidget/types";

import { mountTable } from "./mount";
import type { TableSource } from "./mount";
import { TABLE_STATE_KEYS } from "./protocol";
import type { Intent, TableState } from "./protocol";

type Model = AnyModel<TableState>;

/** How long a drawn table waits for the kernel's answer before it says "not connected". */
const HELLO_TIMEOUT_MS = 2500;

function modelSource(model: Model): TableSource {
  let connected = true; // until the hello goes unanswered: no flash on a live kernel
  let answered = false;
  const redraws = new Set<() => void>();
  model.on("msg:custom", (msg: { kind?: string }) => {
    if (msg?.kind === "connected") {
      answered = true;
      if (!connected) {
        connected = true;
        for (const r of redraws) r();
      }
    }
  });
  try {
    model.send({ kind: "hello" });
  } catch {
    connected = false; // no comm at all: a notebook reopened without its kernel
  }
  setTimeout(() => {
    if (!answered) {
      connected = false;
      for (const r of redraws) r();
    }
  }, HELLO_TIMEOUT_MS);
  return {
    connected: () => connected,
    get: () => Object.fromEntries(TABLE_STATE_KEYS.map((key) => [key, model.get(key)])) as unknown as TableState,
    subscribe: (redraw) => {
      model.on("change", redraw);
      redraws.add(redraw);
      return () => {
        model.off("change", redraw);
        redraws.delete(redraw);
      };
    },
    send: (intent) => model.send(intent),
  };
}

function render({ model, el }: RenderProps<TableState>): () => void {
  return mountTable(el, modelSource(model));
}

/** Draw a fixed table state into `el` (no model: clicks go to `send`, by default nowhere). */
export function renderTableState(
  el: HTMLElement,
  state: TableState,
  send: (intent: Intent) => void = () => {},
): () => void {
  return mountTable(el, { get: () => state, subscribe: () => () => {}, send });
}

export { PanelsView, renderPanels } from "./panels/panels";

export default { render };
