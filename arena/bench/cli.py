"""The ``bench`` subcommand: run the groups, print a table (or ``--json``)."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from typing import TYPE_CHECKING, Any, Sequence

from arena.bench.common import Figures, Settings, machine
from arena.commandline import Command, run_one_command
from arena.plugins import hookimpl

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

GROUPS = ("engines", "fastpath", "search", "solver", "envs", "referee", "isolated", "grpc", "sandbox", "tournaments", "web", "ladder", "peer")
_MODULES = {"grpc": "remote"}  # group -> module of arena.bench, where the names differ


def run_bench(settings: Settings, groups: Sequence[str] = GROUPS, registry: "Registry | None" = None,
              progress: Any = None) -> dict[str, Any]:
    """Run ``groups`` and return the report: machine, settings, figures (one key each), skipped."""
    if registry is None:
        from arena.plugins import get_registry

        registry = get_registry()
    figures = Figures()
    started = time.perf_counter()
    for group in groups:
        if group not in GROUPS:
            raise ValueError(f"unknown group {group!r}; groups: {', '.join(GROUPS)}")
        if progress is not None:
            progress(f"arena bench: {group} ...")
        try:
            module = importlib.import_module(f"arena.bench.{_MODULES.get(group, group)}")
            module.run(registry, settings, figures)
        except Exception as exc:  # noqa: BLE001 - one broken group must not lose the others' figures
            figures.failed[group] = _cause(exc)
            if progress is not None:
                progress(f"arena bench: {group} FAILED: {figures.failed[group]}")
    return {
        "machine": machine(),
        "settings": {"seconds": settings.seconds, "repeat": settings.repeat, "quick": settings.quick,
                     "game": settings.game, "workers": settings.cores,
                     "tournament_matches": settings.tournament_matches,
                     "speedup_matches": settings.speedup_matches},
        "elapsed_s": round(time.perf_counter() - started, 1),
        "figures": figures.as_dict(),
        "skipped": dict(figures.skipped),
        "failed": dict(figures.failed),
    }


def _cause(exc: BaseException) -> str:
    """One line: the exception and where it was raised (the innermost frame in the arena's package)."""
    import os
    import traceback

    import arena

    package = os.path.dirname(os.path.dirname(arena.__file__))
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.startswith(package + os.sep)]
    where = f" (at {os.path.relpath(frames[-1].filename, package)}:{frames[-1].lineno})" if frames else ""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}{where}" if text else f"{type(exc).__name__}{where}"


def add_bench_arguments(p: argparse.ArgumentParser, registry: "Registry | None" = None) -> None:
    """The ``bench`` command's arguments."""
    p.add_argument("--json", action="store_true", help="print the figures as JSON (one key per figure)")
    p.add_argument("--quick", action="store_true",
                   help="a few seconds in all: short runs, one repetition, no 1000-match tournament (for tests)")
    p.add_argument("--seconds", type=float, default=None, help="length of one measurement (default 1; quick 0.15)")
    p.add_argument("--repeat", type=int, default=None, help="repetitions of every figure (default 3; quick 1)")
    p.add_argument("--only", default=None, metavar="GROUPS",
                   help=f"comma-separated groups to run (default all): {', '.join(GROUPS)}")
    p.add_argument("--game", default="bid_euchre", help="the game of the isolated and gRPC figures (default bid_euchre)")
    p.add_argument("--workers", type=int, default=0, help="'one per core' for the tournament figures (default: the cores)")
    p.add_argument("--tournament-matches", type=int, default=None, metavar="N",
                   help="matches of the peak-memory tournament (default 1000; 0 skips it; quick: skipped)")


def settings_from(args: argparse.Namespace) -> Settings:
    base = Settings.quick_settings() if args.quick else Settings()
    values: dict[str, Any] = {"game": args.game, "workers": args.workers}
    if args.seconds is not None:
        values["seconds"] = args.seconds
    if args.repeat is not None:
        values["repeat"] = max(1, args.repeat)
    if args.tournament_matches is not None:
        values["tournament_matches"] = args.tournament_matches
    return Settings(**{**base.__dict__, **values})


def cmd_bench(args: argparse.Namespace) -> int:
    from arena.errors import ArenaError

    groups = [g.strip() for g in args.only.split(",") if g.strip()] if args.only else list(GROUPS)
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        raise ArenaError(f"unknown bench group {unknown[0]!r}; groups: {', '.join(GROUPS)}")
    settings = settings_from(args)
    report = run_bench(settings, groups, progress=None if args.json else _progress)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(table(report))
    return 1 if report["failed"] else 0  # every figure is printed; the exit status says a group broke


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _show(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "ratio":
        return f"{value:.2f}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def _show_against(value: float | None, unit: str, target: float | None) -> str:
    """``_show``, with more digits where its rounding would hide why a target is met or not
    (0.798 against 0.8 shows "0.798", not "0.80")."""
    shown = _show(value, unit)
    if value is None or target is None:
        return shown
    met = value >= target
    finer = ([f"{value:.{d}f}" for d in range(3, 8)] if unit == "ratio"
             else [f"{value:.{d}f}" for d in range(1, 6)] if abs(value) >= 100
             else [f"{value:.{d}g}" for d in range(4, 9)])
    for more in finer:
        if (float(shown.replace(",", "")) >= target) == met:
            break
        shown = more
    return shown


def table(report: dict[str, Any]) -> str:
    """The report as a table for people: figure, median, unit, the runs, and targets."""
    m = report["machine"]
    s = report["settings"]
    lines = [
        f"arena bench: {m.get('cpu', m['machine'])}, {m['cores']} cores, Python {m['python']}, "
        f"load {m.get('load_average', '?')}; {s['repeat']} x {s['seconds']} s per figure"
        f"{' (quick)' if s['quick'] else ''}; {report['elapsed_s']} s in all",
        f"{'figure':<52} {'median':>12}  {'unit':<14} {'target':<9} runs",
    ]
    group = None
    for key, figure in report["figures"].items():
        head = key.split(".")[0]
        if head != group:
            lines.append("")
            group = head
        target = ""
        if "target" in figure:
            target = f">= {figure['target']:g} " + ("ok" if figure["met"] else "NOT MET")
        runs = ", ".join(_show(v, figure["unit"]) for v in figure["runs"]) if len(figure["runs"]) > 1 else ""
        median = _show_against(figure["median"], figure["unit"], figure.get("target"))
        lines.append(f"{key:<52} {median:>12}  {figure['unit']:<14} {target:<9} {runs}")
    for group, why in report["skipped"].items():
        lines.append(f"\n{group}: skipped ({why})")
    for group, why in report.get("failed", {}).items():
        lines.append(f"\n{group}: FAILED, its figures are missing or partial: {why}")
    return "\n".join(lines)


BENCH = Command(
    "bench",
    "measure the engines and the arena (speed, overheads, a peer) and print a table",
    add_bench_arguments,
    cmd_bench,
    description="Measure the engines and the arena against their limits and against a peer "
    "(see docs/performance.md). Every figure is the median of --repeat runs; every ratio is taken "
    "between two figures measured side by side in the same repetition.",
)


@hookimpl
def arena_register_commands() -> list[Command]:
    return [BENCH]


def main(argv: Sequence[str] | None = None) -> int:
    return run_one_command("python -m arena.bench", "bench", argv)
