"""``arena bench`` (issue: benchmarks). Benchmarks are not timed tests: these show that the suite runs
and reports every figure; nothing here asserts a speed."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena import fast
from arena.bench import GROUPS, cmd_bench
from arena.bench.cli import BENCH
from arena.commandline import add_command
from arena.plugins import get_registry
from arena.bench.cli import table
from arena.bench.engines import bundled_games

ROOT = Path(__file__).resolve().parents[1]
GAMES = bundled_games(get_registry())  # the games the bench measures

EXPECTED = [
    *(f"engines.{game}.{path}.{what}" for game in GAMES for path in ("strings", "ids")
      for what in ("hands_per_s", "decisions_per_s")),
    *(f"engines.{game}.ids_over_strings" for game in GAMES),
    *(f"engines.{game}.resample_per_s" for game in GAMES),
    *(f"search.{game}.{what}" for game in GAMES
      for what in ("heuristic_rollouts_per_s", "random_rollouts_per_s", "decisions_per_s", "match_samples_per_s")),
    *(f"search.{label}.{what}" for label in ("five_hundred_6", "fifty_six")
      for what in ("proxy_ms", "redraw_proxy_ms", "redraw_over_swap")),
    "search.five_hundred_6.match_samples_per_s",
    *(f"solver.{game}.{what}" for game in GAMES
      for what in ("last4.median_ms", "last4.p99_ms", "first_lead.finished")),
    *(f"referee.{game}.{what}" for game in GAMES for what in ("bare_decisions_per_s", "decisions_per_s", "ratio")),
    "referee.ratio",
    "isolated.pipe_round_trips_per_s", "isolated.decisions_per_s", "isolated.with_startup_decisions_per_s",
    "isolated.startup_ms", "isolated.request_bytes", "isolated.observation_bytes", "isolated.ratio",
    "grpc.raw_round_trips_per_s", "grpc.decisions_per_s", "grpc.request_bytes", "grpc.ratio",
    "tournaments.matches_per_s.workers_1", "tournaments.speedup", "tournaments.cpu_speedup_ceiling",
    "web.person_decisions_per_s", "web.actions_per_s", "web.move_response_p50_ms", "web.move_response_p99_ms",
    "ladder.matches_per_s",
    *(f"{group}.unloaded.{what}_p99_ms" for group in ("web", "ladder") for what in ("board", "move")),
    *(f"{group}.{load}.{what}_p99_{unit}" for group, load in (("web", "search_tables"), ("web", "slow_clients"),
                                                              ("ladder", "slow_installs"))
      for what in ("board", "move") for unit in ("ms", "ratio")),
]
PEER = ["peer.openspiel_euchre.games_per_s", "peer.openspiel_euchre.actions_per_s", "peer.bid_euchre.engine_hands_per_s",
        "peer.ratio", *(["peer.bid_euchre.hands_per_s", "peer.bid_euchre.actions_per_s"] if fast.available() else [])]
ENVS = [f"envs.{game}.{what}" for game in GAMES for what in ("aec_steps_per_s", "vector_steps_per_s", "vector_over_aec")]
SANDBOX = ["sandbox.startup_ms.python", "sandbox.startup_ms.cmd", "sandbox.process_startup_ms.python",
           "sandbox.process_startup_ms.cmd", "sandbox.decisions_per_s.process", "sandbox.decisions_per_s.sandbox",
           "sandbox.with_startup_decisions_per_s", "sandbox.ratio"]
FASTPATH = ["fastpath.check.positions", "fastpath.check.tricks", "fastpath.check.playouts", "fastpath.check.mismatches",
            "fastpath.check.positions_per_s", "fastpath.hands.hands", "fastpath.hands.decisions",
            "fastpath.hands.mismatches", "fastpath.heuristic.positions", "fastpath.heuristic.mismatches",
            *(f"search.{game}.python_{what}" for game in ("five_hundred", "fifty_six")
              for what in ("rollouts_per_s", "decisions_per_s")),
            *(f"fastpath.{game}.{what}" for game in GAMES
              for what in ("legal.python_per_s", "legal.fast_per_s", "legal.fast_read_per_s", "legal.fast_over_python",
                           "playout.python_per_s", "playout.fast_per_s", "playout.fast_api_per_s",
                           "playout.fast_over_python")),
            *(f"solver.{game}.last4.{what}" for game in GAMES for what in ("engine_median_ms", "fast_speedup")),
            *(f"search.{game}.fast_rollouts_per_s" for game in GAMES),
            *(f"search.{game}.solve_rollouts_per_s" for game in GAMES if game != "fifty_six"),
            *(f"search.{label}.{what}" for label in (*GAMES, "five_hundred_6")
              for what in ("play_inference_ms", "python_play_inference_ms", "play_inference_speedup"))]
TARGETS = {"referee.ratio": 0.8, "isolated.ratio": 0.5, "grpc.ratio": 0.7, "tournaments.speedup": 1.7, "peer.ratio": 1.0,
           **{f"search.{game}.fast_rollouts_per_s": 10_000 for game in GAMES}}


def _has_sandbox() -> bool:
    from arena.bench.sandbox import unavailable

    return not unavailable(get_registry())


def _has_rl() -> bool:
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        return False
    return True


def _has_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


BROKEN = "sandbox"  # the group made to fail in the run below, after it measured what it could
# `arena bench --quick --json --workers 2`, with one group (in the middle of the list) raising at its end
_WITH_A_BROKEN_GROUP = f"""
import sys
import arena.bench.{BROKEN} as group
measure = group.run
def run(*args):
    measure(*args)
    raise RuntimeError("made to fail by the test")
