// GENERATED from tenleave_widget/table/protocol.py by tools/gen_protocol.py: do not edit.
// Change the Python types, then run `python tools/gen_protocol.py` and `npm run build`.
// tests/table/test_protocol.py fails when this file is stale (or `python tools/gen_protocol.py --check`).
//
// The contract between Python and the browser. `TableState` is the synced state of the
// table widget (one traitlet per key): `view` follows docs/view.md (tenleave-view/1);
// everything else is computed by Python (tenleave_widget/table/session/machine.py). The browser
// holds no game rules: it draws what it is given and sends an `Intent` back.

/** A card's back as a view writes it: `"marked"` (`*` in the notation) or `"plain"`. */
export type Back = "marked" | "plain";

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

/** One queue of a swat: its cards flipped in order, their total and what came of it. */
export interface SwatQueue {
  queue: number;
  flipped: FlippedCard[];
  total: number;
  outcome: "under" | "exact" | "over" | "empty" | "single";
  /** The keys of the cards swatted. */
  swatted: number[];
  /**
   * In a daybreak pass, the one card of a queue holding exactly one (it escapes without a
   * flip; the outcome is `"single"`); else null.
   */
  single: FlippedCard | null;
}

export interface PeekEvent {
  kind: "peek";
  seat: number;
  queue: number;
  position: number;
  key: number;
}

export interface RotateEvent {
  kind: "rotate";
  seat: number;
  queue: number;
}

export interface WakeEvent {
  kind: "wake";
  seat: number;
}

export interface PlayEvent {
  kind: "play";
  seat: number;
  queue: number;
  back: Back;
  key: number;
}

export interface SwatEvent {
  kind: "swat";
  reason: "wake" | "full" | "daybreak";
  queues: SwatQueue[];
}

export interface TokenEvent {
  kind: "token";
  token: string;
}

export interface EndEvent {
  kind: "end";
  winners: number[];
}

/** One event of the last turn, as the engine reports it (`Game.view`'s `events`). */
export type GameEvent =
  | PeekEvent
  | RotateEvent
  | WakeEvent
  | PlayEvent
  | SwatEvent
  | TokenEvent
  | EndEvent;

export interface ViewRules {
  deck: string[];
  tokens: Record<string, number[]>;
  daybreak_token_change: boolean;
}

/** A seat's view, `tenleave-view/1` (`docs/view.md`), as `Game.view` makes it. */
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

/** One queue in a swat right now. */
export interface OutcomeChart {
  queue: number;
  /** Front first: the value the seat knows, or `"?"` (`"?*"` for a marked back). */
  cards: string[];
  empty: boolean;
  p_under: number;
  p_exact: number;
  p_over: number;
  /** The distribution of the queue's total when the flipping stops (total -> chance). */
  total: Record<string, number>;
}

/** One table card's fate in a swat right now. */
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
  /**
   * The kind of decision (`tenleave_widget.analysis.analyse.KINDS`; a one-swat row is
   * `"play"` or `"wake"`).
   */
  kind: string;
  /** The one-swat measure: the mover's expected penalty of a swat right after. */
  expected_penalty: number;
  /**
   * One swat ahead: the lowest. The whole game: in the analysis's best group (its ★
   * when `MovesChart.star`), or about equally good as the best (`MovesChart.star`
   * false: the ones marked are "about equally good"); none before the analysis stops.
   */
  best: boolean;
  /**
   * The whole-game measure (`tenleave_widget.analysis.analyse`, the one analysis of
   * the position): the mover's expected final penalty, `None` until the first worlds
   * are played (filled by the widget).
   */
  final: number | null;
  final_ci95: number[];
  /** The expected final margin (penalty minus the mean of the others'; lower wins). */
  margin: number | null;
  margin_ci95: number[];
  /**
   * Points of expected margin worse than the best decision, paired on common worlds
   * (the best: 0).
   */
  worse: number | null;
  /** `worse`'s paired 95% interval (the whiskers; the words read the same). */
  worse_ci95: number[];
  /** Other decisions that play out exactly alike (shown as this row). */
  same: string[];
}

