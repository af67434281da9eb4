"""*What their plays suggest*: the panel that reads the players, filled in the background.

Every chance the other panels show comes from the rules alone (RULES.md §9): an
opponent's face-down card is any of what is left of its back. This panel shows, for each
card the viewing seat cannot see (each face-down table card, and any one of each
opponent's unseen hand cards of one back), its chance of each value **by the rules
alone** beside its chance **as the players' choices suggest**
(:func:`~tenleave_widget.analysis.infer.infer`), and in plain words the biggest change
and the choice behind it (:func:`~tenleave_widget.analysis.evidence.biggest_shift`).

- *Controls* (intents Python checks; a bad value is refused, nothing changes):
  ``{"kind": "rationality", "level": "random" | "careful" | "fitted"}`` — how carefully
  the opponents are taken to play (:data:`LEVELS`: beta 0, :data:`CAREFUL`, or each
  opponent's beta learnt from its own choices so far) — and ``{"kind": "odds_model",
  "model": "uniform" | "inferred"}``, which reads the queue odds (the outcome and card
  panels) from the rules alone or from the players' choices too
  (:func:`~tenleave_widget.analysis.infer.inferred_odds`). The moves panel stays the
  rules' one-swat measure.
- *From the seat's view only.* The input is the viewing seat's view with its public
  history (:func:`~tenleave_widget.analysis.infer.with_history`) and a seed made of
  public facts (the table's seed, the game, the turn, the seat): a pure function of what
  the seat knows. In hot-seat that is the seat on screen, never behind the cover; the
  teacher's view (every card face up) has nothing to guess.
- *During a turn.* Plays and rotations of the seat's own turn in progress change no
  chance: the reading is that of the turn's start, each card named where it is now. A
  peek or a wake in the turn shows a card: the panel waits for the end of the turn.
- *In the background.* A :class:`Reader` runs the reading as a job of :mod:`..tasks` (the
  worker thread, or the loop's slices without threads), a step a slice, and pushes the
  panels when it is in; the table answers meanwhile. Readings are kept per position
  (:data:`KEEP`), so stepping back and forth in a replay reads each position once.
  Off unless a table runs it (the HTML export does not): :attr:`SuggestFeed.enabled`.

>>> from tenleave_widget import Game
>>> from tenleave_widget.table.session.config import check_config
>>> from tenleave_widget.table.session.machine import Session
>>> g = Game(["Ana", "Ben"], seed=1)
>>> g.apply({"seat": 0, "play": ["5", 0]})
>>> g.apply({"seat": 1, "play": ["3*", 0]})
>>> s = Session(g, check_config(g, mode="play", humans=[0], bots={1: "greedy"}, seed=3))
>>> s.suggest.enabled = True
>>> s.state()["panels"]["suggest"]["state"]
'reading'
>>> s.suggest.advance(s)
>>> chart = s.state()["panels"]["suggest"]
>>> chart["state"], chart["cards"][0]["label"], chart["cards"][0]["inferred"]["3"] > 0.4
('ready', 'queue 1 · II · Ben (?✱)', True)
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from collections.abc import Callable, Generator, Mapping
from typing import Any, Literal, Protocol, TypedDict, cast

from ...analysis.evidence import Shift, biggest_shift
from ...analysis.infer import Beta, Inference, InferredOdds, infer, inferred_odds, with_history
from ...analysis.odds import SeatOdds
from ...analysis.worlds import Hidden
from ...engine.game import Game
from ...engine.turn import TurnStep
from ...engine.view import View
from .. import tasks
from ..protocol import WidgetMessageError
from ..session.config import Config
from .data import ROMAN, PanelData, SuggestCard, SuggestChart, quiet_suggest
from .figures import percent
from .suggest_chart import suggest_figure, words_figure

__all__ = ["CAREFUL", "KEEP", "LEVELS", "ODDS_MODELS", "Reader", "SuggestFeed", "SuggestSession",
           "reason_words", "rules_alone"]

log = logging.getLogger(__name__)

CAREFUL = 4.0
"""The beta of "careful": a swat risk 1 point higher makes a choice e^4 ≈ 55 times less
likely. (Fitted on this project's bots: greedy ≈ 38, lookahead ≈ 0.25, random 0.)"""

LEVELS: dict[str, Beta] = {"random": 0.0, "careful": CAREFUL, "fitted": "fitted"}
"""The rationality control's levels and the beta each gives every opponent."""

PANEL_COST = "one-swat"
"""What the panel reads the players as minimising (``infer``'s ``cost``): the one-swat
expected penalty, whose regrets its plain-words reasons are told in, and cheap enough to
fill in without blocking; ``infer``'s own default also reads a player by its lookahead
margin when that explains its choices better (``docs/methods/inference.md``)."""

ODDS_MODELS = ("uniform", "inferred")
"""The queue odds' switch: the rules alone, or the players' choices too."""

KEEP = 32
"""Readings kept (positions x settings), the most recent first out last."""

Level = Literal["random", "careful", "fitted"]
OddsModel = Literal["uniform", "inferred"]
Key = tuple[Any, ...]

READING = "Reading their plays…"
TEACHER = ("The teacher's view shows every card: there is nothing to guess. Choose a "
           "seat's view to see what the others' plays tell that seat.")
FAILED = "Their plays could not be read here (the details are in the log)."
LOOKED = ("You have looked at a card (or woken SleepKid) this turn: this panel is "
          "read again when the turn ends.")


class SuggestSession(Protocol):
    """What the panel reads of a session (:class:`~..session.machine.Session` is one; a
    ``Protocol``, so that this module does not import the session, which imports it)."""

    config: Config
    pending: list[TurnStep]
    seat: int | None
    covered: bool
    show_odds: bool
    generation: int
    games: int

    @property
    def suggest(self) -> SuggestFeed: ...

    @property
    def live(self) -> Game: ...

    def current(self) -> Game: ...

    def shown(self) -> Game: ...


class Reading(TypedDict):
    """What the background job computes for one position and setting."""

    inference: Inference
    shift: Shift | None
    odds: InferredOdds | None


class SuggestFeed:
    """One session's panel: its settings and the readings (see the module docstring)."""

    def __init__(self) -> None:
        self.enabled = False
        """Whether the panel is computed (the widget turns this on)."""
        self.level: Level = "fitted"
        self.odds_model: OddsModel = "uniform"
        self.readings: OrderedDict[Key, Reading] = OrderedDict()
        self.chunk: tasks.Task[Reading] | None = None
        """The reading running in the background (:class:`Reader`)."""
        self.failed: set[Key] = set()
        """Positions whose reading failed (logged; the panel says so, not read again)."""

    # ----------------------------------------------------------------- controls
    def set_level(self, level: object) -> None:
        if level not in LEVELS:
            raise WidgetMessageError(f"level must be one of {', '.join(LEVELS)}")
        self.level = cast(Level, level)

    def set_odds_model(self, model: object) -> None:
        if model not in ODDS_MODELS:
            raise WidgetMessageError(f"model must be one of {', '.join(ODDS_MODELS)}")
        self.odds_model = cast(OddsModel, model)

    # ----------------------------------------------------------------- what to read
    def target(self, session: SuggestSession) -> tuple[Key, Game, int] | str | None:
        """What to read now: (key, the position — the seat is ``key[3]`` —, seed); a
        message when there is nothing to read; ``None`` when the panel is not shown."""
        if not self.enabled or session.covered or not session.show_odds:
            return None
        seat = session.seat
        if seat is None:
            return TEACHER
        base = session.current()
        if base.finished:
            return None
        if any(s["kind"] in ("peek", "wake") for s in session.pending):
            return LOOKED
        key = (session.games, session.generation, base.turns_applied, seat, self.level,
               self.odds_model == "inferred")
        seed = random.Random(
            f"tenleave-suggest/{session.config.seed}/{session.games}/{base.turns_applied}/{seat}"
        ).getrandbits(32)
        return key, base, seed

    def job(self, key: Key, game: Game, seed: int) -> Generator[None, None, Reading]:
        """The reading of ``game`` for the seat ``key[3]``, a step a slice: the chances,
        the biggest change, the odds (when ``key[-1]``: the switch says their plays).
        Only the seat's view with its public history is read (:func:`with_history`)."""
        view = with_history(game, key[3])
        odds = bool(key[-1])
        beta = LEVELS[key[4]]  # the level read, not the one set since
        yield
        # the panel reads by the one-swat cost (PANEL_COST), whatever infer's default
        inference = infer(view, beta=beta, seed=seed, cost=PANEL_COST)
        yield
        shift = (biggest_shift(view, beta=beta, seed=seed, cost=PANEL_COST)
                 if beta != 0.0 else None)
        yield
        queue_odds = inferred_odds(view, beta=beta, seed=seed, cost=PANEL_COST) if odds else None
        return {"inference": inference, "shift": shift, "odds": queue_odds}

    def keep(self, key: Key, reading: Reading) -> None:
        self.readings[key] = reading
        self.readings.move_to_end(key)
        while len(self.readings) > KEEP:
            self.readings.popitem(last=False)

    def advance(self, session: SuggestSession) -> None:
        """Read the position shown now, here (a script's or a test's way; a table's
        :class:`Reader` does it in the background)."""
        if self.chunk is not None:
            chunk, self.chunk = self.chunk, None
            try:
                chunk.wait()
            except Exception:  # noqa: BLE001 - read again below
                log.exception("reading the players failed")
        target = self.target(session)
        if isinstance(target, tuple) and target[0] not in self.readings:
            key, game, seed = target
            job = self.job(key, game, seed)
            while True:
                try:
                    next(job)
                except StopIteration as done:
                    self.keep(key, done.value)
                    break

    # ------------------------------------------------------------------ the panels
    def odds(self, session: SuggestSession, odds: SeatOdds) -> SeatOdds:
        """``odds`` (the uniform model's, of the view shown) with the queues read from the
        players' choices when the switch says so and the reading is in (and no step of
        the turn has been taken: the reading is of the turn's start)."""
        if self.odds_model != "inferred" or session.pending:
            return odds
        target = self.target(session)
        reading = self.readings.get(target[0]) if isinstance(target, tuple) else None
        if reading is None or reading["odds"] is None:
            return odds
        return {**odds, "queues": reading["odds"]["queues"]}

    def annotate(self, session: SuggestSession, data: PanelData) -> None:
        """Set the panel's data and figure in ``data`` (a live state only), and say in the
        queue panels' names what their odds are read from."""
        target = self.target(session)
        settings: dict[str, Any] = {"level": self.level, "odds_model": self.odds_model}
        if target is None or data["state"] != "live":
            data["suggest"] = quiet_suggest(**settings)
            return
        viewer = ("the teacher" if session.seat is None
                  else str(session.live.players[session.seat]))
        if isinstance(target, str):
            data["suggest"] = quiet_suggest("quiet", target, **settings)
            data["figures"]["suggest"] = words_figure(viewer, target)
            return
        reading = self.readings.get(target[0])
        if reading is None and target[0] in self.failed:
            data["suggest"] = quiet_suggest("quiet", FAILED, **settings)
            data["figures"]["suggest"] = words_figure(viewer, FAILED)
            return
        if self.odds_model == "inferred":
            what = ("by the rules alone while the turn is under way" if session.pending
                    else "by the rules alone until their plays are read" if reading is None
                    else "as their plays suggest")
            for name in ("outcome", "cards"):
                if name in data["figures"]:
                    fig = data["figures"][name]
                    data["figures"][name] = {**fig, "name": f"{fig['name']} ({what})"}
        if reading is None:  # the rules' chances at once, their plays' when read
            cards = rules_alone(session.shown().view(session.seat), session.live.players)
            data["suggest"] = {**quiet_suggest("quiet", READING, **settings),
                               "state": "reading", "cards": cards}
            data["figures"]["suggest"] = suggest_figure(cards, viewer, reading=True)
            return
        chart = self.chart(session, reading)
        star = None
        shift = reading["shift"]
        if shift is not None:
            star = next((j for j, c in enumerate(chart["cards"]) if c["key"] == shift["key"]),
                        None)
        data["suggest"] = chart
        data["figures"]["suggest"] = suggest_figure(chart["cards"], viewer, star,
                                                    chart["reason"])

    def chart(self, session: SuggestSession, reading: Reading) -> SuggestChart:
        """The panel's data from a reading, each card named where it is on the table now."""
        players = session.live.players
        where = {int(c["key"]): (q, i, c) for q, queue in
                 enumerate(session.shown().view(session.seat)["queues"])
                 for i, c in enumerate(queue)}
        inf = reading["inference"]
        cards: list[SuggestCard] = []
        for c in inf["cards"]:
            q, i, _ = where[c["key"]]
            cards.append(_card(players, q, i, c["owner"], c["back"], c["key"], c["uniform"],
                               c["inferred"]))
        for h in inf["hands"]:
            cards.append(_hand(players, h["owner"], h["back"], h["size"], h["uniform"],
                               h["inferred"]))
        return {"level": self.level, "odds_model": self.odds_model, "state": "ready",
                "cards": cards, "reason": reason_words(reading, players, self.level, where),
                "details": details(inf, players), "message": ""}


def _card(players: list[str], q: int, i: int, owner: int, back: str, key: int,
          uniform: dict[str, float], inferred: dict[str, float]) -> SuggestCard:
    star = "✱" if back == "marked" else ""
    return {"label": f"queue {q + 1} · {ROMAN[i]} · {players[owner]} (?{star})",
            "owner": owner, "back": back, "key": key, "size": 1, "uniform": uniform,
            "inferred": inferred}


def _hand(players: list[str], owner: int, back: str, n: int, uniform: dict[str, float],
          inferred: dict[str, float]) -> SuggestCard:
    what = f"{n} {back} card{'s' if n > 1 else ''}" + (" (any one)" if n > 1 else "")
    return {"label": f"{players[owner]}'s hand: {what}", "owner": owner, "back": back,
            "key": None, "size": n, "uniform": uniform, "inferred": inferred}


def rules_alone(view: View, players: list[str]) -> list[SuggestCard]:
    """What the panel shows while the players' choices are read: the cards a seat cannot
    see, with their chances by the rules alone, computed on the spot from the view only.

    Args:
        view: the seat's view.
        players: the players' names, for the cards' labels.

    Returns:
        One :class:`~tenleave_widget.table.panels.data.SuggestCard` per face-down table
        card the seat cannot see (queue by queue, front first), then per opponent's
        unseen hand cards of one back; ``uniform`` filled in, ``inferred`` empty.
    """
    hidden = Hidden(view, hands=True)

    def uniform(g: int) -> dict[str, float]:
        counts = hidden.counts[g]
        size = sum(counts.values())
        return {str(v): c / size for v, c in counts.items()}

    cards = [_card(players, q, i, int(card["owner"]), card["back"], int(card["key"]),
                   uniform(-1 - slot), {})
             for q, (queue, row) in enumerate(zip(view["queues"], hidden.slots, strict=True))
             for i, (card, slot) in enumerate(zip(queue, row, strict=True)) if slot < 0]
    order = sorted(range(len(hidden.keys)),
                   key=lambda g: (hidden.keys[g][0], hidden.keys[g][1] != "marked"))
    cards += [_hand(players, hidden.keys[g][0], hidden.keys[g][1], hidden.in_hand[g],
                    uniform(g), {}) for g in order if hidden.in_hand[g]]
    return cards


def reason_words(reading: Reading, players: list[str], level: str,
                 where: Mapping[int, tuple[int, int, Any]]) -> str:
    """The biggest change a reading makes and the choice behind it, in plain words.

    Args:
        reading: the reading (its inference and its biggest shift).
        players: the players' names.
        level: the rationality control's level (``"random"`` says the plays tell nothing).
        where: each face-down card's key -> (queue, place, card) on the table now.

    Returns:
        One or two sentences, e.g. "Ben's marked card on queue 1 (place I): a 3 is more
        likely: 40% by the rules alone, 95% now. ...".
    """
    inf = reading["inference"]
    shift = reading["shift"]
    if level == "random":
        return ("Taken as players who choose at random, their plays tell nothing: every "
                "card is as likely as the rules alone say.")
    fell = (" (Some cards could not be read: too many cases fit what they did. Those "
            "show the rules alone.)" if inf["fallback"] else "")
    if shift is None:
        return "Their plays so far hardly change the chances." + fell
    q, i, _ = where[shift["key"]]
    owner = players[shift["owner"]]
    card = f"{owner}'s {shift['back']} card on queue {q + 1} (place {ROMAN[i]})"
    v = shift["value"]
    less = shift["inferred"] < shift["uniform"]
    change = (f"a {v} is {'less' if less else 'more'} likely: {percent(shift['uniform'])} by "
              f"the rules alone, {percent(shift['inferred'])} now.")
    choice = shift["choice"]
    if choice is None:
        return f"Biggest change: {card}. No single play explains it; together their plays " \
               f"say that {change}{fell}"
    who = players[choice["seat"]]
    turn = choice["turn"] + 1
    if choice["own"]:
        did = f"{who} put it there on turn {turn}."
    elif choice["wake"]:
        did = f"On turn {turn}, {who} woke SleepKid."
    else:
        did = (f"On turn {turn}, {who} played a {choice['back']} card on queue "
               f"{(choice['queue'] or 0) + 1}.")
    r_if, r_else = choice["regret_if"], choice["regret_else"]
    if level == "careful":
        avoid, fits = "Careful players avoid that", "Careful players choose like that"
    else:
        beta = next(o["beta"] for o in inf["opponents"] if o["seat"] == choice["seat"])
        how = "carefully" if beta >= 1 else "a little carefully"
        avoid = fits = f"{who} has played {how} so far"
    risk = "had SleepKid woken right after"
    if r_if > r_else:
        why = (f"If it were a {v}, that play would have risked about {r_if:.1f} points more "
               f"than {who}'s safest choice {risk} ({r_else:.1f} if not). {avoid}, so "
               f"{change}")
    elif r_if < 0.05:
        why = (f"If it is a {v}, that was {who}'s safest choice; if not, it risked about "
               f"{r_else:.1f} points more than the safest {risk}. {fits}, so {change}")
    else:
        why = (f"If it is a {v}, that play risked about {r_if:.1f} points more than {who}'s "
               f"safest choice {risk}, less than if not ({r_else:.1f}). {fits}, so {change}")
    return f"Biggest change: {card}. {did} {why}{fell}"


def details(inf: Inference, players: list[str]) -> str:
    """The analyst's figures: the model, each opponent's beta and how its worlds were
    weighed."""
    parts = []
    for o in inf["opponents"]:
        how = o["method"]
        if o["effective_samples"] is not None:
            how += f", effective sample size {o['effective_samples']:.0f} of {o['worlds']}"
        elif o["worlds"]:
            how += f", {o['worlds']} worlds"
        if o["fallback"]:
            how += ", fell back to the uniform model"
        beta = f"β = {o['beta']:.2f}" + (" (fitted)" if o["fitted"] else "")
        parts.append(f"{players[o['seat']]}: {beta}, {o['decisions']} decisions read, {how}")
    return (f"Each opponent's choice ∝ exp(−β × its one-swat expected penalty), from its own "
            f"view then ({inf['model']}). " + "; ".join(parts) + ".")


class Reader:
    """Runs the panel's readings as background jobs (:func:`..tasks.run`) while a loop runs,
    and calls ``changed`` (which pushes the panels) on the loop when one is in. Without a
    running loop (a script) it does nothing: :meth:`SuggestFeed.advance` reads instead."""

    def __init__(self, session: SuggestSession, changed: Callable[[], None]) -> None:
        self.session = session
        self.changed = changed

    def kick(self) -> None:
        """Make sure the position shown is being read, if it is not read yet."""
        feed = self.session.suggest
        if feed.chunk is not None:
            return
        target = feed.target(self.session)
        if not isinstance(target, tuple) or target[0] in feed.readings:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        key, game, seed = target
        if key in feed.failed:
            return
        task = feed.chunk = tasks.run(loop, feed.job(key, game, seed))
        task.future.add_done_callback(lambda _f: self._done(key, task))

    def _done(self, key: Key, task: tasks.Task[Reading]) -> None:
        feed = self.session.suggest
        if feed.chunk is task:
            feed.chunk = None
        try:
            feed.keep(key, task.wait())
            target = feed.target(self.session)
            if isinstance(target, tuple) and target[0] == key:
                self.changed()
        except Exception:  # noqa: BLE001 - never leave a broken task behind
            log.exception("reading the players failed")
            feed.failed.add(key)
            self.changed()
        self.kick()  # the position shown now, if another
