"""``arena register``, ``arena submit``, ``arena retire`` and ``arena logs``: an author's side of a ladder
(arena/ladder/client.py talks to its API). docs/submitting.md."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from arena.commandline import Command
from arena.plugins import hookimpl

if TYPE_CHECKING:
    from arena.plugins.manager import Registry


def _server(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", required=True, metavar="URL", help="the ladder, e.g. http://127.0.0.1:8000")


def _token(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--token", help="your token (default: the file `arena register --save` wrote)")
    group.add_argument("--token-file", metavar="FILE", help="read the token from FILE")


def _add_register(p: argparse.ArgumentParser, registry: "Registry") -> None:
    _server(p)
    p.add_argument("name", metavar="NAME", help="your author name: 2-32 of a-z, 0-9, _ and -")
    p.add_argument("--save", action="store_true",
                   help="write the token to ~/.config/trick-arena/token-HOST_PORT (mode 600), where submit finds it")
    p.add_argument("--token-file", metavar="FILE", help="write the token to FILE (mode 600) instead")


def cmd_register(args: argparse.Namespace) -> int:
    from pathlib import Path

    from arena.ladder import client

    answer = client.register(args.server, args.name)
    token = str(answer["token"])
    print(token, flush=True)
    if answer.get("endpoint_key"):  # what a grpc:// endpoint of this author answers (ARENA_OWNER_KEY)
        print(f"endpoint key: {answer['endpoint_key']}", flush=True)
    if args.save or args.token_file:
        path = Path(args.token_file) if args.token_file else client.token_path(args.server)
        client.save_token(path, token)
        print(f"token saved to {path}", flush=True)
    return 0


def _add_submit(p: argparse.ArgumentParser, registry: "Registry") -> None:
    _server(p)
    _token(p)
    p.add_argument("name", metavar="NAME", help="the bot's name (new: it becomes yours; yours: a new version)")
    kind = p.add_mutually_exclusive_group(required=True)
    kind.add_argument("--python", metavar="FILE", help="a wheel (.whl), an sdist (.tar.gz) or a module (.py with make)")
    kind.add_argument("--program", metavar="DIR_OR_ARCHIVE", help="a program's files: a directory, .tar.gz or .zip")
    kind.add_argument("--endpoint", metavar="grpc://HOST:PORT", help="a bot server you run (grpc:// or grpcs://)")
    p.add_argument("--bot", metavar="B", help="with --python: which of the package's bots (when it registers several)")
    p.add_argument("--command", metavar="CMD", help="with --program: how to start it, e.g. \"python3 bot.py {socket}\"")
    p.add_argument("--games", required=True, metavar="G1,G2", help="the games it plays (comma-separated)")
    p.add_argument("--wait", action="store_true", help="wait for the validation; exit 1 if the version is refused")
    p.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS",
                   help="with --wait: give up after this long (default 600)")


def cmd_submit(args: argparse.Namespace) -> int:
    from arena.ladder import client

    if args.bot and not args.python:
        raise client.LadderClientError("--bot goes with --python")
    if args.command and not args.program:
        raise client.LadderClientError("--command goes with --program")
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    if not games:
        raise client.LadderClientError("--games names no game")
    token = client.read_token(args.server, args.token, args.token_file)
    body = client.submission(args.name, games, python=args.python, bot=args.bot, program=args.program,
                             command=args.command, endpoint=args.endpoint)
    version = client.submit(args.server, token, body)
    print(f"{version['bot']} version {version['number']} (id {version['id']}): {version['status']}"
          + (f": {version['reason']}" if version.get("reason") else ""), flush=True)
    if version["status"] == "refused":
        return 1
    if not args.wait:
        return 0
    version = client.wait(args.server, int(version["id"]), args.timeout)
    if version["status"] == "refused":
        print(f"refused: {version['reason']}", flush=True)
        return 1
    print(version["status"], flush=True)
    return 0


def _add_retire(p: argparse.ArgumentParser, registry: "Registry") -> None:
    _server(p)
    _token(p)
    p.add_argument("name", metavar="NAME", help="your bot: every version of it stops playing (its history stays)")


def cmd_retire(args: argparse.Namespace) -> int:
    from arena.ladder import client

    token = client.read_token(args.server, args.token, args.token_file)
    answer = client.retire(args.server, token, args.name)
    numbers = ", ".join(str(v["number"]) for v in answer.get("retired", ())) or "none was playing"
    print(f"{args.name} retired (versions: {numbers})", flush=True)
    return 0


def _add_logs(p: argparse.ArgumentParser, registry: "Registry") -> None:
    _server(p)
    _token(p)
    p.add_argument("name", metavar="BOT", help="your bot")
    p.add_argument("match", type=int, metavar="MATCH", help="the match's id (on the bot's page, in its replay's address)")
    p.add_argument("--seat", type=int, default=None, metavar="S", help="only the log of seat S (default: each seat it held)")


def cmd_logs(args: argparse.Namespace) -> int:
    import sys

    from arena.ladder import client

    token = client.read_token(args.server, args.token, args.token_file)
    answer = client.logs(args.server, token, args.name, args.match)
    shown = [log for log in answer.get("logs", ()) if args.seat is None or log["seat"] == args.seat]
    if not shown:
        raise client.LadderClientError(f"{args.name} held no seat {args.seat} in match {args.match}")
    for log in shown:
        kept = f"{log['size']} bytes" if log["kept"] else "nothing kept: it printed nothing, or the log budget dropped it"
        print(f"== {args.name} v{log['version']}, match {answer['match']}, seat {log['seat']}: {kept}", flush=True)
        if log["text"]:
            sys.stdout.write(log["text"] if log["text"].endswith("\n") else log["text"] + "\n")
    sys.stdout.flush()
    return 0


@hookimpl
def arena_register_commands() -> list[Command]:
    return [
        Command("register", "register an author name on a ladder and print its token", _add_register, cmd_register,
                description="Register an author name on a ladder (arena ladder); the token it prints is the "
                "author: keep it (--save). See docs/submitting.md."),
        Command("submit", "submit a bot (a new version) to a ladder", _add_submit, cmd_submit,
                description="Submit a Python bot, a program or a gRPC endpoint as a new version of your bot on a "
                "ladder; it plays once its validation (a smoke match per game) passes. See docs/submitting.md."),
        Command("retire", "retire your bot from a ladder", _add_retire, cmd_retire,
                description="Retire your bot: its versions stop playing; their history stays on the board."),
        Command("logs", "print your bot's logs of one of its ladder matches", _add_logs, cmd_logs,
                description="Print what your bot wrote (its standard output and error) in one of its matches on a "
                "ladder: yours only, with your token. See docs/submitting.md."),
    ]
