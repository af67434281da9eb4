// The panel data, as tenleave_widget/charts.py makes it (PanelData there); the protocol
// test compares the two.

export interface OutcomeChart {
  queue: number;
  cards: string[];
  empty: boolean;
  p_under: number;
  p_exact: number;
  p_over: number;
}

export interface CardChart {
  queue: number;
  position: number;
  label: string;
  owner: number;
  value: number | null;
  p_swatted: number;
}

export interface MoveChart {
  label: string;
  expected_penalty: number;
  best: boolean;
}

export interface MovesChart {
  seat: number | null;
  moves: MoveChart[];
  empty: string;
}

export interface TimelineChart {
  turns: number[];
  penalty: number[][];
  expected: (number | null)[];
  viewer: number | null;
}

export interface PanelData {
  state: "live" | "finished" | "hidden";
  title: string;
  message: string;
  players: string[];
  colours: string[];
  outcome: OutcomeChart[];
  cards: CardChart[];
  moves: MovesChart;
  timeline: TimelineChart;
}
