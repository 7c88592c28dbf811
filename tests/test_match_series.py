"""``arena match``: the sequential test (checked against a brute-force maximum and by simulation),
the observation of a deal set, resuming, and real series that stop by themselves."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace

import numpy
import pytest

from arena.comparison import series as series_module
from arena.comparison import sprt
from arena.comparison.command import build_series, cmd_match
from arena.commandline import build_parser, main
from arena.errors import ArenaError
from arena.store import Store
from arena.tournaments.executors import ExecutorKind, InlineExecutor

# -- the test itself -----------------------------------------------------------------------------


def _brute_force_llr(counts, s0, s1, steps=200_001):
    """N * (max log-likelihood with mean s1 - the same with mean s0), three bins, by a fine grid
    over the one free parameter (the draw probability): independent of the root finding."""
    freq = numpy.array(counts, dtype=float) / sum(counts)

    def best(s):
        draws = numpy.linspace(1e-9, 1 - 1e-9, steps)
        wins = s - draws / 2
        losses = 1 - draws - wins
        ok = (wins > 0) & (losses > 0)
        probabilities = numpy.stack([losses[ok], draws[ok], wins[ok]])
        return (freq[:, None] * numpy.log(probabilities)).sum(axis=0).max()

    return sum(counts) * (best(s1) - best(s0))


@pytest.mark.parametrize("counts, elo0, elo1", [([30, 20, 50], 0, 20), ([12, 40, 9], -10, 10), ([50, 3, 47], 0, 50)])
def test_the_llr_is_the_generalised_likelihood_ratio(counts, elo0, elo1):
    s0, s1 = sprt.score_of_elo(elo0), sprt.score_of_elo(elo1)
    assert sprt.llr(counts, s0, s1) == pytest.approx(_brute_force_llr(counts, s0, s1), abs=1e-6)


def test_the_llr_of_straight_wins_is_the_log_of_the_score_ratio():
    # every deal set won: the closest distributions win s0 and s1 of the time (the rest a loss)
    s0, s1 = 0.5, sprt.score_of_elo(20)
    assert sprt.llr([0, 0, 40], s0, s1) == pytest.approx(40 * math.log(s1 / s0), rel=1e-3)
    assert sprt.llr([0, 0, 0], s0, s1) == 0


def test_wald_bounds_and_settings_are_checked():
    test = sprt.SPRT(0, 20, 0.05, 0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95)) and test.upper == pytest.approx(math.log(0.9 / 0.05))
    with pytest.raises(ArenaError, match="elo0 20.0 is not below elo1 10"):
        sprt.SPRT(20.0, 10)
    with pytest.raises(ArenaError, match="alpha 0.6, beta 0.5"):
        sprt.SPRT(0, 10, 0.6, 0.5)


def _simulate(test, probabilities, runs, budget, seed):
    rng = random.Random(seed)
    bins = list(range(len(probabilities)))
    verdicts = {"H0": 0, "H1": 0, None: 0}
    for _ in range(runs):
        outcomes = (rng.choices(bins, probabilities)[0] for _ in range(budget))
        verdicts[sprt.sequential(test, outcomes, len(probabilities), budget).verdict] += 1
    return verdicts


def _allowance(rate, runs):
    return 3 * math.sqrt(rate * (1 - rate) / runs)  # three binomial standard deviations


def test_under_h0_the_false_positive_rate_is_at_most_alpha():
    test = sprt.SPRT(elo0=0, elo1=100, alpha=0.05, beta=0.05)
    runs = 300
    trinomial = _simulate(test, [0.35, 0.30, 0.35], runs, 3000, seed=1)  # equal bots: win = loss
    assert trinomial["H1"] / runs <= test.alpha + _allowance(test.alpha, runs)
    pentanomial = _simulate(test, [0.1, 0.2, 0.4, 0.2, 0.1], runs, 3000, seed=2)
    assert pentanomial["H1"] / runs <= test.alpha + _allowance(test.alpha, runs)
    # and the test ends: almost every run accepts H0 well within the budget
    assert trinomial["H0"] + trinomial["H1"] == runs and pentanomial["H0"] + pentanomial["H1"] == runs


def test_under_a_clear_difference_it_accepts_h1_most_of_the_time():
    test = sprt.SPRT(elo0=0, elo1=100, alpha=0.05, beta=0.05)
    runs = 200
    # A's expected score 0.7 (about +147 Elo): above H1
    verdicts = _simulate(test, [0.15, 0.30, 0.55], runs, 3000, seed=3)
    assert verdicts["H1"] / runs >= 1 - test.beta - _allowance(test.beta, runs)
    # and at exactly H1, H0 is accepted at most beta of the time
    s1 = sprt.score_of_elo(100)
    win = s1 - 0.15  # with draws 0.3 of the time, A's expected score is s1
    at_h1 = _simulate(test, [0.7 - win, 0.3, win], runs, 3000, seed=4)
    assert at_h1["H0"] / runs <= test.beta + _allowance(test.beta, runs)


def test_the_estimate_and_its_interval():
    state = sprt.estimate([10, 0, 30])  # 30 wins, 10 losses
    assert state["score"] == 0.75 and state["elo"] == pytest.approx(400 * math.log10(3))
    low, high = state["score_ci"]
    assert low < 0.75 < high and state["elo_ci"][0] == pytest.approx(sprt.elo_of_score(low))
    assert state["los"] > 0.99
    straight = sprt.estimate([0, 0, 20])
    assert straight["score_ci"][1] == 1.0 and straight["elo_ci"][1] == math.inf and straight["elo_ci"][0] > 250


# -- what a deal set counts as -------------------------------------------------------------------


def _series(registry, *extra):
    args = build_parser(registry).parse_args(["match", *extra])
    return build_series(args, registry)


def _match(lineup, rotation, scores, deal_set=0):
    ranking = [sorted(set(scores), reverse=True).index(s) for s in scores]
    return ({"lineup": list(lineup), "rotation": rotation, "deal_set": deal_set, "seats": [], },
            {"scores": scores, "ranking": ranking, "faults": [], "think_times": []})


def test_a_two_sided_deal_set_counts_by_the_sign_of_its_duplicate_margin(registry):
    series = _series(registry, "random", "heuristic", "--game", "bid_euchre")
    assert (series.a, series.b) == ("random", "heuristic")
    # rotation 0: A holds side 0 and wins 5-3; rotation 1: A holds side 1 and loses 2-6
    deal = [_match(("random", "heuristic"), 0, [5, 3]), _match(("random", "heuristic"), 1, [6, 2])]
    assert series_module.observe(series, deal, 3) == (0, pytest.approx((2 - 4) / 2))  # a loss: margin -1
    deal[1] = _match(("random", "heuristic"), 1, [4, 4])
    assert series_module.observe(series, deal, 3) == (2, pytest.approx(1.0))  # a win
    deal[1] = _match(("random", "heuristic"), 1, [3, 1])
    assert series_module.observe(series, deal, 3)[0] == 1  # +2 then -2: a draw
    matches = replace(series, bins="matches")
    assert matches.bin_count(2) == 5  # the pentanomial
    assert series_module.observe(matches, deal, 5)[0] == 2  # one match won, one lost: half the points


def test_with_three_sides_each_bot_plays_alone_against_the_other_and_the_swap_mirrors(registry):
    series = _series(registry, "random", "heuristic", "--game", "five_hundred", "--option", "players=3")
    game = registry.game("five_hundred", series.config.options)
    assert series.matches_per_deal_set(game) == 6
    specs = series.specs(game, 1, 2)
    assert [s.deal_set for s in specs] == [1] * 6 + [2] * 6 and specs[0].index == 6
    assert {s.lineup for s in specs} == {("random", "random", "heuristic"), ("random", "heuristic", "heuristic")}
    swapped = _series(registry, "heuristic", "random", "--game", "five_hundred", "--option", "players=3")
    rng = random.Random(5)
    for _ in range(50):
        deal = [_match(spec.lineup, spec.rotation, [rng.randrange(-200, 500) for _ in range(3)])
                for spec in specs[:6]]
        outcome, margin = series_module.observe(series, deal, 3)
        mirrored, mirrored_margin = series_module.observe(swapped, deal, 3)
        assert outcome == 2 - mirrored and margin == pytest.approx(-mirrored_margin)
        points = series_module.observe(replace(series, bins="matches"), deal, 13)[0]
        assert points == 12 - series_module.observe(replace(swapped, bins="matches"), deal, 13)[0]


# -- a series, stored and resumed ----------------------------------------------------------------

TOY = ["random", "random", "--game", "toy", "--option", "target=3", "--isolation", "inprocess", "--seed", "4",
       "--elo1", "60", "--max-deal-sets", "40", "--bins", "matches"]


class _Interrupting:
    """The registry with an ``inline`` executor that is interrupted after ``after`` matches."""

    def __init__(self, registry, after):
        self.registry, self.after = registry, after

    def __getattr__(self, name):
        return getattr(self.registry, name)

    def executor(self, name):
        after = self.after

        class Executor(InlineExecutor):
            def run(self, specs):
                nonlocal after
                for item in super().run(specs):
                    if after == 0:
                        raise KeyboardInterrupt
                    after -= 1
                    yield item

        return ExecutorKind("inline", "interrupted", lambda workers, options: Executor())


def test_an_interrupted_series_resumes_to_the_verdict_of_an_uninterrupted_one(registry, tmp_path):
    series = _series(registry, *TOY)
    lines = []
    whole = series_module.run(series, registry, tmp_path / "whole.db", executor="inline", batch=3, report=lines.append)
    assert whole["stopped"] in ("H0", "H1", "budget") and len(lines) >= 2
    db = tmp_path / "broken.db"
    for after in (5, 4, 7):  # interrupted mid-deal-set, more than once
        with pytest.raises(KeyboardInterrupt):
            series_module.run(series, _Interrupting(registry, after), db, executor="inline", batch=3)
    resumed_lines = []
    resumed = series_module.run(series, registry, db, executor="inline", batch=3, report=resumed_lines.append)
    assert resumed_lines[0].startswith(f"resuming from {db}: deal sets ")
    assert resumed == whole
    store = Store(db)
    try:
        indices = [spec["index"] for spec, _ in store.results()]
        assert indices == list(range(len(indices)))  # every match once, in schedule order
        assert store.tournament()["config"]["series"]["elo1"] == 60
        assert series_module.evaluate(series, store, 2) == whole  # read afresh, not batch by batch
    finally:
        store.close()
    # run again: nothing is played, the same verdict
    again = series_module.run(series, _Interrupting(registry, 0), db, executor="inline", batch=3)
    assert again == whole


def test_a_series_with_other_settings_is_refused_and_a_larger_budget_continues(registry, tmp_path):
    db = tmp_path / "s.db"
    small = replace(_series(registry, *TOY), max_deal_sets=2)
    state = series_module.run(small, registry, db, executor="inline", batch=3)
    assert state["stopped"] == "budget" and state["deal_sets"] == 2
    changed = replace(small, test=sprt.SPRT(0, 100))
    with pytest.raises(ArenaError, match="other settings"):
        series_module.run(changed, registry, db, executor="inline")
    larger = series_module.run(replace(small, max_deal_sets=40), registry, db, executor="inline", batch=3)
    fresh = series_module.run(replace(small, max_deal_sets=40), registry, tmp_path / "fresh.db",
                              executor="inline", batch=5)
    assert larger["deal_sets"] > 2
    for state in (larger, fresh):  # what was played beyond the stop depends on the batches, not what counts
        del state["stored_deal_sets"], state["not_counted"]
    assert larger == fresh


@pytest.mark.parametrize("argv, words", [
    (["random", "nobody", "--game", "toy"], ["B:", "unknown bot 'nobody'"]),
    (["random", "random", "--game", "chess"], ["--game:", "unknown game 'chess'"]),
    (["random", "random", "--game", "toy", "--option", "colour=red"], ["--option:", "colour"]),
    (["random", "random", "--game", "toy", "--setting", "C.depth=3"], ["--setting 'C.depth=3'", "A.KEY=VALUE"]),
    (["random", "random", "--game", "toy", "--names", "x,x"], ["--names 'x,x'", "two different names"]),
    (["random", "random", "--game", "toy", "--elo0", "5", "--elo1", "5"], ["elo0 5.0 is not below elo1 5.0"]),
    (["random", "random", "--game", "toy", "--max-deal-sets", "0"], ["--max-deal-sets must be at least 1"]),
])
def test_bad_arguments_are_refused_before_playing(registry, argv, words, capsys, tmp_path):
    assert main(["match", *argv, "--db", str(tmp_path / "x.db")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("arena: error: ")
    for word in words:
        assert word in error
    assert not (tmp_path / "x.db").exists()


def test_names_and_settings_reach_the_stored_schedule(registry):
    series = _series(registry, "random", "random", "--game", "toy", "--setting", "A.depth=3",
                     "--setting", "b.style=bold", "--setting", "B.flag=true")
    assert [bot.as_dict() for bot in series.config.bots] == [
        {"name": "random-a", "bot": "random", "settings": {"depth": 3}},
        {"name": "random-b", "bot": "random", "settings": {"style": "bold", "flag": True}},
    ]
    game = registry.game("toy", series.config.options)
    spec = series.specs(game, 0, 1)[1]
    assert spec.seats == ("random-b", "random-a") and spec.settings == ({"style": "bold", "flag": True}, {"depth": 3})


# -- real series ---------------------------------------------------------------------------------


def _cli(capsys, *argv):
    assert main(["match", *argv, "--executor", "inline", "--isolation", "inprocess", "--json"]) == 0
    out = capsys.readouterr()
    return json.loads(out.out), out.err


def test_heuristic_against_random_stops_by_itself_with_h1(capsys, tmp_path):
    state, progress = _cli(capsys, "heuristic", "random", "--game", "bid_euchre", "--db", str(tmp_path / "hr.db"))
    assert state["stopped"] == "H1" and state["verdict"] == "H1"
    assert state["deal_sets"] <= 100 < state["max_deal_sets"]  # well before the budget of 1000
    assert state["llr"] >= state["upper"] and state["games"] == 2 * state["deal_sets"]
    assert state["score"] > 0.9 and state["margin"] > 0
    assert "LLR" in progress and "deal sets" in progress
    from arena import __version__
    store = Store(tmp_path / "hr.db")  # the board's settings name the arena that played the series
    assert store.meta()["arena_versions"] == [__version__]
    store.close()


def test_equal_bots_never_accept_h1(capsys, tmp_path):
    # a wide H1 so that the test could reach either bound within the budget
    state, _ = _cli(capsys, "random", "random", "--game", "bid_euchre", "--option", "max_hands=8",  # random bots rarely reach 32
                    "--elo1", "200", "--max-deal-sets", "40", "--seed", "1",  # a public seed: a secret one
                    "--db", str(tmp_path / "rr.db"))  # would make this a test that fails by chance (its alpha)
    assert state["stopped"] in ("H0", "budget") and state["verdict"] != "H1"
    assert state["a"] == "random-a" and state["b"] == "random-b"


def test_a_killed_series_resumes_to_the_same_verdict(tmp_path):
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    argv = ["match", "random", "random", "--game", "toy", "--option", "target=40", "--isolation", "inprocess",
            "--elo1", "60", "--bins", "matches", "--max-deal-sets", "60", "--batch", "2", "--workers", "1", "--json",
            "--seed", "0"]  # a public seed: the two databases deal the same cards (a secret is one database's)

    def arena(db, **kwargs):
        return subprocess.Popen([sys.executable, "-m", "arena.cli", *argv, "--db", str(db)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=os.environ.copy(), **kwargs)

    whole = arena(tmp_path / "whole.db")
    out, err = whole.communicate(timeout=300)
    assert whole.returncode == 0, err
    expected = json.loads(out)
    assert expected["deal_sets"] >= 6, "the series should be long enough for the kill to land mid-run"
    killed = tmp_path / "killed.db"
    process = arena(killed, start_new_session=True)
    deadline, done = time.monotonic() + 120, 0
    while time.monotonic() < deadline and done < 5:
        time.sleep(0.05)
        try:
            with sqlite3.connect(killed) as db:
                done = db.execute("SELECT COUNT(result) FROM matches").fetchone()[0]
        except sqlite3.Error:
            continue
    os.killpg(process.pid, signal.SIGKILL)  # the arena and its worker, mid-run
    process.wait()
    with sqlite3.connect(killed) as db:
        assert 5 <= db.execute("SELECT COUNT(result) FROM matches").fetchone()[0] < 2 * expected["deal_sets"]
    resumed = arena(killed)
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert "resuming from" in err
    state = json.loads(out)
    assert {**state, "db": None} == {**expected, "db": None}
