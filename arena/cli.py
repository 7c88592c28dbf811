"""The bundled ``arena`` commands (games, bots, play, run, board, verify), registered through the
plugin hook like a third party's (see :mod:`arena.commandline`). Presentation only: they decide
nothing about rules or ratings."""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import sys
from typing import TYPE_CHECKING, Any, Sequence

from arena import records
from arena.account import print_record
from arena.commandline import Command, add_clock_arguments, clock_from, main
from arena.errors import ArenaError, RecordError
from arena.options import parse_assignments, show_value
from arena.plugins import hookimpl

if TYPE_CHECKING:
    from arena.kinds import RatingSystem
    from arena.plugins.manager import Registry

__all__ = ["main"]

MAX_WORKERS = 1024  # matches at once on one machine (each is a process, with its bots' processes)


def _add_games(p: argparse.ArgumentParser, registry: "Registry") -> None:
    p.add_argument("--json", action="store_true", help="print as JSON")


def _add_bots(p: argparse.ArgumentParser, registry: "Registry") -> None:
    p.add_argument("--json", action="store_true", help="print as JSON")


def _add_play(p: argparse.ArgumentParser, registry: "Registry") -> None:
    from arena.players.seats import describe_seats

    p.add_argument("game", help="an installed game (see `arena games`)")
    p.add_argument("--seats", required=True, metavar="SEAT,SEAT,...",
                   help=f"one per seat, seat 0 first, separated by commas; each is {describe_seats(registry)} "
                        "(see docs/grpc-bots.md); the number of seats chooses the game's player count "
                        "unless --option players=N is given")
    p.add_argument("--seed", default="0", type=_seed,
                   help="the seed of the deals: an integer (default 0); the same seed gives the same deals")
    p.add_argument("--name", action="append", default=[], metavar="SEAT=NAME",
                   help="the name of seat SEAT (0, 1, ...) in the account and the record (default: its --seats entry; repeatable)")
    p.add_argument("--setting", action="append", default=[], metavar="SEAT.KEY=VALUE",
                   help="a setting given to the bot of seat SEAT, as a tournament file's settings: VALUE is read "
                        "as a TOML value (3, 0.5, true, \"text\") or else as text (repeatable)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option (repeatable)")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE")
    p.add_argument("--isolation", choices=tuple(registry.isolations), default="inprocess",
                   help="how installed bots are hosted: " + "; ".join(
                       f"{i.name}: {i.summary}" for i in registry.isolations.values()) + " (default inprocess)")
    add_clock_arguments(p)
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--brief", action="store_true", help="one line per hand, without the actions")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def _add_run(p: argparse.ArgumentParser, registry: "Registry") -> None:
    p.add_argument("file", help="a tournament file (TOML), e.g. tournaments/five_hundred.toml")
    p.add_argument("--db", help="the results database (default: results/<file name>.db); a run resumes from it")
    p.add_argument("--executor", choices=tuple(registry.executors), default=None,
                   help="; ".join(f"{e.name}: {e.summary}" for e in registry.executors.values()))
    for kind in registry.executors.values():
        for flags, kwargs in kind.arguments:
            p.add_argument(*flags, **kwargs)
    p.add_argument("--isolation", choices=tuple(registry.isolations), default=None,
                   help="host the bots at this isolation level, whatever the file says (e.g. sandbox)")
    p.add_argument("--workers", type=int, help="matches at once (default: the file's parallel, else one per core)")
    p.add_argument("--fresh", action="store_true", help="delete the database's earlier results first")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--html", metavar="FILE", help="also write the board as an HTML page")
    _add_rating(p, registry)


def _add_rating(p: argparse.ArgumentParser, registry: "Registry") -> None:
    p.add_argument("--rating", metavar="NAME", action="append", default=[],
                   help="also show this rating system's ratings (repeatable); registered: "
                        + ", ".join(registry.rating_systems))


def _add_board(p: argparse.ArgumentParser, registry: "Registry") -> None:
    p.add_argument("--db", required=True, help="the results database")
    p.add_argument("--json", action="store_true", help="print the board as JSON (a list of bots)")
    p.add_argument("--html", metavar="FILE", help="write the board as one self-contained HTML page")
    _add_rating(p, registry)


