"""Sphinx-style cross-references in the package's docstrings, checked and made Markdown.

The docstrings name other objects the way Sphinx does (``:func:`evaluate_view```,
``:class:`~tenleave_widget.engine.game.Game```, ``:mod:`.class_review```). When the docs
site is built, this griffe extension resolves every such reference in every docstring of
the package — not only the rendered ones — as Sphinx would (the object itself, its
class, its module, the packages above it, then a unique suffix anywhere in the package;
a name outside the package must import). A reference that resolves to nothing is a
warning, which fails the strict build. A resolved one becomes a link when the API
reference renders its target, and code otherwise.

``python tools/docs/crossrefs.py`` lists the references that do not resolve.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import logging
import re
import textwrap
from collections.abc import Iterator

import griffe

ROLE = re.compile(r":(?:py:)?(?P<role>mod|func|class|meth|attr|data|exc|obj|const|type)"
                  r":`(?P<target>[^`]+)`")
PACKAGE = "tenleave_widget"
log = logging.getLogger("mkdocs.plugins.tenleave_crossrefs")

RENDERED: set[str] = set()
"""The canonical paths the API reference renders (set by the mkdocs hook)."""


def walk(obj: griffe.Object) -> Iterator[griffe.Object]:
    """``obj`` and every object defined under it (aliases, i.e. imports, left out)."""
    yield obj
    for member in obj.members.values():
        if member.is_alias:
            continue
        yield from walk(member)  # type: ignore[arg-type]


def _lookup(root: griffe.Module, path: str) -> griffe.Object | griffe.Alias | None:
    if path == root.path:
        return root
    if not path.startswith(root.path + "."):
        return None
    try:
        return root[path[len(root.path) + 1:]]
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def _external(path: str) -> bool:
    """A name outside the package: a builtin, or an importable module or its attribute."""
    if hasattr(builtins, path):
        return True
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except Exception:  # noqa: BLE001 - any failure to import means "not this prefix"
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


class Index:
    """Every object of the package, by path and by its last components."""

    def __init__(self, root: griffe.Module) -> None:
        self.root = root
        self.paths = [o.path for o in walk(root)]

    def suffix(self, name: str) -> list[str]:
        tail = "." + name
        return [p for p in self.paths if p.endswith(tail)]

    def resolve(self, name: str, where: griffe.Object) -> str | None:
        """The path ``name`` refers to from the docstring of ``where``, or None."""
        relative = name.startswith(".")
        name = name.lstrip(".")
        if name.startswith(PACKAGE + ".") or name == PACKAGE:
            found = _lookup(self.root, name)
            return _target_path(found) if found is not None else _runtime(name)
        scope: griffe.Object | None = where
        while scope is not None:  # the object, its class, its module, the packages above
            found = _lookup(self.root, f"{scope.path}.{name}")
            if found is not None:
                return _target_path(found)
            scope = scope.parent
        hits = self.suffix(name)
        if len(hits) == 1:
            return hits[0]
        if relative and hits:
            return min(hits, key=len)
        if not relative and _external(name):
            return ""
        return None


def _runtime(path: str) -> str | None:
    """The canonical path of a package name that only exists when imported (a name the
    package's ``__getattr__`` imports on first use), or None."""
    module, _, attr = path.rpartition(".")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return None
    if inspect.ismodule(obj):
        return str(obj.__name__)
    return f"{obj.__module__}.{obj.__qualname__}" if hasattr(obj, "__qualname__") else path


def _target_path(obj: griffe.Object | griffe.Alias) -> str:
    try:
        return obj.final_target.path if obj.is_alias else obj.path  # type: ignore[union-attr]
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return obj.path


def _where(obj: griffe.Object) -> str:
    line = obj.docstring.lineno if obj.docstring else None
    return f"{obj.relative_filepath}:{line}" if line else str(obj.relative_filepath)


def check(root: griffe.Module, rewrite: bool) -> list[str]:
    """Resolve every reference under ``root``; with ``rewrite``, make each Markdown."""
    index = Index(root)
    dangling = []
    for obj in walk(root):
        doc = obj.docstring
        if doc is None or ":`" not in doc.value:
            continue

        def replace(m: re.Match[str], obj: griffe.Object = obj) -> str:
            target = " ".join(m["target"].split())
            if "<" in target:  # "text <target>"
                shown, target = (s.strip() for s in target.rstrip(">").split("<", 1))
            else:
                target = target.replace(" ", "")
                shown = target
            if target.startswith("~"):
                target = target[1:]
                shown = target.rsplit(".", 1)[-1] if shown.startswith("~") else shown
            path = index.resolve(target, obj)
            if path is None:
                dangling.append(f"{_where(obj)}: {m.group(0)} resolves to nothing")
                return f"`{shown}`"
            shown = shown.lstrip(".")
            if path and path in RENDERED:
                return f"[`{shown}`][{path}]"
            return f"`{shown}`"

        new = ROLE.sub(replace, doc.value)
        if rewrite:
            doc.value = new
    if rewrite:
        for obj in walk(root):
            if obj.docstring is not None:
                obj.docstring.value = fence(obj.docstring.value)
    return dangling


def fence(text: str) -> str:
    """reST's code in a docstring as Markdown's: a doctest (``>>>`` lines and their output,
    up to a blank line) and a literal block (the indented lines after a ``::``) fenced."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + "```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(indent + "```")
            continue
        if line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            base = len(line) - len(line.lstrip())
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            block_end = j
            while block_end < len(lines) and (
                not lines[block_end].strip()
                or len(lines[block_end]) - len(lines[block_end].lstrip()) > base
            ):
                block_end += 1
            while block_end > j and not lines[block_end - 1].strip():
                block_end -= 1
            if block_end > j:
                head = line.rstrip()[:-1]  # "Example::" -> "Example:"; " ::" -> " :"
                out.append(head[:-1] if head.endswith(" :") else head)
                out.append("")
                pad = " " * base
                out.append(pad + "```")
                block = textwrap.dedent("\n".join(lines[j:block_end]))
                out += [pad + ln if ln else ln for ln in block.split("\n")]
                out.append(pad + "```")
                i = block_end
                continue
        out.append(line)
        i += 1
    return "\n".join(out)


class SphinxRoles(griffe.Extension):
    """The extension mkdocstrings loads (``extensions`` in mkdocs.yml)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: object) -> None:
        if pkg.path != PACKAGE:
            return
        for problem in check(pkg, rewrite=True):
            log.warning("cross-reference: %s", problem)


if __name__ == "__main__":
    package = griffe.load(PACKAGE, resolve_aliases=True, resolve_external=False)
    assert isinstance(package, griffe.Module)
    problems = check(package, rewrite=False)
    print("\n".join(problems) or "every cross-reference resolves")
    raise SystemExit(1 if problems else 0)
