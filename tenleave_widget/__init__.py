"""tenleave_widget: the card game *10 to Leave*, for Jupyter classrooms.

>>> from tenleave_widget import Game
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> g.apply({"seat": 0, "play": ["2", 0]})
>>> g.to_move
1
"""

# The public names are the imports under TYPE_CHECKING below: that block is the one table
# of them (a type checker reads it as it is; ``name as name`` says each is exported), and
# ``__all__``, ``dir()`` and the imports on first use (PEP 562) are read from it. Nothing
# is imported before a name is used, so that ``import tenleave_widget`` (and so the start
# of the ``tenleave`` command, which installs its signal handlers first) costs next to
# nothing, and the engine loads without Jupyter.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .analysis.infer import infer as infer
    from .analysis.odds import seat_odds as seat_odds
    from .analysis.position import evaluate as evaluate
    from .analysis.position import position as position
    from .analysis.position import position_odds as position_odds
    from .engine.cards import COLOURS as COLOURS
    from .engine.cards import DEFAULT_DECK as DEFAULT_DECK
    from .engine.errors import IllegalActionError as IllegalActionError
    from .engine.errors import IntentError as IntentError
    from .engine.errors import InvalidRulesError as InvalidRulesError
    from .engine.errors import InvalidViewError as InvalidViewError
    from .engine.errors import RecordError as RecordError
    from .engine.errors import SetupError as SetupError
    from .engine.errors import TenLeaveError as TenLeaveError
    from .engine.game import Game as Game
    from .engine.legal import LegalTurns as LegalTurns
    from .engine.record import RECORD_FORMAT as RECORD_FORMAT
    from .engine.record import load_record as load_record
    from .engine.record import loads_record as loads_record
    from .engine.record import parse_record as parse_record
    from .engine.record import save_record as save_record
    from .engine.rules import Rules as Rules
    from .engine.turn import Turn as Turn
    from .table.panels.figures import odds_figures as odds_figures
    from .table.protocol import WidgetMessageError as WidgetMessageError
    from .table.session.default_size import set_default_size as set_default_size
    from .widget.classroom import classroom as classroom  # needs Jupyter
    from .widget.controller import TenLeaveWidget as TenLeaveWidget  # needs Jupyter
    from .widget.entry import hotseat as hotseat  # needs Jupyter
    from .widget.entry import play as play  # needs Jupyter
    from .widget.entry import replay as replay  # needs Jupyter
    from .widget.remote import join as join  # needs Jupyter
    from .widget.remote import join_async as join_async  # needs Jupyter

def _sources() -> dict[str, str]:
    """Each public name and the module (relative to this package) it is imported from:
    the imports under ``TYPE_CHECKING`` above, read once from this file."""
    table: dict[str, str] | None = globals().get("_SOURCES")
    if table is None:
        import ast

        with open(__file__, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        block = next(node for node in tree.body if isinstance(node, ast.If)
                     and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        table = {alias.asname or alias.name: "." * node.level + (node.module or "")
                 for node in block.body if isinstance(node, ast.ImportFrom)
                 for alias in node.names}
        globals()["_SOURCES"] = table
    return table


def __getattr__(name: str) -> object:
    """A public name, imported on first use (then kept as a module attribute);
    ``__all__``, the public names; ``__version__``, the installed version."""
    if name == "__version__":  # written once, in pyproject.toml: read from the install
        from importlib.metadata import version

        globals()[name] = version(__name__)
        return globals()[name]
    if name == "__all__":
        return sorted(_sources())
    source = _sources().get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(source, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_sources()})
