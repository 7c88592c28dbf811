"""Records written before the shared vocabulary (format trick-arena-record/1, made by the engines
as they were before it: heuristic and random bots, every game and player count) still verify:
replaying each deck and action gives the very scores, hand by hand, that the old engine recorded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.records import load, replay

FOLDER = Path(__file__).resolve().parent / "records" / "v1"
FILES = sorted(FOLDER.glob("*.json"))


def test_there_is_an_old_record_of_every_bundled_game():
    assert {f.stem.rsplit("-", 1)[0] for f in FILES} == {"five_hundred", "fifty_six", "all_fours", "bid_euchre"}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_an_old_record_replays_to_its_recorded_scores(path, registry):
    record = load(path)
    assert record["format"] == "trick-arena-record/1"
    replayed = replay(record, registry.game)  # compares every hand's carried scores and the final ones
    assert [row["scores"] for row in replayed.hands] == [hand["result"]["scores"] for hand in record["hands"]]
    assert replayed.state.scores() == record["result"]["scores"]
    assert replayed.state.is_over() == record["result"]["over"]


def test_an_unknown_record_format_is_refused(tmp_path):
    record = json.loads(FILES[0].read_text())
    record["format"] = "trick-arena-record/99"
    (tmp_path / "r.json").write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "arena.cli", "verify", str(tmp_path / "r.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "format 'trick-arena-record/99' is not one this arena reads" in done.stderr
