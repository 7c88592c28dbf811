"""The ``arena`` command line. Presentation only: it decides nothing about rules or ratings."""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import sys
from typing import Any, Sequence

from arena import records
from arena.account import print_record
from arena.errors import ArenaError, RecordError
from arena.options import parse_assignments, show_value


MAX_WORKERS = 1024  # matches at once on one machine (each is a process, with its bots' processes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ArenaError as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a file or a medium that failed where nothing more specific caught it
        if isinstance(exc, BrokenPipeError):  # the reader went away (e.g. `| head`): not an error of ours
            sys.stderr.close()
            return 0
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"arena: error:{where} {exc.strerror or exc}", file=sys.stderr)
        return 2


def run_one_command(prog: str, command: str, add_parser: Any, argv: Sequence[str] | None = None) -> int:
    """One ``arena`` command run on its own (``python -m arena.bench``, ``python -m arena.players.serve``):
    ``add_parser(subparsers)`` adds it, as it does to the ``arena`` command's parser."""
    parser = argparse.ArgumentParser(prog=prog)
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args([command, *(sys.argv[1:] if argv is None else argv)])
    try:
        return args.run(args)
    except ArenaError as exc:
        print(f"arena {command}: error: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arena", description="Trick Arena: bot tournaments for trick-taking card games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("games", help="list the installed games with their player counts and options")
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.set_defaults(run=cmd_games)

    p = sub.add_parser("bots", help="list the installed bots")
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.set_defaults(run=cmd_bots)

    p = sub.add_parser("play", help="play one match and print a hand-by-hand account")
    p.add_argument("game", help="an installed game (see `arena games`)")
    p.add_argument("--seats", required=True, help="comma-separated bot names, one per seat, seat 0 first")
    p.add_argument("--seed", default="0", help="the seed of the deals (default 0)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option (repeatable)")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE")
    p.add_argument("--isolation", choices=("inprocess", "process"), default="inprocess",
                   help="run plugin bots in this process or each in a process of its own (default inprocess)")
    p.add_argument("--per-decision", type=float, default=5.0, metavar="SECONDS", help="time limit per decision (default 5)")
    p.add_argument("--bank", type=float, default=None, metavar="SECONDS", help="a time bank per seat (optional)")
    p.add_argument("--increment", type=float, default=0.0, metavar="SECONDS", help="added to the bank after each decision")
    p.add_argument("--on-fault", choices=("forfeit", "substitute"), default="forfeit",
                   help="what every fault does (default forfeit)")
    p.add_argument("--fault", action="append", default=[], metavar="KIND=RESPONSE",
                   help="the response to one fault kind: illegal, malformed, timeout or crash = forfeit or substitute")
    p.add_argument("--max-faults", type=int, default=3, help="with substitute: a side forfeits at this many faults")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--brief", action="store_true", help="one line per hand, without the actions")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("run", help="run a tournament file, then print its board")
    p.add_argument("file", help="a tournament file (TOML), e.g. tournaments/five_hundred.toml")
    p.add_argument("--db", help="the results database (default: results/<file name>.db); a run resumes from it")
    p.add_argument("--executor", choices=("local", "inline", "ray"), default=None,
                   help="local: a process pool (default); inline: one match at a time in this process; "
                        "ray: Ray tasks, on a local Ray instance or the cluster of --ray-address")
    p.add_argument("--ray-address", metavar="ADDRESS",
                   help="join this Ray cluster (HOST:PORT of its head, ray://HOST:PORT, or auto); implies --executor ray")
    p.add_argument("--workers", type=int, help="matches at once (default: the file's parallel, else one per core)")
    p.add_argument("--fresh", action="store_true", help="delete the database's earlier results first")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--html", metavar="FILE", help="also write the board as an HTML page")
    p.set_defaults(run=cmd_run)

    p = sub.add_parser("board", help="print the results board of a tournament database")
    p.add_argument("--db", required=True, help="the results database")
    p.add_argument("--json", action="store_true", help="print the board as JSON (a list of bots)")
    p.add_argument("--html", metavar="FILE", help="write the board as one self-contained HTML page")
    p.set_defaults(run=cmd_board)

    from arena.bench import add_bench_parser
    from arena.players.serve import add_serve_bot_parser

    add_serve_bot_parser(sub)
    add_bench_parser(sub)

    p = sub.add_parser("verify", help="replay a game record and print the scores after each hand")
    p.add_argument("record", help="a game record (JSON)")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.set_defaults(run=cmd_verify)
    return parser


# -- games and bots -----------------------------------------------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
    from arena.plugins import get_registry

    registry = get_registry()
    described = [registry.game(name).describe() for name in sorted(registry.games)]
    if args.json:
        print(json.dumps(described, indent=1))
        return 0
    for game in described:
        print(f"{game['name']}  ({game['title']}; players: {', '.join(map(str, game['players']))})")
        for option in game["options"]:
            print(f"    {option['name']:<28} default {show_value(option['default']):<11} {option['accepts']}")
    return 0


def cmd_bots(args: argparse.Namespace) -> int:
    from arena.plugins import get_registry

    bots = [
        {"name": b.name, "summary": b.summary, "games": list(b.games) if b.games else "all"}
        for b in sorted(get_registry().bots.values(), key=lambda b: b.name)
    ]
    if args.json:
        print(json.dumps(bots, indent=1))
        return 0
    for bot in bots:
        games = bot["games"] if bot["games"] == "all" else ", ".join(bot["games"])
        print(f"{bot['name']:<12} {bot['summary']}  (games: {games})")
    return 0


# -- play and verify ----------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    from arena.players.factory import make_host_or_fault
    from arena.plugins import get_registry
    from arena.referee import FaultPolicy, Referee, TimeControl

    registry = get_registry()
    game = registry.game(args.game, parse_assignments(args.option))
    names = [name.strip() for name in args.seats.split(",")]
    if len(names) != game.players:
        raise ArenaError(f"--seats names {len(names)} bots but {game.title} with players={game.players} needs {game.players}")
    seed = int(args.seed) if args.seed.lstrip("-").isdigit() and len(args.seed) <= 30 else args.seed
    policy_data: dict[str, Any] = {kind: args.on_fault for kind in ("illegal", "malformed", "timeout", "crash")}
    policy_data.update(parse_assignments(args.fault))
    policy_data["max_faults"] = args.max_faults
    policy = FaultPolicy.from_dict(policy_data)
    time_control = TimeControl(args.per_decision, args.bank, args.increment)
    if args.record:  # before playing: a match whose record cannot be written would be lost
        check_output_path("--record", args.record)
    hosts = []
    # Standard output is the arena's (--json): what an in-process bot prints goes to standard error
    # (an isolated bot's goes to its own log, arena.players.isolated).
    with contextlib.redirect_stdout(sys.stderr):
        try:
            for name in names:  # the user's errors first: an unknown bot, a bad address or command
                _check_seat(registry, name, game.name, args.isolation)
            for seat, name in enumerate(names):  # a seat that still cannot be set up is that seat's fault
                hosts.append(make_host_or_fault(registry, name, game=game.name, seed=_seat_seed(seed, seat),
                                                isolation=args.isolation))
            result = Referee(game, hosts, names, seed=seed, time_control=time_control, policy=policy).play()
        finally:
            for host in hosts:
                host.close()
    if args.record:
        try:
            records.dump(result.record, args.record)
        except OSError as exc:  # checked before playing; the medium may still fail
            raise ArenaError(f"--record {args.record}: cannot write it: {exc.strerror}") from None
    if args.json:
        print(json.dumps(result.as_dict(), indent=1))
        return 0
    if not args.quiet:
        print(f"{game.title}: {', '.join(f'{s}:{n}' for s, n in enumerate(names))} (seed {seed}, {args.isolation})")
        print_record(result.record, result.hands, verbose=not args.brief)
    _print_result(game, result.as_dict())
    if args.record and not args.quiet:
        print(f"record written to {args.record}")
    return 0


def _check_seat(registry: Any, name: str, game: str, isolation: str) -> None:
    """ArenaError if the seat ``name`` can be seen to be wrong before playing."""
    from arena.players.factory import is_external, seat_problem

    if not is_external(name):
        spec = registry.bot(name)  # UnknownBotError names the installed bots
        if not spec.plays(game):
            raise ArenaError(f"--seats: bot {name!r} does not play {game!r}; it plays {', '.join(spec.games or ())}")
    problem = seat_problem(name, registry, game, isolation)
    if problem:
        raise ArenaError(f"--seats: {problem}")


def _seat_seed(seed: Any, seat: int) -> int:
    import zlib

    return zlib.crc32(f"{seed}/seat/{seat}".encode())


def _print_result(game: Any, result: dict[str, Any]) -> None:
    termination = result["termination"]
    sides = ", ".join(f"{game.side_name(side)}: {score}" for side, score in enumerate(result["scores"]))
    print(f"Result: {sides}")
    if termination["how"] == "forfeit":
        fault = termination["fault"]
        print(f"Forfeit: seat {fault['seat']} ({result['seats'][fault['seat']]}) for a {fault['kind']} fault: "
              f"{fault['message']} (answer {fault['answer']!r})")
    elif termination["how"] == "unfinished":
        print("Unfinished: the hand limit was reached")
    winners = result["winners"]
    print("Winner: " + (", ".join(game.side_name(w) for w in winners) if winners else "none"))
    for seat, times in enumerate(result["think_times"]):
        print(f"  seat {seat} {result['seats'][seat]:<12} {times['decisions']:>4} decisions, "
              f"mean {times['mean'] * 1000:.2f} ms, total {times['total']:.3f} s")
    faults = result["faults"]
    if faults:
        print(f"Faults: {len(faults)}")
        for fault in faults:
            print(f"  hand {fault['hand']} action {fault['action_index']}: seat {fault['seat']} {fault['kind']} "
                  f"-> {fault['response']}{' (' + fault['substituted'] + ')' if fault['substituted'] else ''}: {fault['message'].splitlines()[0]}")


def cmd_run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from arena.plugins import get_registry
    from arena.tournaments import config as tournament_config
    from arena.tournaments import runner

    registry = get_registry()
    config = tournament_config.load(args.file, registry)
    db = args.db or str(Path("results") / (Path(args.file).stem + ".db"))
    if args.html:  # before any match
        check_output_path("--html", args.html)
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise ArenaError(f"--workers must be a whole number from 1 to {MAX_WORKERS}, not {args.workers}")
    executor = args.executor or ("ray" if args.ray_address else "local")
    if args.ray_address and executor != "ray":
        raise ArenaError(f"--ray-address is for --executor ray, not --executor {executor}")
    try:
        with runner.interrupts_as_keyboard():
            store = runner.run(config, registry, db, executor=executor, workers=args.workers,
                               progress=not args.quiet, fresh=args.fresh, ray_address=args.ray_address)
    except runner.Interrupted as exc:
        print(f"arena: interrupted: {exc.done} of {exc.total} matches are stored in {exc.db}; "
              f"resume with: arena run {shlex.quote(args.file)} --db {shlex.quote(exc.db)}", file=sys.stderr)
        return 130
    try:
        _show_board(store, as_json=False, html_path=args.html)
    finally:
        store.close()
    print(f"results: {db}")
    return 0


def cmd_board(args: argparse.Namespace) -> int:
    from pathlib import Path

    from arena.store import Store

    if not Path(args.db).exists():
        raise ArenaError(f"{args.db}: no such results database")
    if args.html:
        check_output_path("--html", args.html)
    store = Store(args.db, readonly=True)  # reads a database on a read-only medium too
    try:
        _show_board(store, as_json=args.json, html_path=args.html)
    finally:
        store.close()
    return 0


def _show_board(store: Any, as_json: bool, html_path: str | None) -> None:
    from pathlib import Path

    from arena import board

    data = board.board_data(store)
    if as_json:
        print(json.dumps(board.json_rows(data), indent=1))
    else:
        print(board.text(data))
    if html_path:
        try:
            Path(html_path).write_text(board.html_page(data), encoding="utf-8")
        except OSError as exc:
            raise ArenaError(f"--html {html_path}: cannot write it: {exc.strerror}") from None
        if not as_json:
            print(f"board written to {html_path}")


def check_output_path(option: str, path: str) -> None:
    """ArenaError unless a file can be written at ``path`` (its folder exists and is writable, and it
    is no folder itself): checked before the work whose output it is."""
    import os
    from pathlib import Path

    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ArenaError(f"{option} {path}: the folder {folder} does not exist")
    if target.is_dir():
        raise ArenaError(f"{option} {path}: is a folder, not a file")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise ArenaError(f"{option} {path}: cannot write there (a read-only medium, or not permitted)")


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        record = records.load(args.record)
        replayed = records.replay(record)
        summary = replayed.summary()
        json.dumps(summary)
    except RecordError as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": exc.as_dict()}, indent=1))
        else:
            print(f"arena: {args.record}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary))
        return 0
    for index, row in enumerate(replayed.hands):
        print(f"hand {index}: scores {row['scores']}")
    print(f"scores {summary['scores']}; winner: {'none' if summary['winner'] is None else 'side ' + str(summary['winner'])}"
          f"{'' if summary['over'] else ' (game not finished)'}")
    print("ok: the record replays")
    return 0


if __name__ == "__main__":
    sys.exit(main())
