"""Every example shown in the README and docs/ (every page, ``docs/**/*.md``) is checked
against the engine.

- Every fenced ``json`` block is a record (accepted by ``Game.from_record``, its notes'
  sums and swats those of the replay), a seat view (the engine's view of the game the
  prose describes) or odds (``seat_odds`` of the view built by the file's ``>>>`` lines);
  a block of any other kind fails the test, so a new example cannot go unchecked.
  ``...`` in a block stands for elements left out (a list may hold more, a dict's value
  anything); every number shown must be the engine's to the precision it is shown with.
- Every fenced ``python`` block runs (in the README and every page, from a folder
  holding the sample game under the names they use), and what its comments say it
  prints is what it prints.
- The figures quoted in the prose of the worked examples are the engine's, and every
  sum written ``a + b = t`` adds up.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import os
import re
import shutil
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tenleave_widget import Game
from tenleave_widget.analysis.odds import queue_outs, seat_odds, sketch_view

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(?P<lang>\w*)\n(?P<body>.*?)^```", re.S | re.M)


def blocks(lang: str) -> list[tuple[Path, int, str]]:
    """(file, line, text) of every fenced block of the language ``lang``."""
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group("lang") == lang:
                out.append((path, text[: m.start()].count("\n") + 1, m.group("body")))
    return out


def _id(block: tuple[Path, int, str]) -> str:
    return f"{block[0].relative_to(ROOT)}:{block[1]}"


# ------------------------------------------------------------ matching with "..."

class Shown(float):
    """A number as written in a document: its value and how many decimals it shows."""

    text: str

    def __new__(cls, text: str) -> Shown:
        self = super().__new__(cls, text)
        self.text = text
        return self

    def shows(self, actual: float) -> bool:
        """Whether ``actual`` (a float standing for an exact fraction) is shown rightly:
        rounded half up to the decimals shown (53/40 is 1.33, not 1.32)."""
        written = Decimal(self.text)
        exact = Fraction(actual).limit_denominator(10**6)
        value = Decimal(exact.numerator) / Decimal(exact.denominator)
        return value.quantize(written, rounding=ROUND_HALF_UP) == written


GAP = "\u2026gap\u2026"


def parse_shown(text: str) -> Any:
    """JSON with ``...`` for left-out elements (outside strings)."""
    parts = re.split(r'("(?:[^"\\]|\\.)*")', text)
    marked = "".join(p if i % 2 else p.replace("...", json.dumps(GAP))
                     for i, p in enumerate(parts))
    return json.loads(marked, parse_float=Shown)


def matches(shown: Any, actual: Any, where: str = "$") -> list[str]:
    """The differences between a shown example and the engine's value (empty: they agree)."""
    if shown == GAP:
        return []
    if isinstance(shown, dict):
        if not isinstance(actual, dict):
            return [f"{where}: shown an object, the engine has {actual!r}"]
        keys = set(shown) - {GAP}
        missing = sorted(keys - set(actual))
        extra = [] if GAP in shown else sorted(set(actual) - keys)
        out = [f"{where}: key {k!r} shown, not in the engine's" for k in missing]
        out += [f"{where}: the engine also has {k!r}" for k in extra]
        for k in sorted(keys & set(actual)):
            out += matches(shown[k], actual[k], f"{where}.{k}")
        return out
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return [f"{where}: shown a list, the engine has {actual!r}"]
        return _match_list(shown, actual, where)
    if isinstance(shown, Shown):
        if isinstance(actual, bool) or not isinstance(actual, (int, float)):
            return [f"{where}: shown {shown}, the engine has {actual!r}"]
        if not shown.shows(actual):
            return [f"{where}: shown {float(shown)}, the engine computes {actual!r}"]
        return []
    if type(shown) is not type(actual) and not (
        type(shown) is int and type(actual) is float and actual == shown
    ):
        return [f"{where}: shown {shown!r}, the engine has {actual!r}"]
    return [] if shown == actual else [f"{where}: shown {shown!r}, the engine has {actual!r}"]


