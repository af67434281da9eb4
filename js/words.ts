// Every word the table's own code shows or reads out (buttons, the key, headings,
// controls, the labels a screen reader reads), in one place so that a teacher can read
// them as a 12-year-old would, or translate them. The sentences about a position (the
// status line, the turns in words, the coach, the lesson, the panels' charts) come from
// Python (tenleave_widget/table/words/), with the state. A test reads this file for the
// analyst's words (tests/widget/test_js_words.py).

export const WORDS = {
  table: "10 to Leave table",
  you: (name: string): string => `${name} (you)`,
  seat: (n: number): string => `Seat ${n}`,

  // the top bar
  awake: "SleepKid: awake! ☀",
  asleep: "SleepKid: asleep ☾",
  awakeLabel: "SleepKid woke up and swatted",
  asleepLabel: "SleepKid is asleep",
  bestWakes: "; the best move wakes SleepKid first",
  bestWakeMark: "☀ best: wake first",
  token: "Human Defense ",
  tokenLabel: (token: string): string => `Human Defense token ${token}`,
  tokenPlace: "Human Defense position",
  size: "Size ",
  showOdds: " show odds",
  coach: "Coach ",
  coachModes: [
    ["off", "off"],
    ["after", "after each move"],
    ["before", "ask before a bad move"],
  ] as [string, string][],

  // the coach's question and its buttons
  showMe: "Show me",
  backToGame: "Back to the game",
  takeItBack: "Take it back",
  playAnyway: "Play it anyway",
  details: "Details",

  // the cover (hot-seat) and the saved table
  ready: "I am ready: show my hand",
  damaged: (error: string): string => `This page is damaged and cannot be shown: ${error}`,
  offline:
    "Not connected — run the cell to play. (This table was saved with the notebook; no Python kernel is behind it.)",

  // the queues
  rotateButton: "⟲ rotate",
  rotate: (when: string): string => `⟲ rotate ${when}`,
  rotateLabel: (q: number): string => `Rotate queue ${q}: its front card goes to the back`,
  bestPlaysHere: ", where the best move plays",
  bestRotates: (when: "before" | "after"): string => `, which the best move rotates ${when} the play`,
  playHere: (card: string): string => `Play ${card} here`,
  playHereLabel: (card: string, q: number): string => `Play your ${card} on queue ${q}`,
  badges: { played: "new", peeked: "peeked", rotated: "moved back" } as Record<string, string>,
  changedLastTurn: (what: string): string => `${what} last turn`,

  safe: "Safe Area",
  safeLabel: "Safe Area (escaped cards)",
  noneEscaped: "no card has escaped yet",
  escaped: "escaped",
  swatted: "swatted",
  queuesLabel: "Queues, front (position I) first",
  emptyPlace: "empty place",

  // the hand and the turn's buttons
  hands: "Hands:",
  yourHand: "Your hand:",
  noCardsLeft: " no cards left",
  wake: "Wake SleepKid",
  endTurn: "End turn",
  resetTurn: "Start the turn again",
  undo: "Undo my last turn",
  inHand: "in hand",
  bestCard: "the best card to play",
  chosen: "chosen: now choose a queue",
  choose: "in hand, press to choose (or its number key)",

  // the key
  hintPlay: "Choose a card in your hand (or press its number key), then Play here under a queue.",
  hintPeek: "To peek: press a face-down card with a dashed border.",
  hintRotate: "To rotate: press ⟲ rotate above a queue.",
  hintEnd: "Then End turn.",
  key: "Key",
  keyMarked: "marked back: a 3, 4 or 5 (double border)",
  keyPlain: "plain back: a 1, 2 or 5",
  keyYouPeeked: "you peeked",
  keySomeonePeeked: "someone peeked",
  keyMayPeek: "you may peek",
  keyChosen: "your chosen card",
  keyChanged: "changed last turn",

  // a card read out (a screen reader's label)
  cardUp: (colour: string, initial: string, owner: string, value: number, back: string): string =>
    `${colour} (${initial}) mosquito of ${owner}, value ${value}, ${back} back`,
  cardDown: (colour: string, initial: string, owner: string): string => `${colour} (${initial}) mosquito of ${owner}`,
  faceDown: (back: string): string => `face down, ${back} back`,
  valueUnknown: "value unknown",
  value: (value: number): string => `value ${value}`,
  youPeekedAtIt: "you peeked at it",
  peekedBy: (names: string): string => `peeked by ${names}`,
  place: (q: number, position: string): string => `queue ${q}, position ${position}`,
  pressToPeek: ". Press to peek",

  // the turns in words
  thisTurn: "This turn: ",
  turnOf: (turn: number, who: string): string => `Turn ${turn} (${who}): `,
  noTurnYet: "No turn played yet.",
  cardsSwatted: (n: number): string => ` ${n} card${n === 1 ? "" : "s"}`,
  // two of Python's sentences the table recognizes (table/words/narration.py): a swat by
  // the Human Defense token ("... — Human Defense III+IV swats") and the game's end
  tokenSwatMark: " — Human Defense",
  overLine: "The game is over",
  queueLine: (q: number, text: string): string => `Queue ${q}: ${text}`,

  // the scores and the game over
  headings: ["Player", "In hand", "Swatted", "Penalty"] as const,
  toMove: " to move",
  handMix: (marked: number, plain: number): string => ` (${marked} marked, ${plain} plain)`,
  gameOverLabel: "Game over: final scores",
  runAgain: "To play again, run the cell again.",
  secondLook: "Worth a second look:",
  noSecondLook: "No decision needs a second look.",
  gameOver: "Game over — final scores (lowest wins)",
  sharesWin: " ★ shares the win",
  wins: " ★ wins",
  again: "Play again (same players)",

  // a replay
  perspective: "Perspective",
  turn: "Turn",
  turnCount: (turn: number, total: number): string => `after ${turn} of ${total} turns`,
  teacherView: "Teacher (all cards)",
  viewOf: (name: string): string => `${name}'s view`,
  firstTurn: "First turn",
  previousTurn: "Previous turn",
  nextTurn: "Next turn",
  lastTurn: "Last turn",
  playOn: "Play on from here",
  playOnLabel: "Play on from this position at a new table",
  noteOn: (turn: number): string => `Note on turn ${turn}: `,

  // a lesson
  lesson: "Lesson",
  previous: "◀ Previous",
  questions: (n: number): string => `${n} question${n === 1 ? "" : "s"} (Page Down starts)`,
  questionOf: (i: number, total: number, turn: number): string => `Question ${i} of ${total} · before turn ${turn}`,
  previousMoment: "Previous moment (Page Up)",
  startLesson: "Start the lesson ▶",
  nextMoment: "Next moment ▶",
  nextMomentLabel: "Next moment (Page Down)",
  showAnswer: "Show the answer",
  hideAnswer: "Hide the answer",
  showAnswerLabel: "Show the answer: the table plays the turn (A)",
  hideAnswerLabel: "Hide the answer: the question again, before its turn (A)",
  backToQuestion: "Back to the question",
  backToQuestionN: (i: number): string => `Back to question ${i}`,
  answer: "Answer: ",

  // the odds panels
  oddsPanels: "Odds panels",
  noteAndOdds: "The teacher's note and the odds panels",
  detailsOn: "Details: on",
  detailsOnLabel: "Back to plain words",
  detailsOffLabel: "Show the analyst's figures: averages, ranges, how many games were played out",
  rankBy: "Rank the moves by",
  oneSwat: "One swat ahead",
  wholeGame: "Whole game",
  gamesDone: (n: number): string => `Whole game: ${n} games played out to the end from here.`,
  gamesSoFar: (n: number): string => `Whole game: thinking… ${n} games played out so far.`,
  theyPlay: "They play:",
  levels: [
    { value: "random", text: "At random" },
    { value: "careful", text: "Carefully" },
    { value: "fitted", text: "Learn from their plays" },
  ],
  forAnalysts: "For analysts: the model and its figures",
  oddsFrom: "Odds from:",
  oddsModels: [
    { value: "uniform", text: "The rules alone" },
    { value: "inferred", text: "Their plays too" },
  ],
};

/** The analyst's own words, shown only with *Details* on (the moves' whole-game progress
 *  in sampled worlds). */
export const DETAILS_WORDS = {
  worldsDone: (n: number): string => `Whole game: ${n} sampled worlds played out to the end.`,
  worldsSoFar: (n: number): string => `Whole game: thinking… ${n} worlds so far.`,
};
