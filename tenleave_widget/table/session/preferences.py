"""The table's UI preferences, set by its controls: the odds shown or not, the table's
size, what ranks the moves panel, the panels' *Details*, and the suggest panel's level and
model. A part of :class:`~.machine.Session` (:mod:`.state`); none of them changes
the game."""

from __future__ import annotations

from ..panels.lookahead import MEASURES
from ..protocol import SIZES, Intent, WidgetMessageError
from .state import SessionState

__all__ = ["PREFERENCES", "Preferences"]

PREFERENCES = ("odds", "size", "measure", "rationality", "odds_model", "details")
"""The intents that set a preference."""


class Preferences(SessionState):
    """The preferences' half of a session (see the module docstring)."""

    def preference_intent(self, intent: Intent) -> None:
        """Set the preference an intent of :data:`PREFERENCES` names (checked first)."""
        if intent["kind"] == "odds":
            self.show_odds = intent["show"]
        elif intent["kind"] == "size":
            if intent["size"] not in SIZES:
                raise WidgetMessageError(f"size must be one of {', '.join(SIZES)}")
            self.size = intent["size"]
        elif intent["kind"] == "measure":
            if intent["measure"] not in MEASURES:
                raise WidgetMessageError(f"measure must be one of {', '.join(MEASURES)}")
            self.measure = intent["measure"]
        elif intent["kind"] == "rationality":
            self.suggest.set_level(intent["level"])
        elif intent["kind"] == "odds_model":
            self.suggest.set_odds_model(intent["model"])
        elif intent["kind"] == "details":
            self.details = intent["show"]
