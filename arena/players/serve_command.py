"""The ``serve-bot`` command: serve an installed bot over gRPC (registered through the plugin hook;
gRPC is imported only when the command runs)."""

from __future__ import annotations

import argparse
import os
import signal
import threading
from typing import TYPE_CHECKING, Sequence

from arena.commandline import Command, run_one_command
from arena.plugins import hookimpl

if TYPE_CHECKING:
    from arena.plugins.manager import Registry


def add_serve_bot_arguments(p: argparse.ArgumentParser, registry: "Registry | None" = None) -> None:
    p.add_argument("bot", metavar="NAME", help="an installed bot (see `arena bots`)")
    p.add_argument("--port", type=int, default=int(os.environ.get("ARENA_BOT_PORT", "0") or 0),
                   help="the port (default: $ARENA_BOT_PORT, as a launched bot gets it; else any free port)")
    p.add_argument("--host", default=os.environ.get("ARENA_BOT_HOST", "127.0.0.1"),
                   help="the address to listen on (default 127.0.0.1; 0.0.0.0 for other machines)")
    p.add_argument("--socket", default=os.environ.get("ARENA_BOT_SOCKET") or None, metavar="PATH",
                   help="serve on this Unix socket instead of a port (default: $ARENA_BOT_SOCKET, as a sandboxed "
                   "launched bot gets it)")
    p.add_argument("--tls-cert", metavar="PEM", help="serve TLS with this certificate (chain)")
    p.add_argument("--tls-key", metavar="PEM", help="the certificate's private key")
    p.add_argument("--tls-client-ca", metavar="PEM", help="also require the arena's certificate, signed by this CA")
    p.add_argument("--max-workers", type=int, default=8, help="calls served at once (default 8)")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m arena.players.serve``: the ``serve-bot`` command on its own."""
    return run_one_command("python -m arena.players.serve", "serve-bot", argv)


def cmd_serve_bot(args: argparse.Namespace) -> int:
    from arena.players.serve import serve_player
    from arena.plugins import get_registry

    spec = get_registry().bot(args.bot)  # installed bots, and those of $TRICK_ARENA_PLUGINS
    server = serve_player(spec, host=args.host, port=args.port, tls_cert=args.tls_cert, tls_key=args.tls_key,
                          tls_client_ca=args.tls_client_ca, max_workers=args.max_workers, socket_path=args.socket)
    stopping = threading.Event()
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stopping.set())
    print(f"serving bot {spec.name} on {server.url}", flush=True)
    try:
        while not stopping.wait(0.5):
            pass
    finally:
        server.stop(1.0)
    return 0


SERVE_BOT = Command(
    "serve-bot",
    "serve an installed bot over gRPC (for grpc://HOST:PORT seats)",
    add_serve_bot_arguments,
    cmd_serve_bot,
    description="Serve an installed bot over gRPC until stopped (Ctrl-C or SIGTERM). "
    "An arena plays it as grpc://HOST:PORT, or launches it as cmd:arena serve-bot NAME. "
    "Bots not installed as packages can be named in $TRICK_ARENA_PLUGINS.",
)


@hookimpl
def arena_register_commands() -> list[Command]:
    return [SERVE_BOT]
