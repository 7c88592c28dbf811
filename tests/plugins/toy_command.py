"""A toy command, in one file: ``arena extensions`` lists every registered extension by axis."""

from __future__ import annotations

from arena.commandline import Command
from arena.plugins import hookimpl


def _run(args):
    from arena.plugins import get_registry

    registry = get_registry()
    for axis in ("games", "bots", "seat_kinds", "isolations", "executors", "rating_systems", "commands"):
        names = sorted(getattr(registry, axis))
        if args.axis in (None, axis):
            print(f"{axis}: {', '.join(names)}")
    return 0


def _arguments(parser, registry):
    parser.add_argument("--axis", help="only this axis")


@hookimpl
def arena_register_commands():
    return [Command("extensions", "list the registered extensions", _arguments, _run)]
