"""The play-outs seam: every candidate move played out in every sampled world.

Whoever values a position (:mod:`~tenleave_widget.analysis.lookahead` today) asks this
module, and only this module, for play-outs: :func:`play_outs` takes the simulator of a
position, the root moves to value and the worlds to value them in, and returns every
seat's final penalty for each (world, move) pair. Which kernel computes them is chosen
here: ``"scalar"`` is :class:`~tenleave_widget.analysis.playout.Simulator`, one world
and one move at a time in plain Python (the reference, and the path that runs
everywhere); ``"batch"`` is :mod:`~tenleave_widget.analysis.playout_batch`, every world
and every move advanced together in numpy; ``"compiled"`` is
:mod:`~tenleave_widget.analysis.playout_numba`, the batch's tables played row by row in
machine code by numba, the default wherever numba is installed (else ``"batch"`` where
numpy imports). All three consume each world's random numbers and token chain the same
way, so they give the identical outcomes for the same worlds, under any policy
(``docs/methods/playouts.md``).

>>> from tenleave_widget import Game
>>> import random
>>> from tenleave_widget.analysis.playout import Move, Policy, Simulator
>>> from tenleave_widget.analysis.playout_position import Position, World
>>> pos = Position(Game(3, seed=2).view(0))
>>> sim = Simulator(pos, Policy())
>>> worlds = [World(pos, random.Random(i), pos.cards_left) for i in range(2)]
>>> out = play_outs(sim, [Move(1, 0), Move(2, 1)], worlds)
>>> len(out), len(out[0]), len(out[0][0])
(2, 2, 3)
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable, Sequence
from typing import Any, overload

from ..engine.errors import SetupError, excerpt
from .playout import Move, Simulator, Uncovered
from .playout_position import Position, World
from .worlds import Deal

__all__ = ["BATCH_MIN_ROWS", "CHUNK_WORLDS", "COMPILED_MIN_ROWS", "KERNELS", "Outcomes",
           "Worlds", "default_kernel", "play_outs", "world_seed"]

Outcomes = list[list[list[int]]]
"""Final penalties, ``outcomes[world][move][seat]``; with ``reference=True`` each world's
row has one more entry, last: the rollout policy playing the root seat's turn itself."""

Kernel = Callable[[Simulator, Sequence[Move], Sequence[World], bool], Outcomes]


def _scalar(sim: Simulator, moves: Sequence[Move], worlds: Sequence[World],
            reference: bool) -> Outcomes:
    pos_seat = sim.seat
    n = sim.n
    nxt = pos_seat + 1 if pos_seat + 1 < n else 0
    left = sim.cards_left
    start_pen = sim.start_penalty
    apply, play_out = sim.apply, sim.play_out
    out: Outcomes = []
    for w in worlds:
        row: list[list[int]] = []
        for move in moves:
            queues = list(map(list, w.queues))
            hands = list(map(list, w.hands))
            pen = list(start_pen)
            k = apply(move, queues, hands, pen, pos_seat, left, w.chain, 0)
            if k is not None:
                play_out(queues, hands, pen, nxt, left - 1, w.chain, k, w.us)
            row.append(pen)
        if reference:
            queues = list(map(list, w.queues))
            hands = list(map(list, w.hands))
            pen = list(start_pen)
            play_out(queues, hands, pen, pos_seat, left, w.chain, 0, w.us)
            row.append(pen)
        out.append(row)
    return out


KERNELS: dict[str, Kernel] = {"scalar": _scalar}
"""The play-out kernels by name. Every kernel gives the same outcomes for the same worlds
(the same :class:`World` objects), under any policy: each turn of a world is decided by
the same random number of ``World.us`` and each round change takes the next token of
``World.chain``."""

try:  # numpy is a dependency, but Pyodide's site may run without it: then the scalar plays
    from .playout_batch import play_batch
except ImportError:  # pragma: no cover - exercised only where numpy is missing
    pass
else:
    KERNELS["batch"] = play_batch


