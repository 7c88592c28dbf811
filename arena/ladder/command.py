"""``arena ladder``: a standing competition. One process serves the ladder's pages and API beside
the browser tables of ``arena serve`` (one Starlette app, one SQLite file) and runs the ladder's
rounds on an executor in a background thread. docs/ladder.md."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any

from arena.commandline import EXIT_INTERRUPTED, Command
from arena.errors import ArenaError
from arena.plugins import hookimpl

DESCRIPTION = ("Run a ladder: authors register and submit bots (arena submit, or the page /ladder/submit), "
               "the ladder plays them around the clock in rounds of duplicate deal sets, rates them with "
               "TrueSkill and shows a live board at /ladder. Everything is kept in one SQLite file; a "
               "killed ladder restarts where it was. See docs/ladder.md.")


def _add_ladder(p: argparse.ArgumentParser, registry: Any) -> None:
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free port)")
    p.add_argument("--db", default="arena-ladder.db",
                   help="the SQLite store (default arena-ladder.db); the versions' files go beside it in NAME_files/")
    p.add_argument("--config", metavar="FILE", help="the ladder file (TOML, [[ladder]] tables; default: one "
                   "ladder per installed game at its default player count)")
    p.add_argument("--workers", type=int, default=None, help="matches at once (default: one per core)")
    p.add_argument("--executor", default="local", help="the registered executor that plays the matches "
                   "(local, the default: a process pool; inline; ray, see docs/cluster.md)")
    p.add_argument("--ray-address", metavar="ADDRESS", help="join this Ray cluster (implies --executor ray)")
    p.add_argument("--house", default="", metavar="NAMES",
                   help="installed bots that play on the ladder too, comma-separated (e.g. heuristic,random)")
    p.add_argument("--seed", default="0", help="the ladder's seed (deals, bots' seeds, matchmaking; default 0)")
    p.add_argument("--pairings", type=int, default=None,
                   help="pairings per ladder per round (default: twice the workers)")
    p.add_argument("--rounds", type=int, default=None, metavar="N",
                   help="stop once N rounds are played and rated (default: run until stopped)")
    p.add_argument("--max-upload", type=_size, default=16 * 1024 * 1024, metavar="BYTES",
                   help="the largest submission accepted (default 16 MiB; a number or e.g. '8 MiB')")
    p.add_argument("--rate-limit", type=int, default=10, metavar="N",
                   help="the most versions an author may submit per hour (default 10)")
    p.add_argument("--log-budget", type=_log_budget, default=64 * 1024 * 1024, metavar="BYTES",
                   help="bytes of logs kept per bot version, its oldest dropped first (default 64 MiB)")


def _size(text: str) -> int:
    from arena.players.limits import parse_limits

    try:
        return parse_limits({"file_size": text}).file_size
    except ArenaError as exc:
        raise argparse.ArgumentTypeError(str(exc).replace("file_size", "--max-upload")) from None


def _log_budget(text: str) -> int:
    from arena.players.limits import parse_limits

    try:
        return parse_limits({"file_size": text}).file_size
    except ArenaError as exc:
        raise argparse.ArgumentTypeError(str(exc).replace("file_size", "--log-budget")) from None


def _seed(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def build(args: argparse.Namespace, registry: Any) -> Any:
    """The Ladder of the command's arguments (its store opened, its house bots added)."""
    import os

    from arena.ladder import config as ladder_config
    from arena.ladder.scheduler import Ladder, data_dir_for
    from arena.ladder.store import LadderStore

    if not 0 <= args.port <= 65535:
        raise ArenaError(f"--port {args.port} is not a port (0 to 65535)")
    if args.workers is not None and not 1 <= args.workers <= 1024:
        raise ArenaError(f"--workers must be from 1 to 1024, not {args.workers}")
    if args.pairings is not None and not 1 <= args.pairings <= 1000:
        raise ArenaError(f"--pairings must be from 1 to 1000, not {args.pairings}")
    if args.rounds is not None and args.rounds < 1:
        raise ArenaError(f"--rounds must be at least 1, not {args.rounds}")
    if args.rate_limit < 1:
        raise ArenaError(f"--rate-limit must be at least 1 version per hour, not {args.rate_limit}")
    executor = "ray" if args.ray_address else args.executor
    kind = registry.executors.get(executor)
    if kind is None:
        raise ArenaError(f"--executor {executor}: unknown executor; installed: {', '.join(sorted(registry.executors))}")
    config = ladder_config.load(args.config, registry) if args.config else ladder_config.default(registry)
    house = [name.strip() for name in args.house.split(",") if name.strip()]
    store = LadderStore(args.db)
    try:
        return Ladder(store, registry, config, data_dir_for(args.db), executor=executor,
                      workers=args.workers or os.cpu_count() or 1, seed=_seed(args.seed), pairings=args.pairings,
                      house=house, executor_options={"ray_address": args.ray_address},
                      max_upload=args.max_upload, rate_limit=args.rate_limit, log_budget=args.log_budget)
    except BaseException:
        store.close()
        raise


