"""Generate js/protocol.ts from tenleave_widget/table/protocol.py (the Python <-> TypeScript
contract). Run from the repository root, after changing a TypedDict of the contract:

    python tools/gen_protocol.py           # rewrite js/protocol.ts (then `npm run build`)
    python tools/gen_protocol.py --check   # exit 1 if js/protocol.ts is stale (writes nothing)

What it reads: the TypedDicts and type aliases reachable from ``TableState`` and ``Intent``
in ``tenleave_widget.table.protocol`` (some defined in ``engine/cards.py``,
``engine/view.py`` and ``table/panels/data.py``, which it re-exports). Each TypedDict becomes an
``export interface`` (its keys in order, ``NotRequired``/``total=False`` keys optional with
``?``), each module-level alias (``Name = Literal[...]`` or ``Name: TypeAlias = A | B``) an
``export type``; the class docstrings and the docstring under a field become ``/** ... */``
comments. A field typed ``Annotated[T, TypeScript("...")]`` is written as that TypeScript
(a more precise spelling of the same JSON). ``TABLE_STATE_KEYS`` lists ``TableState``'s
keys. Types: bool -> boolean, int/float -> number, str -> string, None -> null, Any ->
unknown, list[T] -> T[], tuple[A, B] -> [A, B], dict[str, T] -> Record<string, T>, Literal
-> a union of JSON literals; anything else is refused (an error, not a guess).

tests/table/test_protocol.py fails when the checked-in js/protocol.ts differs from what
this script writes, and reads the TypeScript back to compare it with Python.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import json
import re
import sys
import types
from collections.abc import Iterator
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

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "js" / "protocol.ts"
COMMAND = "python tools/gen_protocol.py"
# the modules whose definitions are written, in this order (each in its source order)
MODULES = (
    "tenleave_widget.engine.cards",
    "tenleave_widget.engine.view",
    "tenleave_widget.table.panels.data",
    "tenleave_widget.table.protocol",
)
ROOTS = ("TableState", "Intent")

HEADER = f"""\
// GENERATED from tenleave_widget/table/protocol.py by tools/gen_protocol.py: do not edit.
// Change the Python types, then run `{COMMAND}` and `npm run build`.
// tests/table/test_protocol.py fails when this file is stale (or `{COMMAND} --check`).
//
// The contract between Python and the browser. `TableState` is the synced state of the
// table widget (one traitlet per key): `view` follows docs/view.md (tenleave-view/1);
// everything else is computed by Python (tenleave_widget/table/session/machine.py). The browser
// holds no game rules: it draws what it is given and sends an `Intent` back.
"""

FOOTER = """\
/** The keys of TableState, in one list (what the widget reads from its model). */
export const TABLE_STATE_KEYS = [
{keys}
] as const satisfies readonly (keyof TableState)[];

type MissingKey = Exclude<keyof TableState, (typeof TABLE_STATE_KEYS)[number]>;
/** Compiles only when TABLE_STATE_KEYS lists every key of TableState. */
export const TABLE_STATE_KEYS_COMPLETE: [MissingKey] extends [never] ? true : MissingKey = true;

