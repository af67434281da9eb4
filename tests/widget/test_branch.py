"""Play on from here (issue 23, item 2): a replay's position played on at a new table, the
record's ``branch`` field (RULES.md §8), and a branched record in replay."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tenleave_widget import Game
from tenleave_widget.engine.errors import RecordError
from tenleave_widget.engine.record import loads_record, names_record, record_digest
from tenleave_widget.widget import TenLeaveWidget, WidgetMessageError, replay

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"
GAME = GAMES / "game-3-seats.json"


def replay_at(turn: int, seat: int | None = None) -> TenLeaveWidget:
    return replay(GAME, seat=seat, turn=turn)


def test_play_from_here_keeps_the_record_cards_and_names_the_branch() -> None:
    r = replay_at(7)
    original = r.record()
    w = r.play_from_here(human=1, bots=["greedy"], seed=4, bot_delay=0)
    assert w.mode == "play" and w.session.humans == [1] and w.session.bots == {0: "greedy",
                                                                              2: "greedy"}
    start = Game.from_record(GAME, 7)
    g = w.game
    assert g.turns[:7] == start.turns  # the teacher's default: the record's own cards
    assert g.view(None)["queues"][:] != [] and g.after(7) == start.after(7)
    assert g.turns_applied >= 7 and (g.to_move == 1 or g.finished)  # the bots moved to seat 1
    rec = w.record()
    assert rec["branch"]["turn"] == 7 and names_record(rec["branch"]["from"], original)
    assert rec["branch"]["from"].startswith("public:") and len(rec["branch"]["from"]) == 80
    assert "notes" not in rec  # the teacher's notes stay with the original
    assert "Playing on from turn 7" in w.table.message["text"]
    assert r.record() == original and r.turn == 7  # the replay is unchanged


def test_redeal_keeps_the_seat_view_and_changes_only_what_it_cannot_see() -> None:
    r = replay_at(9)
    start = Game.from_record(GAME, 9)
    seen = set()
    for seed in range(12):
        w = r.play_from_here(human=0, bots=["random"], redeal=True, seed=seed, bot_delay=1)
        g = w.session.history[9]
        assert g.view(0) == start.view(0)  # the seat knows exactly what it knew
        seen.add(json.dumps(g.view(None)["queues"]))
        assert w.record()["branch"]["turn"] == 9
    assert len(seen) > 1  # the others' face-down cards were dealt again
    again = [json.dumps(r.play_from_here(human=0, bots=["random"], redeal=True, seed=3,
                                         bot_delay=1).session.history[9].view(None))
             for _ in range(2)]
    assert again[0] == again[1]  # a seed makes the re-deal repeatable


def test_hotseat_branch_and_the_bad_arguments() -> None:
    r = replay_at(4)
    w = r.play_from_here(human=[0, 1, 2], bots=[])
    assert w.mode == "hotseat"
    with pytest.raises(WidgetMessageError, match="one human seat"):
        r.play_from_here(human=[0, 1], bots=["greedy"], redeal=True)
    with pytest.raises(WidgetMessageError, match="redeal must be"):
        r.play_from_here(redeal="yes")  # type: ignore[arg-type]
    with pytest.raises(WidgetMessageError, match="need bots"):
        r.play_from_here(human=0, bots=[])
    with pytest.raises(WidgetMessageError, match="for a replay"):
        w.play_from_here()
    end = replay(GAME, turn=Game.from_record(GAME).turns_applied)
    with pytest.raises(WidgetMessageError, match="nothing is left to play"):
        end.play_from_here()


def test_a_branched_record_replays_and_says_so(tmp_path: Path) -> None:
    w = replay_at(5).play_from_here(human=0, bots=["greedy"], bot_delay=0)
    path = tmp_path / "branch.json"
    w.save(path)
    rec = loads_record(path.read_bytes())
    assert rec["branch"]["turn"] == 5
    b = replay(path)
    assert "A branch: played on from turn 5" in b.table.status
    assert b.record()["branch"] == rec["branch"]  # kept through a replay and its save
    assert "branch" not in replay(GAME).record()
    assert "A branch" not in replay(GAME).table.status


@pytest.mark.parametrize("branch, fault", [
    ([], "exactly 'from' and 'turn'"),
    ({"from": "x"}, "exactly 'from' and 'turn'"),
    ({"from": "x", "turn": 1, "more": 2}, "exactly 'from' and 'turn'"),
    ({"from": "", "turn": 1}, "'branch': 'from'"),
    ({"from": "x" * 81, "turn": 1}, "'branch': 'from'"),
    ({"from": "a\x1bb", "turn": 1}, "'branch': 'from'"),
    ({"from": 7, "turn": 1}, "'branch': 'from'"),
    ({"from": "x", "turn": True}, "'turn' must be an integer"),
    ({"from": "x", "turn": -1}, "'turn' must be an integer"),
    ({"from": "x", "turn": 999}, "'turn' must be an integer"),
    ({"from": "x", "turn": 1.0}, "'turn' must be an integer"),
])
def test_a_bad_branch_is_a_record_error(branch: object, fault: str) -> None:
    rec = json.loads(GAME.read_text())
    before = copy.deepcopy(rec)
    rec["branch"] = branch
    with pytest.raises(RecordError, match=fault):
        Game.from_record(rec)
    with pytest.raises(RecordError, match=fault):
        replay(rec)
    rec["branch"] = {"from": "my lesson game", "turn": 3}  # a name is fine
    assert Game.from_record(rec).to_record()["turns"] == before["turns"]


def test_the_digest_names_the_game_not_its_notes() -> None:
    rec = Game.from_record(GAME).to_record()
    bare = {k: v for k, v in rec.items() if k != "notes"}
    assert record_digest(rec) == record_digest(bare)
    other = copy.deepcopy(bare)
    other["turns"] = other["turns"][:-1]
    assert record_digest(other) != record_digest(bare)
    assert len(record_digest(rec)) == 71


def test_the_button_opens_a_table_below_the_replay() -> None:
    r = replay_at(6)
    mover = r.game.to_move
    assert r.send_intent({"kind": "branch"})
    assert len(r.branches) == 1 and r.children[-1] is r.branches[0]
    t = r.branches[0]
    assert t.mode == "play" and t.session.humans == [mover]
    assert t.game.turns[:6] == r.game.turns  # the teacher's view: the record's cards
    assert "playing on from turn 6" in r.table.message["text"]
    r.set_perspective(1)
    for _ in range(4):
        assert r.send_intent({"kind": "branch"})
    assert len(r.branches) == 3 and list(r.children[-3:]) == r.branches  # the last three
    b = r.branches[-1]
    assert b.session.humans == [1] and b.session.history[6].view(1) == r.game.view(1)
    r.goto(Game.from_record(GAME).turns_applied)
    assert not r.send_intent({"kind": "branch"})
    assert "The game is over at this turn: go back" in r.table.message["text"]
    w = replay_at(2).play_from_here(human=0, bots=["greedy"])
    assert not w.send_intent({"kind": "branch"}) and "for a replay" in w.table.message["text"]
    assert len(w.children) == 1


# ------------------------------------------------------ the original's hidden cards


def candidate_worlds(game: Game, seat: int) -> list[dict]:
    """Every record the seat cannot tell from ``game``'s: each arrangement, over the
    face-down cards it cannot see, of the values its view leaves each (owner, back)."""
    from itertools import permutations, product

    from tenleave_widget.analysis.worlds import uniform_pools

    view = game.view(seat)
    slots: dict[tuple[int, str], list[int]] = {}
    for q in view["queues"]:
        for c in q:
            if c["value"] is None:
                slots.setdefault((c["owner"], c["back"]), []).append(c["key"])
    pools = uniform_pools(view)
    choices = []
    for group, keys in sorted(slots.items()):
        values = [v for v, n in pools[group].items() for _ in range(n)]
        choices.append([(keys, p) for p in sorted(set(permutations(values, len(keys))))])
    rec = game.to_record()
    out = []
    for pick in product(*choices):
        cand = copy.deepcopy(rec)
        for keys, values in pick:
            for key, value in zip(keys, values, strict=True):
                back = cand["turns"][key]["play"][0].endswith("*")
                cand["turns"][key]["play"][0] = f"{value}{'*' if back else ''}"
        g = Game.from_record(cand)
        assert g.view(seat) == view
        out.append(cand)
    return out


@pytest.mark.parametrize("redeal", [True, False])
def test_trying_every_world_does_not_recover_the_originals_cards(redeal: bool) -> None:
    """The attack: the seat that plays on from turn 20 lists every arrangement of the
    cards it cannot see there and checks each against the branch's ``from`` (and the
    status line of the branch's replay in its view), by every digest the package makes.
    Each world matches alike (or none does): the branch tells them apart no better than
    the seat's own view."""
    orig = Game.from_record(GAMES / "game-5-seats.json", turns=20).to_record()
    b = replay(orig, seat=0, turn=20).play_from_here(
        human=0, bots=["greedy"], redeal=redeal, bot_delay=0, seed=5).record()
    name = b["branch"]["from"]
    status = replay(b, seat=0).table.status
    worlds = candidate_worlds(Game.from_record(orig), 0)
    assert len(worlds) > 10 and orig["turns"] in [w["turns"] for w in worlds]
    by_name = [names_record(name, w) for w in worlds]
    by_status = [record_digest(w).removeprefix("sha256:")[:12] in status for w in worlds]
    for matched in (by_name, by_status):
        assert sum(matched) in (0, len(worlds)), sum(matched)
    assert all(by_name)  # and the branch still names its original