def _add_verify(p: argparse.ArgumentParser, registry: "Registry") -> None:
    p.add_argument("record", help="a game record (JSON)")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")


@hookimpl
def arena_register_commands() -> list[Command]:
    return [
        Command("games", "list the installed games with their player counts and options", _add_games, cmd_games),
        Command("bots", "list the installed bots", _add_bots, cmd_bots),
        Command("play", "play one match and print a hand-by-hand account", _add_play, cmd_play),
        Command("run", "run a tournament file, then print its board", _add_run, cmd_run),
        Command("board", "print the results board of a tournament database", _add_board, cmd_board),
        Command("verify", "replay a game record and print the scores after each hand", _add_verify, cmd_verify),
    ]


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
    from arena.matches import MatchSpec, play_match
    from arena.players.seats import check_seat
    from arena.plugins import get_registry

    registry = get_registry()
    bots = [name.strip() for name in args.seats.split(",")]
    game = _game_for_seats(registry, args.game, parse_assignments(args.option), len(bots))
    names = _seat_names(bots, args.name)
    settings = _seat_settings(len(bots), args.setting)
    seed = args.seed
    time_control, policy = clock_from(args)
    spec = MatchSpec.single(game.name, bots, seed=seed, options=game.options, names=names, settings=settings,
                            time_control=time_control, policy=policy, isolation=args.isolation)
    if args.record:  # before playing: a match whose record cannot be written would be lost
        check_output_path("--record", args.record)
    for bot in bots:  # the user's errors first: an unknown bot, a bad address or command
        try:
            check_seat(registry, bot, game.name, args.isolation)
        except ArenaError as exc:
            raise ArenaError(f"--seats: {exc}") from None
    # Standard output is the arena's (--json): what an in-process bot prints goes to standard error
    # (an isolated bot's goes to its own log, arena.players.isolated); a seat that still cannot be
    # set up is that seat's fault.
    with contextlib.redirect_stdout(sys.stderr):
        result = play_match(spec, registry, tolerant=True)
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


def _seed(text: str) -> int:
    """``--seed``: an integer (argparse reports anything else as an invalid value)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer (the seed of the deals, e.g. 7)") from None


def _game_for_seats(registry: "Registry", game_name: str, options: dict[str, str], seats: int) -> Any:
    """The game for ``seats`` seats: without ``--option players=N``, a player count the game supports
    is taken from the number of seats."""
    if "players" not in options:
        counts = registry.game(game_name, options).describe()["players"]
        if seats in counts:
            options = {**options, "players": str(seats)}
    game = registry.game(game_name, options)
    if seats != game.players:
        counts = [str(n) for n in game.describe()["players"]]
        why = (f"with --option players={game.players} needs {game.players}" if "players" in options
               else f"is played by {', '.join(counts[:-1]) + ' or ' if len(counts) > 1 else ''}{counts[-1]} players")
        raise ArenaError(f"--seats names {seats} seats, but {game.title} {why}")
    return game


def _seat_index(text: str, seats: int, flag: str, item: str) -> int:
    if not text.strip().isdigit() or int(text) >= seats:
        raise ArenaError(f"{flag} {item!r}: {text.strip()!r} is not a seat (the seats are 0 to {seats - 1})")
    return int(text)


def _seat_names(bots: list[str], items: list[str]) -> list[str]:
    """Each seat's name (``--name SEAT=NAME``), by default its ``--seats`` entry."""
    names = list(bots)
    for item in items:
        seat, sep, name = item.partition("=")
        if not sep or not name.strip():
            raise ArenaError(f"--name {item!r} is not of the form SEAT=NAME (e.g. --name 0=alice)")
        names[_seat_index(seat, len(bots), "--name", item)] = name.strip()
    return names


