"""*What their plays suggest* (tenleave_widget/table/panels/suggest.py, suggest_chart.py and
analysis/evidence.py): the figure, its text alternative, the controls (checked intents),
the reason, the queue odds' switch, hot-seat, and that the panel is a function of the
seat's view and public history only."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from helpers import random_game, until

from tenleave_widget import Game
from tenleave_widget.analysis import evidence
from tenleave_widget.analysis.bots import decide, make_bot
from tenleave_widget.analysis.infer import infer, inferred_odds, with_history
from tenleave_widget.engine.errors import TenLeaveError
from tenleave_widget.table import tasks
from tenleave_widget.table.panels import lookahead as lookahead_panel
from tenleave_widget.table.panels import suggest as suggest_panel
from tenleave_widget.table.panels.suggest import CAREFUL, PANEL_COST
from tenleave_widget.table.protocol import WidgetMessageError, parse_intent
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session
from tenleave_widget.widget import TenLeaveWidget, hotseat, replay


def bot_game(seats: int, seed: int, turns: int) -> Game:
    """A game of greedy (odd seats) and random bots after ``turns`` turns."""
    g = Game(["Ana", "Ben", "Cy", "Dee", "Eve"][:seats], seed=seed)
    bots = [make_bot("greedy" if s % 2 else "random", seed) for s in range(seats)]
    while not g.finished and g.turns_applied < turns:
        g.apply(decide(bots[g.to_move or 0], g))
    return g


def session(game: Game, seat: int, level: str = "fitted", seed: int = 7) -> Session:
    others = {s: "greedy" for s in range(game.seats) if s != seat}
    s = Session(game, check_config(game, mode="play", humans=[seat], bots=others, seed=seed))
    s.seat = seat
    s.suggest.enabled = True
    s.handle({"kind": "rationality", "level": level})  # type: ignore[typeddict-item]
    s.suggest.advance(s)
    return s


def test_the_panel_shows_infer_for_every_card_the_seat_cannot_see() -> None:
    g = bot_game(3, seed=4, turns=10)
    seat = g.to_move or 0
    s = session(g, seat)
    chart = s.state()["panels"]["suggest"]
    expected = infer(with_history(g, seat), beta="fitted", cost=PANEL_COST,
                     seed=s.suggest.target(s)[2])  # type: ignore[index]
    table = [c for c in chart["cards"] if c["key"] is not None]
    assert [c["key"] for c in table] == [c["key"] for c in expected["cards"]]
    assert [(c["uniform"], c["inferred"]) for c in table] == [
        (c["uniform"], c["inferred"]) for c in expected["cards"]]
    hands = [c for c in chart["cards"] if c["key"] is None]
    assert [(c["owner"], c["size"]) for c in hands] == [
        (h["owner"], h["size"]) for h in expected["hands"]]
    assert all(c["owner"] != seat for c in chart["cards"])
    view = g.view(seat)
    for c in table:  # every card the panel names is face down to the seat
        q, place = c["label"].split(" · ")[:2]
        card = view["queues"][int(q.split()[1]) - 1][["I", "II", "III", "IV"].index(place)]
        assert card["key"] == c["key"] and card["value"] is None


def test_the_figure_is_plotly_json_with_the_same_numbers_in_its_text() -> None:
    import plotly.graph_objects as go

    g = bot_game(4, seed=2, turns=14)
    seat = g.to_move or 0
    s = session(g, seat)
    panels = s.state()["panels"]
    fig = panels["figures"]["suggest"]
    go.Figure(fig["figure"])  # plotly.py validates every key
    json.dumps(fig, allow_nan=False)
    assert fig["name"] == f"What their plays suggest: the cards {g.players[seat]} cannot see"
    cards = panels["suggest"]["cards"]
    bars = {t["name"]: t["x"] for t in fig["figure"]["data"]}
    for j, c in enumerate(cards):
        for v, p in c["inferred"].items():
            assert bars[v][2 * j + 1] == pytest.approx(p, abs=1e-4)
        for v, p in c["uniform"].items():
            assert bars[v][2 * j] == pytest.approx(p, abs=1e-4)
        assert c["label"] in fig["alt"]
    assert panels["suggest"]["reason"] in fig["alt"]
    # the words a student reads by default have none of the analyst's signs
    for text in (fig["name"], fig["alt"], panels["suggest"]["reason"]):
        assert "β" not in text and "posterior" not in text and "sample" not in text
    assert "β" in panels["suggest"]["details"]


def test_random_players_tell_nothing() -> None:
    g = bot_game(3, seed=1, turns=9)
    s = session(g, g.to_move or 0, level="random")
    chart = s.state()["panels"]["suggest"]
    assert chart["level"] == "random" and chart["cards"]
    assert all(c["inferred"] == c["uniform"] for c in chart["cards"])
    assert "tell nothing" in chart["reason"]
    assert "★" not in s.state()["panels"]["figures"]["suggest"]["alt"]


def test_the_reason_names_the_choice_that_moved_the_card_most() -> None:
    """Ana's view after Ben (one decision) played a marked card: the only choice is his,
    without it the card is as the rules say, and a careful Ben makes a 5 less likely."""
    g = Game(["Ana", "Ben"], seed=1)
    g.apply({"seat": 0, "play": ["5", 0]})
    g.apply({"seat": 1, "play": ["3*", 0]})
    shift = evidence.biggest_shift(with_history(g, 0), beta=CAREFUL)
    assert shift is not None and shift["choice"] is not None
    assert shift["choice"]["without"] == pytest.approx(0.4)  # the rules alone: 2 of 5
    s = session(g, 0, level="careful")
    reason = s.state()["panels"]["suggest"]["reason"]
    assert reason.startswith("Biggest change: Ben's marked card on queue 1 (place II). "
                             "Ben put it there on turn 2.")
    assert reason.endswith("so a 3 is more likely: 40% by the rules alone, 95% now.")


def test_the_biggest_shift_is_the_card_that_moved_most() -> None:
    rng = random.Random(3)
    for seed in range(6):
        g = bot_game(2 + seed % 3, seed=seed, turns=rng.randrange(6, 16))
        seat = g.to_move or 0
        view = with_history(g, seat)
        inf = infer(view, beta=CAREFUL)
        shift = evidence.biggest_shift(view, beta=CAREFUL)

        def tv(c: dict[str, Any]) -> float:
            return 0.5 * sum(abs(c["uniform"][v] - c["inferred"][v]) for v in c["uniform"])

        if shift is None:
            assert all(tv(c) < evidence.MIN_SHIFT for c in inf["cards"])  # type: ignore[arg-type]
            continue
        card = next(c for c in inf["cards"] if c["key"] == shift["key"])
        assert tv(card) == pytest.approx(max(tv(c) for c in inf["cards"]))  # type: ignore[arg-type]
        assert shift["inferred"] == pytest.approx(card["inferred"][str(shift["value"])])
        assert shift["uniform"] == pytest.approx(card["uniform"][str(shift["value"])])


# --------------------------------------------------------------------- the controls


@pytest.mark.parametrize(("intent", "bad"), [
    ({"kind": "rationality", "level": "careful"}, {"kind": "rationality", "level": "genius"}),
    ({"kind": "odds_model", "model": "inferred"}, {"kind": "odds_model", "model": "magic"}),
])
def test_the_controls_are_checked_intents(intent: dict[str, Any], bad: dict[str, Any]) -> None:
    g = bot_game(3, seed=5, turns=8)
    s = session(g, g.to_move or 0)
    before = json.dumps(s.state(), sort_keys=True)
    with pytest.raises(WidgetMessageError) as err:
        s.handle(parse_intent(bad))
    assert "must be one of" in str(err.value)
    assert json.dumps(s.state(), sort_keys=True) == before  # nothing changed
    for forged in ({**bad, list(bad)[1]: 3}, {**bad, list(bad)[1]: None}, {"kind": bad["kind"]}):
        with pytest.raises(WidgetMessageError):
            parse_intent(forged)
    s.handle(parse_intent(intent))
    s.suggest.advance(s)
    chart = s.state()["panels"]["suggest"]
    assert chart["level" if intent["kind"] == "rationality" else "odds_model"] == list(
        intent.values())[1]


def test_the_switch_reads_the_queue_odds_from_their_plays() -> None:
    g = bot_game(3, seed=6, turns=11)
    seat = g.to_move or 0
    s = session(g, seat)
    uniform = s.state()["panels"]
    s.handle({"kind": "odds_model", "model": "inferred"})  # type: ignore[typeddict-item]
    reading = s.state()["panels"]
    assert "until their plays are read" in reading["figures"]["outcome"]["name"]
    assert reading["outcome"] == uniform["outcome"]  # the rules' odds meanwhile
    s.suggest.advance(s)
    panels = s.state()["panels"]
    odds = inferred_odds(with_history(g, seat), beta="fitted", cost=PANEL_COST,
                         seed=s.suggest.target(s)[2])  # type: ignore[index]
    assert [q["p_over"] for q in panels["outcome"]] == [q["p_over"] for q in odds["queues"]]
    assert panels["figures"]["outcome"]["name"].endswith("(as their plays suggest)")
    assert panels["moves"]["moves"] == uniform["moves"]["moves"]  # the rules' measure
    offers = s.state()["offers"]
    s.handle({"kind": "play", "card": offers["play_cards"][0],  # type: ignore[typeddict-item]
              "queue": offers["play_queues"][0]})
    during = s.state()["panels"]  # the reading is the turn's start's: the rules' odds now
    assert during["figures"]["outcome"]["name"].endswith(
        "(by the rules alone while the turn is under way)")
    assert during["suggest"]["state"] == "ready"


def test_a_peek_in_the_turn_waits_for_its_end() -> None:
    g = bot_game(2, seed=3, turns=6)
    seat = g.to_move or 0
    s = session(g, seat)
    offers = s.state()["offers"]
    assert offers["peek"]
    q, i = offers["peek"][0]
    s.handle({"kind": "peek", "queue": q, "position": i})
    chart = s.state()["panels"]["suggest"]
    assert chart["state"] == "quiet" and "turn ends" in chart["message"] and not chart["cards"]


def test_the_teacher_has_nothing_to_guess() -> None:
    game = random_game(3, seed=4, turns=12)
    r = replay(game.to_record(), seat=None, turn=12)
    r.think()
    chart = r.panels["suggest"]
    assert chart["state"] == "quiet" and not chart["cards"]
    r.set_perspective(1)
    r.think()
    assert r.panels["suggest"]["state"] == "ready"


def test_hotseat_reads_the_seat_on_screen_only() -> None:
    h = hotseat(players=3, seed=2, show_odds=True)
    for _ in range(5):
        seat = h.perspective
        h.think()
        chart = h.panels["suggest"]
        assert chart["state"] == "ready" and all(c["owner"] != seat for c in chart["cards"])
        offers = h.table.offers
        h.handle_intent({"kind": "play", "card": offers["play_cards"][0],
                         "queue": offers["play_queues"][0]})
        h.handle_intent({"kind": "end"})
        h.think()
        assert h.table.cover["shown"]
        assert h.panels["suggest"]["state"] == "off" and "suggest" not in h.panels["figures"]
        h.handle_intent({"kind": "uncover"})


def test_the_widget_fills_it_in_and_follows_a_move() -> None:
    w = TenLeaveWidget(Game(["Ana", "Ben", "Cy"], seed=8), humans=[0],
                       bots={1: "greedy", 2: "greedy"}, bot_delay=0, seed=8)
    assert w.panels["suggest"]["state"] == "reading"  # no loop here: think() reads it
    w.think()
    assert w.panels["suggest"]["state"] == "ready"
    w.send_intent({"kind": "rationality", "level": "careful"})
    reading = w.panels["suggest"]  # meanwhile: the rules' chances of the same cards
    assert reading["state"] == "reading" and "reading…" in w.panels["figures"]["suggest"]["alt"]
    w.think()
    ready = w.panels["suggest"]
    assert [(c["label"], c["uniform"]) for c in reading["cards"]] == [
        (c["label"], c["uniform"]) for c in ready["cards"]]
    assert all(c["inferred"] == {} for c in reading["cards"])
    before = w.panels["suggest"]["cards"]
    turns = w.game.turns_applied
    offers = w.table.offers
    w.send_intent({"kind": "play", "card": offers["play_cards"][0], "queue": 0})
    w.send_intent({"kind": "end"})
    assert w.game.turns_applied == turns + 3  # Ana's turn and the two bots'
    w.think()
    after = w.panels["suggest"]["cards"]
    unseen = [c for q in w.table.view["queues"] for c in q if c["value"] is None]
    assert after != before and len([c for c in after if c["key"] is not None]) == len(unseen)
    assert len(unseen) >= 2


# ------------------------------------------------------------------------ secrecy


def twin(game: Game, seat: int, rng: random.Random) -> Game | None:
    """``game`` with two of an opponent's cards unknown to ``seat`` swapped (a face-down
    table card and another of the same back on the table or in hand)."""
    from widget.test_widget_secrets import swapped_record

    swap = swapped_record(game, seat, rng)
    return None if swap is None else Game.from_record(swap[0])


@pytest.mark.parametrize("case", range(8))
def test_the_panel_is_a_function_of_the_seats_view(case: int) -> None:
    """Permuting the cards a seat cannot see gives the same bytes: the panel's data, its
    figure, the reason and the queue odds read from their plays, at every level."""
    rng = random.Random(50 + case)
    seats = 2 + case % 4
    g = bot_game(seats, seed=case, turns=rng.randrange(2 * seats, 8 * seats))
    seat = case % seats
    other = twin(g, seat, rng)
    if other is None:
        pytest.fail("no twin for this position")  # the cases are chosen to have one
    assert other.view(seat) == g.view(seat) and other.view(None) != g.view(None)
    for level in ("fitted", "careful", "random"):
        a, b = session(g, seat, level), session(other, seat, level)
        for s in (a, b):
            s.handle({"kind": "odds_model", "model": "inferred"})  # type: ignore[typeddict-item]
            s.suggest.advance(s)
        pa, pb = a.state()["panels"], b.state()["panels"]
        assert pa["suggest"]["state"] == "ready"
        assert json.dumps(pa, sort_keys=True) == json.dumps(pb, sort_keys=True), level


def test_a_failed_reading_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    def broken(*_a: Any, **_k: Any) -> Any:
        raise TenLeaveError("a bug naming xyzzy")

    monkeypatch.setattr(suggest_panel, "infer", broken)
    # the moves panel's evaluation is not what this test is about (nor left running)
    monkeypatch.setattr(lookahead_panel.Thinker, "kick", lambda self: None)
    monkeypatch.setattr(tasks, "THREADS", False)  # on the loop: nothing left behind

    async def main() -> dict[str, Any]:
        w = TenLeaveWidget(Game(["Ana", "Ben"], seed=2), humans=[0], bots={1: "greedy"},
                           bot_delay=0, seed=2)
        for _ in range(200):
            if w.panels["suggest"]["state"] != "reading":
                break
            await asyncio.sleep(0.01)
        return dict(w.panels)

    panels = asyncio.run(main())
    assert panels["suggest"]["state"] == "quiet"
    assert "could not be read" in panels["suggest"]["message"]
    assert "xyzzy" not in json.dumps(panels)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_while_reading_the_rules_chances_are_those_of_the_reading(seats: int) -> None:
    """What the panel shows at once (the rules' chances, from the view) is what the
    reading says by the rules alone, card for card, at every turn of a game."""
    g = Game(["Ana", "Ben", "Cy", "Dee", "Eve"][:seats], seed=seats)
    bots = [make_bot("greedy" if s % 2 else "random", seats) for s in range(seats)]
    while not g.finished:
        seat = g.to_move or 0
        s = session(g, seat, level="random")
        ready = s.state()["panels"]["suggest"]["cards"]
        view = g.view(seat)
        now = suggest_panel.rules_alone(view, g.players)
        assert [(c["label"], c["key"], c["uniform"]) for c in now] == [
            (c["label"], c["key"], c["uniform"]) for c in ready]
        g.apply(decide(bots[seat], g))


def test_the_choice_is_the_naive_leave_one_out_one() -> None:
    """Against the naive reference of tests/analysis/test_infer.py (every world replayed in the
    engine): the card's value's chance without the chosen decision is the naive posterior
    with that turn's choices left unread, and no other turn's leaving-out moves it back
    further (turns with a wake, two decisions in one, are left out of the comparison)."""
    from analysis.test_infer import naive_posterior, small_positions

    checked = 0
    for g, seat in small_positions():
        betas = {o: 2.0 for o in range(g.seats) if o != seat}
        shift = evidence.biggest_shift(with_history(g, seat), beta=betas)
        if shift is None or shift["choice"] is None or g.turns[shift["choice"]["turn"]].wake:
            continue
        grid = {o: [(b, 1.0)] for o, b in betas.items()}
        key, value = shift["key"], shift["value"]
        cards = naive_posterior(g, seat, grid)[0]
        assert cards[key].get(value, 0.0) == pytest.approx(shift["inferred"], abs=1e-9)
        choice = shift["choice"]
        without = naive_posterior(g, seat, grid, skip=choice["turn"])[0]
        assert without[key].get(value, 0.0) == pytest.approx(choice["without"], abs=1e-9)
        sign = 1 if shift["inferred"] > shift["uniform"] else -1
        push = sign * (shift["inferred"] - choice["without"])
        for t, turn in enumerate(g.turns):
            if turn.seat != seat and not turn.wake and t != choice["turn"]:
                other = naive_posterior(g, seat, grid, skip=t)[0][key].get(value, 0.0)
                assert sign * (shift["inferred"] - other) <= push + 1e-9
        checked += 1
        if checked >= 4:
            break
    assert checked >= 4


def test_without_threads_it_is_read_on_the_loop_between_messages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As under Pyodide (no threads): the reading runs in slices on the kernel's loop and
    fills in by itself (the table state meanwhile says it is reading)."""
    import asyncio

    monkeypatch.setattr(lookahead_panel.Thinker, "kick", lambda self: None)
    monkeypatch.setattr(tasks, "THREADS", False)

    async def main() -> tuple[str, dict[str, Any]]:
        g = bot_game(3, seed=9, turns=10)
        w = TenLeaveWidget(g, humans=[g.to_move or 0],
                           bots={s: "greedy" for s in range(3) if s != g.to_move},
                           bot_delay=0, seed=9)
        first = w.panels["suggest"]["state"]
        await until(lambda: w.panels["suggest"]["state"] == "ready")
        return first, dict(w.panels)

    first, panels = asyncio.run(main())
    assert first == "reading"
    assert panels["suggest"]["state"] == "ready" and panels["suggest"]["reason"]
