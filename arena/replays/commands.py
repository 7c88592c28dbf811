"""``arena show`` (a game record as a card player reads it, or as an HTML replay) and ``arena
matches`` (a tournament database's games: list, export, print one), registered through the plugin
hook like every command."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from arena import records
from arena.commandline import Command
from arena.errors import ArenaError
from arena.plugins import hookimpl

if TYPE_CHECKING:
    from arena.plugins.manager import Registry


def _add_show(p: argparse.ArgumentParser, registry: "Registry") -> None:
    p.add_argument("record", help="a game record (JSON), e.g. from `arena play --record` or `arena matches --export`")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML replay viewer to FILE")
    p.add_argument("--json", action="store_true", help="print each hand as JSON (dealt hands, auction, tricks, result)")


def _add_matches(p: argparse.ArgumentParser, registry: "Registry") -> None:
    p.add_argument("--db", required=True, help="a tournament's results database")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.add_argument("--export", metavar="FOLDER", help="write each finished match's record to FOLDER/match-NNNN.json")
    p.add_argument("--index", type=int, metavar="N", help="print the record of match N (JSON)")


@hookimpl
def arena_register_commands() -> list[Command]:
    return [
        Command("show", "print a game record as a card player reads it, or write its HTML replay", _add_show, cmd_show),
        Command("matches", "list a tournament database's games, export their records or print one", _add_matches,
                cmd_matches),
    ]


def cmd_show(args: argparse.Namespace) -> int:
    from arena.replays import text, viewer
    from arena.replays.walk import walk

    record = records.load(args.record)
    walked = walk(record, frames=bool(args.html))
    if args.json:
        print(json.dumps({"game": walked.game.name, "seats": record.get("seats"),
                          "hands": [h.as_dict() for h in walked.hands], "result": walked.result}, indent=1))
    else:
        print(text.text(walked))
    if args.html:
        Path(args.html).write_text(viewer.html_page(walked), encoding="utf-8")
        if not args.json:
            print(f"replay written to {args.html}")
    return 0


def _open(db: str):
    from arena.store import Store

    if not Path(db).exists():
        raise ArenaError(f"{db}: no such results database")
    return Store(db)


def cmd_matches(args: argparse.Namespace) -> int:
    from arena.replays import listing

    store = _open(args.db)
    try:
        if args.index is not None:
            record = store.record(args.index)
            if record is None:
                done, total = store.counts()
                raise ArenaError(f"{args.db}: match {args.index} has no record "
                                 f"({'not finished yet' if 0 <= args.index < total else f'the matches are 0 to {total - 1}'})")
            print(records.dumps(record, file=True), end="")
            return 0
        rows = listing.match_rows(store)
        if args.export:
            folder = Path(args.export)
            folder.mkdir(parents=True, exist_ok=True)
            for row in rows:
                records.dump(store.record(row["index"]), folder / f"{listing.file_stem(row['index'])}.json")
        if args.json:
            print(json.dumps(rows, indent=1))
        else:
            info = store.tournament()
            done, total = store.counts()
            if info is not None:
                print(f"{info['name']} ({info['config']['game']}): {done} of {total} matches finished")
            if rows:
                print(listing.table(rows))
            if args.export:
                print(f"{len(rows)} records written to {args.export}")
    finally:
        store.close()
    return 0
