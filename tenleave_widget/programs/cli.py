"""The ``tenleave`` command (also ``python -m tenleave_widget``).

- ``tenleave replay FILE [--turns N]``: the position after N turns, as JSON.
- ``tenleave odds FILE --seat P [--turns N] [--model uniform|inferred [--beta B]]``: seat
  P's exact swat-risk odds, as JSON (under the rules alone, or as the players' choices
  suggest).
- ``tenleave infer FILE --seat P [--turns N] [--beta B | --beta fitted] [--seed S]``: what
  the players' choices suggest about the cards seat P cannot see, as JSON.
- ``tenleave simulate --players N --games K [--seed S] [--bots random,greedy,...]
  [--rotate-first] [--workers W | --scheduler ADDRESS] [--json]``: per-seat statistics and
  paired differences; W local processes (default: every core) or a Dask cluster. Ctrl-C
  stops it and its processes: exit status 130, one line on stderr.
- ``tenleave review FILE [--json] [--samples K] [--seed S]``: every decision judged, the
  luck of every swat (a table, or one JSON object with ``--json``).
- ``tenleave evaluate FILE --seat P [--turns N] [--samples K] [--seed S]``: seat P's
  whole-game value of every move (``tenleave_widget.evaluate``), as JSON.
- ``tenleave export FILE --html OUT [--seat P | --teacher]``: the game as one
  self-contained HTML page that steps through it offline (seat P's view only, or the
  teacher's export with every view; the default).

FILE is a record file, or ``-`` for standard input. Only a regular file (or standard
input) of at most 10 MiB is read. An invalid record, an illegal turn or a malformed
command line: exit status 2, nothing on stdout, one line on stderr (naming ``turn K`` when
a turn is at fault, and showing at most a short escaped excerpt of any offending value).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from ..engine.errors import SetupError, TenLeaveError, excerpt, one_line
from ..engine.rules import MAX_SEATS, MIN_SEATS

if TYPE_CHECKING:
    from .simulate import Stats


_FILE_HELP = "a tenleave-record/1 file of at most 10 MiB, or - for standard input"


class _Parser(argparse.ArgumentParser):
    """An argument error is one line on stderr (not the usage and the error), exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"tenleave: {one_line(message)} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tenleave", description="10 to Leave: replay, odds, self-play")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("replay", help="print the position after the first N turns of a record")
    r.add_argument("file", help=_FILE_HELP)
    r.add_argument("--turns", type=int, default=None)
    o = sub.add_parser("odds", help="print a seat's exact swat-risk odds after N turns")
    o.add_argument("file", help=_FILE_HELP)
    o.add_argument("--seat", type=int, required=True)
    o.add_argument("--turns", type=int, default=None)
    o.add_argument("--model", choices=("uniform", "inferred"), default="uniform",
                   help="the rules alone (the default) or what the players' choices suggest")
    o.add_argument("--beta", type=_beta, default="fitted",
                   help="with --model inferred: every opponent's rationality, or 'fitted'")
    o.add_argument("--seed", type=int, default=0, help="with --model inferred")
    i = sub.add_parser("infer", help="print what the players' choices suggest about the cards "
                       "a seat cannot see")
    i.add_argument("file", help=_FILE_HELP)
    i.add_argument("--seat", type=int, required=True)
    i.add_argument("--turns", type=int, default=None)
    i.add_argument("--beta", type=_beta, default="fitted",
                   help="every opponent's rationality, a number >= 0, or 'fitted' (the default)")
    i.add_argument("--seed", type=int, default=0)
    s = sub.add_parser("simulate", help="self-play games and print per-seat statistics")
    s.add_argument("--players", type=int, required=True)
    s.add_argument("--games", type=int, required=True)
    s.add_argument("--seed", type=int, default=None)
    s.add_argument("--bots", default=None,
                   help="comma-separated bot per seat (random, greedy, lookahead)")
    s.add_argument("--rotate-first", action="store_true", help="rotate the first seat")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.add_argument("--no-progress", action="store_true")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None,
                       help="local processes (default: every core; 1: this process only)")
    where.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="a Dask scheduler, e.g. tcp://host:8786 (needs the "
                            "'distributed' extra)")
    v = sub.add_parser("review", help="judge every decision of a record and the luck of every swat")
    v.add_argument("file", help=_FILE_HELP)
    v.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    v.add_argument("--samples", type=int, default=None, help="evaluator budget per decision")
    v.add_argument("--seed", type=int, default=0)
    v.add_argument("--no-progress", action="store_true")
    e = sub.add_parser("evaluate", help="value every move of the seat to move over the whole game")
    e.add_argument("file")
    e.add_argument("--seat", type=int, required=True)
    e.add_argument("--turns", type=int, default=None)
    e.add_argument("--samples", type=int, default=None, help="sampled worlds (default 48)")
    e.add_argument("--seed", type=int, default=0)
    x = sub.add_parser("export", help="write a game as one self-contained HTML page")
    x.add_argument("file", help=_FILE_HELP)
    x.add_argument("--html", required=True, metavar="OUT", help="the page to write")
    whose = x.add_mutually_exclusive_group()
    whose.add_argument("--seat", type=int, default=None,
                       help="only what seat P knew at each turn (for that player)")
    whose.add_argument("--teacher", action="store_true",
                       help="every card and every seat's view, with the notes (the default)")
    return p


