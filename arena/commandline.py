"""The ``arena`` command: its subcommands come from the registry (``arena_register_commands``).

The bundled commands (``arena.cli``, ``arena.bench.cli``, ``arena.players.serve_command``) are
plugins like a third party's: a new command is one module with one :class:`Command` and one entry
point. This module builds the parser from them and turns errors into one line and an exit status.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from arena.errors import ArenaError

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


@dataclass(frozen=True)
class Command:
    """An ``arena`` subcommand as a plugin registers it.

    ``add_arguments(parser, registry)`` declares its arguments; ``run(args)`` does the work and
    returns the exit status. :class:`ArenaError` raised by ``run`` is printed as one line (exit 2).
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser, "Registry"], None]
    run: Callable[[argparse.Namespace], int]
    description: str = ""


def build_parser(registry: "Registry") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arena", description="Trick Arena: bot tournaments for trick-taking card games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in sorted(registry.commands.values(), key=lambda c: c.name):
        add_command(sub, command, registry)
    return parser


def add_command(subparsers: Any, command: Command, registry: "Registry") -> argparse.ArgumentParser:
    p = subparsers.add_parser(command.name, help=command.help, description=command.description or None)
    command.add_arguments(p, registry)
    p.set_defaults(run=command.run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from arena.plugins import get_registry

    try:
        registry = get_registry()
    except ArenaError as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    args = build_parser(registry).parse_args(argv)
    return _run(args, "arena")


def run_one_command(prog: str, name: str, argv: Sequence[str] | None = None) -> int:
    """One registered ``arena`` command run on its own (``python -m arena.bench``,
    ``python -m arena.players.serve``), with the same arguments."""
    from arena.plugins import get_registry

    registry = get_registry()
    parser = argparse.ArgumentParser(prog=prog)
    add_command(parser.add_subparsers(dest="command"), registry.commands[name], registry)
    args = parser.parse_args([name, *(sys.argv[1:] if argv is None else argv)])
    return _run(args, f"arena {name}")


def _run(args: argparse.Namespace, who: str) -> int:
    try:
        return args.run(args)
    except ArenaError as exc:
        print(f"{who}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{who}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (e.g. `| head`): not an error of ours
        sys.stderr.close()
        return EXIT_OK
