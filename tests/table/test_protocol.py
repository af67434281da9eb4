"""The Python <-> TypeScript contract: js/protocol.ts is GENERATED from
tenleave_widget/table/protocol.py by tools/gen_protocol.py, and must describe the same
table state and the same intents.

Two checks: the checked-in file is exactly what the generator writes now (it fails when
someone changes the Python types without regenerating, or edits the TypeScript by hand);
and, independently of the generator, the TypeScript source read back as text agrees with
Python: every TypedDict of the Python protocol has an interface of the same name with the
same keys, the same optional keys and the same types (Python types written the TypeScript
way), the type aliases (``Intent`` and its kinds among them) are the same, and
``TABLE_STATE_KEYS`` lists ``TableState``'s keys (a generator bug fails here). The table
widget's synced traitlets and what a session produces must be the keys of ``TableState``.
"""

from __future__ import annotations

import importlib.util
import random
import re
import types
from pathlib import Path
from typing import (
    Annotated,
    Any,
    Literal,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

import pytest

from tenleave_widget import Game
from tenleave_widget.table import protocol
from tenleave_widget.table.protocol import INTENTS, TableState, parse_intent
from tenleave_widget.table.session.config import check_config
from tenleave_widget.table.session.machine import Session

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "js" / "protocol.ts"
_spec = importlib.util.spec_from_file_location("gen_protocol", ROOT / "tools" / "gen_protocol.py")
assert _spec is not None and _spec.loader is not None
gen_protocol = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_protocol)

ALIASES = {
    "Mode": protocol.Mode, "Back": protocol.Back, "GameEvent": protocol.GameEvent,
    "Intent": protocol.Intent,
}


def ts_type(hint: Any, inside: str = "") -> str:
    """A Python type hint written as TypeScript (``inside``: the alias being spelled out).
    A second spelling, on purpose, beside the generator's ``Writer.type``: the check below
    must not trust the code it checks."""
    if get_origin(hint) is Annotated:
        return str(get_args(hint)[1])  # the protocol's TypeScript("...") spelling
    for alias, target in ALIASES.items():
        if hint == target and alias != inside:
            return alias
    origin = get_origin(hint)
    if hint is type(None):
        return "null"
    if hint is bool:
        return "boolean"
    if hint in (int, float):
        return "number"
    if hint is str:
        return "string"
    if is_typeddict(hint):
        return str(hint.__name__)
    if origin is Literal:
        return " | ".join(f'"{a}"' for a in get_args(hint))
    if origin in (Union, types.UnionType):
        return " | ".join(ts_type(a) for a in get_args(hint))
    if origin is list:
        inner = ts_type(get_args(hint)[0])
        return f"({inner})[]" if " | " in inner else f"{inner}[]"
    if origin is dict:
        key, value = get_args(hint)
        return f"Record<{ts_type(key)}, {'unknown' if value is Any else ts_type(value)}>"
    raise AssertionError(f"no TypeScript spelling for {hint!r}")


def ts_interfaces(source: str) -> dict[str, dict[str, tuple[str, bool]]]:
    """Each ``export interface`` of ``source``: field -> (type, optional)."""
    out: dict[str, dict[str, tuple[str, bool]]] = {}
    for name, body in re.findall(r"export interface (\w+) \{(.*?)\n\}", source, re.S):
        body = re.sub(r"/\*\*.*?\*/", "", body, flags=re.S)
        fields: dict[str, tuple[str, bool]] = {}
        for line in body.split(";"):
            line = " ".join(line.split())
            if not line:
                continue
            m = re.fullmatch(r"(\w+)(\??): (.+)", line)
            assert m, f"cannot read {line!r} in interface {name}"
            fields[m[1]] = (m[3], m[2] == "?")
        out[name] = fields
    return out


def ts_aliases(source: str) -> dict[str, str]:
    """Each ``export type Name = ...;`` of ``source``: name -> its type on one line."""
    return {
        name: " ".join(body.split()).removeprefix("| ")
        for name, body in re.findall(r"export type (\w+) =(.*?);\n", source, re.S)
    }


def ts_table_state_keys(source: str) -> list[str]:
    m = re.search(r"export const TABLE_STATE_KEYS = \[(.*?)\]", source, re.S)
    assert m, "no TABLE_STATE_KEYS in js/protocol.ts"
    return re.findall(r'"(\w+)"', m[1])


def python_typeddicts() -> dict[str, Any]:
    return {
        name: obj for name, obj in vars(protocol).items()
        if is_typeddict(obj) and not name.startswith("_")
        and (not name.endswith("Intent") or obj in get_args(protocol.Intent))
    }


