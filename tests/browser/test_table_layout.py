"""The table's layout on plain pages drawn by the bundle (no kernel): a place's roman number
is never under a card or what a card wears around it (the peek's outline, the last turn's
ring), at the table and in replays; and a played table does not jump between states: from
one turn to the next the queues keep their size and the Safe Area and the hand stay where
they are (small, medium and projector size, light and dark)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session
from tenleave_widget.widget import play

from .conftest import artifact
from .test_static_page import serve

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Every place whose number's box meets a card's box grown by what the card draws outside
# it (an outline: its width and offset; a ring: a box-shadow's spread and offset).
NUMBERS_UNDER_CARDS = """() => {
    const drawn = (el) => {
        const b = el.getBoundingClientRect(), s = getComputedStyle(el);
        let out = 0;
        if (s.outlineStyle !== 'none')
            out = parseFloat(s.outlineWidth) + Math.max(0, parseFloat(s.outlineOffset));
        const px = '(-?[\\d.]+)px ';
        const ring = new RegExp(`${px}${px}${px}(-?[\\d.]+)px(?! *inset)`, 'g');
        for (const m of s.boxShadow.matchAll(ring))
            out = Math.max(out, Math.max(Math.abs(+m[1]), Math.abs(+m[2])) + +m[4]);
        return {left: b.left - out, right: b.right + out, top: b.top - out, bottom: b.bottom + out};
    };
    const cards = [...document.querySelectorAll('.tl-slots .tl-card, .tl-slots .tl-badge')]
        .map(c => [c, drawn(c)]);
    const out = [];
    for (const num of document.querySelectorAll('.tl-slotpos')) {
        const n = num.getBoundingClientRect();
        for (const [c, b] of cards)
            if (Math.min(n.right, b.right) - Math.max(n.left, b.left) > 0.5
                && Math.min(n.bottom, b.bottom) - Math.max(n.top, b.top) > 0.5)
                out.push(`${num.textContent} / ${c.textContent}`);
    }
    return out;
}"""

# Where the parts of the board are, relative to the table: the queues' sizes, the Safe
# Area's place and the hand's top.
PLACES = """() => {
    const r = document.querySelector('.tl-root').getBoundingClientRect();
    const at = (sel) => { const b = document.querySelector(sel)?.getBoundingClientRect();
        return b ? [Math.round(b.left - r.left), Math.round(b.top - r.top)] : null; };
    return {queues: [...document.querySelectorAll('.tl-queue')].map(q => {
                const b = q.getBoundingClientRect();
                return [Math.round(b.width), Math.round(b.height)]; }),
            safe: at('.tl-safe'), hand: at('.tl-hand')};
}"""

SIZES = (("small", 760), ("medium", 940), ("projector", 1280))


def draw(page: Any, session: Session, size: str, dark: bool) -> None:
    """The session's table state on a plain page (``dark``: JupyterLab's dark colours)."""
    session.size = size
    serve(page, dict(session.state()))
    page.locator("#table .tl-root").wait_for()
    # the last turn's pulse (its ring grows to 8px for 0.6 s) over: the table at rest
    page.wait_for_function("() => document.getAnimations()"
                           ".every(a => a.playState !== 'running')")
    if dark:  # JupyterLab's dark theme's variables, which the table's colours follow
        page.evaluate("() => { const b = document.body.style; b.background = '#111';"
                      " for (const [k, v] of [['--jp-ui-font-color1', '#eee'],"
                      " ['--jp-ui-font-color2', '#bbb'], ['--jp-layout-color1', '#111'],"
                      " ['--jp-layout-color2', '#2a2a2a'], ['--jp-border-color1', '#777']])"
                      " b.setProperty(k, v); }")


def replay_session(seats: int, turn: int, seat: int | None) -> Session:
    game = Game.from_record(str(EXAMPLES / "games" / f"game-{seats}-seats.json"))
    return Session(game, check_config(game, mode="replay", perspective=seat, turn=turn))


@pytest.mark.parametrize(("size", "width"), SIZES)
def test_a_place_s_number_is_never_under_a_card(page: Any, size: str, width: int) -> None:
    """A played game (the seat's peek outlined, the last card ringed) and replays in a
    seat's view (cards it peeked at) and the teacher's, light and dark."""
    page.set_viewport_size({"width": width, "height": 720})
    w = play(players=3, human=0, bots=["greedy", "random"], seed=7, bot_delay=0)
    for _ in range(5):
        o = w.table.offers
        w.handle_intent({"kind": "play", "card": o["play_cards"][0],
                         "queue": o["play_queues"][-1]})
        w.handle_intent({"kind": "end"})
    assert w.table.offers["peek"]  # a card the seat may peek at: outlined
    sessions = [("play", w.session), ("replay-4-Cy", replay_session(4, 30, 2)),
                ("replay-3", replay_session(3, 9, None)), ("replay-5", replay_session(5, 12, 1))]
    for dark in (False, True):
        for name, session in sessions:
            draw(page, session, size, dark)
            assert page.locator(".tl-slotpos").count() >= 8, name
            assert page.evaluate(NUMBERS_UNDER_CARDS) == [], (name, size, dark)
            page.screenshot(path=str(artifact(
                f"numbers-{name}-{size}-{'dark' if dark else 'light'}.png")))
    assert page.errors == []


@pytest.mark.parametrize(("size", "width"), SIZES)
def test_the_board_does_not_jump_from_turn_to_turn(page: Any, size: str, width: int) -> None:
    """A game played at the table, turn after turn, light and dark: the queues' sizes, the
    Safe Area's place and the hand's top stay the same (a card played on an empty place, a
    marked back, a peek's mark, the last turn's word, a queue that may be rotated, a status
    of one or two lines, the Safe Area's first card)."""
    page.set_viewport_size({"width": width, "height": 720})
    w = play(players=3, human=0, bots=["greedy", "random"], seed=7, bot_delay=0)
    rng = random.Random(3)
    seen = []
    for k in range(8):
        draw(page, w.session, size, dark=k % 2 == 1)
        seen.append(page.evaluate(PLACES))
        o = w.table.offers
        if o["peek"] and k == 2:
            q, i = o["peek"][0]
            w.handle_intent({"kind": "peek", "queue": q, "position": i})
        w.handle_intent({"kind": "play", "card": rng.choice(o["play_cards"]),
                         "queue": rng.choice(o["play_queues"])})
        w.handle_intent({"kind": "end"})
    assert all(p == seen[0] for p in seen), seen
    assert page.errors == []


def same_places(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two PLACES readings agree within 1 px everywhere."""
    flat = [(x, y) for k in ("safe", "hand") for x, y in zip(a[k] or [], b[k] or [], strict=True)]
    flat += [(x, y) for qa, qb in zip(a["queues"], b["queues"], strict=True)
             for x, y in zip(qa, qb, strict=True)]
    return len(a["queues"]) == len(b["queues"]) and all(abs(x - y) <= 1 for x, y in flat)


@pytest.mark.parametrize(("size", "width"), SIZES[:2])
def test_a_replay_does_not_jump_from_turn_to_turn(page: Any, size: str, width: int) -> None:
    """Replays of the 3- and 4-seat sample games stepped from the first turn to the end,
    in the teacher's view and a seat's, at small and medium size: the queues' sizes, the
    Safe Area's place and the hand's top stay the same (empty places, cards peeked at and
    moved back, the last turn's word; the game over, its queues gone, aside). At projector
    size a replay keeps its compact layout, which the lessons' screens need to fit
    1280x720. (Within 1 px: at small size the Safe Area and the hand sit 1 px lower at
    the first turn.)"""
    page.set_viewport_size({"width": width, "height": 720})
    for seats, seat in ((3, None), (4, 2)):
        seen = []
        for turn in range(0, 31, 5):
            session = replay_session(seats, turn, seat)
            if session.state()["view"]["finished"]:  # the game over: its queues are gone
                break
            draw(page, session, size, dark=turn % 2 == 1)
            seen.append(page.evaluate(PLACES))
        assert len(seen) >= 5, (seats, len(seen))
        moved = [p for p in seen if not same_places(p, seen[0])]
        assert moved == [], (seats, seat, moved, seen[0])
    assert page.errors == []
