"""``tenleave serve``'s command line: its arguments (added to the ``tenleave`` parser) and
its run. The WebSocket library is imported only when the command runs."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``serve``'s options on its sub-parser ``p``."""
    from .wire import DEFAULT_PORT

    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only; "
                        "0.0.0.0 for the classroom network)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"the port (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--store", default=None, metavar="PATH",
                   help="the SQLite file that keeps every game (default: memory only); a "
                        "server started again on it resumes every game")
    p.add_argument("--fsync", action="store_true",
                   help="wait for the disk at every turn: safe against a power cut too "
                        "(default: safe against the server being killed; faster)")
    p.add_argument("--records", default=None, metavar="DIR",
                   help="where finished games are written as tenleave-record/1 files "
                        "(default: PATH's name with -records, beside the store)")
    p.add_argument("--certfile", default=None, help="TLS certificate (PEM): serve wss://")
    p.add_argument("--keyfile", default=None, help="TLS private key (PEM), if not in --certfile")
    p.add_argument("--bot-delay", type=float, default=0.5, metavar="SECONDS",
                   help="how long a bot waits before its turn (default 0.5)")


def run(args: argparse.Namespace) -> int:
    """Serve until SIGINT (Ctrl-C) or SIGTERM, then stop cleanly (the connections closed,
    the store closed) and return 130 or 143 after one line on stderr, as every
    ``tenleave`` command. The signals are the event loop's own (a signal that raised
    into the loop could end one connection's task instead of the server). Raises
    :class:`SetupError` for a store or certificate that cannot be used, :class:`OSError`
    for a busy port."""
    import asyncio
    import signal

    from .dealer import Dealer
    from .server import run as serve

    def ready(dealer: Dealer, url: str, lines: list[str]) -> None:
        for line in lines:
            print(line)
        sys.stdout.flush()

    received: list[int] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop: asyncio.Future[None] = loop.create_future()

        def on_signal(signum: int) -> None:
            received.append(signum)
            if not stop.done():
                stop.set_result(None)

        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, on_signal, signum)
        await serve(args.host, args.port, store=args.store, records=args.records,
                    certfile=args.certfile, keyfile=args.keyfile, fsync=args.fsync,
                    bot_delay=args.bot_delay, ready=ready, stop=stop)

    asyncio.run(main())
    signum = received[0] if received else signal.SIGINT
    sys.stderr.write(f"tenleave: {'interrupted' if signum == signal.SIGINT else 'terminated'}\n")
    return 128 + signum