export interface MovesChart {
  /** The seat whose moves these are (the seat to move), or None. */
  seat: number | null;
  moves: MoveChart[];
  /** Why no move is listed ('' when some are). */
  empty: string;
  /** What ranks the moves and marks the best: one swat ahead, or the whole game. */
  measure: "swat" | "game";
  /** Worlds played so far for the whole-game values (0: none yet) ... */
  worlds: number;
  /** ... out of at most this many (0: the whole-game values are not computed here). */
  target: number;
  /** The analysis has stopped: its figures are final (`worlds` is what it played). */
  done: boolean;
  /**
   * The analysis's best is clearly better than every other decision (a ★); else the
   * rows marked `best` are about equally good.
   */
  star: boolean;
}

export interface TimelineChart {
  turns: number[];
  /** Per seat, its penalty after each of `turns`. */
  penalty: number[][];
  /**
   * The viewing seat's penalty plus the expected penalty of a swat right then
   * (empty for the teacher's view).
   */
  expected: (number | null)[];
  viewer: number | null;
}

/**
 * A card the seat cannot see (a face-down table card, or one of an opponent's unseen
 * hand cards of one back: `size` of them), its chance of each value (`"3"` -> p) by
 * the rules alone and as the players' choices suggest (`.suggest`).
 */
export interface SuggestCard {
  label: string;
  owner: number;
  back: string;
  /** The table card's key (the turn that played it); `None` for a hand. */
  key: number | null;
  size: number;
  uniform: Record<string, number>;
  inferred: Record<string, number>;
}

/**
 * *What their plays suggest* (`.suggest`): its controls' settings, and
 * what it shows once read (`state`: `"off"` not computed here, `"reading"` under
 * way, `"ready"`, or `"quiet"`: only `message`).
 */
export interface SuggestChart {
  /** How carefully the opponents are taken to play (the rationality control). */
  level: "random" | "careful" | "fitted";
  /** What the queue odds (the outcome panel) are read from (the switch). */
  odds_model: "uniform" | "inferred";
  state: "off" | "reading" | "ready" | "quiet";
  cards: SuggestCard[];
  /** The biggest change and the choice behind it, in plain words ('' when none). */
  reason: string;
  /**
   * For an analyst (under a disclosure): the model, each opponent's beta, how the
   * worlds were weighed.
   */
  details: string;
  message: string;
}

/** A Plotly figure as JSON: what `go.Figure.to_plotly_json()` gives. */
export interface FigureJSON {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
}

/**
 * One panel as a Plotly figure, with its accessible name and a text alternative
 * holding the same numbers (read by a screen reader instead of the chart).
 */
export interface PanelFigure {
  name: string;
  alt: string;
  figure: FigureJSON;
  /** Words shown under the chart (the plain words' verdict: `.plain`). */
  caption?: string;
}

/** Everything the panels draw (`PanelData` in `js/protocol.ts`). */
export interface PanelData {
  state: "live" | "finished" | "hidden";
  title: string;
  /** Shown instead of the odds charts when the state is not live. */
  message: string;
  players: string[];
  colours: string[];
  outcome: OutcomeChart[];
  cards: CardChart[];
  moves: MovesChart;
  timeline: TimelineChart;
  suggest: SuggestChart;
  /** The panels as Plotly figures (`panel_figures`), what the table draws. */
  figures: Record<string, PanelFigure>;
  /**
   * The figures' words are the analyst's (the *Details* switch); else plain words
   * (`.plain`).
   */
  details: boolean;
}

export type Mode = "play" | "hotseat" | "replay";

