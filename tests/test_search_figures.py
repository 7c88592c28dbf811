"""scripts/search-figures: issue #20's series of `search` against `heuristic`, run pass by pass and
resumable, and the markdown rows it prints for docs/games/*.md (a tiny real run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "search-figures"


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TRICK_ARENA_PLUGINS"}  # the bundled plugins only
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300, env=env)


def test_a_tiny_series_runs_resumes_and_tabulates(tmp_path):
    out = tmp_path / "figures"
    tiny = ["--cells", "all_fours:2", "--step", "1", "--max-hands", "1", "--seconds", "0.01",
            "--per-decision", "0.5", "--out", str(out)]
    done = _run("run", "--deal-sets", "1", *tiny)
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "all_fours_2.json").read_text())["deal_sets"] == 1
    again = _run("run", "--deal-sets", "2", "--workers", "2", *tiny)  # resumes: deal set 0 is not played again
    assert again.returncode == 0, again.stderr
    state = json.loads((out / "all_fours_2.json").read_text())
    assert state["deal_sets"] == 2 and state["games"] == 4
    rows = _run("table", "--out", str(out)).stdout.splitlines()
    assert rows[0].startswith("| game and players | deal sets |")
    assert rows[2].startswith("| all_fours 2 | 2 | 4 | ")
    assert rows[2].split("|")[-2].strip().startswith("open (LLR ")  # bounds it cannot reach: never a verdict


def test_v2_against_todays_search_is_a_series_that_resumes_the_kept_ones(tmp_path):
    """--against search plays v2 against today's search with the settings of docs/search-bot.md's
    series, so that a kept database (benchmarks/search-v2) is carried on, not refused as another
    series; its table row says what the sequential test says."""
    import lzma
    import shutil

    out = tmp_path / "v2"
    out.mkdir()
    kept = Path(__file__).resolve().parents[1] / "benchmarks" / "search-v2" / "five_hundred_2.db.xz"
    with lzma.open(kept) as source, open(out / "five_hundred_2.db", "wb") as sink:
        shutil.copyfileobj(source, sink)
    done = _run("run", "--against", "search", "--cells", "five_hundred:2", "--deal-sets", "300", "--step", "300",
                "--out", str(out))
    assert done.returncode == 0, done.stderr
    state = json.loads((out / "five_hundred_2.json").read_text())
    # the kept series had stopped at its verdict: resumed, it plays nothing more and says the same
    assert (state["a"], state["b"], state["verdict"], state["deal_sets"]) == ("v2", "search", "H1", 227)
    row = _run("table", "--out", str(out)).stdout.splitlines()[2]
    assert row.startswith("| five_hundred 2 | 227 | 454 | 108-56-63 | 0.60 |") and row.endswith("| H1 (LLR 2.95) |")


def test_a_bad_cell_is_refused_with_what_is_expected(tmp_path):
    done = _run("run", "--cells", "all_fours", "--out", str(tmp_path))
    assert done.returncode != 0 and "expected GAME:PLAYERS" in done.stderr


def test_a_public_seed_against_search_is_refused_not_ignored(tmp_path):
    done = _run("run", "--against", "search", "--seed", "7", "--cells", "all_fours:2", "--deal-sets", "1", "--step", "1",
                "--max-hands", "1", "--seconds", "0.01", "--per-decision", "0.5", "--out", str(tmp_path))
    assert done.returncode != 0 and "--seed is for --against heuristic" in done.stderr
    assert not any(tmp_path.iterdir())  # nothing played, nothing written


def test_the_observed_variance_interval_is_narrower_than_wilsons_with_draws():
    import importlib.util
    from importlib.machinery import SourceFileLoader

    loader = SourceFileLoader("search_figures", str(SCRIPT))
    spec = importlib.util.spec_from_loader("search_figures", loader)
    figures = importlib.util.module_from_spec(spec)
    loader.exec_module(figures)
    assert figures.observed_interval([0, 200, 0]) == (0.5, 0.5)  # all drawn: no spread at all
    low, high = figures.observed_interval([36, 53, 111])  # Bid Euchre's 200 deal sets
    mean = (53 / 2 + 111) / 200
    sd = ((36 * mean ** 2 + 53 * (0.5 - mean) ** 2 + 111 * (1 - mean) ** 2) / 200) ** 0.5
    assert (low, high) == (mean - 1.96 * sd / 200 ** 0.5, mean + 1.96 * sd / 200 ** 0.5)
    assert round(low, 3) == 0.634 and round(high, 3) == 0.741
    wins_only = figures.observed_interval([20, 0, 80])  # no draws: as wide as a proportion's
    assert abs((wins_only[1] - wins_only[0]) / 2 - 1.96 * (0.8 * 0.2 / 100) ** 0.5) < 1e-12
