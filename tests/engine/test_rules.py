"""Unit tests of every rule of RULES.md §1–7, including the rulebook's three examples."""

from __future__ import annotations

import pytest

from tenleave_widget import Game, IllegalActionError, InvalidRulesError, Rules, SetupError


def game(n: int, defense: list[str], rules: Rules | None = None, first: int = 0) -> Game:
    return Game(n, defense=defense, rules=rules, first=first, strict_defense=True)


def play_all(g: Game, turns: list[dict[str, object]]) -> None:
    for x in turns:
        g.apply(x)


def swat_event(g: Game) -> dict[str, object]:
    return next(e for e in g.view(None)["events"] if e["kind"] == "swat")


# ---------------------------------------------------------------- set-up
def test_setup_sizes_and_two_seat_removal() -> None:
    for n, queues in [(2, 2), (3, 2), (4, 3), (5, 3)]:
        g = Game(n, seed=0)
        v = g.view(None)
        assert len(v["queues"]) == queues
        size = 9 if n == 2 else 10
        assert [h["size"] for h in v["hands"]] == [size] * n
    g2 = Game(2, seed=0)
    assert g2.hand(0).count("2") == 1 and g2.hand(0).count("5") == 1
    assert Game(3, seed=0).hand(1) == ["1", "1", "2", "2", "3*", "3*", "4*", "4*", "5", "5*"]


def test_seat_count_and_first_seat_validated() -> None:
    with pytest.raises(SetupError, match="2 to 5 seats"):
        Game(1)
    with pytest.raises(SetupError):
        Game(6)
    with pytest.raises(SetupError):
        Game(3, first=3)
    with pytest.raises(SetupError, match="unknown token"):
        Game(3, defense=["I+V"])
    assert Game(3, first=2).to_move == 2


# ---------------------------------------------------------------- a turn
def test_play_goes_to_back_and_turn_passes_clockwise() -> None:
    g = game(3, ["I+II", "II+III"])
    play_all(g, [{"seat": 0, "play": ["1", 0]}, {"seat": 1, "play": ["5", 0]}])
    assert g.queue_cards(0) == [(0, "1"), (1, "5")]
    assert g.to_move == 2


def test_full_queue_rejects_play() -> None:
    g = game(3, ["I+II", "II+III"])
    play_all(g, [{"seat": s % 3, "play": ["1" if s < 3 else "2", 0]} for s in range(4)])
    before = g.copy()
    with pytest.raises(IllegalActionError, match="queue 0 is full"):
        g.apply({"seat": 1, "play": ["3*", 0]})
    assert g == before


def test_peek_only_the_peeker_learns_and_everyone_sees_which() -> None:
    g = game(3, ["I+II", "II+III"])
    play_all(g, [{"seat": 0, "play": ["4*", 0]}, {"seat": 1, "play": ["2", 1], "peek": [0, 0]}])
    assert g.view(1)["queues"][0][0]["value"] == 4
    assert g.view(2)["queues"][0][0]["value"] is None
    assert g.view(2)["queues"][0][0]["peeked_by"] == [1]


def test_peek_after_can_see_the_card_just_played() -> None:
    g = game(3, ["I+II", "II+III"])
    g.apply({"seat": 0, "play": ["4*", 0], "peek": [0, 0], "extra": "after"})
    before = g.copy()
    with pytest.raises(IllegalActionError, match="no card at position 0"):
        g.apply({"seat": 1, "play": ["4*", 0], "peek": [1, 0]})  # queue 1 empty before play
    assert g == before
    g.apply({"seat": 1, "play": ["4*", 1], "peek": [1, 0], "extra": "after"})


def test_rotate_moves_front_to_back_before_or_after() -> None:
    g = game(3, ["I+II", "II+III"])
    play_all(g, [{"seat": 0, "play": ["1", 0]}, {"seat": 1, "play": ["2", 0]}])
    g.apply({"seat": 2, "play": ["3*", 0], "rotate": 0})  # before: [2,1] + 3
    assert [c for _, c in g.queue_cards(0)] == ["2", "1", "3*"]
    g.apply({"seat": 0, "play": ["4*", 0], "rotate": 0, "extra": "after"})
    assert [c for _, c in g.queue_cards(0)] == ["1", "3*", "4*", "2"]
    with pytest.raises(IllegalActionError, match="rotating needs 2"):
        g.apply({"seat": 1, "play": ["1", 1], "rotate": 1})