def _seat_settings(seats: int, items: list[str]) -> list[dict[str, Any]]:
    """Each seat's bot settings (``--setting SEAT.KEY=VALUE``); a VALUE that TOML reads is typed."""
    import tomllib

    settings: list[dict[str, Any]] = [{} for _ in range(seats)]
    for item in items:
        target, sep, text = item.partition("=")
        seat, dot, key = target.partition(".")
        if not sep or not dot or not key.strip():
            raise ArenaError(f"--setting {item!r} is not of the form SEAT.KEY=VALUE (e.g. --setting 1.depth=3)")
        value: Any = text.strip()
        if "\n" not in value and "\r" not in value:  # one TOML value, never further keys
            try:
                value = tomllib.loads(f"v = {value}")["v"]
            except tomllib.TOMLDecodeError:
                pass
        settings[_seat_index(seat, seats, "--setting", item)][key.strip()] = value
    return settings


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
    if args.isolation is not None and args.isolation != config.isolation:
        config = tournament_config.with_isolation(config, args.isolation, registry)
    db = args.db or str(Path("results") / (Path(args.file).stem + ".db"))
    if args.html:  # before any match
        check_output_path("--html", args.html)
    ratings = [registry.rating_system(name) for name in args.rating]
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise ArenaError(f"--workers must be a whole number from 1 to {MAX_WORKERS}, not {args.workers}")
    executor, options = _executor_choice(args, registry)
    try:
        with runner.interrupts_as_keyboard():
            store = runner.run(config, registry, db, executor=executor, workers=args.workers,
                               progress=not args.quiet, fresh=args.fresh, executor_options=options)
    except runner.Interrupted as exc:
        print(f"arena: interrupted: {exc.done} of {exc.total} matches are stored in {exc.db}; "
              f"resume with: arena run {shlex.quote(args.file)} --db {shlex.quote(exc.db)}", file=sys.stderr)
        return 130
    try:
        _show_board(store, as_json=False, html_path=args.html, ratings=ratings)
    finally:
        store.close()
    print(f"results: {db}")
    return 0


def _executor_choice(args: argparse.Namespace, registry: "Registry") -> tuple[str, dict[str, Any]]:
    """The executor ``arena run`` uses and its options: ``--executor``, else the one whose own
    options were given, else ``local``. Options of another executor than the chosen one are an error."""
    given = {kind.name: {d: getattr(args, d) for d in kind.dests() if getattr(args, d, None) is not None}
             for kind in registry.executors.values()}
    implied = [name for name, options in given.items() if options]
    executor = args.executor or (implied[0] if len(implied) == 1 else "local")
    for name in implied:
        if name != executor:
            flags = ", ".join("--" + d.replace("_", "-") for d in given[name])
            raise ArenaError(f"{flags} is for --executor {name}, not --executor {executor}")
    return executor, given.get(executor, {})


def cmd_board(args: argparse.Namespace) -> int:
    from pathlib import Path

    from arena.plugins import get_registry
    from arena.store import Store

    if not Path(args.db).exists():
        raise ArenaError(f"{args.db}: no such results database")
    if args.html:
        check_output_path("--html", args.html)
    ratings = [get_registry().rating_system(name) for name in args.rating]
    store = Store(args.db, readonly=True)  # reads a database on a read-only medium too
    try:
        _show_board(store, as_json=args.json, html_path=args.html, ratings=ratings)
    finally:
        store.close()
    return 0


def _show_board(store: Any, as_json: bool, html_path: str | None, ratings: Sequence[RatingSystem] = ()) -> None:
    from pathlib import Path

    from arena import board

    data = board.board_data(store, ratings)
    if as_json:
        print(json.dumps(board.json_rows(data), indent=1))
    else:
        print(board.text(data))
    if html_path:
        try:
            files = board.write_match_files(store, html_path) if data["tournament"] is not None else None
            Path(html_path).write_text(board.html_page(data, files), encoding="utf-8")
        except OSError as exc:
            raise ArenaError(f"--html {html_path}: cannot write it: {exc.strerror}") from None
        if not as_json:
            print(f"board written to {html_path}" + (f" (replays and records of the matches in {Path(html_path).parent / files})" if files else ""))


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
    from arena.plugins import get_registry

    try:
        record = records.load(args.record)
        replayed = records.replay(record, get_registry().game)
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