/** What the viewing seat may do now (computed with the engine). */
export interface Offers {
  active: boolean;
  play_cards: string[];
  play_queues: number[];
  /** The cards it may peek at, as `[queue, position]` pairs. */
  peek: [number, number][];
  rotate: number[];
  wake: boolean;
  end: boolean;
  reset: boolean;
  undo: boolean;
  /** The game is over and may be played again (play and hot-seat modes). */
  again: boolean;
  /**
   * Why *Wake SleepKid* is not offered at the start of the turn (a queue with fewer than
   * two cards), in a student's words; `""` when it is offered or the turn has begun.
   */
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

/** One turn in words; `pending` marks the turn in progress. */
export interface TurnWords {
  turn: number;
  seat: number;
  /** One line per public event of the turn, in words. */
  lines: string[];
  /** The swats of the turn, each queue's flips in order with a one-line explanation. */
  swats: SwatWords[];
  pending?: boolean;
}

export interface Narration {
  turns: TurnWords[];
  /**
   * Per seat, who plays it when that is a bot (`"greedy bot"`), else `""`: the
   * seat table names each bot's kind, so a table with two kinds of bot says which is
   * which.
   */
  roles: string[];
}

export interface ReplayState {
  turn: number;
  total: number;
  note: string;
  note_turn: number | null;
}

/**
 * Replay of a record with a `lesson` (RULES.md §8; `.session.lesson`): the moment on
 * the table. `index` counts from 0 (`None`: not started), `turn` is the turns
 * played before its question, `view` whose view it is asked from, in words;
 * `question` and `answer` only where that view may read them (the answer once
 * `revealed`); `here`: the table shows the moment's position and view.
 */
export interface LessonState {
  title: string;
  index: number | null;
  total: number;
  turn: number | null;
  view: string;
  question: string;
  answer: string;
  revealed: boolean;
  here: boolean;
}

export interface Cover {
  shown: boolean;
  seat: number | null;
  text: string;
}

/**
 * Replay with a review, "show the best move": the best move of the position shown
 * (from the mover's view; only when the viewer may see it), drawn on the table: the
 * card, its queue and, when the best turn rotates a queue, which one (`rotate`) and
 * whether before or after the play (`rotate_when`); both `None` otherwise; and
 * whether the best turn wakes SleepKid before its play (`wake`).
 */
export interface BestMove {
  card: string;
  queue: number;
  rotate: number | null;
  rotate_when: "before" | "after" | null;
  wake: boolean;
  text: string;
}

/**
 * The coach's "Are you sure?" (`coach="before"`), shown before a turn ends: the
 * words a student reads (`text`) and the analyst's detail (`detail`).
 */
export interface CoachAsk {
  text: string;
  detail: string;
}

/**
 * At game over, a decision worth a second look: the turn (0-based, as the JSON) and
 * its verdict in words.
 */
export interface CoachLook {
  turn: number;
  text: string;
}

/** The coach at the table (`.coach.table`), as the seat on screen may see it. */
export interface CoachState {
  mode: "off" | "after" | "before";
  /** The table may change the coach (play and hot-seat; not behind the cover). */
  control: boolean;
  /** "Are you sure?": the turn chosen loses more than the coach's threshold. */
  ask: CoachAsk | null;
  /** The turn of the seat's latest verdict with a better move ("Show me"), or null. */
  show: number | null;
  /**
   * "Show me" is on: the position before this turn is on the table, the better move
   * drawn (`best`); null otherwise.
   */
  showing: number | null;
  /** At game over: the seat's tally in words, else `""`. */
  summary: string;
  /** At game over: the seat's decisions worth a second look (the largest losses). */
  looks: CoachLook[];
}

/**
 * Everything the table shows: one seat's projection of the session (or the
 * teacher's view when chosen in replay mode). Each key is a synced traitlet.
 */
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
  /** The odds panels' data (`tenleave_widget.table.panels.data`), drawn by `js/panels/`. */
  panels: PanelData;
  /** The table's size (the size control); `projector` fits a 1280x720 screen. */
  size: "small" | "medium" | "large" | "projector";
  /**
   * Replay with a review, or the coach's "Show me": the best move to draw (see
   * `BestMove`), else null.
   */
  best: BestMove | null;
  /** The coach (play and hot-seat modes): its setting, its questions, its summary. */
  coach: CoachState;
  /** Replay of a record with a lesson: the question on the table, else null. */
  lesson: LessonState | null;
}

export interface PlayIntent {
  kind: "play";
  card: string;
  queue: number;
}

export interface PeekIntent {
  kind: "peek";
  queue: number;
  position: number;
}

