"""The package's layers (docs/architecture.md): every import of every module, including
the imports inside functions and under ``TYPE_CHECKING``, goes to its own layer or below,
and no modules import each other in a circle of any kind: the imports only for
annotations (under ``TYPE_CHECKING``) count as imports too. A helper that needs a
session's attributes says which in a ``Protocol`` of its own (``ModeSession`` in
``table/session/modes.py``, ...) instead of importing the session that imports it."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tenleave_widget"

LAYERS: list[set[str]] = [
    # engine/: the rules and nothing else
    # no state (swat: the swat and daybreak rules on plain values, the one kernel)
    {"engine", "engine.errors", "engine.cards", "engine.rules", "engine.turn", "engine.swat"},
    {"engine.record"},  # the file format (no game in it)
    {"engine.legal"},  # the legal turns, as arithmetic on the distinct cards and queue sizes
    {"engine.view"},  # the seat view's types and the projection of a game's state onto them
    {"engine.game"},  # state, the executor, swats, daybreak
    # analysis/: pure functions of a seat view, built on the engine
    # intervals; the uniform model; the lookahead's result as types
    {"analysis", "analysis.stats", "analysis.worlds", "analysis.move_values"},
    {"analysis.odds"},  # the exact odds
    # the lookahead's view decoding and sampled worlds; its play-out simulator
    {"analysis.playout_position", "analysis.playout"},
    {"analysis.playout_batch"},  # the batched play-out kernel (numpy), the simulator's twin
    {"analysis.playout_numba"},  # the compiled play-out kernel (numba): the batch's tables
    {"analysis.playouts"},  # the play-outs seam: which kernel plays the worlds out
    {"analysis.position", "analysis.bots", "analysis.lookahead", "analysis.infer",
     "analysis.reader"},
    {"analysis.evidence"},  # why a card's chances moved: reads infer's model
    {"analysis.analyse"},  # the one analysis of a position, which every verdict reads
    # review/: the judgement of a finished game, one concept a module
    {"analysis.review.schema", "analysis.review.text", "analysis.review.results",
     "analysis.review.replay"},
    {"analysis.review.luck", "analysis.review.evaluator"},
    {"analysis.review.judge", "analysis.review.saved", "analysis.review.puzzle"},
    {"analysis.review"},  # the package's public names
    # table/: the presentation model (no Jupyter import: checked below), which the widget
    # and the export share
    {"table.tasks"},  # background work with or without threads (it imports no layer)
    {"table"},
    # the dealer server: its protocol, store and a seat's stand-in game; the tables and
    # seats; the WebSocket server and client; its command line (which cli.py adds)
    {"programs.dealer", "programs.dealer.wire", "programs.dealer.store",
     "programs.dealer.stand_in"},
    {"programs.dealer.dealer"},
    {"programs.dealer.server", "programs.dealer.client"},
    {"programs.dealer.command"},
    {"programs"},  # simulate, cli, export
    # widgets whose state the kernel owns; plotly.js once per kernel, which every table
    # references
    {"widget.owned", "widget.plotly_runtime"},
    {"widget"},  # the Jupyter adapter
    {"__init__", "__main__"},  # the package's public names; python -m tenleave_widget
]
# The folder tree is the diagram: each package's modules are one run of layers, in this
# order (test_each_package_is_one_run_of_layers).
PACKAGES = ["engine", "analysis", "table", "programs", "widget"]
JUPYTER = ("anywidget", "ipywidgets", "traitlets", "IPython", "ipykernel")
# plotly is not Jupyter: table/panels/figures.py composes the panels' figures with
# plotly.graph_objects (go.Figure objects for an analyst; the table syncs their JSON), so the
# table layer (PLOTLY_FROM) and above may import plotly, the engine and the analysis may
# not; plotly's Jupyter half, the FigureWidget (an anywidget), is widget/-only like the rest.
PLOTLY_FROM = "table"


def jupyter_fault(module: str, layer: int) -> str | None:
    """Why a module of ``layer`` may not import the outside ``module``, or None."""
    top = module.split(".")[0]
    if top in JUPYTER and layer < layer_of("widget.plotly_runtime"):  # widget/'s first layer
        return f"imports {module}: only widget/ is Jupyter"
    if top == "plotly" and (layer < layer_of(PLOTLY_FROM)
                            or module.startswith("plotly.basewidget")):
        return f"imports {module}: plotly from table/ up, and no FigureWidget below widget/"
    return None

def module_name(path: Path) -> str:
    """``tenleave_widget/table/session/machine.py`` -> ``table.session.machine``."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> int:
    """The layer that names ``module``; a module no layer names is in the layer that
    names its package (``table.session`` -> ``table``). A module named by a layer is
    judged by that layer, not its package's (``analysis.infer`` is above ``analysis``)."""
    for i, layer in enumerate(LAYERS):
        if module in layer:
            return i
    top = module.split(".")[0]
    for i, layer in enumerate(LAYERS):
        if top in layer:
            return i
    raise AssertionError(f"tenleave_widget.{module} is in no layer: add it to LAYERS here")