group.run = run
from arena.bench.cli import main
sys.exit(main(["--quick", "--json", "--workers", "2"]))
"""


@pytest.fixture(scope="module")
def bench_run():
    """One quick run of every group, as ``arena bench --quick --json`` prints it, with one group broken."""
    return subprocess.run([sys.executable, "-c", _WITH_A_BROKEN_GROUP], cwd=ROOT, capture_output=True, text=True,
                          timeout=240, env={**os.environ})


@pytest.fixture(scope="module")
def report(bench_run):
    assert bench_run.stdout.startswith("{"), bench_run.stderr[-3000:]
    return json.loads(bench_run.stdout)


def test_a_broken_group_is_reported_and_every_other_figure_still_printed(bench_run, report):
    assert bench_run.returncode == 1, bench_run.stderr[-3000:]  # the exit status says a group broke
    assert list(report["failed"]) == [BROKEN], report["failed"]
    assert report["failed"][BROKEN].startswith("RuntimeError: made to fail by the test (at ")
    assert "Traceback" not in bench_run.stderr, bench_run.stderr[-3000:]
    groups_after = GROUPS[GROUPS.index(BROKEN) + 1:]
    assert any(key.split(".")[0] == "tournaments" for key in report["figures"]) and "tournaments" in groups_after
    text = table(report)
    assert f"{BROKEN}: FAILED" in text and "made to fail by the test" in text


def test_quick_json_has_every_figure_with_its_median(report):
    figures = report["figures"]
    expected = EXPECTED + ["tournaments.matches_per_s.workers_2"] + (PEER if _has_openspiel() else []) + \
        (ENVS if _has_rl() else []) + (FASTPATH if fast.available() else []) + \
        (SANDBOX + ["ladder.submission_to_rated_s"] if _has_sandbox() else [])
    missing = [key for key in expected if key not in figures]
    assert not missing, f"missing figures: {missing}"
    for key, figure in figures.items():
        assert isinstance(figure["median"], (int, float)) and figure["median"] >= 0, key
        assert figure["runs"] and all(isinstance(v, (int, float)) for v in figure["runs"]), key
        assert figure["unit"] and figure["what"], key
    for key, target in TARGETS.items():
        if key in figures:
            assert figures[key]["target"] == target and isinstance(figures[key]["met"], bool)
    if not _has_openspiel():
        assert "peer" in report["skipped"]
    if not fast.available():  # no compiler at install time: skipped, with the reason
        assert "fastpath" in report["skipped"]
    else:
        assert figures["fastpath.check.mismatches"]["median"] == 0, figures["fastpath.check.mismatches"]["what"]
        assert figures["fastpath.hands.mismatches"]["median"] == 0, figures["fastpath.hands.mismatches"]["what"]
        assert figures["fastpath.heuristic.mismatches"]["median"] == 0, figures["fastpath.heuristic.mismatches"]["what"]
    if not _has_rl():  # the rl extra missing: skipped, with the reason
        assert "envs" in report["skipped"]
    if not _has_sandbox():  # bubblewrap missing: skipped, with the reason (which names the package)
        assert "sandbox" in report["skipped"]
    # quick mode skips the thousand-match tournament
    assert "tournaments.peak_memory_mb" not in figures
    assert report["settings"]["quick"] and report["machine"]["cores"]


def test_the_table_shows_every_figure(report):
    text = table(report)
    for key in report["figures"]:
        assert key in text
    assert "target" in text


def test_the_subcommand_parses_and_refuses_an_unknown_group(capsys):
    parser = argparse.ArgumentParser(prog="arena")
    assert get_registry().commands["bench"] is BENCH  # registered through its entry point
    add_command(parser.add_subparsers(dest="command"), BENCH, get_registry())
    args = parser.parse_args(["bench", "--quick", "--json", "--only", "engines", "--seconds", "0.01"])
    assert args.run is cmd_bench and args.quick and args.json
    from arena.errors import ArenaError

    with pytest.raises(ArenaError, match="unknown bench group"):
        cmd_bench(parser.parse_args(["bench", "--only", "nonsense"]))
    assert set(GROUPS) == {"engines", "fastpath", "search", "solver", "envs", "referee", "isolated", "grpc", "sandbox", "tournaments", "web", "ladder",
                           "peer"}


def test_a_figure_near_its_target_shows_enough_digits_to_see_why_it_is_not_met():
    figures = {
        "isolated.speedup": {"median": 0.798, "unit": "ratio", "runs": [0.798], "target": 0.8, "met": False},
        "isolated.other": {"median": 0.8, "unit": "ratio", "runs": [0.8], "target": 0.8, "met": True},
        "referee.rate": {"median": 99.96, "unit": "decisions/s", "runs": [99.96], "target": 100, "met": False},
    }
    report = {"machine": {"machine": "x86_64", "cores": 2, "python": "3.11"}, "elapsed_s": 1,
              "settings": {"repeat": 1, "seconds": 1, "quick": True}, "figures": figures, "skipped": {},
              "failed": {}}
    lines = {line.split()[0]: line.split() for line in table(report).splitlines()[2:] if line.strip()}
    assert lines["isolated.speedup"][1:2] == ["0.798"] and "NOT MET" in " ".join(lines["isolated.speedup"])
    assert lines["isolated.other"][1:2] == ["0.80"]  # met: the usual two decimals
    assert lines["referee.rate"][1:2] == ["99.96"]  # not "100"
