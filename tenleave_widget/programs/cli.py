"""The ``tenleave`` command (also ``python -m tenleave_widget``).

Its subcommands, each a thin layer over the package:

- ``replay``: the position after N turns, as JSON
  (:func:`~tenleave_widget.analysis.position.position`);
- ``odds``: a seat's exact swat-risk odds, as JSON, by the rules alone or as the players'
  choices suggest (:func:`~tenleave_widget.analysis.position.position_odds`);
- ``infer``: what the players' choices suggest about the cards a seat cannot see
  (:func:`~tenleave_widget.analysis.position.position_infer`);
- ``evaluate``: a seat's whole-game value of every move
  (:func:`~tenleave_widget.analysis.position.evaluate`);
- ``simulate``: self-play statistics on every core or a Dask cluster
  (:func:`~tenleave_widget.programs.simulate.simulate`);
- ``review``: every decision of one or many records judged, every swat's luck
  (:mod:`tenleave_widget.programs.class_review`);
- ``serve``: the dealer server for a class playing from their own notebooks
  (:mod:`tenleave_widget.programs.dealer`);
- ``export``: a game as one self-contained HTML page
  (:mod:`tenleave_widget.programs.export`).

``tenleave COMMAND --help`` gives every option (``docs/reference/cli.md`` is generated
from this module's parser); ``docs/guides/cli.md`` says what each prints.

FILE is a record file of at most 10 MiB, or ``-`` for standard input. No traceback, ever:
the command ends with exit status 0 (done), 1 (out of memory, or an internal error;
``TENLEAVE_TRACEBACK=1`` shows the traceback), 2 (bad input, or output that could not be
written), 130 (SIGINT), 141 (the reader of standard output went away) or 143 (SIGTERM),
with at most one line on stderr. The first SIGINT or SIGTERM wins; the worker processes
are stopped at once.
"""

from __future__ import annotations

# Only what installs the signal handlers is imported before main() runs: everything else
# is imported inside it, so that a Ctrl-C during start-up already ends in one line.
import signal
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping, Sequence
    from typing import Any

    from .simulate import Stats

EXIT_OK = 0
EXIT_FAILED = 1  # out of memory, or an internal error
EXIT_USAGE = 2  # bad input, or the output could not be written
EXIT_INTERRUPTED = 128 + signal.SIGINT  # 130
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE  # 141
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143

_FILE_HELP = "a tenleave-record/1 file of at most 10 MiB, or - for standard input"
_TURNS_HELP = ("the position after the first N turns (turns 1 to N as the table counts them; "
               "0: before the first turn; default: every turn)")


class Terminated(BaseException):
    """SIGTERM, raised in the main thread as Ctrl-C raises :class:`KeyboardInterrupt` (a
    ``BaseException``, so that no ``except Exception`` swallows it), so that every
    ``finally`` runs: simulate's worker processes are stopped."""


