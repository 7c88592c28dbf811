"""``arena match A B --game G``: A against B on duplicate deal sets until a sequential probability
ratio test decides (or the budget of deal sets runs out). See docs/comparing.md."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.commandline import Command, add_clock_arguments, clock_from
from arena.errors import ArenaError
from arena.options import parse_assignments
from arena.plugins import hookimpl

if TYPE_CHECKING:
    from arena.plugins.manager import Registry


DESCRIPTION = ("Play A against B on duplicate deal sets until a sequential probability ratio test decides "
               "between H0 and H1 (or the budget of deal sets runs out), storing every match; run the same "
               "command again to resume. See docs/comparing.md.")


def _add_match(p: argparse.ArgumentParser, registry: "Registry") -> None:
    from arena.players.seats import describe_seats

    p.add_argument("a", metavar="A", help=f"the first bot, the one tested: {describe_seats(registry)}")
    p.add_argument("b", metavar="B", help="the bot it is compared with, of the same kinds")
    p.add_argument("--game", required=True, help="an installed game (see `arena games`)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a game option (repeatable), e.g. players=3")
    p.add_argument("--names", metavar="NAME_A,NAME_B",
                   help="the two bots' names in the results (default: A and B, with -a and -b added when they are the same)")
    p.add_argument("--setting", action="append", default=[], metavar="A.KEY=VALUE",
                   help="a setting passed to bot A's or bot B's factory (repeatable); VALUE is read as JSON "
                        "when it is JSON (3, true, \"x\"), else as text")
    p.add_argument("--seed", default=None,
                   help="a public seed of every deal and every bot's seed, for the same deals in every fresh series "
                        "(whoever knows it knows every card); default: a secret made when the series starts, kept "
                        "in its database")
    p.add_argument("--isolation", choices=tuple(registry.isolations), default="process",
                   help="how installed bots are hosted (default process, as tournaments)")
    test = p.add_argument_group("the sequential test (logistic Elo of A's expected score per deal set)")
    test.add_argument("--elo0", type=float, default=0.0, help="H0: A is this much stronger (default 0)")
    test.add_argument("--elo1", type=float, default=20.0, help="H1: A is this much stronger (default 20)")
    test.add_argument("--alpha", type=float, default=0.05, help="the false-positive rate: accepting H1 when H0 holds (default 0.05)")
    test.add_argument("--beta", type=float, default=0.05, help="the false-negative rate: accepting H0 when H1 holds (default 0.05)")
    test.add_argument("--bins", choices=("margin", "matches"), default="margin",
                      help="margin: a deal set is a win, draw or loss for A by the sign of its duplicate margin "
                           "(default); matches: A's points from its place against B's in each match of the deal "
                           "set (the pentanomial with two sides)")
    test.add_argument("--max-deal-sets", type=int, default=1000, metavar="N",
                      help="the budget: stop without a verdict after N deal sets (default 1000)")
    clock = p.add_argument_group("time control and faults (as arena play)")
    add_clock_arguments(clock)
    run = p.add_argument_group("running (as arena run)")
    run.add_argument("--db", help="the results database (default results/match-GAME-A-B.db); a series resumes from it")
    run.add_argument("--fresh", action="store_true", help="delete the database's earlier results first")
    run.add_argument("--executor", choices=tuple(registry.executors), default=None,
                     help="; ".join(f"{e.name}: {e.summary}" for e in registry.executors.values()))
    for kind in registry.executors.values():
        for flags, kwargs in kind.arguments:
            run.add_argument(*flags, **kwargs)
    run.add_argument("--workers", type=int, help="matches at once (default one per core)")
    run.add_argument("--batch", type=int, metavar="DEAL_SETS",
                     help="deal sets played between two looks at the test (default twice the workers, at least 2)")
    run.add_argument("--quiet", action="store_true", help="no progress lines")
    run.add_argument("--json", action="store_true", help="print the final state as JSON (progress lines go to stderr)")


@hookimpl
def arena_register_commands() -> list[Command]:
    return [Command("match", "play A against B on duplicate deal sets until a sequential test decides", _add_match,
                    cmd_match, description=DESCRIPTION)]


def _finite(value: Any) -> Any:
    """JSON has no infinity: an unbounded Elo (a score of 0 or 1) is written as null."""
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def build_series(args: argparse.Namespace, registry: "Registry"):
    """The :class:`Series` the arguments describe, checked against the installed plugins."""
    from arena.comparison.series import Series
    from arena.comparison.sprt import SPRT
    from arena.tournaments.config import BotEntry, TournamentConfig, check_against

    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != 2 or not all(names) or names[0] == names[1]:
            raise ArenaError(f"--names {args.names!r}: expected two different names, NAME_A,NAME_B")
    elif args.a == args.b:
        names = [f"{args.a}-a", f"{args.b}-b"]
    else:
        names = [args.a, args.b]
    settings: list[dict[str, Any]] = [{}, {}]
    for item in args.setting:
        match = re.fullmatch(r"\s*([AaBb])\.([^=\s]+)\s*=(.*)", item)
        if not match:
            raise ArenaError(f"--setting {item!r}: expected A.KEY=VALUE or B.KEY=VALUE")
        settings[0 if match.group(1) in "Aa" else 1][match.group(2)] = _value(match.group(3).strip())
    if args.max_deal_sets < 1:
        raise ArenaError(f"--max-deal-sets must be at least 1, not {args.max_deal_sets}")
    if args.batch is not None and args.batch < 1:
        raise ArenaError(f"--batch must be at least 1 deal set, not {args.batch}")
    time_control, policy = clock_from(args)
    seed = args.seed
    if seed is not None and seed.lstrip("-").isdigit():
        seed = int(seed)
    config = TournamentConfig(
        name=f"match {names[0]} vs {names[1]}",
        game=args.game,
        options=parse_assignments(args.option),
        bots=(BotEntry(names[0], args.a, settings[0]), BotEntry(names[1], args.b, settings[1])),
        format="round_robin",
        seed=seed,
        isolation=args.isolation,
        time_control=time_control,
        policy=policy,
    )

    def fail(key: str, message: str) -> ArenaError:
        flag = {"[tournament] game": "--game", "[options]": "--option", "bots[0].bot": "A", "bots[1].bot": "B"}
        return ArenaError(f"{flag.get(key, key)}: {message}")

    check_against(config, registry, fail)
    return Series(config, SPRT(args.elo0, args.elo1, args.alpha, args.beta), args.bins, args.max_deal_sets)


def _stored_matches(db: str) -> int:
    from arena.store import Store

    store = Store(db)
    try:
        return store.counts()[0]
    finally:
        store.close()


def cmd_match(args: argparse.Namespace) -> int:
    from arena.cli import _executor_choice
    from arena.comparison import series as series_module
    from arena.plugins import get_registry
    from arena.tournaments import runner

    registry = get_registry()
    series = build_series(args, registry)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"match-{args.game}-{series.a}-{series.b}")
    db = args.db or str(Path("results") / f"{safe}.db")
    executor, options = _executor_choice(args, registry)
    out = sys.stderr if args.json else sys.stdout
    test = series.test
    if not args.quiet:
        print(f"{series.a} against {series.b} at {args.game}: H0 Elo {test.elo0:+g}, H1 Elo {test.elo1:+g}, "
              f"alpha {test.alpha:g}, beta {test.beta:g}, {series.bins} bins, at most {series.max_deal_sets} deal sets",
              file=out, flush=True)
    report = None if args.quiet else (lambda line: print(line, file=out, flush=True))
    try:
        with runner.interrupts_as_keyboard():  # SIGTERM stops it as Ctrl-C does
            state = series_module.run(series, registry, db, executor=executor, workers=args.workers,
                                      batch=args.batch, fresh=args.fresh, executor_options=options, report=report)
    except KeyboardInterrupt:
        print(f"arena match: interrupted: {_stored_matches(db)} matches are stored in {db}; resume with the same "
              "command", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(_finite({**state, "db": db}), indent=1))
        return 0
    print(series_module.verdict_line(state))
    if state["not_counted"]:
        print(f"{state['not_counted']} more deal sets of the last batch are stored but not counted")
    print(f"results: {db} (arena board --db {db})")
    return 0