def type_only_lines(tree: ast.AST) -> set[int]:
    """The lines of the imports under ``if TYPE_CHECKING:`` (annotations only)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                for inner in ast.walk(sub):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)):
                        lines.add(inner.lineno)
    return lines


def imports(
    path: Path, text: str | None = None, *, runtime_only: bool = False
) -> list[tuple[int, str]]:
    """``(line, target)`` of every import: package modules relative to the package
    (``game``), other modules by their absolute name prefixed with ``!`` (``!plotly``).
    ``text`` stands for the file's text; ``runtime_only`` leaves out the imports under
    ``if TYPE_CHECKING:``."""
    if text is None:  # a file of the package: read and parsed once for all the tests
        return list(_file_imports(path, runtime_only))
    return _imports(path, text, runtime_only)


@functools.cache
def _file_imports(path: Path, runtime_only: bool) -> tuple[tuple[int, str], ...]:
    return tuple(_imports(path, path.read_text(encoding="utf-8"), runtime_only))


def _imports(path: Path, source: str, runtime_only: bool) -> list[tuple[int, str]]:
    package = list(path.relative_to(PACKAGE).parts[:-1])
    tree = ast.parse(source)
    skip = type_only_lines(tree) if runtime_only else set()
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno in skip:
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("tenleave_widget."):
                    out.append((node.lineno, a.name.removeprefix("tenleave_widget.")))
                elif a.name != "tenleave_widget":
                    out.append((node.lineno, "!" + a.name))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1] if node.level > 1 else package
                target = [*base, *(node.module.split(".") if node.module else [])]
            elif node.module and node.module.split(".")[0] == "tenleave_widget":
                target = node.module.split(".")[1:]
            else:
                out.append((node.lineno, "!" + (node.module or "")))
                continue
            for a in node.names:  # from .analysis import odds names the module odds
                name = ".".join([*target, a.name])
                if (PACKAGE / f"{name.replace('.', '/')}.py").exists() or (
                    PACKAGE / name.replace(".", "/")
                ).is_dir():
                    out.append((node.lineno, name))
                elif target:
                    out.append((node.lineno, ".".join(target)))
    return out


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_module_is_in_a_layer() -> None:
    for name in modules():
        layer_of(name)


def test_each_package_is_one_run_of_layers() -> None:
    seen: list[str] = []
    for layer in LAYERS:
        tops = {name.split(".")[0] for name in layer}
        assert len(tops) == 1 or not tops & set(PACKAGES), f"a layer spans packages: {layer}"
        top = tops.pop() if len(tops) == 1 else "__init__"
        if not seen or seen[-1] != top:
            assert top not in seen, f"{top}/ is split by another package's layer"
            seen.append(top)
    assert [s for s in seen if s in PACKAGES] == PACKAGES
    for name in modules():
        top = name.split(".")[0]
        assert top in PACKAGES or name in {"__init__", "__main__"}, (
            f"tenleave_widget/{name}.py is in no package: put it in the folder of its layer"
        )


def test_nothing_imports_a_module_above_it() -> None:
    bad = []
    for name, path in modules().items():
        mine = layer_of(name)
        for line, target in imports(path):
            if target.startswith("!"):
                fault = jupyter_fault(target[1:], mine)
                if fault:
                    bad.append(f"{name}:{line} {fault}")
                continue
            if target == "" or target == "__init__":
                bad.append(f"{name}:{line} imports the package itself")
            elif layer_of(target) > mine:
                bad.append(f"{name}:{line} imports {target}, a layer above it")
    assert not bad, "\n".join(bad)


def test_plotly_figures_but_no_jupyter_below_the_widget() -> None:
    table, analysis, widget = layer_of("table.panels.figures"), layer_of("analysis.odds"), layer_of(
        "widget.controller")
    assert jupyter_fault("plotly.graph_objects", table) is None
    assert jupyter_fault("plotly.graph_objects", widget) is None
    assert jupyter_fault("plotly.graph_objects", analysis)
    for module in ("anywidget", "ipywidgets", "traitlets", "IPython", "ipykernel.comm",
                   "plotly.basewidget"):
        assert jupyter_fault(module, table), module
        assert jupyter_fault(module, widget) is None or module == "plotly.basewidget"
    uses = [f"{name}:{node.lineno}" for name, path in modules().items()
            if layer_of(name) < widget
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Attribute) and node.attr == "FigureWidget"]
    assert not uses, f"a FigureWidget (an anywidget) below widget/: {uses}"


def import_graph(texts: dict[str, str] | None = None) -> dict[str, set[str]]:
    """Module -> the package modules it imports, when run or only for annotations
    (``texts``: a module's source to read instead of its file)."""
    mods = modules()
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        targets = set()
        for _, target in imports(path, (texts or {}).get(name)):
            if not target.startswith("!") and target:
                while target not in mods and "." in target:
                    target = target.rsplit(".", 1)[0]  # table.session.X -> table.session
                if target in mods and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules, the first repeated last), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                return path[path.index(t):] + [t]
            if t not in state:
                found = visit(t)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_no_import_circle() -> None:
    found = circle(import_graph())
    assert found is None, "import circle: " + " -> ".join(found or [])


