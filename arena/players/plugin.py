"""The bundled seat kinds (``grpc://``, ``grpcs://``, ``cmd:``) and isolation levels
(``inprocess``, ``process``), registered through the plugin hooks like a third party's.

gRPC is imported only when a gRPC seat is checked or made.
"""

from __future__ import annotations

from typing import Any

from arena.errors import ArenaError
from arena.players.base import BotSpec
from arena.players.hosts import BotCrash, Host, InProcessHost
from arena.players.seats import Isolation, SeatKind, SeatRequest
from arena.kinds import hookimpl

COMMAND_PREFIX = "cmd:"


def _grpc_host(request: SeatRequest) -> Host:
    from arena.players.remote import GrpcHost

    return GrpcHost(request.name, seed=request.seed, settings=request.settings)


def _check_address(name: str) -> None:
    from arena.players.remote import parse_address

    parse_address(name)


def _command_host(request: SeatRequest) -> Host:
    command = request.name[len(COMMAND_PREFIX):]
    if request.isolation == "sandbox":  # a launched program is sandboxed like a plugin bot
        from arena.players.limits import Limits
        from arena.players.sandboxed import SandboxCommandHost

        return SandboxCommandHost(command, seed=request.seed, settings=request.settings,
                                  limits=Limits.from_dict(request.limits), log_path=request.log_path)
    from arena.players.command import CommandHost

    return CommandHost(command, seed=request.seed, settings=request.settings, log_path=request.log_path)


def _check_command(name: str) -> None:
    from arena.players.remote import command_argv

    command_argv(name[len(COMMAND_PREFIX):], 0)


def _check_command_isolation(name: str, isolation: str) -> None:
    """A launched program is sandboxed too at ``sandbox``: bubblewrap must be there, and the program
    serves on a Unix socket (it has no network)."""
    if isolation != "sandbox":
        return
    from arena.players.sandbox import check_available

    if "{port}" in name:
        raise ArenaError(f"{name!r}: a sandboxed command has no network, so no {{port}}: it serves on the "
                         "Unix socket in $ARENA_BOT_SOCKET (write {socket} in the command)")
    check_available()


def _remote_is_own(name: str, registry: Any) -> bool:
    return True  # served elsewhere: the arena hosts nothing of it, at any level


def _command_is_own(name: str, registry: Any) -> bool:
    from arena.players.trust import own_command

    return own_command(name[len(COMMAND_PREFIX):], registry)


def _in_process(spec: BotSpec, request: SeatRequest) -> Host:
    try:
        player = spec.factory(dict(request.settings), request.seed)
    except Exception as exc:  # the bot's own code, run in the arena's process: the bot's crash, not the arena's
        raise BotCrash(f"the bot could not be created: {type(exc).__name__}: {exc}") from None
    return InProcessHost(player)


def _own_process(spec: BotSpec, request: SeatRequest) -> Host:
    from arena.players.isolated import ProcessHost

    return ProcessHost(spec.factory, request.settings, request.seed, log_path=request.log_path)


def _sandboxed(spec: BotSpec, request: SeatRequest) -> Host:
    from arena.players.limits import Limits
    from arena.players.sandboxed import SandboxHost

    return SandboxHost(spec.factory, request.settings, request.seed, limits=Limits.from_dict(request.limits),
                       log_path=request.log_path, other_bot_modules=request.other_bot_modules)


def _check_sandbox(spec: BotSpec) -> None:
    from arena.players.sandbox import check_available

    _importable(spec)
    check_available()


def _importable(spec: BotSpec) -> None:
    """A bot process imports the factory by its module and name: a lambda, a nested function or a
    bound method cannot be found that way."""
    from arena.players.isolated import factory_path
    from arena.players.pipe import load_factory

    path = factory_path(spec.factory)
    try:
        loaded = load_factory(path)
    except Exception:
        loaded = None
    if loaded is not spec.factory:
        raise ArenaError(f"bot {spec.name!r}: a bot process cannot import its factory {path} (a lambda, a nested "
                         "function or a bound method); register a module-level function or class, or use "
                         "isolation = \"inprocess\"")


@hookimpl
def arena_register_seat_kinds() -> list[SeatKind]:
    return [
        SeatKind("grpc", ("grpc://", "grpcs://"), "a bot server reached over gRPC (grpcs: with TLS)",
                 _grpc_host, _check_address, example="grpc://HOST:PORT", own=_remote_is_own),
        SeatKind("cmd", (COMMAND_PREFIX,), "a program the arena launches for the match; it serves gRPC "
                 "on the port in $ARENA_BOT_PORT", _command_host, _check_command, example="cmd:COMMAND",
                 own=_command_is_own, check_isolation=_check_command_isolation),
    ]


@hookimpl
def arena_register_isolations() -> list[Isolation]:
    return [
        Isolation("inprocess", "the bot runs in the arena's process (fastest; trusted bots only)", _in_process),
        Isolation("process", "each bot in a process of its own, replaced after a crash or a timeout", _own_process,
                  _importable),
        Isolation("sandbox", "each bot (and each cmd: program) in a bubblewrap sandbox of its own, fresh each match: "
                  "no network, no arena files, resource limits (untrusted bots)", _sandboxed, _check_sandbox),
    ]
