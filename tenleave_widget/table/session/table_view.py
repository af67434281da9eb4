"""What the table shows: the viewing seat's projection of a session (the hot-seat cover
shows only public facts), the turns in words and the status line, as one
:class:`~..protocol.TableState`. A part of :class:`~.machine.Session` (:mod:`.state`)."""

from __future__ import annotations

from ...engine.record import short_name
from ..coach.verdicts import verdict_words
from ..panels.plain import plain_review_words
from ..protocol import Cover, Narration, TableState
from ..words.narration import describe_turn, seat_name, step_text, token_before
from ..words.status import another_game, branch_line, game_named, game_over, pass_screen
from .history import public_view
from .modes import turns_since
from .offers import offers
from .review_state import review_words
from .state import SessionState

__all__ = ["TableView"]


class TableView(SessionState):
    """The drawing half of a session (see the module docstring)."""

    def state(self) -> TableState:
        """What the table shows now: the viewing seat's projection of the session."""
        shown = self.shown()
        view = shown.view(self.seat)
        cover: Cover = {"shown": False, "seat": None, "text": ""}
        if self.covered:
            view = public_view(view)
            name = seat_name(shown.players, self.seat or 0)
            cover = {
                "shown": True, "seat": self.seat,
                "text": f"Pass the screen to {name}. Everyone else: look away.",
            }
        return {
            "view": view,
            "mode": self.mode.name,
            "perspective": self.seat,
            "offers": offers(self),
            "pending": [step_text(s) for s in self.pending],
            "message": self.message,
            "narration": self.narration(),
            "replay": self.mode.replay_state(self),
            "cover": cover,
            "busy": self.busy,
            "show_odds": self.show_odds,
            "status": self.status(),
            "panels": self.panels.data(self),
            "size": self.size,  # type: ignore[typeddict-item]
            "best": self.coach_best() or self.best_move(),
            "coach": self.coach_state(),
            "lesson": self.lesson.state(self),
        }

    def narration(self) -> Narration:
        """The turns since the viewer last moved (replay: the turn just shown), and the
        turn in progress, in words (nothing behind the cover); and which seats are bots, of
        which kind (public: the table's set-up)."""
        roles = [f"{self.bots[s]} bot" if s in self.bots else ""
                 for s in range(len(self.live.players))]
        if self.covered:
            return {"turns": [], "roles": roles}
        players = self.live.players
        viewer = self.seat
        turns = []
        looking_back = self.shown_turn()  # the coach shows an earlier position
        told = self.mode.narrated_turns(self) if looking_back is None else turns_since(
            [t.seat for t in self.live.turns[:looking_back]], viewer, self.live.seats)
        for i in told:
            after = self.history[i + 1]
            events = after.events(i)
            words = describe_turn(
                events, players, token_before(after, events), viewer, i, after.turns[i].seat
            )
            judged = self.judged(i)
            if judged is not None:
                objective = self.review.objective if self.review else "margin"
                said = review_words(judged, objective)
                said = said if self.details else plain_review_words(said)
                words["lines"] = [*words["lines"], said]
            verdict = self.coach.of_turn(i)
            if verdict is not None and verdict["seat"] == viewer:  # to that seat only
                words["lines"] = [*words["lines"], verdict_words(
                    verdict, self.details, self.coach.equal_of(i), self.coach_view(i))]
            turns.append(words)
        if self.preview is not None and looking_back is None:
            events = self.preview.events()
            entry = describe_turn(
                events, players, token_before(self.preview, events), viewer,
                self.live.turns_applied, self.seat or 0,
            )
            entry["pending"] = True
            turns.append(entry)
        return {"turns": turns, "roles": roles}

    def status(self) -> str:
        """The status line: whose turn, what to do, or the result."""
        g = self.shown()
        if self.covered:
            return pass_screen(seat_name(g.players, self.seat or 0))
        if g.finished:
            winners = g.winners or []
            low = g.penalty[winners[0]] if winners else 0
            names = [seat_name(g.players, s) for s in winners]
            return game_over(names, low) + self.branch_text()
        showing = self.coach_status()
        if showing:
            return showing
        mover = g.to_move
        assert mover is not None
        return self.mode.turn_status(self, mover) + self.best_text() + self.branch_text()

    def branch_text(self) -> str:
        """Replay of a branched game: the status line says where it branched from."""
        if self.branch is None or self.mode.live:
            return ""
        name = self.branch["from"]
        # a whole-record digest (records made before public digests) is the hash of
        # cards a seat cannot see: only the teacher's view shows it
        game = (another_game() if self.seat is not None and name.startswith("sha256:")
                else game_named(short_name(name)))
        return branch_line(self.branch["turn"], game)