class _Signals:
    """The command's SIGINT and SIGTERM handlers: the first signal raises in the main
    thread (:class:`KeyboardInterrupt`, :class:`Terminated`); later ones, and any after
    the command has finished, are ignored (the clean-up and the last line are not cut)."""

    def __init__(self) -> None:
        self.armed = False
        self.received: int | None = None

    def handle(self, signum: int, frame: object) -> None:
        if not self.armed or self.received is not None:
            return
        self.received = signum
        raise _stop(signum)

    def install(self) -> dict[int, Any]:
        """Install the handlers (in the main thread only: elsewhere a signal cannot be
        caught); return the previous ones."""
        import threading

        if threading.current_thread() is not threading.main_thread():
            return {}
        previous: dict[int, Any] = {
            s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)
        }
        self.armed = True
        for s in previous:
            signal.signal(s, self.handle)
        return previous


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit status.

    Called as the program (``argv`` None), SIGINT and SIGTERM are ignored once the command
    has finished, until the process exits (CPython's finalisation would put a disarmed
    handler back to the default, and a late signal would kill the finished process), and
    after a signal the process ends here (``os._exit``, everything already stopped and
    flushed): CPython marks a Ctrl-C that interrupted code run by
    ``exec`` (a dataclass being made, at start-up) as unhandled even once caught, and
    would then end the process by SIGINT instead of with status 130. Called from Python,
    the previous handlers are restored.
    """
    signals = _Signals()
    previous = signals.install()
    try:
        code = _guarded(argv, signals)
    finally:
        signals.armed = False
        for s, h in previous.items():
            signal.signal(s, h if argv is not None else signal.SIG_IGN)
    if argv is None and code in (EXIT_INTERRUPTED, EXIT_TERMINATED):
        import os

        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    return code


def _guarded(argv: Sequence[str] | None, signals: _Signals) -> int:
    """The command, every way it can end mapped to an exit status and at most one line.

    A signal is the signal wherever its handler raised: where Python wraps the exception
    (a class's ``__set_name__`` makes it a RuntimeError) and where Python can only drop it
    (a finaliser run by the garbage collector reports it as "Exception ignored" and goes
    on): the first is turned back into the signal, the second is not reported, and the
    command that then carried on still ends with the signal's status and line."""
    unraisable = sys.unraisablehook

    def dropped(u: Any) -> None:  # only the handler's own exception is not reported
        if signals.received is None or not isinstance(u.exc_value, (KeyboardInterrupt,
                                                                     Terminated)):
            unraisable(u)

    sys.unraisablehook = dropped
    try:
        try:
            code = _command(argv)
            sys.stdout.flush()  # here, not at exit: a write error is ours to report
            signals.armed = False
            if signals.received is not None:  # raised where Python dropped it
                raise _stop(signals.received)
            return code
        except (KeyboardInterrupt, Terminated):
            raise
        except Exception as e:
            if signals.received is not None:  # the signal, raised where Python wraps it
                raise _stop(signals.received) from e
            return _failed(e)
    except KeyboardInterrupt:  # simulate has already stopped its processes / Dask tasks
        signals.armed = False
        _silence(stdout=True, stderr=False)
        _say("interrupted")
        return EXIT_INTERRUPTED
    except Terminated:
        signals.armed = False
        _silence(stdout=True, stderr=False)
        _say("terminated")
        return EXIT_TERMINATED
    finally:
        sys.unraisablehook = unraisable


def _stop(signum: int) -> BaseException:
    """The exception the handler raises for ``signum``."""
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated()


def _failed(e: Exception) -> int:
    """Say in one line why the command failed with ``e`` and return its exit status.

    Raises ``e`` again for a bug when ``TENLEAVE_TRACEBACK`` is set."""
    if isinstance(e, BrokenPipeError):
        _silence()
        return EXIT_BROKEN_PIPE
    if isinstance(e, OSError):
        _silence(stdout=True, stderr=False)  # the unwritten output is dropped
        _say(_os_error(e))
        return EXIT_USAGE
    if isinstance(e, MemoryError):
        _say("out of memory (ask for less: fewer samples or games)")
        return EXIT_FAILED
    import os  # a bug: one line still, the details on demand

    if os.environ.get("TENLEAVE_TRACEBACK"):
        raise e
    from ..engine.errors import one_line

    _say(f"internal error: {type(e).__name__}: {one_line(str(e), 120)} (please "
         "report it; TENLEAVE_TRACEBACK=1 shows the traceback)")
    return EXIT_FAILED


def _say(line: str) -> None:
    """One line on stderr, if stderr can still be written."""
    try:
        sys.stderr.write(f"tenleave: {line}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed or gone: nothing more to say
        _silence(stdout=False, stderr=True)


def _silence(stdout: bool = True, stderr: bool = True) -> None:
    """Point a stream that failed at /dev/null, so that Python's flush at exit neither
    fails again nor prints "Exception ignored"."""
    import os

    for wanted, stream in ((stdout, sys.stdout), (stderr, sys.stderr)):
        if not wanted or stream is None:
            continue
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())
            os.close(null)
        except (OSError, ValueError):
            pass


def _os_error(e: OSError) -> str:
    """An operating-system error as one line ("cannot write the output: No space left on
    device")."""
    import errno

    from ..engine.errors import excerpt

    reason = e.strerror or str(e) or type(e).__name__
    if e.filename is not None:
        return f"cannot write {excerpt(str(e.filename))}: {reason}"
    if e.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF):
        return f"cannot write the output: {reason}"
    return f"the system refused: {reason}"


