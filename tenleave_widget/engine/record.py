"""The ``tenleave-record/1`` file format (RULES.md §8): read, validate, write.

The only module that reads or writes record files. It knows the format, not the game:
:meth:`Game.from_record <tenleave_widget.Game.from_record>` replays a record's turns and
:meth:`Game.to_record <tenleave_widget.Game.to_record>` writes them, on top of it.

A record is a game's setup plus its turns, like PGN for chess:

>>> rec = {"format": "tenleave-record/1", "players": ["Ana", "Ben"],
...        "defense": ["I+II"], "turns": [{"seat": 0, "play": ["3*", 1]}]}
>>> parse_record(rec).players
['Ana', 'Ben']
>>> from tenleave_widget import Game
>>> Game.from_record(rec).to_record()["turns"]
[{'seat': 0, 'play': ['3*', 1]}]

Structural faults make the record invalid as a whole (:class:`RecordError` with
``turn=None``); a malformed or illegal turn names its 0-based index.

**A record is an object, a path is a path.** A record is always a ``dict`` (a JSON
object); the path of a record file is a ``str`` or a :class:`pathlib.Path`
(:data:`RecordSource`). Whatever reads JSON — :func:`load_record`, :func:`read_record`,
:func:`loads_record` — returns an object or raises, so JSON text can never name a file:

>>> try:
...     loads_record('"/home/ana/other-game.json"')
... except ValueError as e:
...     print(e)
a record must be a JSON object, not a string

**Every field is bounded** (:data:`LIMITS`; RULES.md §8): at most 10 MiB of JSON, player
names of 1 to :data:`MAX_NAME_LENGTH` printable characters, notes of at most
:data:`MAX_NOTE_LENGTH`, a variant of at most ``MAX_TOKENS`` tokens
(:mod:`~tenleave_widget.engine.rules`), so that nothing made from a record (a view, the
widget's state, an HTML export) grows with the size of one field.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import secrets
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from .cards import card_back
from .errors import RecordError, SetupError, excerpt, json_kind, one_line, shown
from .lesson import MAX_MOMENTS, MAX_TEXT_LENGTH, Lesson, check_lesson
from .rules import (
    DECK_SIZE,
    MAX_DEFENSE,
    MAX_SEATS,
    MAX_TOKEN_ID_LENGTH,
    MAX_TOKENS,
    MIN_SEATS,
    Rules,
    text_fault,
)

RECORD_FORMAT = "tenleave-record/1"
"""The ``format`` of every record (RULES.md §8); defined here only."""

Record = dict[str, Any]
"""A record: a JSON object, as a ``dict`` (never a path, never JSON text)."""
RecordSource = Record | str | os.PathLike[str]
"""What the facades take (``Game.from_record``, ``replay``, ``review``, ``export_html``,
...): a record (a ``dict``), or the path of a record file (a ``str`` or a
:class:`pathlib.Path`: always a path, never JSON text). Anything else is refused."""

MAX_NAME_LENGTH = 40
"""The longest player name, in characters (Unicode scalar values)."""
MAX_NOTE_LENGTH = MAX_TEXT_LENGTH
"""The longest note (and lesson question or answer), in characters: 4,000 (the sample
games' longest note is 1,337)."""
MAX_TURNS = MAX_SEATS * DECK_SIZE
"""The most turns a game has (5 seats of 10 cards): notes are keyed 0..``MAX_TURNS - 1``."""


@dataclass
class RecordHead:
    """A record's parsed top level; ``turns`` are still raw turn objects.

    Args:
        players: the players' names.
        first: the seat that played first.
        rules: the variant.
        defense: the Human Defense tokens in reveal order.
        turns: the raw turn objects.
        notes: the teacher's notes, by turn index.
        branch: where the game branched from, if it did.
        lesson: the lesson, if the record has one.
    """

    players: list[str]
    first: int
    rules: Rules
    defense: list[str]
    turns: list[Any]
    notes: dict[int, str] = field(default_factory=dict)
    branch: dict[str, Any] | None = None
    """Where the game branched from (``{"from": digest, "turn": N}``), if it did."""
    lesson: Lesson | None = None
    """The teacher's questions (:mod:`~.lesson`), if the record has a lesson."""


RECORD_SIZE_LIMIT = 10 * 1024 * 1024
"""The largest record file read, in bytes (10 MiB): a long game is a few kilobytes."""

LIMITS: dict[str, int] = {
    "record file (bytes)": RECORD_SIZE_LIMIT,
    "player name (characters)": MAX_NAME_LENGTH,
    "note (characters)": MAX_NOTE_LENGTH,
    "note index": MAX_TURNS - 1,
    "variant tokens": MAX_TOKENS,
    "token id (characters)": MAX_TOKEN_ID_LENGTH,
    "defense (tokens listed)": MAX_DEFENSE,
    "lesson moments": MAX_MOMENTS,
    "lesson question or answer (characters)": MAX_TEXT_LENGTH,
}
"""Every bound of a record, in one place (RULES.md §8 and the command line guide list them)."""


def _an_object(obj: Any) -> Record:
    """``obj`` (parsed JSON) if it is an object; else the error "a record must be ..."."""
    if not isinstance(obj, dict):
        raise RecordError(f"a record must be a JSON object, not {json_kind(obj)}")
    return obj


def record_object(source: RecordSource) -> Record:
    """The record of a :data:`RecordSource`: a ``dict`` as it is; a ``str`` or a
    :class:`pathlib.Path` read as the path of a record file (:func:`load_record`). JSON
    text is not a path, and is not a record either: parse it with :func:`loads_record`.

    Args:
        source: the record, or the path of a record file.

    Returns:
        The record object (a dict read from a file is checked as :func:`load_record`
        checks it; a dict given is returned as it is).

    Raises:
        RecordError: ``source`` is neither, or the file cannot be read or holds no
            valid record (the message names the file).

    Example:
        >>> try:
        ...     record_object(["not", "a", "record"])
        ... except ValueError as e:
        ...     print(e)
        a record must be a JSON object (a dict) or the path of a record file, not an array
    """
    if isinstance(source, dict):
        return source
    if isinstance(source, (str, os.PathLike)):
        return load_record(source)
    raise RecordError(
        "a record must be a JSON object (a dict) or the path of a record file, not "
        + ("bytes (parse JSON text with loads_record)" if isinstance(source, (bytes, bytearray))
           else json_kind(source))
    )


def load_record(path: str | os.PathLike[str]) -> Record:
    """Read a record file's JSON object, its fields not yet validated
    (:func:`parse_record` and ``Game.from_record`` do that).

    Only a regular file of at most :data:`RECORD_SIZE_LIMIT` bytes is read (never a
    device, a FIFO or a directory); a UTF-8 byte-order mark is allowed, a key given twice
    in one object is not, and the JSON must be an object (a file holding a string is not
    the path of another file).

    Args:
        path: the record file.

    Returns:
        The record object.

    Raises:
        RecordError: the file cannot be read, is too large or not a regular file, or its
            JSON is not one object (the message names the file).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise RecordError(f"the path of a record file must be a string, not {json_kind(path)}")
    where = excerpt(str(path))
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise RecordError(f"cannot read {where}: not a regular file")
        # O_NONBLOCK: should the path have become a FIFO since, opening it cannot block
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise RecordError(f"cannot read {where}: not a regular file")
            data = f.read(RECORD_SIZE_LIMIT + 1)
    except RecordError:
        raise
    except OSError as e:
        hint = ""
        if isinstance(path, str) and path.lstrip()[:1] in ("{", "["):
            hint = " (this is JSON text, not a path: parse it with loads_record)"
        raise RecordError(f"cannot read {where}: {e.strerror or e}{hint}") from None
    except ValueError:  # a NUL character in the path
        raise RecordError(f"cannot read {where}: a path holds no NUL character") from None
    return loads_record(data, where)


def read_record(stream: BinaryIO, source: str = "standard input") -> Record:
    """Read a record's JSON object from a binary stream (fields not yet validated), at most
    :data:`RECORD_SIZE_LIMIT` bytes of it.

    Args:
        stream: the binary stream.
        source: how error messages name it.

    Returns:
        The record object.

    Raises:
        RecordError: the stream holds more than the limit, or not one JSON object.
    """
    return loads_record(stream.read(RECORD_SIZE_LIMIT + 1), source)


def loads_record(text: str | bytes, source: str = "the record") -> Record:
    """Parse a record's JSON text or UTF-8 bytes into its object, its fields not yet
    validated.

    Strict JSON: no ``NaN`` or ``Infinity``, no number too large for a float, no key twice
    in one object; the top level must be an object.

    Args:
        text: the JSON, as text or UTF-8 bytes (a byte-order mark allowed).
        source: what the text is, for the error messages.

    Returns:
        The record object.

    Raises:
        RecordError: the text is too large, not UTF-8, not strict JSON or not an object.

    Example:
        >>> try:
        ...     loads_record('{"format": "x", "format": "y"}')
        ... except ValueError as e:
        ...     print(e)
        not a record: duplicate key 'format'
    """
    if not isinstance(text, (str, bytes)):
        raise RecordError(f"{source} must be JSON text or bytes, not {json_kind(text)}")
    if len(text) > RECORD_SIZE_LIMIT:
        raise RecordError(f"{source} is larger than the 10 MiB record size limit")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise RecordError(f"{source} is not UTF-8 text: {e.reason}") from None
    try:
        obj = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_unique_keys,
                         parse_constant=_no_constant, parse_float=_finite_float)
    except RecordError:
        raise
    except ValueError as e:
        raise RecordError(f"not JSON: {e}") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deeply") from None
    return _an_object(obj)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise RecordError(f"not a record: duplicate key {excerpt(k)}")
            seen.add(k)
    return obj


def _no_constant(name: str) -> Any:
    raise RecordError(f"not JSON: {name} is not a JSON number")


def _finite_float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise RecordError(f"not a record: the number {excerpt(text)} is too large")
    return x


def _fault(what: str, fault: str | None) -> None:
    if fault is not None:
        raise RecordError(f"{what} {fault}")


def check_name(name: object, what: str = "a player name") -> str:
    r"""Check a player name: 1 to :data:`MAX_NAME_LENGTH` printable characters
    (:func:`~tenleave_widget.engine.rules.text_fault`).

    Args:
        name: the name to check.
        what: how the error message calls it.

    Returns:
        ``name``.

    Raises:
        SetupError: ``name`` is not such a text.

    Example:
        >>> try:
        ...     check_name("Ana\x1b[2J")
        ... except ValueError as e:
        ...     print(e)
        a player name holds '\x1b', which is not a printable character
    """
    fault = text_fault(name, MAX_NAME_LENGTH)
    if fault is not None:
        raise SetupError(f"{what} {fault}")
    return name  # type: ignore[return-value]  # text_fault checked it is a str


def check_notes(raw: object) -> dict[int, str]:
    """A record's ``notes`` object, checked: keys ``"0"`` to ``"49"`` (:data:`MAX_TURNS`;
    no sign, no leading zero, so no note is given twice), texts of 1 to
    :data:`MAX_NOTE_LENGTH` printable characters (newlines allowed).

    Args:
        raw: the ``notes`` object as read from the record.

    Returns:
        The notes as ``{turn index: text}``.

    Raises:
        RecordError: a key or a text that is not as above (the message names it).
    """
    if not isinstance(raw, dict):
        raise RecordError("'notes' must be an object keyed by turn index")
    notes: dict[int, str] = {}
    for k, v in raw.items():
        if not (isinstance(k, str) and 0 < len(k) <= 2 and k.isascii() and k.isdigit()
                and str(int(k)) == k and int(k) < MAX_TURNS):
            raise RecordError(
                f"'notes': {excerpt(k)} must be a turn index 0..{MAX_TURNS - 1} "
                "(no leading zero) with a text"
            )
        _fault(f"'notes': the note of turn {k}", text_fault(v, MAX_NOTE_LENGTH, newlines=True))
        notes[int(k)] = v
    return notes


def parse_record(obj: Any) -> RecordHead:
    """Validate a record's top level — a parsed JSON object, never a path — and return it
    parsed; its turns are checked when the game is replayed (``Game.from_record``).

    Args:
        obj: the record object.

    Returns:
        :class:`RecordHead`: the players, first seat, rules, tokens, turns, notes,
        branch and lesson.

    Raises:
        RecordError: a field is missing, of the wrong type or beyond its bound
            (:data:`LIMITS`); the message names it.
    """
    obj = _an_object(obj)
    fmt = obj.get("format")
    if fmt != RECORD_FORMAT:
        raise RecordError(f"'format' must be {RECORD_FORMAT!r}, not {excerpt(fmt)}")
    players = obj.get("players")
    if (
        not isinstance(players, list)
        or not MIN_SEATS <= len(players) <= MAX_SEATS
        or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError(f"'players' must be a list of {MIN_SEATS} to {MAX_SEATS} names")
    for i, p in enumerate(players):
        try:
            check_name(p, f"'players': name {i}")
        except SetupError as e:
            raise RecordError(str(e)) from None
    first = obj.get("first", 0)
    if type(first) is not int or not 0 <= first < len(players):
        raise RecordError(f"'first' must be a seat 0..{len(players) - 1}, not {excerpt(first)}")
    try:
        rules = Rules.from_json(obj.get("rules"))
    except SetupError as e:
        raise RecordError(f"'rules': {e}") from None
    if "rules" in obj and not isinstance(obj["rules"], dict):
        raise RecordError("'rules' must be an object")
    try:
        defense = rules.check_defense(obj.get("defense"))
    except SetupError as e:
        raise RecordError(str(e)) from None
    turns = obj.get("turns", [])
    if not isinstance(turns, list):
        raise RecordError("'turns' must be a list")
    notes = check_notes(obj.get("notes", {}))
    branch = check_branch(obj["branch"], len(turns)) if "branch" in obj else None
    # moments are bounded like notes (a record cut short keeps its lesson: fit_lesson)
    lesson = check_lesson(obj["lesson"], MAX_TURNS, len(players)) if "lesson" in obj else None
    return RecordHead(list(players), first, rules, defense, turns, notes, branch, lesson)


MAX_BRANCH_FROM = 80
"""The longest ``branch.from`` (a record digest is 71 characters)."""


def record_digest(record: Record) -> str:
    """A record's game (setup and turns; not its notes, review or branch) as
    ``"sha256:<64 hex digits>"``: what ``branch.from`` names (RULES.md §8), of the
    record as :meth:`Game.to_record <tenleave_widget.Game.to_record>` writes it.

    Args:
        record: the record.

    Returns:
        The digest.

    Example:
        >>> record_digest({"format": "tenleave-record/1", "players": ["A", "B"],
        ...                "turns": []})[:15]
        'sha256:327b4f1f'
    """
    game = {k: record[k] for k in ("format", "players", "first", "rules", "defense", "turns")
            if k in record}
    text = json.dumps(game, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


PUBLIC_PREFIX = "public:"
"""How a ``branch.from`` made by :func:`public_digest` begins."""


def public_record(record: Record) -> dict[str, Any]:
    """What everyone at the table sees of a record's game, whatever the cards were: its
    ``format``, ``players``, ``first`` and ``rules``, the first Human Defense token
    (revealed at the start) and, for every turn, its seat, the back of the card played
    and its queue, and the peek, rotation, wake and ``extra`` it had — no card value and
    no token revealed later (both depend on cards that were face down).

    Args:
        record: the record.

    Returns:
        The public part, a JSON-ready dict.

    Example:
        >>> public_record({"format": "tenleave-record/1", "players": ["A", "B"],
        ...                "defense": ["I+II", "I+IV"], "turns": [{"seat": 0, "play": ["3*", 1]}]})
        ... # doctest: +NORMALIZE_WHITESPACE
        {'format': 'tenleave-record/1', 'players': ['A', 'B'], 'first': 0, 'rules': {},
         'token': 'I+II', 'turns': [{'seat': 0, 'play': ['marked', 1]}]}
    """
    turns = []
    for t in record.get("turns", []):
        out = {k: t[k] for k in ("seat", "peek", "rotate", "wake", "extra") if k in t}
        out["play"] = [card_back(t["play"][0]), t["play"][1]]
        turns.append(out)
    defense = record.get("defense") or [None]
    return {"format": record.get("format"), "players": record.get("players"),
            "first": record.get("first", 0), "rules": record.get("rules", {}),
            "token": defense[0], "turns": turns}


def public_digest(record: Record, salt: str | None = None) -> str:
    """What a branch's ``from`` names its original by: ``"public:<salt>:<64 hex
    digits>"``, the SHA-256 of ``salt``, a colon and the JSON of
    :func:`public_record` (keys sorted, no spaces). It depends on nothing a seat could
    not see, so no seat can learn a hidden card by trying the worlds it cannot tell
    apart (each gives the same digest). ``salt``: 8 hex digits (by default new random
    ones); 80 characters in all (:data:`MAX_BRANCH_FROM`).

    Args:
        record: the record.
        salt: 8 hex digits; ``None``: new random ones.

    Returns:
        The digest.

    Example:
        >>> rec = {"format": "tenleave-record/1", "players": ["A", "B"], "turns": []}
        >>> d = public_digest(rec, "0badf00d")
        >>> d[:24], len(d), public_digest(rec, d.split(":")[1]) == d
        ('public:0badf00d:5ea78f8e', 80, True)
    """
    salt = secrets.token_hex(4) if salt is None else salt
    text = json.dumps(public_record(record), sort_keys=True, separators=(",", ":"),
                      allow_nan=False)
    digest = hashlib.sha256(f"{salt}:{text}".encode()).hexdigest()
    return f"{PUBLIC_PREFIX}{salt}:{digest}"


def names_record(name: str, record: Record) -> bool:
    """Whether a branch's ``from`` names the game of ``record``: a
    :func:`public_digest` (with its own salt), or a :func:`record_digest` (records
    made before public digests); a name that is neither names no record.

    Args:
        name: a branch's ``from``.
        record: the record it may name.

    Returns:
        ``True`` if ``name`` names the record's game.
    """
    if name.startswith(PUBLIC_PREFIX):
        salt = name[len(PUBLIC_PREFIX):].split(":")[0]
        return public_digest(record, salt) == name
    return record_digest(record) == name


def short_name(name: str) -> str:
    """A branch's ``from`` in a status line: 12 hex digits of a digest (the salt left
    out), else the name itself.

    Args:
        name: a branch's ``from``.

    Returns:
        The short form.
    """
    if name.startswith(PUBLIC_PREFIX):
        return name.rsplit(":", 1)[-1][:12]
    return name.removeprefix("sha256:")[:12]


def check_branch(raw: object, turns: int) -> dict[str, Any]:
    """A record's optional ``branch`` object, checked: exactly ``from`` (1 to
    :data:`MAX_BRANCH_FROM` printable characters: the original's digest or name) and
    ``turn`` (the turns of the original before the branch, 0..the record's turns).

    Args:
        raw: the ``branch`` object as read from the record.
        turns: the record's number of turns.

    Returns:
        The object.

    Raises:
        RecordError: the object is not as above (the message names the field).

    Example:
        >>> check_branch({"from": "sha256:ab", "turn": 3}, 5)
        {'from': 'sha256:ab', 'turn': 3}
        >>> try:
        ...     check_branch({"from": "x", "turn": 9}, 5)
        ... except ValueError as e:
        ...     print(e)
        'branch': 'turn' must be an integer 0..5 (the turns before the branch), not 9
    """
    if not isinstance(raw, dict) or set(raw) != {"from", "turn"}:
        raise RecordError("'branch' must be an object with exactly 'from' and 'turn'")
    _fault("'branch': 'from'", text_fault(raw["from"], MAX_BRANCH_FROM))
    turn = raw["turn"]
    if type(turn) is not int or not 0 <= turn <= turns:
        raise RecordError(
            f"'branch': 'turn' must be an integer 0..{turns} (the turns before the branch), "
            f"not {excerpt(turn)}"
        )
    return {"from": raw["from"], "turn": turn}


def dumps_record(record: dict[str, Any]) -> str:
    """A record as strict JSON text, one turn per line (diff-friendly).

    Args:
        record: the record object.

    Returns:
        The text.

    Raises:
        RecordError: a value JSON cannot hold: a number that is not finite, a lone
            surrogate, an object that is not JSON.
    """
    try:
        text = _dumps(record)
        text.encode("utf-8")
    except (ValueError, TypeError) as e:  # NaN, a lone surrogate, a value JSON cannot hold
        raise RecordError(f"cannot write the record as JSON: {one_line(str(e), 120)}") from None
    return text


def _dumps(record: dict[str, Any]) -> str:
    def dump(v: Any, **kw: Any) -> str:
        return json.dumps(v, allow_nan=False, **kw)

    turns = record.get("turns", [])
    head = {k: v for k, v in record.items() if k not in ("turns", "notes", "lesson")}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {dump(k)}: {dump(v)},")
    lines.append('  "turns": [')
    lines.append(",\n".join(f"    {dump(t)}" for t in turns))
    tail = [f"  {dump(k)}: {dump(record[k], indent=4, ensure_ascii=False)}"
            for k in ("notes", "lesson") if k in record]  # long texts: one field a line
    lines.append("  ]" + ("," if tail else ""))
    lines.append(",\n".join(tail))
    lines.append("}")
    return "\n".join(line for line in lines if line) + "\n"


def save_record(record: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a record file, atomically (:func:`write_atomically`): on any error the file
    is left as it was.

    Args:
        record: the record object (``Game.to_record()``).
        path: the file to write.

    Raises:
        RecordError: ``record`` is not a record (its top level fails :func:`parse_record`:
            nothing is written), or cannot be written as strict JSON (a value that is not
            a finite number, or a lone surrogate).
        SetupError: ``path`` is not a file's path (:func:`write_atomically`).
        OSError: the file could not be written (the old one is left as it was).
    """
    parse_record(record)
    write_atomically(path, dumps_record(record).encode("utf-8"))


_write = os.write  # the one call that writes a file's bytes (a test makes it fail mid-way)


def check_path(path: object) -> str:
    """Check a file's path to write: a text or a ``Path``, not empty, without a NUL.

    Args:
        path: the path as it was passed.

    Returns:
        The path as text.

    Raises:
        SetupError: ``path`` is not such a path (the message names what it is).

    Example:
        >>> check_path("game.json")
        'game.json'
    """
    text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if not isinstance(text, str) or not text or "\x00" in text:
        raise SetupError(f"the path to write must be a file's path (a text or a Path), not "
                         f"{shown(path)}")
    return text


def write_atomically(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` so that an error leaves ``path`` exactly as it was: into
    a new temporary file in the same folder, then renamed over ``path``
    (:func:`os.replace`); the temporary file is removed on any error. A ``path`` that is a
    symbolic link has its target replaced; one that exists and is not a regular file (a
    terminal, ``/dev/null``, a pipe) is written directly — there is no page to keep.
    A new file gets the usual permissions (the umask's); a replaced one keeps its own.
    Raises :class:`SetupError` for a ``path`` that is not a file's path (not a text or a
    ``Path``, empty, or holding a NUL), before anything is written, and :class:`OSError`
    (the caller names what it was writing).

    Args:
        path: the file to write.
        data: the bytes to write.

    Returns:
        The path written (a symbolic link's target).
    """
    target = Path(os.path.realpath(check_path(path)))
    try:
        old: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        with open(target, "wb") as f:
            f.write(data)
        return Path(path)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as e:  # named by the file asked for, not the temporary one
        raise type(e)(e.errno, e.strerror, os.fspath(path)) from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[_write(fd, view):]
            if old is not None:
                os.fchmod(fd, stat.S_IMODE(old.st_mode))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return Path(path)
