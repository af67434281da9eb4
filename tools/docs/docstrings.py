"""The public API's docstrings document what a call takes and raises.

The API reference renders every name of ``tenleave_widget.__all__``: its functions, and
its classes with their public methods and properties. This check reads them with griffe
and reports

- a function or method with a parameter (``self``, ``cls`` and ``_private`` ones aside)
  whose docstring has no ``Args:`` section, or whose ``Args:`` leaves one out;
- a function or method whose code raises an exception (a ``raise`` in its own body, or
  in a private helper of its module or class that it calls, followed down; a ``raise``
  its own ``try`` catches does not count) that no entry of its ``Raises:`` section
  covers (the exception or a base class of it). A dataclass's ``__init__`` raises what
  its ``__post_init__`` raises. Left out: ``NotImplementedError``, ``AssertionError``,
  a re-raised variable, and an exception class private to its module (``_Name``: a
  signal its public callers catch).

A class's ``__init__`` is documented by the class (mkdocstrings merges the two).
``python tools/docs/docstrings.py`` lists what it finds; ``python tools/docs/docstrings.py
engine`` makes the same check over every public name of a layer.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import griffe

PACKAGE = "tenleave_widget"
SKIPPED_PARAMETERS = {"self", "cls"}


def _sections(obj: griffe.Object) -> dict[str, Any]:
    """The docstring's Google sections by kind (``"parameters"``, ``"raises"``, ...)."""
    if obj.docstring is None:
        return {}
    found: dict[str, Any] = {}
    for section in obj.docstring.parse("google", warnings=False):
        found.setdefault(section.kind.value, []).extend(
            section.value if isinstance(section.value, list) else [section.value])
    return found


def rendered(package: griffe.Module) -> Iterator[tuple[griffe.Object, griffe.Class | None]]:
    """Each function and method the API reference renders, with its class (or ``None``)."""
    for name in _all_names(package):
        member = package[name]
        target = member.final_target if member.is_alias else member
        yield from _under(target, None)


def _all_names(package: griffe.Module) -> list[str]:
    return list(importlib.import_module(package.path).__all__)


def _under(obj: griffe.Object, cls: griffe.Class | None) -> Iterator[
        tuple[griffe.Object, griffe.Class | None]]:
    if isinstance(obj, griffe.Function):
        yield obj, cls
    elif isinstance(obj, griffe.Class):
        init = obj.members.get("__init__")
        if isinstance(init, griffe.Function):
            yield init, obj
        for name, member in obj.members.items():
            if name.startswith("_") or member.is_alias:
                continue
            if isinstance(member, griffe.Function):
                yield member, obj
        for name in inherited_names(obj.path):
            found = obj.all_members.get(name)
            target = found.final_target if isinstance(found, griffe.Alias) else found
            if isinstance(target, griffe.Function):
                yield target, None
    elif isinstance(obj, griffe.Module):
        for name, member in obj.members.items():
            if not name.startswith("_") and not member.is_alias and not isinstance(
                    member, griffe.Attribute):
                yield from _under(member, None)  # type: ignore[arg-type]


def inherited_names(path: str) -> list[str]:
    """The public methods and properties the class at ``path`` takes from its bases in the
    package (a mixin's), but not those a base outside the package also has (an override
    of ipywidgets' ``set_state``): the API reference renders them with the class."""
    module_path, _, qualname = path.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module_path), qualname)
    except (ImportError, AttributeError):
        return []
    if not inspect.isclass(cls):
        return []
    outside = [c for c in cls.__mro__ if not c.__module__.startswith(PACKAGE)]
    names: list[str] = []
    for base in cls.__mro__[1:]:
        if not base.__module__.startswith(PACKAGE):
            continue
        for name, value in vars(base).items():
            if name.startswith("_") or name in vars(cls) or name in names:
                continue
            if not (inspect.isfunction(value) or isinstance(value, property)):
                continue
            if not any(hasattr(c, name) for c in outside):
                names.append(name)
    return names


# ------------------------------------------------------------ what the code raises

def _runtime(obj: griffe.Object) -> tuple[dict[str, Any], Any]:
    """The module's namespace and the class object (or ``None``) ``obj`` lives in."""
    module = importlib.import_module(obj.module.path)
    owner: Any = None
    if isinstance(obj.parent, griffe.Class):
        owner = module
        for part in obj.parent.path[len(obj.module.path) + 1:].split("."):
            owner = getattr(owner, part)
    return vars(module), owner