def _parser() -> argparse.ArgumentParser:
    import argparse
    from typing import NoReturn

    from ..engine.errors import one_line

    class _Parser(argparse.ArgumentParser):
        """An argument error is one line on stderr (not the usage and the error), exit 2."""

        def error(self, message: str) -> NoReturn:
            self.exit(2, f"tenleave: {one_line(message)} (see {self.prog} --help)\n")

        def _print_message(self, message: str, file: Any = None) -> None:
            # argparse drops a write error: --help > /dev/full would exit 0 (an error on
            # stderr is still dropped: the usage error's exit status 2 says it)
            if message and file is sys.stdout:
                file.write(message)
            else:
                super()._print_message(message, file)

    # the options several commands share, each written once (argparse parent parsers)
    position = _Parser(add_help=False)  # a record's position after N turns
    position.add_argument("file", help=_FILE_HELP)
    position.add_argument("--turns", type=int, default=None, help=_TURNS_HELP)
    seat = _Parser(add_help=False)
    seat.add_argument("--seat", type=int, required=True)
    model = _Parser(add_help=False)  # which model of the unseen cards
    model.add_argument("--model", choices=("uniform", "inferred"), default="uniform",
                       help="the rules alone (the default) or what the players' choices "
                            "suggest")
    model.add_argument("--beta", type=_beta, default=None,
                       help="with --model inferred: every opponent's rationality, or "
                            "'fitted' (the default)")
    workers = _Parser(add_help=False)  # where the work runs
    where = workers.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None,
                       help="local processes (default: every core; 1: this process only)")
    where.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="a Dask scheduler, e.g. tcp://host:8786 (needs the "
                            "'distributed' extra)")

    p = _Parser(prog="tenleave", description="10 to Leave: replay, odds, self-play")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("replay", parents=[position],
                   help="print the position after the first N turns of a record")
    o = sub.add_parser("odds", parents=[position, seat, model],
                       help="print a seat's exact swat-risk odds after N turns")
    o.add_argument("--seed", type=int, default=0, help="with --model inferred")
    o.add_argument("--cost", default=None, help="with --model inferred: " + _COST_HELP)
    i = sub.add_parser("infer", parents=[position, seat],
                       help="print what the players' choices suggest about the cards a seat "
                            "cannot see")
    i.add_argument("--beta", type=_beta, default="fitted",
                   help="every opponent's rationality, a number >= 0, or 'fitted' (the default)")
    i.add_argument("--cost", default=None, help=_COST_HELP)
    i.add_argument("--seed", type=int, default=0)
    s = sub.add_parser("simulate", parents=[workers],
                       help="self-play games and print per-seat statistics")
    s.add_argument("--players", type=int, required=True)
    s.add_argument("--games", type=int, required=True)
    s.add_argument("--seed", type=int, default=None)
    s.add_argument("--bots", default=None,
                   help="comma-separated bot per seat (random, greedy, lookahead, reader)")
    s.add_argument("--rotate-first", action="store_true", help="rotate the first seat")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.add_argument("--no-progress", action="store_true")
    v = sub.add_parser("review", parents=[model, workers],
                       help="judge every decision of records and the luck of every swat; "
                            "several records (or folders of them) reviewed together")
    v.add_argument("file", nargs="+", help=_FILE_HELP + "; or a folder of *.json records")
    v.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    v.add_argument("--samples", type=int, default=None, help="evaluator budget per decision")
    v.add_argument("--seed", type=int, default=0)
    v.add_argument("--no-progress", action="store_true")
    v.add_argument("--report", default=None, metavar="OUT.html",
                   help="also write one self-contained HTML page of the reviews")
    e = sub.add_parser("evaluate", parents=[position, seat, model],
                       help="value every move of the seat to move over the whole game")
    e.add_argument("--samples", type=int, default=None,
                   help="worlds every decision is first valued on (default 64)")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--cost", default=None,
                   help="with --model inferred: what the players are read as minimising: "
                        "one-swat (the default), lookahead or fitted")
    e.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    x = sub.add_parser("export", help="write a game as one self-contained HTML page")
    x.add_argument("file", help=_FILE_HELP)
    x.add_argument("--html", required=True, metavar="OUT", help="the page to write")
    whose = x.add_mutually_exclusive_group()
    whose.add_argument("--seat", type=int, default=None,
                       help="only what seat P knew at each turn (for that player)")
    whose.add_argument("--teacher", action="store_true",
                       help="every card and every seat's view, with the notes (the default)")
    from .dealer.command import add_arguments as serve_arguments

    serve_arguments(sub.add_parser("serve", help="deal networked tables: each student's "
                                   "notebook gets only its seat's view"))
    return p


