"""``arena serve``: play in the browser (a person beside the bots), with a daily set and a
leaderboard. A Starlette application on uvicorn, on 127.0.0.1 by default; see docs/web.md."""

from __future__ import annotations

import argparse
import socket
from typing import TYPE_CHECKING, Any

from arena.commandline import Command
from arena.errors import ArenaError
from arena.plugins import hookimpl

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

DESCRIPTION = ("Serve the browser table: a person plays any installed game beside bots, with a daily set "
               "(the same deals for everyone, scored by matchpoints against people and bots) and a "
               "leaderboard. Everything is kept in one SQLite file; unfinished games resume when the "
               "server starts again. See docs/web.md.")

# The largest WebSocket frame uvicorn reads: a longer one closes the connection (1009). Up to it,
# a frame over the protocol's 4 KiB gets an error message and the connection stays.
WS_MAX_SIZE = 64 * 1024


def _add_serve(p: argparse.ArgumentParser, registry: "Registry") -> None:
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free port)")
    p.add_argument("--db", default="arena-web.db", help="the SQLite store (default arena-web.db); made if missing")
    p.add_argument("--pace", type=float, default=0.4, metavar="SECONDS",
                   help="pause before each bot move so a person can follow the play (default 0.4)")
    p.add_argument("--human-time", type=float, default=1800.0, metavar="SECONDS",
                   help="the most a person may think about one decision while connected (default 1800: "
                        "30 minutes); disconnected, the clock stops")
    add_limit_options(p)
    p.add_argument("--daily-deals", type=int, default=6, metavar="N",
                   help="one-hand deals in a day's daily set of a game (default 6; 1 to 20)")
    p.add_argument("--daily-pool", type=int, default=4, metavar="N",
                   help="independent instances of each day's set; a person gets one at random (default 4; 1 to 64)")
    p.add_argument("--daily-field", default=None, metavar="BOT,BOT",
                   help="the bots that play every daily deal in the person's seat to fill the field (default: every "
                        "installed bot that plays the game; heuristic, the par, always)")
    p.add_argument("--websockets-per-address", type=int, default=32, metavar="N",
                   help="WebSockets one client address may hold open at once (default 32; 512 in all)")


def add_limit_options(p: argparse.ArgumentParser) -> None:
    """The options of arena.web.limits.ServeLimits (`arena serve`'s and `arena ladder`'s tables)."""
    from arena.web.limits import ServeLimits

    d = ServeLimits()
    p.add_argument("--tables-per-player", type=int, default=d.tables_per_player, metavar="N",
                   help=f"tables one person may have running at once (default {d.tables_per_player})")
    p.add_argument("--idle-minutes", type=float, default=d.idle_tables / 60, metavar="MINUTES",
                   help=f"a table waiting this long for its person's move is put aside, to resume when they open it "
                        f"again (default {d.idle_tables / 60:g})")
    p.add_argument("--new-tables", default=f"{d.new_tables.burst}/{d.new_tables.every:g}", metavar="BURST/SECONDS",
                   help="new tables per client address: BURST at once, then one every SECONDS (default "
                        f"{d.new_tables.burst}/{d.new_tables.every:g}); beyond, 429 with Retry-After")
    p.add_argument("--new-players", default=f"{d.new_players.burst}/{d.new_players.every:g}", metavar="BURST/SECONDS",
                   help="new players (stored on their first nickname or table) per client address (default "
                        f"{d.new_players.burst}/{d.new_players.every:g})")
    p.add_argument("--bot-workers", type=int, default=0, metavar="N",
                   help="bot decisions at once of the people past half their --bot-seconds (default: one per CPU); "
                        "the others' decide at once")
    p.add_argument("--ranked-daily-per-address", type=int, default=d.ranked_daily_per_address, metavar="N",
                   help="ranked daily sets one client address may start per game and UTC day (default "
                        f"{d.ranked_daily_per_address}); beyond, 429")
    p.add_argument("--bot-seconds", type=float, default=d.bot_seconds, metavar="SECONDS",
                   help=f"seconds of bot decisions one person's tables may use per minute; beyond, their bots wait "
                        f"(default {d.bot_seconds:g})")