def _exception(name: str, namespace: dict[str, Any]) -> type[BaseException] | None:
    value: Any = namespace.get(name.split(".")[0], getattr(builtins, name.split(".")[0], None))
    for part in name.split(".")[1:]:
        value = getattr(value, part, None)
    if inspect.isclass(value) and issubclass(value, BaseException):
        return value
    return None


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def _caught(handlers: list[ast.ExceptHandler], exc: type[BaseException],
            namespace: dict[str, Any]) -> bool:
    for handler in handlers:
        if handler.type is None:
            return True
        names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        for name in names:
            dotted = _dotted(name)
            caught = None if dotted is None else _exception(dotted, namespace)
            if caught is not None and issubclass(exc, caught):
                return True
    return False


class _Raises(ast.NodeVisitor):
    """The exceptions a function body raises, and the private helpers it calls, each
    with the handlers of the ``try`` blocks around it."""

    def __init__(self) -> None:
        self.raised: list[tuple[str, list[list[ast.ExceptHandler]]]] = []
        self.calls: list[tuple[str, list[list[ast.ExceptHandler]]]] = []
        self._guards: list[list[ast.ExceptHandler]] = []

    def body(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for statement in fn.body:
            self.visit(statement)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:  # nested: not this body
        return

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> None:
        return

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        return

    def visit_Try(self, node: ast.Try) -> None:
        self._guards.append(node.handlers)
        for statement in node.body:
            self.visit(statement)
        self._guards.pop()
        for part in (*node.handlers, *node.orelse, *node.finalbody):
            self.visit(part)

    def visit_Raise(self, node: ast.Raise) -> None:
        if node.exc is not None:
            name = _dotted(node.exc)
            if name is not None:
                self.raised.append((name, list(self._guards)))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _dotted(node.func)
        if name is not None:
            last = name.rsplit(".", 1)[-1]
            if last.startswith("_") and not last.startswith("__") and (
                    "." not in name or name.startswith(("self.", "cls."))):
                self.calls.append((name, list(self._guards)))
        self.generic_visit(node)


def _tree(obj: griffe.Object) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    try:
        source = obj.source
    except (OSError, ValueError):
        return None
    tree = ast.parse(textwrap.dedent(source))
    fn = tree.body[0] if tree.body else None
    return fn if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _helper(obj: griffe.Object, name: str) -> griffe.Object | None:
    """The private function ``name`` (``_f`` in the module, ``self._f`` in the class)."""
    attr = name.rsplit(".", 1)[-1]
    found: griffe.Object | griffe.Alias | None
    if "." in name and isinstance(obj.parent, griffe.Class):
        found = _in_class(obj.parent, attr)
    elif "." not in name:
        found = obj.module.members.get(attr)
    else:
        found = None
    return found if isinstance(found, griffe.Function) else None


def _in_class(cls: griffe.Class, attr: str) -> griffe.Object | None:
    if attr in cls.members and not cls.members[attr].is_alias:
        return cls.members[attr]  # type: ignore[return-value]
    for base in cls.resolved_bases:
        if isinstance(base, griffe.Class) and base.path.startswith(PACKAGE + "."):
            found = _in_class(base, attr)
            if found is not None:
                return found
    return None


def raised_by(obj: griffe.Object) -> set[type[BaseException]]:
    """The exception classes ``obj``'s code raises and does not catch itself."""
    out: set[type[BaseException]] = set()
    _collect(obj, [], out, set())
    post_init = obj.parent.members.get("__post_init__") if (
        obj.name == "__init__" and isinstance(obj.parent, griffe.Class)) else None
    if isinstance(post_init, griffe.Function):  # a dataclass's checks
        _collect(post_init, [], out, set())
    return out


def _collect(obj: griffe.Object, guards: list[list[ast.ExceptHandler]],
             out: set[type[BaseException]], seen: set[str]) -> None:
    if obj.path in seen:
        return
    seen.add(obj.path)
    fn = _tree(obj)
    if fn is None:
        return
    namespace, _owner = _runtime(obj)
    visitor = _Raises()
    visitor.body(fn)
    for name, inner in visitor.raised:
        exc = _exception(name, namespace)
        if exc is None:  # a variable holding an exception: re-raised, not a new one
            continue
        if exc is NotImplementedError or exc is AssertionError:
            continue
        if exc.__name__.startswith("_"):  # a module's own signal, caught by its callers
            continue
        if not any(_caught(handlers, exc, namespace) for handlers in inner + guards):
            out.add(exc)
    for name, inner in visitor.calls:
        helper = _helper(obj, name)
        if helper is not None:
            _collect(helper, inner + guards, out, seen)


# ------------------------------------------------------------ the check

def problems_of(obj: griffe.Object, cls: griffe.Class | None) -> list[str]:
    """What ``obj``'s docstring leaves out (for ``__init__``: the class's docstring)."""
    documented = cls if obj.name == "__init__" and cls is not None else obj
    where = f"{documented.path}" + ("" if documented is obj else " (its __init__)")
    sections = _sections(documented)
    if obj.name == "__init__" and obj.docstring is not None:
        for kind, entries in _sections(obj).items():
            sections.setdefault(kind, []).extend(entries)
    out = []
    parameters = [p.name for p in (obj.parameters if isinstance(obj, griffe.Function) else [])
                  if p.name not in SKIPPED_PARAMETERS and not p.name.startswith("_")]
    if parameters:
        if "parameters" not in sections:
            out.append(f"{where}: no Args section for {', '.join(parameters)}")
        else:
            named = {entry.name.lstrip("*") for entry in sections["parameters"]}
            missing = [p for p in parameters if p not in named]
            if missing:
                out.append(f"{where}: Args leaves out {', '.join(missing)}")
    raised = raised_by(obj)
    if raised:
        namespace, _owner = _runtime(obj)
        covered = []
        for entry in sections.get("raises", []):
            exc = _exception(str(entry.annotation), namespace)
            if exc is None:
                exc = _exception(str(entry.annotation), vars(importlib.import_module(PACKAGE)))
            if exc is not None:
                covered.append(exc)
        missing_raises = sorted(e.__name__ for e in raised
                                if not any(issubclass(e, c) for c in covered))
        if missing_raises:
            out.append(f"{where}: raises {', '.join(missing_raises)} "
                       "with no Raises entry for it")
    return out


def check(package: griffe.Module, skip_modules: frozenset[str] = frozenset()) -> list[str]:
    """Every problem of the rendered functions and methods, outside ``skip_modules``."""
    found: list[str] = []
    seen: set[str] = set()
    for obj, cls in rendered(package):
        if obj.path in seen or obj.module.path in skip_modules:
            continue
        seen.add(obj.path)
        found += problems_of(obj, cls)
    return found


def check_layer(package: griffe.Module, layer: str) -> list[str]:
    """The same check over every public function, class and method defined in the
    modules of one layer (``"engine"``), in ``__all__`` or not."""
    found: list[str] = []
    root = package[layer]
    assert isinstance(root, griffe.Module)
    modules = [root, *(m for m in _modules(root))]
    for module in modules:
        if any(part.startswith("_") for part in module.path.split(".")[1:]):
            continue
        for name, member in module.members.items():
            if name.startswith("_") or member.is_alias or isinstance(
                    member, (griffe.Attribute, griffe.Module)):
                continue
            for obj, cls in _under(member, None):  # type: ignore[arg-type]
                found += problems_of(obj, cls)
    return found


def _modules(module: griffe.Module) -> Iterator[griffe.Module]:
    for member in module.members.values():
        if isinstance(member, griffe.Module) and not member.is_alias:
            yield member
            yield from _modules(member)


def load() -> griffe.Module:
    package = griffe.load(PACKAGE, resolve_aliases=True, resolve_external=False)
    assert isinstance(package, griffe.Module)
    return package


if __name__ == "__main__":
    # python tools/docs/docstrings.py [LAYER...]: the API reference's names, or the layers'
    package = load()
    listed = check(package) if len(sys.argv) == 1 else [
        problem for layer in sys.argv[1:] for problem in check_layer(package, layer)]
    print("\n".join(listed) if listed else "every rendered docstring documents its calls")
    sys.exit(1 if listed else 0)