/** The panels' figures, in the order they are drawn (FIGURE_KEYS of table/panels/figures.py). */
export const FIGURE_KEYS = [
{figure_keys}
] as const;
"""


class GenerateError(Exception):
    """A type of the contract that has no TypeScript spelling here."""


# ------------------------------------------------------------------------- the source


class Definition:
    """A TypedDict or a type alias of a module, with its docstrings from the source."""

    def __init__(self, name: str, value: Any, doc: str, fields: dict[str, str],
                 bases: list[str]) -> None:
        self.name = name
        self.value = value
        self.doc = doc
        self.fields = fields  # field -> its docstring ("" if none)
        self.bases = bases  # the TypedDicts it extends, by name


def _docstring(node: ast.stmt | None) -> str:
    if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)):
        return inspect.cleandoc(node.value.value)
    return ""


def _following(body: list[ast.stmt]) -> Iterator[tuple[ast.stmt, ast.stmt | None]]:
    """Each statement of ``body`` with the one after it."""
    for i, node in enumerate(body):
        yield node, body[i + 1] if i + 1 < len(body) else None


def definitions(module_name: str) -> list[Definition]:
    """The TypedDicts and module-level type aliases of a module, in source order."""
    module = importlib.import_module(module_name)
    tree = ast.parse(Path(inspect.getfile(module)).read_text())
    out: list[Definition] = []
    for node, after in _following(tree.body):
        if isinstance(node, ast.ClassDef) and is_typeddict(getattr(module, node.name)):
            fields = {
                field.target.id: _docstring(doc)
                for field, doc in _following(node.body)
                if isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name)
            }
            bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
            out.append(Definition(node.name, getattr(module, node.name),
                                  _docstring(node.body[0]), fields, bases))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            alias = isinstance(node, ast.AnnAssign) and ast.unparse(node.annotation) in (
                "TypeAlias", "typing.TypeAlias")
            literal = node.value is not None and ast.unparse(node.value).startswith("Literal[")
            if isinstance(target, ast.Name) and (alias or literal):
                out.append(Definition(target.id, getattr(module, target.id),
                                      _docstring(after), {}, []))
    return out


# ---------------------------------------------------------------------- TypeScript


def _override(hint: Any) -> str | None:
    for meta in get_args(hint)[1:]:
        if type(meta).__name__ == "TypeScript" and isinstance(meta, str):
            return str(meta)
    return None


class Writer:
    """Writes Python type hints the TypeScript way, naming the aliases it knows."""

    def __init__(self, defs: list[Definition]) -> None:
        self.defs = {d.name: d for d in defs}
        self.aliases = [d for d in defs if not is_typeddict(d.value)]
        self.used: set[str] = set()

    def type(self, hint: Any, inside: str = "") -> str:
        """``hint`` in TypeScript; ``inside`` the alias being defined (not named by itself)."""
        if get_origin(hint) is Annotated:
            over = _override(hint)
            return over if over is not None else self.type(get_args(hint)[0], inside)
        for alias in self.aliases:
            if alias.name != inside and hint == alias.value:
                self.used.add(alias.name)
                return alias.name
        if hint is type(None):
            return "null"
        if hint is bool:
            return "boolean"
        if hint in (int, float):
            return "number"
        if hint is str:
            return "string"
        if hint is Any:
            return "unknown"
        if is_typeddict(hint):
            name = hint.__name__
            if name not in self.defs or name.startswith("_"):
                raise GenerateError(f"{name} is not a public TypedDict of {MODULES}")
            self.used.add(name)
            return str(name)
        origin, args = get_origin(hint), get_args(hint)
        if origin is Literal:
            return " | ".join(json.dumps(a) for a in args)
        if origin in (Union, types.UnionType):
            return " | ".join(self.type(a) for a in args)
        if origin is list:
            inner = self.type(args[0])
            return f"({inner})[]" if " | " in inner else f"{inner}[]"
        if origin is tuple and args and args[-1] is not Ellipsis:
            return "[" + ", ".join(self.type(a) for a in args) + "]"
        if origin is dict and args[0] is str:
            return f"Record<string, {self.type(args[1])}>"
        raise GenerateError(f"no TypeScript spelling for {hint!r}")

    def reachable(self, roots: tuple[str, ...]) -> set[str]:
        """The names of the definitions ``roots`` need (themselves included)."""
        seen: set[str] = set()
        todo = list(roots)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            self.used = set()
            self.definition(self.defs[name])
            todo.extend(self.used - seen)
        return seen

    def definition(self, d: Definition) -> str:
        lines = _comment(d.doc, "")
        if not is_typeddict(d.value):
            members = get_args(d.value) if get_origin(d.value) in (
                Union, types.UnionType) else ()
            if members and all(is_typeddict(m) for m in members):
                lines.append(f"export type {d.name} =")
                lines += [f"  | {self.type(m)}" for m in members[:-1]]
                lines.append(f"  | {self.type(members[-1])};")
            else:
                lines.append(f"export type {d.name} = {self.type(d.value, inside=d.name)};")
            return "\n".join(lines)
        docs = _field_docs(d, self.defs)
        optional = d.value.__optional_keys__
        lines.append(f"export interface {d.name} {{")
        for key, hint in get_type_hints(d.value, include_extras=True).items():
            lines += _comment(docs.get(key, ""), "  ")
            mark = "?" if key in optional else ""
            lines.append(f"  {key}{mark}: {self.type(_required(hint))};")
        lines.append("}")
        return "\n".join(lines)


def _required(hint: Any) -> Any:
    """``hint`` without a ``Required``/``NotRequired`` wrapper (the optional keys are read
    from ``__optional_keys__``)."""
    name = getattr(get_origin(hint), "_name", "")
    return get_args(hint)[0] if name in ("Required", "NotRequired") else hint


def _field_docs(d: Definition, defs: dict[str, Definition]) -> dict[str, str]:
    """Each field's docstring, from the class and the TypedDicts it extends."""
    out: dict[str, str] = {}
    for base in d.bases:
        if base in defs:
            out.update(_field_docs(defs[base], defs))
    out.update({k: v for k, v in d.fields.items() if v})
    return out


_ROLE = re.compile(r":\w+:`(~?)([^`]+)`")


def _comment(doc: str, indent: str) -> list[str]:
    """A docstring as a ``/** ... */`` comment (reST roles and literals made plain)."""
    if not doc:
        return []
    text = _ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", doc)
    text = text.replace("``", "`").replace("*/", "* /")
    lines = text.splitlines()
    if len(lines) == 1:
        return [f"{indent}/** {lines[0]} */"]
    return [f"{indent}/**", *[f"{indent} * {ln}".rstrip() for ln in lines], f"{indent} */"]


def generate() -> str:
    """The text of js/protocol.ts for the Python protocol as it is now."""
    if str(ROOT) not in sys.path[:1]:
        sys.path.insert(0, str(ROOT))  # this checkout's package, not an installed one
    defs = [d for m in MODULES for d in definitions(m)]
    names = [d.name for d in defs]
    if len(set(names)) != len(names):
        raise GenerateError(f"a name is defined twice in {MODULES}: {names}")
    writer = Writer(defs)
    keep = writer.reachable(ROOTS)
    body = [writer.definition(d) for d in defs if d.name in keep]
    state = get_type_hints(writer.defs["TableState"].value)
    keys = "\n".join(f"  {json.dumps(k)}," for k in state)
    figures = importlib.import_module("tenleave_widget.table.panels.figures")
    figure_keys = "\n".join(f"  {json.dumps(k)}," for k in figures.FIGURE_KEYS)
    return HEADER + "\n" + "\n\n".join(body) + "\n\n" + FOOTER.format(
        keys=keys, figure_keys=figure_keys)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if js/protocol.ts is not what would be generated")
    args = parser.parse_args(argv)
    text = generate()
    current = OUT.read_text() if OUT.exists() else ""
    if args.check:
        if current != text:
            print(f"{OUT.relative_to(ROOT)} is stale: run `{COMMAND}`", file=sys.stderr)
            return 1
        print(f"{OUT.relative_to(ROOT)} is up to date")
        return 0
    if current != text:
        OUT.write_text(text)
        print(f"wrote {OUT.relative_to(ROOT)} (now run `npm run build`)")
    else:
        print(f"{OUT.relative_to(ROOT)} was already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