def test_one_additional_action_at_most_and_wake_rules() -> None:
    g = game(3, ["I+II", "II+III"])
    with pytest.raises(IllegalActionError, match="at most one"):
        g.apply({"seat": 0, "play": ["1", 0], "peek": [0, 0], "rotate": 0})
    with pytest.raises(IllegalActionError, match="at least 2 cards"):
        g.apply({"seat": 0, "play": ["1", 0], "wake": True})
    with pytest.raises(IllegalActionError, match="must be true"):
        g.apply({"seat": 0, "play": ["1", 0], "wake": False})
    with pytest.raises(IllegalActionError, match="'extra'"):
        g.apply({"seat": 0, "play": ["1", 0], "extra": "later"})
    with pytest.raises(IllegalActionError, match="integer"):
        g.apply({"seat": True, "play": ["1", 0]})
    with pytest.raises(IllegalActionError, match="no '6'"):
        g.apply({"seat": 0, "play": ["6", 0]})
    assert g.turns_applied == 0


# ------------------------------------------------- the rulebook's examples
def under_example() -> Game:
    # queue 0: 2 + 1 + 3 = 6 ; queue 1: 1 + 1 (a tie for the highest)
    g = game(3, ["I+II", "II+III"])
    play_all(g, [
        {"seat": 0, "play": ["2", 0]}, {"seat": 1, "play": ["1", 0]},
        {"seat": 2, "play": ["3*", 0]}, {"seat": 0, "play": ["1", 1]},
        {"seat": 1, "play": ["1", 1]},
    ])
    return g


def test_rulebook_under_10_swats_highest_and_ties() -> None:
    g = under_example()
    g.apply({"seat": 2, "wake": True, "play": ["5", 1]})
    sw = swat_event(g)["queues"]
    assert sw[0]["total"] == 6 and sw[0]["outcome"] == "under"
    assert g.view(None)["swatted"] == [["1"], ["1"], ["3*"]]  # the 3; both 1s on the tie
    assert g.penalty == [1, 1, 3]
    assert sw[1]["total"] == 2 and len(sw[1]["swatted"]) == 2
    assert sorted(x["card"] for x in g.view(None)["safe"]) == ["1", "2"]
    # wake: swat, new token, then the waking seat plays its card
    assert g.token == "II+III"
    assert g.queue_cards(1) == [(2, "5")] and g.queue_cards(0) == []
    assert g.to_move == 0


def test_rulebook_over_10_uses_the_token() -> None:
    # 1 + 5 + 5 = 11 with I+II: the 1 and the first 5 are swatted
    g = game(3, ["I+II", "III+IV"])
    play_all(g, [
        {"seat": 0, "play": ["1", 0]}, {"seat": 1, "play": ["5", 0]},
        {"seat": 2, "play": ["5", 0]}, {"seat": 0, "play": ["2", 1]},
        {"seat": 1, "play": ["2", 1]},
    ])
    g.apply({"seat": 2, "wake": True, "play": ["1", 1]})
    q0 = swat_event(g)["queues"][0]
    assert q0["total"] == 11 and q0["outcome"] == "over"
    # queue 0 swats the 1 and the first 5; queue 1 (2 + 2, a tie) swats both 2s
    assert g.view(None)["swatted"][:2] == [["1", "2"], ["2", "5"]]
    assert g.penalty == [1 + 2, 5 + 2, 0]


def test_rulebook_exactly_10_all_escape() -> None:
    g = game(3, ["I+II", "III+IV"])
    play_all(g, [
        {"seat": 0, "play": ["4*", 0]}, {"seat": 1, "play": ["4*", 0]},
        {"seat": 2, "play": ["2", 0]}, {"seat": 0, "play": ["5", 1]},
        {"seat": 1, "play": ["5", 1]},
    ])
    g.apply({"seat": 2, "wake": True, "play": ["1", 0]})
    sw = swat_event(g)["queues"]
    assert [q["outcome"] for q in sw] == ["exact", "exact"]
    assert g.penalty == [0, 0, 0] and len(g.view(None)["safe"]) == 5


def test_over_10_token_position_beyond_flipped_swats_nothing_there() -> None:
    # 5 + 4 + 2 = 11 with III+IV: position III (the 2) is swatted, IV lies beyond
    g = game(3, ["III+IV", "I+II"])
    play_all(g, [
        {"seat": 0, "play": ["5", 0]}, {"seat": 1, "play": ["4*", 0]},
        {"seat": 2, "play": ["2", 0]}, {"seat": 0, "play": ["4*", 0]},
        {"seat": 1, "play": ["1", 1]}, {"seat": 2, "play": ["1", 1]},
    ])
    g.apply({"seat": 0, "wake": True, "play": ["1", 1]})
    q0 = swat_event(g)["queues"][0]
    assert q0["total"] == 11 and len(q0["flipped"]) == 3
    assert q0["swatted"] == [2]  # the key of the card played at turn 2 (seat 2's 2)
    assert g.penalty == [0, 1, 2 + 1]  # queue 1 (1 + 1) is a tie: both swatted
    assert g.queue_cards(0) == [(0, "4*")]  # the unflipped card moved to the front