def _compiled(sim: Simulator, moves: Sequence[Move], worlds: Sequence[World],
              reference: bool) -> Outcomes:
    """The compiled kernel (:mod:`~tenleave_widget.analysis.playout_numba`), imported on
    its first call (numba's import takes 0.3-1 s: a process that plays no world out, the
    command line's other commands, does not pay it). Where numba is installed but does
    not import (or finds no directory to cache its machine code in), the kernel is
    dropped from :data:`KERNELS` and the batched one plays."""
    try:
        from .playout_numba import play_compiled
    except (ImportError, RuntimeError):
        KERNELS.pop("compiled", None)
        return play_batch(sim, moves, worlds, reference)
    KERNELS["compiled"] = play_compiled
    return play_compiled(sim, moves, worlds, reference)


if "batch" in KERNELS and importlib.util.find_spec("numba") is not None:
    KERNELS["compiled"] = _compiled


BATCH_MIN_ROWS = 96
"""The fewest play-outs (worlds x (moves + reference)) a call hands to the batched kernel
by default: below it the scalar one is faster (its cost grows with the play-outs, the
batched kernel's has a floor of numpy calls per turn; measured: 72 play-outs 0.8x, 128
1.2-1.4x, 288 2.1x at 3 and 5 seats)."""


CHUNK_WORLDS = 128 if "batch" in KERNELS else 32
"""How many worlds a caller that plays its worlds a chunk at a time (the one analysis)
hands to :func:`play_outs` per call: with the batched kernel 128 (its cost per play-out
falls with the rows of a call; the 64-world rounds of the default analysis become one
call each: a 3-seat game's review 1.25x faster than with 32), else 32 (the scalar
kernel gains nothing from more, and in the browser's kernel, Pyodide, a chunk is what
the page waits for at most before a click is read)."""


COMPILED_MIN_ROWS = 2
"""The fewest play-outs a call hands to the compiled kernel by default: one play-out is
as fast on the scalar kernel (a call's fixed cost, ~30 us, is a play-out's), two are
1.5-3x faster compiled."""


def default_kernel() -> str:
    """The kernel :func:`play_outs` uses when none is named: the fastest one that can run
    here (``"compiled"`` where numba is installed, else ``"batch"`` where numpy imports,
    else ``"scalar"``)."""
    for name in ("compiled", "batch"):
        if name in KERNELS:
            return name
    return "scalar"


def world_seed(digest: str, wid: int) -> int:
    """The integer world ``wid`` of a position is drawn from (``random.Random`` of it):
    the 32 bits of ``digest``'s hex digits 9-16 (the position's SHA-256 as the one
    analysis makes it: nothing the seat cannot see), the top one set, above the world's
    number's 32 bits — always an integer of two 32-bit words, which CPython seeds its
    generator with as they are (no hash of a string per world), the same on every
    Python version and machine.

    >>> hex(world_seed("0123456789abcdef", 5))
    '0x89abcdef00000005'

    Raises :class:`~tenleave_widget.engine.errors.SetupError` for a world number outside
    ``0 .. 2**32 - 1`` or a digest without 16 hex digits."""
    if not 0 <= wid < 1 << 32:
        raise SetupError(f"a world number is 0 .. 2**32 - 1, not {excerpt(wid)}")
    try:
        top = int(digest[8:16], 16) if len(digest) >= 16 else -1
    except ValueError:
        top = -1
    if top < 0:
        raise SetupError(f"a position's digest is hex digits, not {excerpt(digest)}")
    return ((top | 0x80000000) << 32) + wid


