"""Bots in folders of their own, each always run in a bubblewrap sandbox, whatever the match's
isolation (the ladder seats every submitted version this way; anyone may):

* ``pybot:DIR#module:attr``: a Python bot installed in a directory of its own (a ladder version's
  ``site/``). Its sandbox shows the arena's runtime and DIR's top-level entries (its packages,
  modules and metadata) as the bot's site, nothing else of the arena's environment: the bot's
  code is never imported by the arena's process.
* ``program:DIR#COMMAND``: a program (a ladder version's ``files/``) serving gRPC on its Unix
  socket. Its sandbox shows DIR, read-only, and nothing else of the host's files (the system's
  /usr, and the arena's Python and runtime when COMMAND runs it); COMMAND's words name nothing the
  sandbox shows (arena.players.sandboxed._own_view).
"""

from __future__ import annotations

import os
import re

from arena.errors import ArenaError
from arena.kinds import SeatKind, SeatRequest, hookimpl
from arena.players.hosts import Host

PREFIX = "pybot:"
PROGRAM_PREFIX = "program:"
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


def program_seat_name(directory: str, command: str) -> str:
    return f"{PROGRAM_PREFIX}{os.path.realpath(directory)}#{command}"


def parse_program(name: str) -> tuple[str, str]:
    """(directory, command) of a ``program:`` seat name; ArenaError saying what is wrong."""
    body = name[len(PROGRAM_PREFIX):] if name.startswith(PROGRAM_PREFIX) else name
    directory, hash_sign, command = body.partition("#")
    if not hash_sign or not command.strip():
        raise ArenaError(f"{name!r}: a program: seat is program:DIR#COMMAND (no '#' and command after the directory)")
    if not os.path.isabs(directory) or not os.path.isdir(directory):
        raise ArenaError(f"{name!r}: the directory {directory!r} is not an absolute path of a directory")
    return directory, command


def check_program(name: str) -> None:
    parse_program(name)
    from arena.players.sandbox import check_available

    check_available()


def make_program_host(request: SeatRequest) -> Host:
    from arena.players.limits import Limits
    from arena.players.sandboxed import SandboxCommandHost

    directory, command = parse_program(request.name)
    return SandboxCommandHost(command, seed=request.seed, settings=request.settings,
                              limits=Limits.from_dict(request.limits), log_path=request.log_path, own=directory)


@hookimpl
def arena_register_seat_kinds() -> list[SeatKind]:
    return [SeatKind("pybot", (PREFIX,), "a Python bot installed in a directory of its own (a ladder version), "
                     "always run in the sandbox", make_host, check, example="pybot:DIR#module:attr"),
            SeatKind("program", (PROGRAM_PREFIX,), "a program confined to its own directory (a ladder version's "
                     "files), serving gRPC on a Unix socket, always run in the sandbox", make_program_host,
                     check_program, example="program:DIR#python3 bot.py {socket}")]
