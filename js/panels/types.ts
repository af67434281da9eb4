// The panel data types live in the protocol (js/protocol.ts), generated from
// tenleave_widget/table/panels/data.py; the panel components read them from here.
export type { FigureJSON, MovesChart, PanelData, PanelFigure } from "../protocol";