def test_over_10_with_two_flips_and_token_i_iv() -> None:
    g = game(2, ["I+IV", "I+II"])
    play_all(g, [
        {"seat": 0, "play": ["5", 0]}, {"seat": 1, "play": ["5*", 0]},
        {"seat": 0, "play": ["1", 0]}, {"seat": 1, "play": ["1", 1]},
        {"seat": 0, "play": ["1", 1]},
    ])
    g.apply({"seat": 1, "wake": True, "play": ["1", 0]})
    q0 = swat_event(g)["queues"][0]
    assert q0["total"] == 10 and q0["outcome"] == "exact"  # 5 + 5 stops at 10


# ------------------------------------------------------------ automatic wake
def test_automatic_wake_then_next_seat_has_a_normal_turn() -> None:
    g = game(4, ["I+II", "II+III", "III+IV"])
    cards = ["1", "1", "2", "2", "3*", "3*"]
    turns = []
    k = 0
    for q in range(3):
        for _ in range(4):
            s = k % 4
            turns.append({"seat": s, "play": [cards[k // 4 % 6], q]})
            k += 1
    play_all(g, turns[:-1])
    assert g.token == "I+II"
    g.apply(turns[-1])  # fills the last queue: SleepKid wakes automatically
    ev = [e["kind"] for e in g.view(None)["events"]]
    assert ev == ["play", "swat", "token"]
    assert swat_event(g)["reason"] == "full"
    assert g.token == "II+III" and g.to_move == 0
    assert all(len(g.queue_cards(q)) < 4 for q in range(3))
    assert any(x.action == "peek" for x in g.legal_turns)  # a normal turn: actions open


def test_round_change_never_repeats_a_token() -> None:
    for seed in range(40):
        g = Game(3, seed=seed)
        import random

        r = random.Random(seed)
        while not g.finished:
            g.apply(g.legal_turns.sample(r))
        d = g.defense
        assert all(a != b for a, b in zip(d, d[1:], strict=False))


# --------------------------------------------------------------- daybreak
def test_daybreak_single_card_escapes_and_passes_repeat() -> None:
    g = game(2, ["I+II", "II+III", "III+IV", "I+IV", "I+II", "II+III", "III+IV"])
    hand = ["1", "1", "2", "3*", "3*", "4*", "4*", "5*", "5"]
    for i in range(9):
        for s in range(2):
            q = 0 if i < 5 or s == 1 else 1
            if g.finished:
                break
            sizes = [len(g.queue_cards(x)) for x in range(2)]
            if sizes[q] >= 4:
                q = 1 - q
            g.apply({"seat": s, "play": [hand[i], q]})
    assert g.finished
    assert g.to_move is None and g.winners is not None
    all_events = [e for i in range(g.turns_applied) for e in g.events(i)]
    passes = [e for e in all_events if e["kind"] == "swat" and e["reason"] == "daybreak"]
    assert passes
    assert sum(len(g.queue_cards(q)) for q in range(2)) == 0
    # the single-card rule: a queue holding one card at a pass escapes unflipped
    singles = [q for e in passes for q in e["queues"] if q["outcome"] == "single"]
    for s in singles:
        assert s["flipped"] == [] and s["single"] is not None


def test_daybreak_single_card_concrete() -> None:
    # 2 seats, daybreak with one queue left holding 1 card after a pass
    g = game(2, ["I+II", "II+III", "III+IV", "I+IV"])
    a = ["5", "5*", "4*", "4*", "3*", "3*", "2", "1", "1"]
    b = ["5", "5*", "4*", "4*", "3*", "3*", "2", "1", "1"]
    qs = [0, 0, 1, 1, 0, 1, 0, 1, 0]
    for i in range(9):
        for s, hand in ((0, a), (1, b)):
            g.apply({"seat": s, "play": [hand[i], qs[i] if s == 0 else 1 - qs[i]]})
    assert g.finished
    kinds = [q["outcome"] for i in range(g.turns_applied) for e in g.events(i)
             if e["kind"] == "swat" for q in e["queues"]]
    assert kinds  # swats happened
    total = sum(g.penalty) + sum(
        int(x["card"].rstrip("*")) for x in g.view(None)["safe"]
    )
    assert total == 2 * sum(int(c.rstrip("*")) for c in a)


# ---------------------------------------------------------------- scoring
def test_winners_share_equal_lowest() -> None:
    g = Game(2, seed=3)
    import random

    r = random.Random(5)
    while not g.finished:
        g.apply(g.legal_turns.sample(r))
    low = min(g.penalty)
    assert g.winners == [s for s in range(2) if g.penalty[s] == low]
    assert g.view(0)["winners"] == g.winners


# ---------------------------------------------------------------- variants
def test_variant_deck() -> None:
    deck = ["1", "1", "1", "2", "2", "3*", "4*", "5*", "5*", "5"]
    r = Rules.from_json({"deck": deck})
    g = Game(3, rules=r, seed=1)
    assert g.hand(0) == sorted(deck)
    assert Game(2, rules=r, seed=1).hand(0) == ["1", "1", "1", "2", "3*", "4*", "5", "5*", "5*"]
    no_two = Rules.from_json({"deck": ["1", "1", "1", "2*", "3*", "3*", "4*", "4*", "5*", "5"]})
    assert "2*" not in Game(2, rules=no_two, seed=1).hand(0)
    with pytest.raises(InvalidRulesError, match="not a card notation"):
        Rules.from_json({"deck": ["7"] * 10})
    with pytest.raises(InvalidRulesError, match="the 10 card notations"):
        Rules.from_json({"deck": ["1", "2", "2", "5*", "5*"]})


def test_variant_tokens() -> None:
    r = Rules.from_json({"tokens": {"A": [1], "B": [2, 3]}})
    g = Game(3, rules=r, defense=["A", "B"], strict_defense=True)
    play_all(g, [
        {"seat": 0, "play": ["5", 0]}, {"seat": 1, "play": ["4*", 0]},
        {"seat": 2, "play": ["2", 0]}, {"seat": 0, "play": ["1", 1]},
        {"seat": 1, "play": ["1", 1]},
    ])
    g.apply({"seat": 2, "wake": True, "play": ["1", 1]})
    assert swat_event(g)["queues"][0]["swatted"] == [0]  # token A: position I only
    assert g.token == "B"
    with pytest.raises(InvalidRulesError):
        Rules.from_json({"tokens": {"A": [5], "B": [1]}})
    with pytest.raises(InvalidRulesError):
        Rules.from_json({"tokens": {"A": [1]}})
    with pytest.raises(InvalidRulesError, match="unknown rule"):
        Rules.from_json({"speed": 2})


def test_variant_daybreak_token_change() -> None:
    import itertools
    import random

    several_passes = {True: 0, False: 0}
    for change in (True, False):
        r = Rules(daybreak_token_change=change)
        for seed in range(30):
            g = Game(3, rules=r, seed=seed)
            rr = random.Random(seed)
            while g.turns_applied < 29:
                g.apply(g.legal_turns.sample(rr))
            before = g.token
            g.apply(g.legal_turns.sample(rr))
            assert g.finished
            passes = sum(1 for e in g.events() if e["kind"] == "swat")
            revealed = [e["token"] for e in g.events() if e["kind"] == "token"]
            chain = [before, *revealed]
            assert g.token == chain[-1]  # the token in force is the last one revealed
            assert all(a != b for a, b in itertools.pairwise(chain))  # never the same twice
            several_passes[change] += passes > 1
            if not change:
                assert len(revealed) <= 1  # only an automatic-wake change could come first
                if not revealed:
                    assert g.token == before  # daybreak passes keep the token
            elif passes > 1:
                assert len(revealed) >= passes - 1  # a change between every two passes
    assert several_passes[True] and several_passes[False]  # the cases above were reached


def test_after_is_the_position_undo_reaches() -> None:
    import random

    g = Game(3, seed=4)
    rng = random.Random(4)
    for _ in range(17):
        g.apply(g.legal_turns.sample(rng))
    for t in (0, 5, 16, 17):
        back = g.copy()
        while back.turns_applied > t:
            back.undo()
        assert g.after(t) == back and g.after(t).view(1) == back.view(1)
    before = g.to_record()
    for bad in (-1, 18, 1.5, True, None):
        with pytest.raises(SetupError, match="turns must be a whole number from 0 to 17"):
            g.after(bad)  # type: ignore[arg-type]
    assert g.to_record() == before and g.turns_applied == 17
