"""The seat kind ``pybot:DIR#module:attr``: a Python bot installed in a directory of its own (a
ladder version's ``site/``), always run in a bubblewrap sandbox, whatever the match's isolation.

Its sandbox shows the arena's runtime and DIR's top-level entries (its packages, modules and
metadata) as the bot's site, nothing else of the arena's environment: the bot's code is never
imported by the arena's process.
"""

from __future__ import annotations

import os
import re

from arena.errors import ArenaError
from arena.players.hosts import Host
from arena.players.seats import SeatKind, SeatRequest
from arena.plugins import hookimpl

PREFIX = "pybot:"
_FACTORY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_SKIPPED = ("__pycache__", "bin")  # pip --target's scripts and caches: never imported


def seat_name(directory: str, factory: str) -> str:
    return f"{PREFIX}{os.path.abspath(directory)}#{factory}"


def parse(name: str) -> tuple[str, str]:
    """(directory, factory path) of a ``pybot:`` seat name; ArenaError saying what is wrong."""
    body = name[len(PREFIX):] if name.startswith(PREFIX) else name
    directory, hash_sign, factory = body.rpartition("#")
    if not hash_sign:
        raise ArenaError(f"{name!r}: a pybot: seat is pybot:DIR#module:attr (no '#' between the directory and "
                         "the factory)")
    if not _FACTORY.match(factory):
        raise ArenaError(f"{name!r}: the factory {factory!r} is not a path module:attr (e.g. my_bot.plugin:make)")
    if not os.path.isabs(directory):
        raise ArenaError(f"{name!r}: the directory {directory!r} is not an absolute path")
    if not os.path.isdir(directory):
        raise ArenaError(f"{name!r}: no such directory {directory!r}")
    return directory, factory


def site_entries(directory: str) -> dict[str, str]:
    """{name inside the sandbox's site: path outside} of DIR's top-level entries."""
    return {entry.name: entry.path for entry in sorted(os.scandir(directory), key=lambda e: e.name)
            if entry.name not in _SKIPPED and not entry.name.endswith(".pth") and not entry.is_symlink()}


def check(name: str) -> None:
    parse(name)
    from arena.players.sandbox import check_available

    check_available()


def make_host(request: SeatRequest) -> Host:
    from arena.players.limits import Limits
    from arena.players.sandboxed import SandboxHost

    directory, factory = parse(request.name)
    return SandboxHost(factory, request.settings, request.seed, limits=Limits.from_dict(request.limits),
                       log_path=request.log_path, site=site_entries(directory))


@hookimpl
def arena_register_seat_kinds() -> list[SeatKind]:
    return [SeatKind("pybot", (PREFIX,), "a Python bot installed in a directory of its own (a ladder version), "
                     "always run in the sandbox", make_host, check, example="pybot:DIR#module:attr")]