@pytest.mark.parametrize("bad", [
    "if TYPE_CHECKING:\n    from .machine import Session\n",  # only for annotations
    "def f():\n    from .machine import Session\n",  # inside a function
    "from .machine import Session\n",
])
def test_a_circle_through_an_annotation_only_import_is_caught(bad: str) -> None:
    path = PACKAGE / "table" / "session" / "offers.py"
    text = path.read_text(encoding="utf-8") + "\nfrom typing import TYPE_CHECKING\n" + bad
    found = circle(import_graph({"table.session.offers": text}))
    assert found is not None and {"table.session.offers", "table.session.machine"} <= set(
        found), found


def test_the_checker_sees_every_import() -> None:
    assert {"engine.record", "engine.errors", "engine.rules", "engine.turn", "engine.legal",
            "engine.view", "engine.swat"} <= {
        t for _, t in imports(PACKAGE / "engine" / "game.py")
    }
    src = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .simulate import S\n"
        "def f():\n    if True:\n        from .widget import x\n"
        "        from .analysis import odds\n        import tenleave_widget.analysis.bots\n"
        "        from tenleave_widget.engine import game\n"
    )
    found = {t for _, t in imports(PACKAGE / "probe.py", src)}
    assert found == {"!typing", "simulate", "widget", "analysis.odds", "analysis.bots",
                     "engine.game"}
    found = {t for _, t in imports(PACKAGE / "probe.py", src, runtime_only=True)}
    assert found == {"!typing", "widget", "analysis.odds", "analysis.bots", "engine.game"}
    found = {t for _, t in imports(PACKAGE / "widget" / "session.py", "from ..game import G\n"
                                   "from .protocol import P\nfrom . import bots\n")}
    assert found == {"game", "widget.protocol", "widget"}  # no widget/bots.py: the package


def test_a_module_is_judged_by_its_own_layer_not_its_package() -> None:
    # analysis.worlds is below analysis.infer inside analysis/: its layer is the one that
    # names it, so an import of infer from worlds (a layer above it) is a fault; a module
    # no layer names falls back to its package's layer.
    assert layer_of("analysis.worlds") < layer_of("analysis.infer") < layer_of(
        "analysis.evidence")
    assert layer_of("engine.swat") < layer_of("engine.game")
    assert layer_of("table.session.machine") == layer_of("table")
    bad = [target for _, target in imports(
        PACKAGE / "analysis" / "worlds.py",
        "from .infer import infer\nfrom ..engine.game import Game\n")
        if layer_of(target) > layer_of("analysis.worlds")]
    assert bad == ["analysis.infer"]