_COST_HELP = ("what the players are read as minimising: one-swat, lookahead or fitted "
              "(the default)")


def _cost(args: argparse.Namespace, default: str) -> str:
    """``--cost`` if given (checked: one of ``infer``'s costs), else the command's
    ``default``."""
    from ..analysis.infer import COSTS
    from ..engine.errors import SetupError, excerpt

    if args.cost is None:
        return default
    if args.cost not in COSTS:
        raise SetupError(f"--cost must be one of {', '.join(COSTS)}, not {excerpt(args.cost)}")
    return str(args.cost)


def _model_options(args: argparse.Namespace) -> None:
    """``--beta`` and ``--cost`` are for ``--model inferred``: given with the uniform model
    (which would ignore them) a :class:`SetupError` names the fix; else ``--beta`` left out
    is ``"fitted"``."""
    from ..engine.errors import SetupError

    if getattr(args, "model", None) == "uniform":
        for flag in ("beta", "cost"):
            if getattr(args, flag, None) is not None:
                raise SetupError(f"--{flag} is for --model inferred (the uniform model has "
                                 f"no players to read): add --model inferred, or leave "
                                 f"--{flag} out")
    if getattr(args, "beta", "") is None:
        args.beta = "fitted"


def _beta(text: str) -> float | str:
    import argparse

    from ..engine.errors import excerpt

    if text == "fitted":
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number or 'fitted': {excerpt(text)}") from None


def _command(argv: Sequence[str] | None) -> int:
    """Parse ``argv``, run the command, print its output; return the exit status (its
    errors, typed, as exit 2)."""
    import warnings

    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:  # --help (0) or a malformed command line (2), already printed
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    with warnings.catch_warnings():  # a warning (--workers above the cores) is one line
        warnings.showwarning = _warn
        return _run(args)


def _warn(message: Warning | str, category: type[Warning], filename: str, lineno: int,
          file: Any = None, line: str | None = None) -> None:
    from ..engine.errors import one_line

    _say(f"warning: {one_line(str(message))}")


def _run(args: argparse.Namespace) -> int:
    import json

    from ..engine.errors import TenLeaveError, one_line

    out: Mapping[str, Any]  # what is written as JSON
    try:
        _model_options(args)
        if args.command == "replay":
            from ..analysis.position import position

            out = position(_read(args.file), turns=args.turns)
        elif args.command == "odds":
            from ..analysis.infer import DEFAULT_COST
            from ..analysis.position import position_odds

            out = position_odds(_read(args.file), args.seat, turns=args.turns,
                                model=args.model, beta=args.beta, seed=args.seed,
                                cost=_cost(args, DEFAULT_COST))
        elif args.command == "infer":
            from ..analysis.infer import DEFAULT_COST
            from ..analysis.position import position_infer

            out = position_infer(_read(args.file), args.seat, turns=args.turns,
                                 beta=args.beta, seed=args.seed,
                                 cost=_cost(args, DEFAULT_COST))
        elif args.command == "review":
            return _review(args)
        elif args.command == "evaluate":
            from ..analysis.analyse import analyse, settings_for
            from ..analysis.infer import with_history
            from ..analysis.position import position_game
            from ..analysis.reader import BELIEF_COST

            record = _read(args.file)
            g = position_game(record, args.seat, args.turns)
            view = (with_history(g, args.seat) if args.model == "inferred"
                    else g.view(args.seat))
            out = analyse(view, settings_for(args.samples), model=args.model, beta=args.beta,
                          seed=args.seed, cost=_cost(args, BELIEF_COST))
            if not args.json:
                from ..analysis.review.text import analysis_table

                print(analysis_table(out, record.get("players")))
                return EXIT_OK
        elif args.command == "serve":
            from .dealer.command import run as serve

            return serve(args)
        elif args.command == "export":
            from .export import export_html

            path = export_html(_read(args.file), args.html, perspective=args.seat)
            print(f"wrote {path} ({path.stat().st_size:,} bytes)")
            return EXIT_OK
        else:
            stats = _simulate(args)
            if not args.json:
                print(stats.table())
                return EXIT_OK
            out = stats.to_json()
    except TenLeaveError as e:
        _say(one_line(str(e)))
        return EXIT_USAGE
    if args.command in ("odds", "infer"):  # exact odds: sums of floats print their noise
        out = tidy_numbers(out)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return EXIT_OK


