"""tenleave_widget: the card game *10 to Leave*, for Jupyter classrooms.

>>> from tenleave_widget import Game
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> g.apply({"seat": 0, "play": ["2", 0]})
>>> g.to_move
1
"""

from typing import Any

from . import odds
from .cards import COLOURS, DEFAULT_DECK
from .errors import (
    IllegalActionError,
    IntentError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidViewError,
    RecordError,
    SetupError,
    TenLeaveError,
)
from .game import Game, LegalTurns
from .lookahead import evaluate
from .position import position_odds, replay
from .record import RECORD_FORMAT, load_record, parse_record, save_record
from .rules import Rules
from .turn import Turn

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
    "odds",
    "parse_record",
    "position_odds",
    "replay",
    "save_record",
    *_WIDGET_NAMES,
]
