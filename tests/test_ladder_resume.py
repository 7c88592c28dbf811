"""Nothing lost: ``arena ladder`` killed with SIGKILL again and again, and restarted each time,
ends with the same tables as a run never interrupted — the same deal sets (ladder, round, lineup,
deals), the same matches and results, the same ratings and history: no finished match lost or
counted twice. The real command in subprocesses; house bots only (seeded, deterministic)."""

from __future__ import annotations

import json
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from tests import ladder_support
from tests.ladder_support import start_ladder

ROOT = Path(__file__).resolve().parents[1]

ROUNDS = 4
ARGS = ("--config", "ladder.toml", "--house", "heuristic,random", "--seed", "19", "--workers", "2",
        "--pairings", "3", "--rounds", str(ROUNDS))
CONFIG = '[[ladder]]\ngame = "all_fours"\nplayers = 2\noptions = { max_hands = 2 }\n'


def _read(db: Path, sql: str) -> list[tuple[Any, ...]]:
    if not db.exists():
        return []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        try:
            return conn.execute(sql).fetchall()
        except sqlite3.OperationalError:  # the tables are not made yet
            return []


def _finished(db: Path) -> int:
    rows = _read(db, "SELECT COUNT(*) FROM ladder_matches WHERE result IS NOT NULL")
    return rows[0][0] if rows else 0


def _round(db: Path) -> int:
    rows = _read(db, "SELECT value FROM ladder_meta WHERE key = 'round'")
    return int(rows[0][0]) if rows else 0


def _tables(db: Path) -> dict[str, Any]:
    """What must be identical: every deal set, match, result, rating and history row (less the
    thinking times and the log directory, which differ from run to run and place to place)."""
    matches = []
    for deal_set, rotation, spec, result, record in _read(
            db, "SELECT deal_set, rotation, spec, result, record FROM ladder_matches ORDER BY id"):
        spec, result, record = json.loads(spec), json.loads(result), json.loads(record)
        spec.pop("log_dir")
        matches.append({"deal_set": deal_set, "rotation": rotation, "spec": spec,
                        "scores": result["scores"], "ranking": result["ranking"], "faults": result["faults"],
                        "termination": result["termination"], "integrity": result.get("integrity"),
                        "hands": [hand["actions"] for hand in record["hands"]]})
    return {
        "versions": _read(db, "SELECT id, bot, number, kind, seat, games, status FROM ladder_versions ORDER BY id"),
        "deal_sets": _read(db, "SELECT id, ladder, round, lineup, deal_seed, finished IS NOT NULL, rated "
                               "FROM ladder_deal_sets ORDER BY id"),
        "matches": matches,
        "ratings": _read(db, "SELECT version, ladder, mu, sigma, deal_sets, matches, faults FROM ladder_ratings "
                             "ORDER BY version, ladder"),
        "history": _read(db, "SELECT version, ladder, deal_set, mu, sigma FROM ladder_history "
                             "ORDER BY deal_set, version"),
        "round": _round(db),
    }


def _run_to_end(directory: Path) -> None:
    ladder = start_ladder(directory, *ARGS, db=directory / "ladder.db")
    assert ladder.process.wait(timeout=300) == 0, ladder.stderr()


def _kill_when(directory: Path, ready: Callable[[Path], bool]) -> bool:
    """Start the ladder on ``directory``'s store, SIGKILL it once ``ready(db)``; False when it
    finished its rounds before that."""
    db = directory / "ladder.db"
    ladder = start_ladder(directory, *ARGS, db=db)
    deadline = time.monotonic() + 300
    while not ready(db):
        if ladder.process.poll() is not None:
            assert ladder.process.returncode == 0, ladder.stderr()
            return False
        assert time.monotonic() < deadline, "the ladder made no progress"
        time.sleep(0.02)
    ladder.process.send_signal(signal.SIGKILL)
    ladder.process.wait(timeout=60)
    return True


@pytest.mark.slow
def test_a_ladder_killed_again_and_again_ends_as_one_never_interrupted(tmp_path, monkeypatch):
    # the ladder runs in its store's directory; the test plugins (TRICK_ARENA_PLUGINS) import from here
    monkeypatch.setitem(ladder_support.ENV, "PYTHONPATH", str(ROOT))
    plain, killed = tmp_path / "plain", tmp_path / "killed"
    for directory in (plain, killed):
        directory.mkdir()
        (directory / "ladder.toml").write_text(CONFIG)
    _run_to_end(plain)
    expected = _tables(plain / "ladder.db")
    assert expected["round"] == ROUNDS and len(expected["deal_sets"]) == ROUNDS * 3
    assert all(row[-1] == 1 for row in expected["deal_sets"])  # every deal set rated

    db = killed / "ladder.db"
    kills = 0
    moments: list[Callable[[Path], bool]] = [
        lambda db: _finished(db) >= 1,  # after the first stored match
        lambda db: _finished(db) >= 4,  # mid-round (a round has 6 matches)
        lambda db: True,  # as soon as it listens: during the resume
        lambda db: _round(db) >= 3,  # just after a round is scheduled
        lambda db: _finished(db) >= 17,  # mid-round again, late
    ]
    for ready in moments:
        if _kill_when(killed, ready):
            kills += 1
    _run_to_end(killed)  # the last restart: on until --rounds completes
    assert kills >= 4
    got = _tables(db)
    assert got["deal_sets"] == expected["deal_sets"]
    assert got["matches"] == expected["matches"]
    assert got["versions"] == expected["versions"]
    assert got["ratings"] == expected["ratings"]
    assert got["history"] == expected["history"]
    assert got == expected


def test_sigterm_stops_the_ladder_and_keeps_what_is_stored(tmp_path, monkeypatch):
    monkeypatch.setitem(ladder_support.ENV, "PYTHONPATH", str(ROOT))
    (tmp_path / "ladder.toml").write_text(CONFIG)
    db = tmp_path / "ladder.db"
    ladder = start_ladder(tmp_path, *ARGS[:-2], db=db)  # no --rounds: it would run until stopped
    deadline = time.monotonic() + 120
    while _finished(db) < 1:
        assert ladder.process.poll() is None and time.monotonic() < deadline, ladder.stderr()
        time.sleep(0.05)
    assert ladder.stop() == 130  # interrupted, as every arena command
    deadline = time.monotonic() + 10
    while "stopped after" not in ladder.stderr() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "keeps" in ladder.stderr() and "goes on where it was" in ladder.stderr()
    assert _finished(db) >= 1


def test_bad_arguments_are_one_line_errors_and_start_nothing(tmp_path, capsys):
    from arena.commandline import main

    (tmp_path / "bad.toml").write_text('[[ladder]]\ngame = "all_fours"\nplayers = 9\n')
    db = tmp_path / "ladder.db"
    for argv, message in [
        (["--config", str(tmp_path / "bad.toml")], "bad.toml: ladder[0].players: option 'players'"),
        (["--config", str(tmp_path / "missing.toml")], "missing.toml: cannot read it"),
        (["--house", "nobody"], "--house nobody: unknown bot 'nobody'"),
        (["--executor", "nowhere"], "--executor nowhere: unknown executor"),
        (["--workers", "0"], "--workers must be from 1 to 1024"),
        (["--rounds", "0"], "--rounds must be at least 1"),
        (["--port", "70000"], "--port 70000 is not a port"),
    ]:
        assert main(["ladder", "--db", str(db), "--port", "0", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, (argv, err)
    assert not (tmp_path / "ladder_files").exists()
    assert _read(db, "SELECT COUNT(*) FROM ladder_versions") in ([], [(0,)])  # nothing added
