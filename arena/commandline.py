"""The ``arena`` command: its subcommands come from the registry (``arena_register_commands``).

The bundled commands (``arena.cli``, ``arena.bench.cli``, ``arena.players.serve_command``) are
plugins like a third party's: a new command is one module with one :class:`Command` and one entry
point. This module builds the parser from them and turns errors into one line and an exit status.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from typing import TYPE_CHECKING, Any, Sequence

from arena.errors import ArenaError
from arena.kinds import Command  # its home is arena.kinds; command plugins import it from here too

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def build_parser(registry: "Registry") -> argparse.ArgumentParser:
    parser = ArenaParser(prog="arena", description="Trick Arena: bot tournaments for trick-taking card games.",
                         epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in sorted(registry.commands.values(), key=lambda c: c.name):
        add_command(sub, command, registry)
    return parser


def add_command(subparsers: Any, command: Command, registry: "Registry") -> argparse.ArgumentParser:
    p = subparsers.add_parser(command.name, help=command.help, description=command.description or None)
    command.add_arguments(p, registry)
    p.set_defaults(run=command.run)
    return p


def add_clock_arguments(p: Any) -> None:
    """The time control and fault options shared by the commands that play (``play``, ``match``)."""
    from arena.referee.faults import POLICY_KINDS, Response

    responses = (Response.FORFEIT.value, Response.SUBSTITUTE.value)  # "recorded" is a log flood's alone
    p.add_argument("--per-decision", type=float, default=5.0, metavar="SECONDS", help="time limit per decision (default 5)")
    p.add_argument("--bank", type=float, default=None, metavar="SECONDS", help="a time bank per seat (optional)")
    p.add_argument("--increment", type=float, default=0.0, metavar="SECONDS", help="added to the bank after each decision")
    p.add_argument("--on-fault", choices=responses, default="forfeit",
                   help="what every fault does (default forfeit)")
    p.add_argument("--fault", action="append", default=[], metavar="KIND=RESPONSE",
                   help=f"the response to one fault kind: {', '.join(k.value for k in POLICY_KINDS)} = "
                        f"{' or '.join(responses)}")
    p.add_argument("--max-faults", type=int, default=3, help="with substitute: a side forfeits at this many faults")


def clock_from(args: argparse.Namespace) -> tuple[Any, Any]:
    """The ``TimeControl`` and ``FaultPolicy`` of :func:`add_clock_arguments`'s options."""
    from arena.options import parse_assignments
    from arena.referee import FaultPolicy, TimeControl
    from arena.referee.faults import POLICY_KINDS

    policy: dict[str, Any] = {kind.value: args.on_fault for kind in POLICY_KINDS}
    policy.update(parse_assignments(args.fault))
    policy["max_faults"] = args.max_faults
    return TimeControl(args.per_decision, args.bank, args.increment), FaultPolicy.from_dict(policy)


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
    parser = ArenaParser(prog=prog)
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
    except OSError as exc:  # a file or a medium that failed where nothing more specific caught it
        if isinstance(exc, BrokenPipeError):  # the reader went away (e.g. `| head`): not an error of ours
            sys.stderr.close()
            return EXIT_OK
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"{who}: error:{where} {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE


EXIT_CODES = """exit codes:
  0    done (for verify: the record replays)
  1    verify: the record does not replay (the error says where and why)
  2    a usage error (a misspelt command or option, a bad value) or an error the arena reports
       (a missing file, an unknown game or bot, a malformed tournament file)
  130  interrupted (Ctrl-C)"""


def version() -> str:
    """The installed package's version (its metadata), or why there is none."""
    from importlib import metadata

    try:
        return metadata.version("trick-arena")
    except metadata.PackageNotFoundError:
        return "(not installed: run pip install -e . in the checkout)"


class ArenaParser(argparse.ArgumentParser):
    """argparse with "did you mean" for a misspelt subcommand, choice or option (Python 3.11's
    argparse has none), and an unknown option reported by the subcommand it was given to."""

    def parse_known_args(self, args=None, namespace=None):
        # A subcommand's parser reports what it does not know itself, with its own usage (argparse
        # would pass it up to the top level's, which names no option of the subcommand).
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}" + self._suggest_options(extras))
        return parsed, extras

    def _suggest_options(self, extras: list[str]) -> str:
        known = [option for action in self._actions for option in action.option_strings]
        hints = []
        for extra in extras:
            given = extra.split("=", 1)[0]
            if given.startswith("-"):
                close = difflib.get_close_matches(given, known, n=1, cutoff=0.6)
                if close:
                    hints.append(f"{given}: did you mean {close[0]}?")
        return ("; " + "; ".join(hints)) if hints else ""

    def error(self, message: str):
        match = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if match:
            choices = re.findall(r"'([^']*)'", match.group(2))
            close = difflib.get_close_matches(match.group(1), choices, n=1, cutoff=0.5)
            if close:
                message += f"; did you mean {close[0]!r}?"
        super().error(message)