def cmd_ladder(args: argparse.Namespace) -> int:
    import uvicorn

    from arena.ladder import api, web
    from arena.plugins import get_registry
    from arena.web.app import create_app
    from arena.web.command import WS_MAX_SIZE, _listen

    registry = get_registry()
    ladder = build(args, registry)
    routes = api.routes(ladder) + web.routes(ladder)  # the authors' API, then the board's pages
    app = create_app(args.db, registry=registry, extra_routes=routes)
    sock = _listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=WS_MAX_SIZE, lifespan="on",
                                            timeout_graceful_shutdown=5))  # an open event stream never holds a stop up for long
    failure: list[BaseException] = []

    def schedule() -> None:
        try:
            ladder.run(rounds=args.rounds)
        except BaseException as exc:  # told below, after the server stops
            failure.append(exc)
        finally:
            if args.rounds is not None or failure:
                server.should_exit = True  # --rounds done (or the ladder failed): the command ends

    _resume_validations(ladder)
    scheduler = threading.Thread(target=schedule, name="ladder-scheduler", daemon=True)
    print(f"arena ladder: http://{host}:{port}/ladder (store {args.db}; ladders "
          f"{', '.join(entry.key for entry in ladder.config.ladders)}; Ctrl-C stops, nothing finished is lost)",
          flush=True)
    scheduler.start()
    interrupted = False
    # uvicorn handles Ctrl-C and SIGTERM (a graceful shutdown), then raises the signal again with
    # the handlers it found: these, which turn it into an exception, so the ladder is stopped below.
    previous = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        ladder.stop()
        scheduler.join(30)
        _idle_validations()
        counts = ladder.store.counts()
        ladder.store.close()
    if failure and not isinstance(failure[0], (KeyboardInterrupt, SystemExit)):
        exc = failure[0]
        if isinstance(exc, ArenaError):
            raise exc
        raise ArenaError(f"the ladder stopped: {type(exc).__name__}: {exc}") from exc
    print(f"arena ladder: stopped after {counts['rounds']} rounds; {args.db} keeps {counts['matches_finished']} "
          f"finished matches of {counts['matches']} (started again, it goes on where it was)", file=sys.stderr, flush=True)
    return EXIT_INTERRUPTED if interrupted else 0


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _resume_validations(ladder: Any) -> None:
    """Validate again what a killed ladder left validating (the submissions' module, if installed)."""
    try:
        from arena.ladder import validation
    except ImportError:
        return
    resume = getattr(validation, "resume", None)
    if resume is not None:
        resume(ladder)


def _idle_validations() -> None:
    try:
        from arena.ladder import validation
    except ImportError:
        return
    idle = getattr(validation, "idle", None)
    if idle is not None:
        idle(10.0)


@hookimpl
def arena_register_commands() -> list[Command]:
    return [Command("ladder", "run a ladder: submitted bots rated around the clock, a live board", _add_ladder,
                    cmd_ladder, description=DESCRIPTION)]