def disagreements(source: str) -> list[str]:
    """Every difference between the Python protocol and the TypeScript ``source``."""
    faults: list[str] = []
    interfaces = ts_interfaces(source)
    for name, cls in python_typeddicts().items():
        if name not in interfaces:
            faults.append(f"{name}: no interface in js/protocol.ts")
            continue
        py = {
            key: (ts_type(hint), key in cls.__optional_keys__)
            for key, hint in get_type_hints(cls, include_extras=True).items()
        }
        ts = interfaces[name]
        for key in sorted(set(py) | set(ts)):
            if py.get(key) != ts.get(key):
                faults.append(f"{name}.{key}: Python {py.get(key)} != TypeScript {ts.get(key)}")
    aliases = ts_aliases(source)
    for name, target in ALIASES.items():
        py_alias = ts_type(target, inside=name)
        if aliases.get(name) != py_alias:
            faults.append(f"type {name}: Python {py_alias} != TypeScript {aliases.get(name)}")
    # each intent kind with its fields, read through the TypeScript Intent union
    ts_intents = {}
    for member in aliases.get("Intent", "").split(" | "):
        fields = {k: t for k, (t, _) in interfaces.get(member, {}).items()}
        ts_intents[fields.pop("kind", "?").strip('"')] = fields
    py_intents = {
        kind: {f: " | ".join(ts_type(t) for t in typ) for f, typ in fields.items()}
        for kind, fields in INTENTS.items()
    }
    if py_intents != ts_intents:
        faults.append(f"intents: Python {py_intents} != TypeScript {ts_intents}")
    keys = list(get_type_hints(TableState))
    if ts_table_state_keys(source) != keys:
        faults.append(f"TABLE_STATE_KEYS {ts_table_state_keys(source)} != {keys}")
    return faults


def test_the_checked_in_file_is_generated() -> None:
    assert TS.read_text() == gen_protocol.generate(), (
        "js/protocol.ts is stale: run `python tools/gen_protocol.py` (and `npm run build`)"
    )


def test_the_check_command_fails_on_a_stale_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "protocol.ts"
    monkeypatch.setattr(gen_protocol, "OUT", out)
    monkeypatch.setattr(gen_protocol, "ROOT", tmp_path)
    out.write_text(TS.read_text().replace("  busy: boolean;\n", "", 1))  # a hand edit
    assert gen_protocol.main(["--check"]) == 1
    assert "protocol.ts is stale: run `python tools/gen_protocol.py`" in capsys.readouterr().err
    assert gen_protocol.main([]) == 0  # regenerates
    assert out.read_text() == TS.read_text()
    assert gen_protocol.main(["--check"]) == 0


def test_a_python_type_without_a_typescript_spelling_is_refused() -> None:
    writer = gen_protocol.Writer([])
    assert writer.type(dict[str, list[int | None]]) == "Record<string, (number | null)[]>"
    assert writer.type(tuple[int, str]) == "[number, string]"
    for hint in (set[int], dict[int, str], tuple[int, ...], bytes, protocol.Offers):
        with pytest.raises(gen_protocol.GenerateError):
            writer.type(hint)  # Offers: a TypedDict the writer was not given


def test_python_and_typescript_agree() -> None:
    assert disagreements(TS.read_text()) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("  busy: boolean;\n", ""),  # a synced key missing in TS
        ("  note_turn: number | null;", "  note_turn: number;"),  # a type differs
        ("  pending?: boolean;", "  pending: boolean;"),  # optional on one side only
        ("  | RotateIntent\n", ""),  # an intent kind missing
        ("  kind: \"goto\";\n  turn: number;", "  kind: \"goto\";\n  turn: string;"),  # a field
        ("  peek: [number, number][];", "  peek: number[][];"),  # the TypeScript spelling
        ('export type Mode = "play" | "hotseat" | "replay";', 'export type Mode = "play";'),
        ("  | EndEvent;", "  | EndEvent | { kind: \"undo\" };"),  # an event the engine lacks
        ('  "status",\n', ""),  # TABLE_STATE_KEYS incomplete
    ],
)
def test_a_change_on_one_side_only_is_caught(old: str, new: str) -> None:
    source = TS.read_text()
    assert old in source
    assert disagreements(source.replace(old, new, 1)) != []