class Worlds(Sequence[World]):
    """The worlds of a position, one per seed: world ``i`` is ``World(pos,
    random.Random(seeds[i]), pos.cards_left, deal)``, sampled on first use.

    Handed to :func:`play_outs` on the compiled kernel with the uniform deal
    (``deal=None``), the worlds are sampled in machine code straight into the kernel's
    arrays (:func:`~tenleave_widget.analysis.playout_numba.sample_worlds`: the same
    numbers, 4-7x faster than a :class:`World` each); anywhere else (another kernel,
    another deal, a position the kernel does not cover) as :class:`World` objects. Either
    way they are the same worlds. :meth:`values` reads a table card in every world.
    """

    def __init__(self, pos: Position, seeds: Sequence[str | int],
                 deal: Deal | None = None) -> None:
        self.pos = pos
        self.seeds = list(seeds)
        self.deal = deal
        self._worlds: list[World] | None = None
        self._arrays: Any = None  # (Arrays, fills) of the compiled sampler, once made

    def __len__(self) -> int:
        return len(self.seeds)

    @overload
    def __getitem__(self, i: int) -> World: ...

    @overload
    def __getitem__(self, i: slice) -> list[World]: ...

    def __getitem__(self, i: int | slice) -> World | list[World]:
        return self.worlds()[i]

    def worlds(self) -> list[World]:
        """The worlds as :class:`World` objects (made on first call)."""
        if self._worlds is None:
            pos, deal = self.pos, self.deal
            self._worlds = [World(pos, random.Random(s), pos.cards_left, deal)
                            for s in self.seeds]
        return self._worlds

    def arrays(self) -> Any:
        """The compiled sampler's ``(arrays, fills)`` of these worlds, or ``None`` where it
        cannot make them (another deal than the uniform one, numba missing). Raises
        :class:`~tenleave_widget.analysis.playout.Uncovered` for a position the kernels
        do not cover."""
        if self._arrays is None and self.deal is None and "compiled" in KERNELS:
            try:
                from .playout_numba import sample_worlds
            except (ImportError, RuntimeError):
                KERNELS.pop("compiled", None)
                return None
            self._arrays = sample_worlds(self.pos, self.seeds)
        return self._arrays

    def values(self, q: int, i: int) -> list[int]:
        """The value of the card at place ``i`` of queue ``q`` in each world."""
        code = self.pos.queues[q][i]
        if code >= 0:
            return [code >> 3] * len(self.seeds)
        if self._arrays is not None:
            s = [(sq, si) for sq, si, *_ in self.pos.slots].index((q, i))
            values: list[int] = self._arrays[1][:, s].tolist()
            return values
        return [w.queues[q][i] >> 3 for w in self.worlds()]


def play_outs(sim: Simulator, moves: Sequence[Move], worlds: Sequence[World], *,
              reference: bool = False, kernel: str | None = None) -> Outcomes:
    """Play every move of ``moves`` out in every world of ``worlds``.

    ``sim`` is the :class:`~tenleave_widget.analysis.playout.Simulator` of the position
    (its policy is the rollout policy); each world is a
    :class:`~tenleave_widget.analysis.playout_position.World` of that position, shared by
    every move (common random numbers). ``reference=True`` also plays the rollout policy
    in the root seat's place. ``kernel`` names one of :data:`KERNELS` (``None``: the
    :func:`default_kernel`, or the scalar one for fewer play-outs than
    :data:`COMPILED_MIN_ROWS` or :data:`BATCH_MIN_ROWS`; a position the batched and
    compiled kernels do not cover, queues of more than 4 cards or a variant deck of more
    than 3 cards of a value, then plays on the scalar one).

    Returns the :data:`Outcomes`. Raises :class:`~tenleave_widget.engine.errors.SetupError`
    for an unknown kernel.
    """
    name = default_kernel() if kernel is None else kernel
    if kernel is None and name != "scalar":
        least = COMPILED_MIN_ROWS if name == "compiled" else BATCH_MIN_ROWS
        if len(worlds) * (len(moves) + reference) < least:
            name = "scalar"
    run = KERNELS.get(name)
    if run is None:
        raise SetupError(f"kernel must be one of {sorted(KERNELS)}, not {excerpt(kernel)}")
    try:
        if name == "compiled" and isinstance(worlds, Worlds) and worlds.arrays() is not None:
            from .playout_numba import play_arrays
            return play_arrays(sim, moves, worlds.arrays()[0], reference)
        return run(sim, moves, worlds, reference)
    except Uncovered:
        if kernel is not None:
            raise
        return _scalar(sim, moves, worlds, reference)