def _beta(text: str) -> float | str:
    if text == "fitted":
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number or 'fitted': {excerpt(text)}") from None


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "replay":
            from ..analysis.position import replay

            out = replay(_read(args.file), turns=args.turns)
        elif args.command == "odds":
            from ..analysis.position import position_odds

            out = position_odds(_read(args.file), args.seat, turns=args.turns,
                                model=args.model, beta=args.beta, seed=args.seed)
        elif args.command == "infer":
            from ..analysis.position import position_infer

            out = position_infer(_read(args.file), args.seat, turns=args.turns,
                                 beta=args.beta, seed=args.seed)
        elif args.command == "review":
            return _review(args)
        elif args.command == "evaluate":
            from ..analysis.lookahead import DEFAULT_SAMPLES, evaluate

            samples = DEFAULT_SAMPLES if args.samples is None else args.samples
            out = evaluate(args.file, args.seat, args.turns, budget=samples, seed=args.seed)
        elif args.command == "export":
            from .export import export_html

            path = export_html(_read(args.file), args.html, perspective=args.seat)
            print(f"wrote {path} ({path.stat().st_size:,} bytes)")
            return 0
        else:
            stats = _simulate(args)
            if not args.json:
                print(stats.table())
                return 0
            out = stats.to_json()
    except TenLeaveError as e:
        print(f"tenleave: {one_line(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # simulate has already stopped its processes / Dask tasks
        print("tenleave: interrupted", file=sys.stderr)
        return 130
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


def _read(file: str) -> Any:
    """The record's JSON from a file, or from standard input for ``-``."""
    from ..engine.record import load_record, read_record

    return read_record(sys.stdin.buffer) if file == "-" else load_record(file)


def _simulate(args: argparse.Namespace) -> Stats:
    from .simulate import simulate

    if not MIN_SEATS <= args.players <= MAX_SEATS or args.games < 1:
        raise SetupError(
            f"--players must be {MIN_SEATS}..{MAX_SEATS} and --games at least 1"
        )
    bots = args.bots.split(",") if args.bots else None
    return simulate(
        args.players, args.games, seed=args.seed, bots=bots, rotate_first=args.rotate_first,
        progress=not args.json and not args.no_progress and args.games >= 200,
        workers=args.workers, scheduler=args.scheduler,
    )


def _review(args: argparse.Namespace) -> int:
    from ..analysis.review import review

    bars: list[Any] = []  # made at the first report, so that an error prints alone

    def progress(done: int, total: int) -> None:
        if not bars:
            from tqdm.auto import tqdm

            bars.append(tqdm(total=total, unit="turn", desc="review", leave=False))
        bars[0].update(done - bars[0].n)

    show = not args.json and not args.no_progress
    try:
        r = review(_read(args.file), samples=args.samples, seed=args.seed,
                   progress=progress if show else None)
    finally:
        for bar in bars:
            bar.close()
    if args.json:
        json.dump(r.to_json(), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(r.table())
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