def test_the_event_types_are_what_the_engine_sends() -> None:
    members = {get_args(get_type_hints(m)["kind"])[0]: m for m in get_args(protocol.GameEvent)}
    every = set(members) | {"under", "exact", "over", "empty", "single"}
    seen: set[str] = set()
    for seed in range(40):  # random games until every kind and outcome was seen
        if seen == every:
            break
        game, rng = Game(3, seed=seed), random.Random(seed)
        while not game.finished:
            game.apply(game.random_turn(rng))
            for event in game.view(0)["events"]:
                seen.add(event["kind"])
                assert set(event) == set(get_type_hints(members[event["kind"]])), event
                for queue in event.get("queues", []):
                    assert set(queue) == set(get_type_hints(protocol.SwatQueue))
                    seen.add(queue["outcome"])
    assert seen == every, every - seen


def test_the_synced_traitlets_are_the_table_state() -> None:
    from tenleave_widget.widget.table_widget import TableWidget

    synced = [k for k in TableWidget().keys if not k.startswith("_") and k not in (
        "comm", "keys", "layout", "log", "tabbable", "tooltip"
    )]
    assert sorted(synced) == sorted(get_type_hints(TableState))


def test_a_session_state_has_the_protocols_keys() -> None:
    game = Game(3, seed=1)
    session = Session(game, check_config(game, humans=[0], bots={1: "random", 2: "greedy"}))
    state = session.state()
    assert list(state) == list(get_type_hints(TableState))
    assert set(state["view"]) == set(get_type_hints(protocol.View))
    assert set(state["offers"]) == set(get_type_hints(protocol.Offers))
    for card in (c for q in state["view"]["queues"] for c in q):
        assert set(card) == set(get_type_hints(protocol.TableCard))


@pytest.mark.parametrize("kind", sorted(INTENTS))
def test_every_intent_kind_is_checked_in_one_place(kind: str) -> None:
    example = {"card": "1", "queue": 0, "position": 0, "turn": 0, "seat": None, "show": True,
               "size": "large", "measure": "game", "mode": "after", "answer": "play",
               "index": 0, "level": "careful", "model": "inferred"}
    intent = {"kind": kind, **{f: example[f] for f in INTENTS[kind]}}
    assert parse_intent(intent) == intent
    with pytest.raises(protocol.WidgetMessageError):
        parse_intent({**intent, "extra": 1})
    for field in INTENTS[kind]:
        with pytest.raises(protocol.WidgetMessageError):
            parse_intent({**intent, field: [1]})


# --------------------------------------------------------------------- either kernel
# Pyodide's kernel turns a None into JavaScript's undefined: a dict key whose value is None
# would vanish on the way (the bundle's `=== null` then reads undefined). Every synced key
# goes through one serializer that sends None as pyodide.ffi.jsnull there (null in the
# browser, as from any other kernel): checked here with a stand-in for jsnull, over every
# key of TableState, in states where the contract's nullable keys are null.
NULL = "<jsnull>"


def nones(value: Any, path: str = "") -> list[str]:
    """Where ``value`` holds a None (its paths)."""
    if value is None:
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in nones(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in nones(v, f"{path}[{i}]")]
    return []


def back(value: Any) -> Any:
    """The stand-in read back as None (what the browser gets: null)."""
    if value == NULL:
        return None
    if isinstance(value, dict):
        return {k: back(v) for k, v in value.items()}
    if isinstance(value, list):
        return [back(v) for v in value]
    return value


def test_no_synced_key_depends_on_none_being_sent_as_null(monkeypatch: pytest.MonkeyPatch) -> None:
    from tenleave_widget.widget import hotseat, play, replay, table_widget

    game = Path(__file__).resolve().parents[2] / "examples" / "games" / "game-3-seats.json"
    widgets = [
        play(players=3, human=0, bots=["greedy", "random"], seed=2, bot_delay=0),
        hotseat(players=["Ana", "Ben"], seed=1, show_odds=True),
        replay(game, turn=9),  # the teacher's view: perspective and best None
    ]
    widgets[1].handle_intent({"kind": "play", "card": "3*", "queue": 0})
    widgets[1].handle_intent({"kind": "end"})  # covered: every card face down
    keys = list(get_type_hints(TableState))
    seen: set[str] = set()
    monkeypatch.setattr(table_widget, "JSNULL", NULL)
    for w in widgets:
        table = w.table
        sent = table.get_state()
        for key in keys:
            value = getattr(table, key)
            assert nones(sent[key]) == [], f"{key}: None sent at {nones(sent[key])}"
            assert back(sent[key]) == value, key
            if nones(value):
                seen.add(key)
    # the nullable keys were null somewhere: face-down cards, covers, a replay's note, the
    # teacher's perspective, no best move, the panels' figures before any world
    assert {"view", "cover", "replay", "perspective", "best", "panels"} <= seen
    monkeypatch.setattr(table_widget, "JSNULL", None)  # elsewhere: sent as it is
    assert all(widgets[2].table.get_state()[k] == getattr(widgets[2].table, k) for k in keys)