def _match_list(shown: list[Any], actual: list[Any], where: str) -> list[str]:
    """Shown elements in order, each ``...`` standing for zero or more elements."""

    def fits(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(actual)
        if shown[i] == GAP:
            return any(fits(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and not matches(shown[i], actual[j]) and fits(i + 1, j + 1)

    if fits(0, 0):
        return []
    if GAP not in shown and len(shown) == len(actual):
        out: list[str] = []
        for k, (s, a) in enumerate(zip(shown, actual, strict=True)):
            out += matches(s, a, f"{where}[{k}]")
        return out
    return [f"{where}: the list shown does not fit the engine's {actual!r}"]


def test_the_matcher_can_fail() -> None:
    assert matches(parse_shown('{"a": [1, ..., 4], "b": 0.4}'), {"a": [1, 2, 3, 4], "b": 0.4}) == []
    assert matches(parse_shown('{"a": [1, ..., 4]}'), {"a": [1, 2, 3]})
    assert matches(parse_shown('{"b": 1.32}'), {"b": 53 / 40})  # 1.325 shown as 1.32
    assert matches(parse_shown('{"b": 1.33}'), {"b": 53 / 40}) == []
    assert matches(parse_shown('{"b": 3.8}'), {"b": 3.8000000000000003}) == []
    assert matches(parse_shown('{"b": true}'), {"b": 1})
    assert matches(parse_shown('{"b": 1}'), {"b": 1, "c": 2})
    assert matches(parse_shown('{"b": 1, ...: 0}'), {"b": 1, "c": 2}) == []
    assert matches(parse_shown('["...", ...]'), ["..."]) == []


# ------------------------------------------------------------ the JSON blocks

VIEW_GAME = {
    "format": "tenleave-record/1",
    "players": ["Ana", "Ben", "Cy"],
    "defense": ["I+II", "III+IV"],
    "turns": [
        {"seat": 0, "play": ["3*", 0]},
        {"seat": 1, "play": ["2", 0]},
        {"seat": 2, "play": ["1", 1]},
        {"seat": 0, "play": ["1", 1]},
        {"seat": 1, "play": ["5*", 1], "rotate": 0, "extra": "after"},
        {"seat": 2, "peek": [0, 0], "play": ["3*", 1]},
        {"seat": 0, "play": ["2", 0]},
    ],
}
"""The game docs/view.md describes: "Ben's view after seven turns: Cy peeked Ben's plain 2
— Ben knows its own cards anyway — and Ben rotated queue 0 after playing his 5* on queue
1". Ana's and Cy's values are any that fit the backs: Ben does not see them."""

SUM = re.compile(r"\((?P<terms>\d+(?: \+ \d+)+) = (?P<total>\d+)\)")
SWATS = re.compile(r"queue (?P<q>\d+) \((?P<terms>[\d + ]+) = \d+\) swats "
                   r"(?:(?P<whose>\w+)'s|(?:his|her|its) own) (?P<value>\d)")


def check_record(record: dict[str, Any]) -> list[str]:
    game = Game.from_record(record)
    out = []
    for key, note in record.get("notes", {}).items():
        turn = int(key)
        swats = [qe for e in game.events(turn) if e["kind"] == "swat" for qe in e["queues"]]
        by_queue = {qe["queue"]: qe for qe in swats}
        for m in SWATS.finditer(note):
            qe = by_queue.get(int(m["q"]))
            if qe is None:
                out.append(f"note {key}: no swat of queue {m['q']} in turn {turn}")
                continue
            values = [int(c["card"].rstrip("*")) for c in qe["flipped"]]
            terms = [int(t) for t in m["terms"].split(" + ")]
            if values != terms:
                out.append(f"note {key}: queue {m['q']} flips {values}, the note says {terms}")
            owner = (record["players"].index(m["whose"]) if m["whose"]
                     else record["turns"][turn]["seat"])
            hit = [(c["owner"], int(c["card"].rstrip("*"))) for c in qe["flipped"]
                   if c["key"] in qe["swatted"]]
            if (owner, int(m["value"])) not in hit:
                out.append(f"note {key}: queue {m['q']} swats {hit}, not that card")
        if not list(SWATS.finditer(note)) and "swat" in note:
            out.append(f"note {key}: names a swat this test cannot check: {note!r}")
    return out


def odds_view(path: Path) -> Any:
    """The ``view`` the ``>>>`` lines of ``path`` build."""
    namespace: dict[str, Any] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(">>> "):
            exec(line[4:], namespace)
    return namespace["view"]


JSON_BLOCKS = blocks("json")


def test_there_are_json_examples() -> None:
    assert {p.name for p, _, _ in JSON_BLOCKS} >= {"RULES.md", "odds.md", "view.md"}


@pytest.mark.parametrize("block", JSON_BLOCKS, ids=_id)
def test_json_example_is_what_the_engine_computes(block: tuple[Path, int, str]) -> None:
    path, _, text = block
    shown = parse_shown(text)
    kind = shown.get("format") if isinstance(shown, dict) else None
    if kind == "tenleave-record/1":
        record = json.loads(text)  # a record is shown whole: it must load as it is
        assert check_record(record) == []
    elif kind == "tenleave-view/1":
        game = Game.from_record(VIEW_GAME)
        assert matches(shown, game.view(shown["seat"])) == []
    elif isinstance(shown, dict) and "expected_penalty" in shown:
        assert matches(shown, seat_odds(odds_view(path))) == []
    else:
        pytest.fail(f"{_id(block)}: an example this test does not know how to check")


def test_record_note_check_can_fail() -> None:
    (path, _, text), = [b for b in JSON_BLOCKS if b[0].name == "RULES.md"]
    record = json.loads(text)
    record["notes"] = {"4": record["notes"]["4"].replace("(5 + 2 = 7)", "(5 + 3 = 8)")}
    assert check_record(record)
    record["notes"] = {"3": "Ben wakes SleepKid: queue 0 (5 + 2 = 7) swats his own 5."}
    assert check_record(record)  # the note key names the turn it is about


# ------------------------------------------------------------ the Python blocks

PRINTS = re.compile(r"print\(.*\)\s+# (?P<said>.+)$")


def _lane(block: tuple[Path, int, str]) -> object:
    """A block that runs a simulation takes minutes: it is in the slow lane."""
    return pytest.param(block, marks=pytest.mark.slow) if "simulate(" in block[2] else block


@pytest.mark.parametrize("block", [_lane(b) for b in blocks("python")], ids=_id)
def test_python_example_runs_and_prints_what_it_says(
    block: tuple[Path, int, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, _, text = block
    sample = ROOT / "examples" / "games" / "game-3-seats.json"
    (tmp_path / "examples" / "games").mkdir(parents=True)
    shutil.copy(sample, tmp_path / "examples" / "games" / sample.name)
    shutil.copy(sample, tmp_path / "game.json")
    monkeypatch.chdir(tmp_path)
    if text.startswith(">>> "):  # a doctest: its outputs are checked as shown
        test = doctest.DocTestParser().get_doctest(text, {}, _id(block), None, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.summarize(verbose=False).failed == 0
        return
    said = [m["said"] for line in text.splitlines() if (m := PRINTS.search(line))]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(text, "example", "exec"), {"__name__": "example"})
    assert printed.getvalue().splitlines() == said
    assert sorted(os.listdir(tmp_path)) == ["examples", "game.json"]


def test_every_python_block_is_marked_python() -> None:
    """A fenced block without a language that is valid Python would never run: it must be
    marked ``python`` (the blocks above run every one so marked)."""
    import ast

    for path, line, text in blocks(""):
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue  # a command line, a JSON outline, a diagram
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
        assert not calls, f"{path.name}:{line}: a Python block not marked python"


# ------------------------------------------------------------ Python calls in the prose

SPAN = re.compile(r"`(?P<name>[A-Za-z_][\w.]*)\((?P<args>[^`]*)\)`")
NOT_OURS = {"mo", "performance", "random", "renderPanels", "renderTableState", "exp", "fig"}
"""Calls of other libraries (``fig``: a plotly figure), of the JavaScript bundle, and
formulas."""


def _names() -> dict[str, Any]:
    """What a name in the prose of the README, the guides and the method pages stands for
    (``w`` and ``r`` are table widgets)."""
    import tenleave_widget as tw
    from tenleave_widget.analysis import bots, infer, position
    from tenleave_widget.analysis import review as review_module
    from tenleave_widget.analysis.lookahead import Budget, Evaluation, evaluate_view
    from tenleave_widget.programs import simulate
    from tenleave_widget.widget.controller import TenLeaveWidget

    names: dict[str, Any] = {n: getattr(tw, n) for n in tw.__all__}
    names.update({"tenleave_widget": tw, "tw": tw, "w": TenLeaveWidget, "r": TenLeaveWidget,
                  "bots": bots, "ReaderBot": bots.ReaderBot,
                  "Budget": Budget, "simulated_game": simulate.simulated_game,
                  "simulate": simulate.simulate,
                  "play_from_here": TenLeaveWidget.play_from_here,
                  "evaluate_view": evaluate_view, "Evaluation": Evaluation,
                  "with_history": infer.with_history, "position_infer": position.position_infer})
    names.update({n: getattr(review_module, n) for n in review_module.__all__})
    from tenleave_widget.programs.class_report import report_figures
    from tenleave_widget.programs.class_review import ClassReview
    from tenleave_widget.widget.class_positions import Practice

    # ``c`` is a class review, ``practice`` its practice set (the guide: a class's games)
    names.update({"c": ClassReview, "Practice": Practice, "practice": Practice,
                  "report_figures": report_figures})
    return names


def _resolve(dotted: str, names: dict[str, Any]) -> Any:
    import importlib
    import inspect

    head, *rest = dotted.split(".")
    assert head in names, f"{dotted}: unknown name {head!r} (add it to the docs test)"
    obj = names[head]
    for part in rest:
        if not hasattr(obj, part) and inspect.ismodule(obj):  # a submodule not imported yet
            with contextlib.suppress(ImportError):
                importlib.import_module(f"{obj.__name__}.{part}")
        assert hasattr(obj, part), f"{dotted}: {part!r} does not exist"
        obj = getattr(obj, part)
    return obj


CALL_DOCS = [ROOT / "README.md", *sorted((ROOT / "docs" / "guides").rglob("*.md")),
             *sorted((ROOT / "docs" / "methods").rglob("*.md"))]
"""The pages whose prose calls the package (the reference pages describe it)."""


def doc_calls() -> list[tuple[str, str]]:
    return [(m["name"], m["args"]) for path in CALL_DOCS
            for m in SPAN.finditer(path.read_text(encoding="utf-8"))
            if m["name"].split(".")[0] not in NOT_OURS]


def check_call(name: str, args: str, names: dict[str, Any]) -> None:
    """The call shown exists: the name is a callable of the package, and every keyword
    shown is one of its parameters."""
    import inspect

    obj = _resolve(name, names)
    assert callable(obj) and not inspect.ismodule(obj), f"{name}(...) is not callable"
    params = inspect.signature(obj).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return
    for kw in re.findall(r"(?:^|[(,\s])(\w+)=", args):
        assert kw in params, f"{name}: no parameter {kw!r}"


def test_every_call_in_the_docs_exists() -> None:
    names = _names()
    calls = doc_calls()
    assert len(calls) >= 15
    for name, args in calls:
        check_call(name, args, names)


def test_the_call_check_can_fail() -> None:
    names = _names()
    for name, args in [("tenleave_widget.analysis.odds", "record, seat, turns"),
                       ("tenleave_widget.position_odds", "record, seats=1"),
                       ("tenleave_widget.no_such_thing", ""), ("nobody_knows", "")]:
        with pytest.raises(AssertionError):
            check_call(name, args, names)


# ------------------------------------------------------------ figures in the prose

def _doc(name: str) -> str:
    path = ROOT / name
    return " ".join(path.read_text(encoding="utf-8").split())


def _odds_example() -> tuple[Any, dict[str, Any], dict[tuple[str, int], float]]:
    view = sketch_view([["1:?", "0:4*"], ["2:?*"]], seat=0, token="I+II")
    odds = seat_odds(view)
    moves = {(m["play"][0], m["play"][1]): m["expected_penalty"]
             for m in odds["moves"] if "play" in m}
    return view, odds, moves


def test_odds_worked_example_figures() -> None:
    text = _doc("docs/odds.md")
    view, odds, moves = _odds_example()
    q0, q1 = odds["queues"]
    claims = [
        ('Queue 0 totals 5, 6 or 9 (`"total": {"5": 0.4, "6": 0.4, "9": 0.2}`)',
         q0["total"] == pytest.approx({"5": 0.4, "6": 0.4, "9": 0.2})),
        ("`p_swatted` 0.8 for the 4, 0.2 for Ben's card",
         [c["p_swatted"] for c in q0["cards"]] == pytest.approx([0.2, 0.8])),
        ("Queue 1 has one card: it is always swatted",
         [c["p_swatted"] for c in q1["cards"]] == [1.0]),
        ("Cy expects to lose (3+3+4+4+5)/5 = 3.8",
         odds["expected_penalty"][2] == pytest.approx(3.8)),
        ("`expected_penalty` is `[3.2, 1.0, 3.8]`",
         odds["expected_penalty"] == pytest.approx([3.2, 1.0, 3.8])),
        ("Waking is not among them",
         not any("wake" in m for m in odds["moves"])
         and min(len(q) for q in view["queues"]) < 2),
        ("Playing her `5` behind her 4 in queue 0 costs 2.4",
         moves[("5", 0)] == pytest.approx(2.4)),
        ("she loses 4 with probability 0.6", moves[("5", 0)] == pytest.approx(0.6 * 4)),
        ("Playing the 5 behind Cy's card in queue 1 would cost 7.2",
         moves[("5", 1)] == pytest.approx(7.2)),
        ("so 0.8 × 5 = 4 more", moves[("5", 1)] - odds["expected_penalty"][0]
         == pytest.approx(4.0)),
        ("a 4 or a 5 played behind Ana's 4 makes queue 0 exactly 10 with probability 0.4 each",
         [queue_outs(view)[0]["append"][v] for v in (4, 5)] == pytest.approx([0.4, 0.4])),
    ]
    for said, holds in claims:
        assert said in text, f"docs/odds.md no longer says: {said}"
        assert holds, f"docs/odds.md says {said!r}, the engine disagrees"


def _plain_card_odds(players: int) -> dict[str, float]:
    total: dict[str, float] = seat_odds(sketch_view([["1:?"]], seat=0, players=players))[
        "queues"][0]["total"]
    return total


def test_plain_back_figures() -> None:
    method, odds_md = _doc("docs/methods/odds.md"), _doc("docs/odds.md")
    said = ("a plain card of Ben's in a 3-seat game, with nothing of Ben's flipped yet, is a "
            "1 or a 2 with probability 2/5 each and the plain 5 with 1/5")
    assert said in method
    assert _plain_card_odds(3) == pytest.approx({"1": 0.4, "2": 0.4, "5": 0.2})
    said = "a plain back there is a 1, a 2 or a 5 with odds 2 : 1 : 1"
    assert said in odds_md
    assert _plain_card_odds(2) == pytest.approx({"1": 0.5, "2": 0.25, "5": 0.25})


def test_replay_output_keys_are_the_ones_the_cli_guide_lists() -> None:
    import tenleave_widget as tw

    said = ('`replay` prints one JSON object: `{"finished", "next_seat", "turns_applied", '
            '"token", "queues" (front first, every value shown), "hands" (sorted), "penalty", '
            '"swatted", "safe", "winners"}`')
    assert said in _doc("docs/guides/cli.md")
    listed = re.findall(r'"(\w+)"', said)
    out = tw.position(ROOT / "examples" / "games" / "game-3-seats.json", turns=10)
    assert sorted(out) == sorted(listed)


SUMS = re.compile(r"(?<![\d.])(?P<terms>\d+(?: ?\+ ?\d+)+) = (?P<total>\d+)(?![\d.])")


def test_every_sum_in_the_docs_adds_up() -> None:
    checked = 0
    for path in DOCS:
        for m in SUMS.finditer(path.read_text(encoding="utf-8")):
            terms = [int(t) for t in re.split(r" ?\+ ?", m["terms"])]
            assert sum(terms) == int(m["total"]), f"{path.name}: {m.group(0)}"
            checked += 1
    assert checked >= 4


# ------------------------------------------------------------ a newcomer's README

HISTORY = re.compile(r"\b[Ii]ssue \d+|`[0-9a-f]{7,40}\^?`")
"""What belongs in the changelog and the commit log, not in the pages: an issue's number,
a commit's hash."""


def test_the_readme_is_short_and_the_pages_tell_no_history() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250
    found = [f"{path.relative_to(ROOT)}: {m.group(0)}" for path in DOCS
             for m in HISTORY.finditer(path.read_text(encoding="utf-8"))]
    assert found == []
    assert HISTORY.search("as issue 20 asks") and HISTORY.search("the tree at `5675c38^`")


# ------------------------------------------------------------ links between the pages

LINK = re.compile(r"\]\((?P<target>[^)#\s]+)(?:#[^)\s]*)?\)")


def broken_links(paths: list[Path]) -> list[str]:
    """Every relative link of these Markdown files whose target file does not exist (the
    strict docs build checks the anchors too; this is its fast-lane part)."""
    out = []
    for path in paths:
        text = FENCE.sub("", path.read_text(encoding="utf-8"))
        for m in LINK.finditer(text):
            target = m["target"]
            if "://" in target or target.startswith(("mailto:", "<")):
                continue
            if not (path.parent / target).exists():
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
                out.append(f"{where}: ({target})")
    return out


def test_every_link_between_the_pages_leads_to_a_file(tmp_path: Path) -> None:
    pages = [*DOCS, ROOT / "CHANGELOG.md", ROOT / "DEVELOP.md"]
    assert broken_links(pages) == []
    page = tmp_path / "page.md"
    page.write_text("[there](nowhere.md) [here](page.md#top) [web](https://example.org)\n")
    assert broken_links([page]) == ["page.md: (nowhere.md)"]
