"""``arena ladder``: a standing competition. One process serves the ladder's pages and API beside
the browser tables of ``arena serve`` (one Starlette app, one SQLite file) and runs the ladder's
rounds on an executor in a background thread. docs/ladder.md."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any

from arena.commandline import EXIT_INTERRUPTED, Command
from arena.errors import ArenaError
from arena.plugins import hookimpl

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

DESCRIPTION = ("Run a ladder: authors register and submit bots (arena submit, or the page /ladder/submit), "
               "the ladder plays them around the clock in rounds of duplicate deal sets, rates them with "
               "TrueSkill and shows a live board at /ladder. Everything is kept in one SQLite file; a "
               "killed ladder restarts where it was. See docs/ladder.md.")


def _add_ladder(p: argparse.ArgumentParser, registry: "Registry") -> None:
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
    p.add_argument("--seed", default=None,
                   help="a public seed of the deals, bots' seeds and matchmaking, for tests and demonstrations "
                        "(whoever knows it knows every deal); default: a secret made at the ladder's first start, "
                        "kept in its store")
    p.add_argument("--pairings", type=int, default=None,
                   help="pairings per ladder per round (default: twice the workers)")
    p.add_argument("--rounds", type=int, default=None, metavar="N",
                   help="stop once N rounds are played and rated (default: run until stopped)")
    p.add_argument("--max-upload", type=_size, default=16 * 1024 * 1024, metavar="BYTES",
                   help="the largest submission accepted (default 16 MiB; a number or e.g. '8 MiB')")
    p.add_argument("--rate-limit", type=int, default=10, metavar="N",
                   help="the most versions an author may submit per hour (default 10)")
    p.add_argument("--registrations", default="5/720", metavar="BURST/SECONDS",
                   help="new authors per client address: BURST at once, then one every SECONDS (default 5/720: "
                        "five, then one every 12 minutes; 30, then one a minute, in all); beyond, 429 with Retry-After")
    p.add_argument("--approve-authors", action="store_true",
                   help="a new author may submit only once approved by the operator: `arena ladder-approve NAME "
                        "--db DB` (docs/ladder.md, 'Approving authors')")
    from arena.web.command import add_limit_options

    add_limit_options(p)  # the browser tables served beside the ladder
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


def _seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    return int(text) if text.lstrip("-").isdigit() else text


def build(args: argparse.Namespace, registry: "Registry") -> Any:
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
    from arena.web.limits import parse_limit

    try:
        registrations = parse_limit(args.registrations, "--registrations")
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    store = LadderStore(args.db)
    try:
        ladder = Ladder(store, registry, config, data_dir_for(args.db), executor=executor,
                        workers=args.workers or os.cpu_count() or 1, seed=_seed(args.seed), pairings=args.pairings,
                        house=house, executor_options={"ray_address": args.ray_address},
                        max_upload=args.max_upload, rate_limit=args.rate_limit, log_budget=args.log_budget)
        ladder.registrations = registrations  # read by arena.ladder.api
        ladder.approve_authors = args.approve_authors
        return ladder
    except BaseException:
        store.close()
        raise


def ladder_daily_field(ladder: Any) -> Any:
    """The daily set's config of the tables served beside ``ladder``: its active versions of a game
    join the daily field (docs/web.md, "The daily set"), each submitted version a field bot,
    sandboxed with the ladder's limits (its house bots are installed bots, in the field already)."""
    from arena.ladder import ratings
    from arena.web.daily import DailyConfig, FieldBot

    def extra(game: str) -> list[FieldBot]:
        entry = next((e for e in ladder.config.ladders if e.game == game), None)
        limits = dict(entry.limits) if entry is not None else {}
        return [FieldBot(f"ladder: {ratings.version_name(v)}", v["seat"],
                         "sandbox", limits, str(ladder.data_dir / "logs"))
                for v in ladder.store.active_versions(game) if v["kind"] != "house"]  # house bots: already there
    return DailyConfig(extra=extra)


def cmd_ladder(args: argparse.Namespace) -> int:
    import uvicorn

    from arena.ladder import api, web
    from arena.plugins import get_registry
    from arena.web.app import create_app
    from arena.web.command import WS_MAX_SIZE, _listen, limits_of
    from arena.web.guard import raise_file_limit, uvicorn_config

    registry = get_registry()
    limits = limits_of(args)
    ladder = build(args, registry)
    routes = api.routes(ladder) + web.routes(ladder)  # the authors' API, then the board's pages
    app = create_app(args.db, registry=registry, extra_routes=routes, limits=limits,
                     daily_config=ladder_daily_field(ladder))
    sock = _listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    raise_file_limit()  # every connection holds a file: the usual soft limit of 1,024 is soon reached
    server = uvicorn.Server(uvicorn_config(app, ws_max_size=WS_MAX_SIZE,
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
    """Install and validate again what a killed ladder left validating."""
    from arena.ladder import jobs

    jobs.resume(ladder)


def _idle_validations() -> None:
    from arena.ladder import jobs

    jobs.idle(10.0)


def _add_approve(p: argparse.ArgumentParser, registry: "Registry") -> None:
    p.add_argument("names", nargs="*", metavar="NAME", help="the authors to approve (none: list those awaiting approval)")
    p.add_argument("--db", default="arena-ladder.db", help="the ladder's SQLite store (default arena-ladder.db)")


def cmd_approve(args: argparse.Namespace) -> int:
    """Approve pending authors of a ladder run with --approve-authors (it may be running)."""
    import datetime
    import os

    from arena.ladder.store import LadderStore

    if not os.path.exists(args.db):
        raise ArenaError(f"--db {args.db}: no such ladder store (give the --db of `arena ladder`)")
    store = LadderStore(args.db)
    try:
        if not args.names:
            pending = store.pending_authors()
            for name, created in pending:
                when = datetime.datetime.fromtimestamp(created, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
                print(f"{name}\tregistered {when}")
            if not pending:
                print("no author awaits approval", file=sys.stderr)
            return 0
        unknown = [name for name in args.names if not store.is_pending(name)]
        if unknown:
            known = set(store.authors())
            name = unknown[0]
            why = "is approved already" if name in known else "is not an author of this ladder"
            raise ArenaError(f"{name!r} {why}; nothing was approved (`arena ladder-approve --db {args.db}` lists "
                             "those awaiting approval)")
        for name in args.names:
            store.approve(name)
            print(f"approved {name}: they may submit now")
    finally:
        store.close()
    return 0


@hookimpl
def arena_register_commands() -> list[Command]:
    return [Command("ladder", "run a ladder: submitted bots rated around the clock, a live board", _add_ladder,
                    cmd_ladder, description=DESCRIPTION),
            Command("ladder-approve", "approve new authors of a ladder run with --approve-authors (none named: list them)",
                    _add_approve, cmd_approve,
                    description="A ladder run with --approve-authors lets a new author submit only once approved "
                                "here. See docs/ladder.md, 'Approving authors'.")]

