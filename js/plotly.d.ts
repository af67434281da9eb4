// The few plotly.js calls the panels make (the partial bundle plotly.js-basic-dist-min:
// scatter, bar and pie traces; no types ship with it).
declare module "plotly.js-basic-dist-min" {
  export interface PlotlyPoint {
    customdata?: unknown;
    curveNumber: number;
    pointNumber: number;
  }
  export interface PlotlyClickEvent {
    points: PlotlyPoint[];
  }
  export interface PlotlyElement extends HTMLDivElement {
    on(event: "plotly_click", handler: (event: PlotlyClickEvent) => void): void;
    data?: Record<string, unknown>[];
    layout?: Record<string, unknown>;
    /** plotly.js's computed layout (internal): the size it drew at */
    _fullLayout?: { width?: number };
  }
  export interface PlotlyStatic {
    react(
      el: HTMLElement,
      data: Record<string, unknown>[],
      layout: Record<string, unknown>,
      config: Record<string, unknown>,
    ): Promise<PlotlyElement>;
    purge(el: HTMLElement): void;
    Plots: { resize(el: HTMLElement): Promise<void> | void };
  }
  const Plotly: PlotlyStatic;
  export default Plotly;
}
