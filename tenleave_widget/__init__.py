"""tenleave_widget: the card game *10 to Leave*, for Jupyter classrooms.

>>> from tenleave_widget import Game
>>> g = Game(["Ana", "Ben", "Cy"], seed=1)
>>> g.apply({"seat": 0, "play": ["2", 0]})
>>> g.to_move
1
"""

from .cards import COLOURS, DEFAULT_DECK
from .errors import IllegalActionError, InvalidRecordError, InvalidRulesError, TenLeaveError
from .game import Game, LegalTurns
from .record import load_record, parse_record, replay, save_record
from .record import position_odds as odds
from .rules import Rules
from .turn import Turn

__all__ = [
    "COLOURS",
    "DEFAULT_DECK",
    "Game",
    "IllegalActionError",
    "InvalidRecordError",
    "InvalidRulesError",
    "LegalTurns",
    "Rules",
    "TenLeaveError",
    "Turn",
    "load_record",
    "odds",
    "parse_record",
    "replay",
    "save_record",
]