def test_a_branch_saved_before_public_digests_still_loads_and_hides_its_digest() -> None:
    orig = Game.from_record(GAME, turns=9).to_record()
    b = replay(orig, turn=9).play_from_here(human=0, bots=["greedy"], bot_delay=0)
    rec = b.record()
    rec["branch"]["from"] = record_digest(orig)  # as branches were written before
    short = record_digest(orig)[7:19]
    assert short in replay(rec).table.status  # the teacher's view
    seat = replay(rec, seat=0)
    assert short not in seat.table.status and "of another game" in seat.table.status
    assert replay(rec, original=orig).original is not None  # still checked


def played_out(w: TenLeaveWidget) -> dict:
    """The branch ``w`` played to its end, the human always taking the first offer."""
    while not w.game.finished:
        o = w.table.offers
        assert w.send_intent({"kind": "play", "card": o["play_cards"][0],
                              "queue": o["play_queues"][0]})
        assert w.send_intent({"kind": "end"}), w.table.message
    return w.record()


@pytest.mark.parametrize("redeal", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_a_seeded_branch_is_the_same_branch_every_time(redeal: bool) -> None:
    """The record loaded four times, played on from turn 6 with the same seed and the same
    clicks: the same game, Human Defense tokens included; other seeds draw other tokens,
    and none reveals the original's later tokens by default."""
    cut = Game.from_record(GAME, turns=6).to_record()
    runs = [played_out(replay(cut, turn=6).play_from_here(
        human=0, bots=["greedy"], redeal=redeal, seed=7, bot_delay=0)) for _ in range(4)]
    assert all(r["turns"] == runs[0]["turns"] and r["defense"] == runs[0]["defense"]
               for r in runs)
    assert len(runs[0]["defense"]) > 3
    others = {json.dumps(played_out(replay(cut, turn=6).play_from_here(
        human=0, bots=["greedy"], redeal=redeal, seed=s, bot_delay=0))["defense"])
        for s in range(8)}
    assert len(others) > 1
    # the whole record lists the original's later tokens: the branch does not keep them
    w = replay(GAME, turn=6).play_from_here(human=0, bots=["greedy"], redeal=redeal,
                                                   seed=7, bot_delay=0)
    assert w.session.history[6]._stream == Game.from_record(GAME, turns=6).defense
