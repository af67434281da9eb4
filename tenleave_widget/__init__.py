"""tenleave_widget: the card game *10 to Leave*, for Jupyter classrooms.

>>> from tenleave_widget import Game
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> g.apply({"seat": 0, "play": ["2", 0]})
>>> g.to_move
1
"""

# Every name is imported on first use (PEP 562), so that ``import tenleave_widget`` (and
# so the start of the ``tenleave`` command, which installs its signal handlers first) costs
# next to nothing, and the engine loads without Jupyter. Type checkers see the imports.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .analysis import odds
    from .analysis.infer import infer
    from .analysis.position import evaluate, position_odds, replay
    from .engine.cards import COLOURS, DEFAULT_DECK
    from .engine.errors import (
        IllegalActionError,
        IntentError,
        InvalidRecordError,
        InvalidRulesError,
        InvalidViewError,
        RecordError,
        SetupError,
        TenLeaveError,
    )
    from .engine.game import Game
    from .engine.legal import LegalTurns
    from .engine.record import (
        RECORD_FORMAT,
        load_record,
        loads_record,
        parse_record,
        save_record,
    )
    from .engine.rules import Rules
    from .engine.turn import Turn
    from .table.panels import figures as charts
    from .widget import (
        TableWidget,
        TenLeaveWidget,
        WidgetMessageError,
        hotseat,
        play,
        replay_widget,
    )

_WIDGET_NAMES = (
    "TableWidget", "TenLeaveWidget", "WidgetMessageError", "hotseat", "play", "replay_widget"
)
_SOURCES = {
    "odds": ".analysis.odds",
    "charts": ".table.panels.figures",
    "infer": ".analysis.infer",
    "evaluate": ".analysis.position",
    "position_odds": ".analysis.position",
    "replay": ".analysis.position",
    "COLOURS": ".engine.cards",
    "DEFAULT_DECK": ".engine.cards",
    **dict.fromkeys(
        ("IllegalActionError", "IntentError", "InvalidRecordError", "InvalidRulesError",
         "InvalidViewError", "RecordError", "SetupError", "TenLeaveError"),
        ".engine.errors",
    ),
    "Game": ".engine.game",
    "LegalTurns": ".engine.legal",
    **dict.fromkeys(
        ("RECORD_FORMAT", "load_record", "loads_record", "parse_record", "save_record"),
        ".engine.record",
    ),
    "Rules": ".engine.rules",
    "Turn": ".engine.turn",
    "set_default_size": ".table.session.default_size",
    **dict.fromkeys(_WIDGET_NAMES, ".widget"),  # the widget needs Jupyter
}


_MODULES = {"odds", "charts"}  # names that are modules, not attributes of one


def __getattr__(name: str) -> object:
    """A public name, imported on first use (then kept as a module attribute)."""
    if name == "__version__":  # written once, in pyproject.toml: read from the install
        from importlib.metadata import version

        globals()[name] = version(__name__)
        return globals()[name]
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module = importlib.import_module(source, __name__)
    value = module if name in _MODULES else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_SOURCES})


__all__ = [
    "COLOURS",
    "DEFAULT_DECK",
    "Game",
    "IllegalActionError",
    "IntentError",
    "InvalidRecordError",
    "InvalidRulesError",
    "InvalidViewError",
    "LegalTurns",
    "RECORD_FORMAT",
    "RecordError",
    "Rules",
    "SetupError",
    "TenLeaveError",
    "Turn",
    "charts",
    "evaluate",
    "infer",
    "load_record",
    "loads_record",
    "odds",
    "parse_record",
    "position_odds",
    "replay",
    "save_record",
    "set_default_size",
    "TableWidget",
    "TenLeaveWidget",
    "WidgetMessageError",
    "hotseat",
    "play",
    "replay_widget",
]