export interface RotateIntent {
  kind: "rotate";
  queue: number;
}

export interface WakeIntent {
  kind: "wake";
}

export interface EndIntent {
  kind: "end";
}

export interface ResetIntent {
  kind: "reset";
}

export interface UndoIntent {
  kind: "undo";
}

export interface UncoverIntent {
  kind: "uncover";
}

export interface GotoIntent {
  kind: "goto";
  turn: number;
}

export interface PerspectiveIntent {
  kind: "perspective";
  seat: number | null;
}

export interface OddsIntent {
  kind: "odds";
  show: boolean;
}

export interface SizeIntent {
  kind: "size";
  size: string;
}

/** The moves panel's switch: `"swat"` (one swat ahead) or `"game"` (whole game). */
export interface MeasureIntent {
  kind: "measure";
  measure: string;
}

/**
 * *What their plays suggest*: how carefully the opponents are taken to play,
 * `"random"`, `"careful"` or `"fitted"` (learnt from their plays).
 */
export interface RationalityIntent {
  kind: "rationality";
  level: string;
}

/**
 * The queue odds read from the rules alone (`"uniform"`) or from the players'
 * choices too (`"inferred"`).
 */
export interface OddsModelIntent {
  kind: "odds_model";
  model: string;
}

/** Play again: a new game with the same players (the game must be over). */
export interface AgainIntent {
  kind: "again";
}

/** Replay: play on from the position shown, at a new table below the replay. */
export interface BranchIntent {
  kind: "branch";
}

/** The coach's control: `"off"`, `"after"` or `"before"`. */
export interface CoachIntent {
  kind: "coach";
  mode: string;
}

/**
 * The answer to the coach's "Are you sure?": `"play"` (play it anyway) or
 * `"back"` (take it back).
 */
export interface ConfirmIntent {
  kind: "confirm";
  answer: string;
}

/**
 * "Show me": the position before `turn` with the better move drawn (a turn the
 * coach judged for the seat on screen, or the one it asks about); null: back to the
 * game.
 */
export interface ShowMeIntent {
  kind: "showme";
  turn: number | null;
}

/** The panels' *Details* switch: the analyst's words and figures, or plain words. */
export interface DetailsIntent {
  kind: "details";
  show: boolean;
}

/** Replay with a lesson: put moment `index` (from 0) on the table. */
export interface MomentIntent {
  kind: "moment";
  index: number;
}

/** Replay with a lesson: show (past the turn) or hide the current moment's answer. */
export interface RevealIntent {
  kind: "reveal";
  show: boolean;
}

/**
 * Sent by a table when it is drawn: Python answers `{"kind": "connected"}` (a
 * table reopened from a saved notebook gets no answer and says it is not connected).
 */
export interface HelloIntent {
  kind: "hello";
}

/** A message from the browser (what a click sends). */
export type Intent =
  | PlayIntent
  | PeekIntent
  | RotateIntent
  | WakeIntent
  | EndIntent
  | ResetIntent
  | UndoIntent
  | UncoverIntent
  | GotoIntent
  | PerspectiveIntent
  | OddsIntent
  | SizeIntent
  | AgainIntent
  | HelloIntent
  | MeasureIntent
  | BranchIntent
  | CoachIntent
  | ConfirmIntent
  | ShowMeIntent
  | MomentIntent
  | RevealIntent
  | RationalityIntent
  | OddsModelIntent
  | DetailsIntent;

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
  "coach",
  "lesson",
] as const satisfies readonly (keyof TableState)[];

type MissingKey = Exclude<keyof TableState, (typeof TABLE_STATE_KEYS)[number]>;
/** Compiles only when TABLE_STATE_KEYS lists every key of TableState. */
export const TABLE_STATE_KEYS_COMPLETE: [MissingKey] extends [never] ? true : MissingKey = true;

/** The panels' figures, in the order they are drawn (FIGURE_KEYS of table/panels/figures.py). */
export const FIGURE_KEYS = [
  "outcome",
  "moves",
  "cards",
  "suggest",
  "timeline",
  "review",
] as const;
