// The standalone bundle: the table (js/table-widget.ts) with plotly.js in the same ESM, for
// where no runtime widget brings it — marimo (a notebook saved as code: no widget state to
// keep small) and static pages that import `renderTableState` or `renderPanels`.
import "./plotly-runtime";

export * from "./table-widget";
export { default } from "./table-widget";