def limits_of(args: argparse.Namespace) -> Any:
    """The ServeLimits of the options of :func:`add_limit_options`, or a one-line error."""
    import dataclasses

    from arena.web.limits import ServeLimits, parse_limit

    if not 1 <= args.tables_per_player <= 1000:
        raise ArenaError(f"--tables-per-player must be from 1 to 1000, not {args.tables_per_player}")
    if not 0 < args.idle_minutes <= 7 * 24 * 60:
        raise ArenaError(f"--idle-minutes must be more than 0 and at most a week, not {args.idle_minutes}")
    if not 0 <= args.bot_workers <= 1024:
        raise ArenaError(f"--bot-workers must be from 0 (one fewer than the CPUs) to 1024, not {args.bot_workers}")
    if not 1 <= args.ranked_daily_per_address <= 10000:
        raise ArenaError(f"--ranked-daily-per-address must be from 1 to 10000, not {args.ranked_daily_per_address}")
    if not 0 < args.bot_seconds <= 3600:
        raise ArenaError(f"--bot-seconds must be more than 0 and at most 3600, not {args.bot_seconds}")
    try:
        new_tables = parse_limit(args.new_tables, "--new-tables")
        new_players = parse_limit(args.new_players, "--new-players")
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    return dataclasses.replace(ServeLimits(), tables_per_player=args.tables_per_player,
                               idle_tables=args.idle_minutes * 60, new_tables=new_tables, new_players=new_players,
                               bot_workers=args.bot_workers, bot_seconds=args.bot_seconds,
                               ranked_daily_per_address=args.ranked_daily_per_address)


def _listen(host: str, port: int) -> socket.socket:
    """A bound, listening socket, or a one-line error saying why not."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == 98:  # EADDRINUSE
            raise ArenaError(f"port {port} on {host} is taken (another server listens there); choose another "
                             "with --port") from None
        raise ArenaError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from arena.web.app import create_app
    from arena.web.daily import DailyConfig
    from arena.web.guard import Guard, raise_file_limit, uvicorn_config

    if not 0 <= args.port <= 65535:
        raise ArenaError(f"--port {args.port} is not a port (0 to 65535)")
    if not args.pace >= 0:
        raise ArenaError(f"--pace must be >= 0 seconds, not {args.pace}")
    if not 0 < args.human_time <= 86400:
        raise ArenaError(f"--human-time must be more than 0 and at most 86400 seconds (a day), not {args.human_time}")
    if not 1 <= args.websockets_per_address <= 512:
        raise ArenaError(f"--websockets-per-address must be from 1 to 512, not {args.websockets_per_address}")
    guard = Guard(websockets_per_address=args.websockets_per_address)
    try:
        field = tuple(b.strip() for b in args.daily_field.split(",") if b.strip()) if args.daily_field else None
        config = DailyConfig(deals=args.daily_deals, pool=args.daily_pool, field=field)
    except ValueError as exc:
        raise ArenaError(f"--daily-deals/--daily-pool: {exc}") from None
    app = create_app(args.db, pace=args.pace, human_time=args.human_time, limits=limits_of(args), guard=guard,
                     daily_config=config)
    sock = _listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    raise_file_limit()  # every connection holds a file: the usual soft limit of 1,024 is soon reached
    print(f"arena serve: http://{host}:{port}/ (store {args.db}; Ctrl-C stops, unfinished games resume)", flush=True)
    uvicorn.Server(uvicorn_config(app, ws_max_size=WS_MAX_SIZE)).run(sockets=[sock])
    return 0


@hookimpl
def arena_register_commands() -> list[Command]:
    return [Command("serve", "play in the browser beside the bots: daily set, matchpoints, leaderboard", _add_serve,
                    cmd_serve, description=DESCRIPTION)]
