"""A batch's games: each game's review (:class:`GameResult`), kept on disk as the games
finish (:class:`GameSpool`), so that memory holds one game's review at a time."""

from __future__ import annotations

import os
import pickle
import tempfile
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload

from ...analysis.review import Review
from ...engine.errors import RecordError
from ...engine.record import RecordSource, record_digest, record_object

__all__ = ["GameResult", "GameSpool", "reread"]


@dataclass
class GameResult:
    """One record of a batch: its name, its review, whether that review was the one
    saved in the record (reused, not recomputed), and the kinds of each decision."""

    file: str
    review: Review
    reused: bool
    kinds: list[list[str]]
    digest: str = ""
    source: RecordSource | None = None
    """The record as given (a path is read again for :meth:`.tally.ClassReview.practice`)."""

    def record(self) -> dict[str, Any]:
        """The game's record (a path read again, and checked to be the game reviewed)."""
        if self.source is None:
            raise RecordError(f"{self.file}: the record is not kept")
        return reread(self.file, self.source, self.digest)

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, **self.review.to_json()}


class GameSpool(Sequence[GameResult]):
    """The games of a batch kept on disk, not in memory: each :class:`GameResult` is
    written (pickled) to an anonymous temporary file as soon as its review is assembled,
    in whatever order the games finish, and read back by its index, one at a time — so
    a batch of a thousand records holds one game's review at a time, not a thousand
    (a review takes about 26 KB of memory). The record as given (a path, or a record
    object, which is referred to, not copied) stays in memory.

    The file is the spool's own (no name on disk); it goes when the spool is closed or
    collected.
    """

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="tenleave-review-")  # noqa: SIM115
        self._at = array("q")  # each game's offset in the file (-1: not kept yet)
        self._sources: list[RecordSource | None] = []

    def slot(self) -> int:
        """A place for the next game (its index)."""
        self._at.append(-1)
        self._sources.append(None)
        return len(self._at) - 1

    def put(self, index: int, game: GameResult) -> None:
        """Keep game ``index`` (once)."""
        if self._at[index] >= 0:
            raise ValueError(f"game {index} is already kept")
        self._file.seek(0, os.SEEK_END)
        self._at[index] = self._file.tell()
        pickle.dump(replace(game, source=None), self._file, pickle.HIGHEST_PROTOCOL)
        self._sources[index] = game.source

    def complete(self) -> bool:
        """Whether every game is kept."""
        return min(self._at, default=0) >= 0

    def __len__(self) -> int:
        return len(self._at)

    @overload
    def __getitem__(self, index: int) -> GameResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[GameResult]: ...

    def __getitem__(self, index: int | slice) -> GameResult | list[GameResult]:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        k = range(len(self))[index]  # an IndexError past the end, as a list's
        if self._at[k] < 0:
            raise ValueError(f"game {k} is not reviewed yet")
        self._file.seek(self._at[k])
        game: GameResult = pickle.load(self._file)  # noqa: S301 - our own file
        game.source = self._sources[k]
        return game

    def __iter__(self) -> Iterator[GameResult]:
        return (self[k] for k in range(len(self)))

    def close(self) -> None:
        """Delete the file (the games are gone)."""
        self._file.close()

    def __repr__(self) -> str:
        return f"<GameSpool of {len(self)} games>"


def reread(file: str, source: RecordSource, digest: str) -> dict[str, Any]:
    """The record of ``source`` again, checked to be the game reviewed."""
    obj = record_object(source)
    if digest and record_digest(obj) != digest:
        raise RecordError(f"{file}: the record changed after it was read for the review")
    return obj
