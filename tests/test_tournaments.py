"""Tournaments: the file, the schedule with duplicate deals, the crash-safe store, the ratings."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest
import trueskill

from arena import board, rating
from arena.store import Store
from arena.tournaments import config as tconfig
from arena.tournaments import runner, schedule

TOY = """
[tournament]
name = "toy-test"
game = "toy"
deal_sets = {deal_sets}
seed = 11
parallel = 1
isolation = "inprocess"

[options]
target = 4

[time_control]
per_decision = 5

[[bots]]
bot = "random"

[[bots]]
name = "random-b"
bot = "random"
settings = {{}}

[[bots]]
name = "random-c"
bot = "random"
"""


def _write(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_schedule_gives_every_bot_every_deal_from_every_side(tmp_path, registry):
    config = tconfig.load(_write(tmp_path, TOY.format(deal_sets=3)), registry)
    game = registry.game("toy", config.options)
    specs = schedule.build(config, game)
    assert len(specs) == 3 * 3 * 2  # deal sets x pairs x rotations
    assert [s.index for s in specs] == list(range(len(specs)))
    held = defaultdict(set)  # (deal set, pair) -> {(bot, side)}
    for spec in specs:
        assert spec.deal_seed == f"11/dealset/{spec.deal_set}"
        for seat, bot in enumerate(spec.seats):
            held[(spec.deal_set, spec.lineup)].add((bot, game.side_of(seat)))
    for (deal_set, lineup), pairs in held.items():
        assert pairs == {(bot, side) for bot in lineup for side in (0, 1)}
    assert {s.lineup for s in specs} == {("random", "random-b"), ("random", "random-c"), ("random-b", "random-c")}


def test_gauntlet_and_fewer_bots_than_sides():
    assert schedule.lineups(["a", "b", "c"], 2, "gauntlet", "b") == [("b", "a"), ("b", "c")]
    assert schedule.lineups(["a", "b"], 3, "round_robin", None) == [("a", "a", "b"), ("a", "b", "b")]
    assert schedule.lineups(["a", "b", "c", "d"], 3, "round_robin", None)[0] == ("a", "b", "c")


@pytest.mark.parametrize(
    "change, words",
    [
        (("[options]", "[options]\ncolour = 1"), ["[options]", "unknown option 'colour'"]),
        (('bot = "random"\n\n[[bots]]\nname = "random-b"', 'bot = "nobody"\n\n[[bots]]\nname = "random-b"'),
         ["bots[0].bot", "unknown bot 'nobody'", "installed bots"]),
        (('game = "toy"', 'game = "chess"'), ["[tournament] game", "unknown game 'chess'"]),
        (("deal_sets = 2", 'deal_sets = "two"'), ["[tournament] deal_sets", "expected a whole number"]),
        (("deal_sets = 2", "deal_sets = 2\nspeed = 3"), ["[tournament] speed", "unknown key"]),
        (("per_decision = 5", "per_decision = -1"), ["[time_control]", "per_decision must be > 0"]),
        (("[time_control]", "[faults]\ntimeout = 'retry'\n[time_control]"), ["[faults]", "'forfeit' or 'substitute'"]),
        (('name = "random-b"', 'name = "random"'), ["bots[1].name", "already the name"]),
        (('seed = 11', 'seed = 11\nformat = "gauntlet"'), ["challenger", "gauntlet needs"]),
        (('isolation = "inprocess"', 'isolation = "docker"'), ["[tournament] isolation", "inprocess, process"]),
        (("[options]", "[optoins]"), ["optoins", "unknown section"]),
        (("target = 4", "target = 4\n[[bots]]\nbot = 7"), ["bots[0].bot", "expected a string"]),
    ],
)
def test_a_malformed_file_is_refused_naming_the_key(tmp_path, registry, change, words):
    text = TOY.format(deal_sets=2)
    assert change[0] in text
    path = _write(tmp_path, text.replace(change[0], change[1], 1))
    with pytest.raises(tconfig.TournamentFileError) as caught:
        tconfig.load(path, registry)
    message = str(caught.value)
    assert str(path) in message
    for word in words:
        assert word in message


def test_bad_toml_is_refused(tmp_path, registry):
    with pytest.raises(tconfig.TournamentFileError, match="not valid TOML"):
        tconfig.load(_write(tmp_path, "[tournament\n"), registry)


def _board(db: Path) -> dict:
    store = Store(db)
    try:
        data = board.board_data(store)
    finally:
        store.close()
    assert data["settings"].pop("date")  # when the database was started: a fact of the run, not a result
    return data


def test_ratings_equal_trueskill_computed_directly():
    env = trueskill.TrueSkill(mu=25, sigma=25 / 3, beta=25 / 6, tau=25 / 300, draw_probability=0.1)
    a, b, c = env.create_rating(), env.create_rating(), env.create_rating()
    results = [  # (lineup, rotation, ranking of sides)
        (("a", "b"), 0, [0, 1]),
        (("a", "b"), 1, [1, 0]),  # rotated: side 0 is b (last), side 1 is a (first)
        (("b", "c"), 0, [0, 0]),  # a draw
        (("a", "c"), 1, [0, 1]),  # side 0 is c, which won
    ]
    matches = [({"lineup": list(l), "rotation": r}, {"ranking": rk}) for l, r, rk in results]
    ratings, history = rating.rate(matches, ["a", "b", "c"])
    (a,), (b,) = env.rate([(a,), (b,)], ranks=[0, 1])
    (a,), (b,) = env.rate([(a,), (b,)], ranks=[0, 1])
    (b,), (c,) = env.rate([(b,), (c,)], ranks=[0, 0])
    (c,), (a,) = env.rate([(c,), (a,)], ranks=[0, 1])
    for name, expected in zip("abc", (a, b, c)):
        assert ratings[name].mu == pytest.approx(expected.mu)
        assert ratings[name].sigma == pytest.approx(expected.sigma)
    assert len(history) == 4 and history[-1]["c"] == pytest.approx(c.mu)


def test_a_tournament_runs_and_the_board_adds_up(tmp_path, registry):
    path = _write(tmp_path, TOY.format(deal_sets=2))
    config = tconfig.load(path, registry)
    db = tmp_path / "r.db"
    runner.run(config, registry, db, executor="inline", progress=False).close()
    data = _board(db)
    assert data["matches"] == [12, 12]
    rows = {row["bot"]: row for row in data["bots"]}
    assert set(rows) == {"random", "random-b", "random-c"}
    assert sum(r["wins"] for r in rows.values()) == sum(r["losses"] for r in rows.values())
    for row in rows.values():
        assert row["matches"] == 8 == row["wins"] + row["draws"] + row["losses"]
        assert row["score"] == pytest.approx(row["mu"] - 3 * row["sigma"], abs=1e-2)
        assert row["deal_sets"] == 4  # two deal sets x two opponents
        low, high = row["win_rate_ci"]
        assert low <= row["win_rate"] <= high
    # margins of a two-sided duplicate comparison cancel out over all bots
    assert sum(r["margin"] * r["deal_sets"] for r in rows.values()) == pytest.approx(0, abs=1e-6)
    page = board.html_page(data)
    assert "<svg" in page and 'id="board"' in page and 'id="head-to-head"' in page


def _arena(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "arena.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=os.environ.copy(), **kwargs)


def test_a_killed_tournament_resumes_to_exactly_the_same_board(tmp_path):
    # long enough (240 matches of a few hundred hands) that the kill lands mid-run
    path = _write(tmp_path, TOY.format(deal_sets=40).replace("target = 4", "target = 50"))
    whole, killed = tmp_path / "whole.db", tmp_path / "killed.db"
    assert _arena("run", str(path), "--db", str(whole), "--quiet", "--executor", "local", "--workers", "2").wait(300) == 0
    process = _arena("run", str(path), "--db", str(killed), "--quiet", "--executor", "local", "--workers", "2",
                     start_new_session=True)
    deadline = time.monotonic() + 120
    done = 0
    while time.monotonic() < deadline:
        time.sleep(0.05)
        try:
            with sqlite3.connect(killed) as db:
                done = db.execute("SELECT COUNT(result) FROM matches").fetchone()[0]
        except sqlite3.Error:
            continue
        if done >= 5:
            break
    os.killpg(process.pid, signal.SIGKILL)  # the arena and its workers, mid-run
    process.wait()
    with sqlite3.connect(killed) as db:
        done, total = db.execute("SELECT COUNT(result), COUNT(*) FROM matches").fetchone()
    assert 5 <= done < total, "the kill should land mid-run"
    resumed = _arena("run", str(path), "--db", str(killed), "--quiet", "--workers", "2")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    # identical but for the measured thinking times, which are wall-clock figures
    assert _without_times(_board(killed)) == _without_times(_board(whole))


def _without_times(data: dict) -> dict:
    for row in data["bots"]:
        assert row.pop("mean_think_ms") is not None
    return data


def test_the_cli_refuses_a_bad_file_before_playing(tmp_path):
    path = _write(tmp_path, TOY.format(deal_sets=2).replace('bot = "random"', 'bot = "nobody"', 1))
    process = _arena("run", str(path), "--db", str(tmp_path / "x.db"), "--quiet")
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert "bots[0].bot" in err and "unknown bot 'nobody'" in err
    assert not (tmp_path / "x.db").exists()


def test_board_json_has_the_documented_keys(tmp_path, registry):
    config = tconfig.load(_write(tmp_path, TOY.format(deal_sets=1)), registry)
    db = tmp_path / "j.db"
    runner.run(config, registry, db, executor="inline", progress=False).close()
    process = _arena("board", "--db", str(db), "--json")
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    rows = json.loads(out)
    for key in ("bot", "mu", "sigma", "score", "matches", "wins", "losses", "draws", "faults"):
        assert all(key in row for row in rows)
    assert [row["score"] for row in rows] == sorted((row["score"] for row in rows), reverse=True)


def test_more_than_two_sides_are_ranked_at_once_and_copies_count_once():
    """Three teams (56 with six players): all sides enter one TrueSkill update, ranked by the
    match's ranking (in 56: by when each team was knocked out); a bot on two sides counts once."""
    env = trueskill.TrueSkill(mu=25, sigma=25 / 3, beta=25 / 6, tau=25 / 300, draw_probability=0.1)
    a, b, c = env.create_rating(), env.create_rating(), env.create_rating()
    matches = [
        ({"lineup": ["a", "b", "c"], "rotation": 1}, {"ranking": [2, 0, 1]}),  # sides hold b, c, a
        ({"lineup": ["a", "a", "b"], "rotation": 0}, {"ranking": [1, 2, 0]}),  # a's best side is 2nd
    ]
    ratings, _ = rating.rate(matches, ["a", "b", "c"])
    (c1,), (a1,), (b1,) = env.rate([(c,), (a,), (b,)], ranks=[0, 1, 2])
    (b2,), (a2,) = env.rate([(b1,), (a1,)], ranks=[0, 1])
    assert ratings["a"].mu == pytest.approx(a2.mu) and ratings["b"].mu == pytest.approx(b2.mu)
    assert ratings["c"].mu == pytest.approx(c1.mu)
    assert rating.match_places(*matches[1]) == {"a": 1, "b": 0}
    stats, head = rating.statistics_of(
        [(dict(m[0], seats=[], deal_set=0), dict(m[1], faults=[], think_times=[], scores=[0, 0, 0])) for m in matches],
        ["a", "b", "c"])
    assert (stats["c"].wins, stats["a"].losses, stats["b"].wins) == (1, 2, 1)
    assert head[("c", "a")] == [1, 0, 0] and head[("a", "b")] == [1, 0, 1]
