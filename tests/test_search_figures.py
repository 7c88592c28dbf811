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
    again = _run("run", "--deal-sets", "2", *tiny)  # resumes: deal set 0 is not played again
    assert again.returncode == 0, again.stderr
    state = json.loads((out / "all_fours_2.json").read_text())
    assert state["deal_sets"] == 2 and state["games"] == 4
    rows = _run("table", "--out", str(out)).stdout.splitlines()
    assert rows[0].startswith("| game and players | deal sets |")
    assert rows[2].startswith("| all_fours 2 | 2 | 4 | ")


def test_a_bad_cell_is_refused_with_what_is_expected(tmp_path):
    done = _run("run", "--cells", "all_fours", "--out", str(tmp_path))
    assert done.returncode != 0 and "expected GAME:PLAYERS" in done.stderr
