"""tenleave_widget: the card game *10 to Leave*, for Jupyter classrooms.

>>> from tenleave_widget import Game
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> g.apply({"seat": 0, "play": ["2", 0]})
>>> g.to_move
1
"""

from typing import Any

from .analysis import odds
from .analysis.lookahead import evaluate
from .analysis.position import position_odds, replay
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
from .engine.game import Game, LegalTurns
from .engine.record import RECORD_FORMAT, load_record, loads_record, parse_record, save_record
from .engine.rules import Rules
from .engine.turn import Turn

_WIDGET_NAMES = (
    "TableWidget", "TenLeaveWidget", "WidgetMessageError", "hotseat", "play", "replay_widget"
)


def __getattr__(name: str) -> Any:
    """The widget entry points (``play``, ``hotseat``, ``replay_widget`` …), imported on
    first use so that the engine loads without Jupyter."""
    if name in _WIDGET_NAMES:
        from . import widget

        return getattr(widget, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "evaluate",
    "load_record",
    "loads_record",
    "odds",
    "parse_record",
    "position_odds",
    "replay",
    "save_record",
    *_WIDGET_NAMES,
]