def tidy_numbers(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, numbers, strings) with every float written to 12
    significant digits, so sums of exact odds print as ``0.3`` rather than
    ``0.30000000000000004``; ints, strings, booleans and None are returned as they are.

    >>> tidy_numbers({"p": [0.1 + 0.2, 0.6399999999999999, 2], "s": "x"})
    {'p': [0.3, 0.64, 2], 's': 'x'}
    """
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, dict):
        return {k: tidy_numbers(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [tidy_numbers(v) for v in value]
    return value


def _read(file: str) -> Any:
    """The record's JSON from a file, or from standard input for ``-``."""
    from ..engine.record import load_record, read_record

    return read_record(sys.stdin.buffer) if file == "-" else load_record(file)


def _simulate(args: argparse.Namespace) -> Stats:
    from ..engine.errors import SetupError
    from ..engine.rules import MAX_SEATS, MIN_SEATS
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
    from pathlib import Path

    from ..analysis.review import decisions
    from ..engine.errors import SetupError
    from ..engine.record import check_path, write_atomically
    from .class_review import review_many, scan_records, shown_name

    if args.report is not None:  # before the review's work, not after it
        report = Path(check_path(args.report)).resolve()
        if report.is_dir():
            raise SetupError(f"cannot write the report to {shown_name(args.report)}: it "
                             "is a folder (name a file in it, such as report.html)")
        if not report.parent.is_dir():
            raise SetupError(f"cannot write the report to {shown_name(args.report)}: there "
                             f"is no folder {shown_name(str(Path(args.report).parent))}")
    files: list[str] = []
    for f in args.file:
        found, skipped = (["-"], []) if f == "-" else scan_records([f])
        files += found
        for line in skipped:  # a folder's entry that is no record file: one line each
            _say(line)
    if not files:
        raise SetupError(f"no *.json record in {shown_name(', '.join(args.file))}")
    one = len(files) == 1
    sources: dict[str, Any] = {}  # each file by its name as printed (escaped, distinct)
    for f in files:
        name = shown_name(f)
        while name in sources:
            name += " (again)"
        sources[name] = _read(f) if one or f == "-" else f
    if one:
        decisions(next(iter(sources.values())))  # its error is the one line it always was
    c = review_many(sources, samples=args.samples, seed=args.seed, model=args.model,
                    beta=args.beta, workers=args.workers, merge_copies=True,
                    scheduler=args.scheduler, progress=not args.json and not args.no_progress)
    if not c.games:  # nothing reviewed: one line
        more = f" (and {len(c.failures) - 1} more)" if len(c.failures) > 1 else ""
        raise SetupError(f"no record could be reviewed: {c.failures[0]}{more}")
    for failed in c.failures:  # the others went on: one line each
        _say(failed)
    for copy in c.merged:  # a game given twice counts once
        _say(copy)
    if args.report is not None:  # an OSError is one line (see _guarded)
        write_atomically(args.report, c.html().encode())
    if args.json:
        c.write_json(sys.stdout)  # one game at a time
        sys.stdout.write("\n")
    else:
        print(c.table())
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
