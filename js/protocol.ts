// The contract between Python and the browser, mirrored from
// tenleave_widget/table/protocol.py (tests/test_widget_protocol.py fails when the two
// disagree). `TableState` is the synced state of the table widget (one traitlet per key):
// `view` follows docs/view.md (tenleave-view/1); everything else is computed by Python
// (tenleave_widget/table/session.py). The browser holds no game rules: it draws what it
// is given and sends an `Intent` back.

export type Back = "marked" | "plain";

export type Mode = "play" | "hotseat" | "replay";

export interface TableCard {
  key: number;
  owner: number;
  back: Back;
  value: number | null;
  peeked_by: number[];
}

export interface Hand {
  size: number;
  marked: number;
  plain: number;
  cards: string[] | null;
}

export interface SafeCard {
  owner: number;
  card: string;
}

export interface FlippedCard {
  key: number;
  owner: number;
  card: string;
}

export interface SwatQueue {
  queue: number;
  flipped: FlippedCard[];
  total: number;
  outcome: "under" | "exact" | "over" | "empty" | "single";
  swatted: number[];
  single: FlippedCard | null;
}

export type GameEvent =
  | { kind: "peek"; seat: number; queue: number; position: number; key: number }
  | { kind: "rotate"; seat: number; queue: number }
  | { kind: "wake"; seat: number }
  | { kind: "play"; seat: number; queue: number; back: Back; key: number }
  | { kind: "swat"; reason: "wake" | "full" | "daybreak"; queues: SwatQueue[] }
  | { kind: "token"; token: string }
  | { kind: "end"; winners: number[] };

export interface ViewRules {
  deck: string[];
  tokens: Record<string, number[]>;
  daybreak_token_change: boolean;
}

export interface View {
  format: string;
  seat: number | null;
  players: string[];
  colours: string[];
  first: number;
  rules: ViewRules;
  queue_capacity: number;
  turns_applied: number;
  to_move: number | null;
  finished: boolean;
  token: string;
  token_positions: number[];
  queues: TableCard[][];
  hands: Hand[];
  dealt: string[][];
  swatted: string[][];
  safe: SafeCard[];
  penalty: number[];
  winners: number[] | null;
  events: GameEvent[];
}

/** What the viewing seat may do now (computed by Python with the engine). */
export interface Offers {
  active: boolean;
  play_cards: string[];
  play_queues: number[];
  peek: [number, number][];
  rotate: number[];
  wake: boolean;
  end: boolean;
  reset: boolean;
  undo: boolean;
  again: boolean;
  /** Why Wake SleepKid is not offered at the start of the turn ("" when it is). */
  wake_why: string;
}

export interface Message {
  id: number;
  level: "error" | "info" | "";
  text: string;
}

export interface SwatCard {
  owner: number;
  card: string;
  swatted: boolean;
}

export interface SwatQueueWords {
  queue: number;
  cards: SwatCard[];
  text: string;
}

export interface SwatWords {
  reason: string;
  title: string;
  queues: SwatQueueWords[];
}

export interface TurnWords {
  turn: number;
  seat: number;
  pending?: boolean;
  /** One line per public event of the turn, in words. */
  lines: string[];
  /** The swats of the turn, each queue's flips in order with a one-line explanation. */
  swats: SwatWords[];
}

export interface Narration {
  turns: TurnWords[];
  /** Per seat, "greedy bot" and so on for a bot, else "" (always sent by Python). */
  roles: string[];
}

export interface ReplayState {
  turn: number;
  total: number;
  note: string;
  note_turn: number | null;
}

export interface Cover {
  shown: boolean;
  seat: number | null;
  text: string;
}

// The odds panels' data (tenleave_widget/table/charts.py), drawn by js/panels/.

export interface OutcomeChart {
  queue: number;
  cards: string[];
  empty: boolean;
  p_under: number;
  p_exact: number;
  p_over: number;
  /** the distribution of the queue's total when the flipping stops (total -> chance) */
  total: Record<string, number>;
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
  final: number | null;
  final_ci95: number[];
  margin: number | null;
  margin_ci95: number[];
}

export interface MovesChart {
  seat: number | null;
  moves: MoveChart[];
  empty: string;
  measure: "swat" | "game";
  worlds: number;
  target: number;
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
  /** the panels as Plotly figures (charts.panel_figures), what the table draws */
  figures: Record<string, PanelFigure>;
}

/** A Plotly figure as JSON (what go.Figure.to_plotly_json() gives). */
export interface FigureJSON {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
}

/** One panel as a Plotly figure, its accessible name and a text alternative. */
export interface PanelFigure {
  name: string;
  alt: string;
  figure: FigureJSON;
}

export interface BestMove {
  card: string;
  queue: number;
  /** the queue the best turn rotates (front card to the back), or null */
  rotate: number | null;
  /** whether that rotation comes before or after the play, or null */
  rotate_when: "before" | "after" | null;
  /** whether the best turn wakes SleepKid (before its play) */
  wake: boolean;
  text: string;
}

export interface TableState {
  view: View;
  mode: Mode;
  perspective: number | null;
  offers: Offers;
  pending: string[];
  message: Message;
  narration: Narration;
  replay: ReplayState;
  cover: Cover;
  busy: boolean;
  show_odds: boolean;
  status: string;
  panels: PanelData;
  size: "small" | "medium" | "large" | "projector";
  best: BestMove | null;
}

/** A message to Python (what a click sends); Python checks every one. */
export type Intent =
  | { kind: "play"; card: string; queue: number }
  | { kind: "peek"; queue: number; position: number }
  | { kind: "rotate"; queue: number }
  | { kind: "wake" }
  | { kind: "end" }
  | { kind: "reset" }
  | { kind: "undo" }
  | { kind: "uncover" }
  | { kind: "goto"; turn: number }
  | { kind: "perspective"; seat: number | null }
  | { kind: "odds"; show: boolean }
  | { kind: "size"; size: string }
  | { kind: "measure"; measure: string }
  | { kind: "again" }
  | { kind: "hello" }
  | { kind: "branch" };

/** The keys of TableState, in one list (what the widget reads from its model). */
export const TABLE_STATE_KEYS = [
  "view",
  "mode",
  "perspective",
  "offers",
  "pending",
  "message",
  "narration",
  "replay",
  "cover",
  "busy",
  "show_odds",
  "status",
  "panels",
  "size",
  "best",
] as const satisfies readonly (keyof TableState)[];

type MissingKey = Exclude<keyof TableState, (typeof TABLE_STATE_KEYS)[number]>;
/** Compiles only when TABLE_STATE_KEYS lists every key of TableState. */
export const TABLE_STATE_KEYS_COMPLETE: [MissingKey] extends [never] ? true : MissingKey = true;
