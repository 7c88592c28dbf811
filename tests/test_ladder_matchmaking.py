"""Matchmaking (Halite III style) from worked examples: new versions first, near opponents likelier,
only active versions, the same lineups for the same seed."""

from __future__ import annotations

from collections import Counter

from arena.ladder.matchmaking import lineups


def _v(i, status="active"):
    return {"id": i, "status": status}


def _r(i, mu, sigma, deal_sets=10):
    return {"version": i, "mu": mu, "sigma": sigma, "deal_sets": deal_sets}


RATED = [_r(1, 30.0, 1.5), _r(2, 29.0, 1.5), _r(3, 15.0, 1.5), _r(4, 22.0, 1.5)]


def test_a_new_version_is_picked_first():
    versions = [_v(1), _v(2), _v(3), _v(4), _v(5)]  # 5 is new: no rating yet, the prior's sigma
    for round in range(1, 20):
        chosen = lineups("all_fours/2", versions, RATED, 2, 1, "s", round)
        assert len(chosen) == 1 and 5 in chosen[0]


def test_seeds_go_by_sigma_then_fewer_deal_sets():
    ratings = [_r(1, 25, 2.0, 4), _r(2, 25, 3.0, 9), _r(3, 25, 2.0, 2)]
    chosen = lineups("g/2", [_v(1), _v(2), _v(3)], ratings, 2, 3, "s", 1)
    assert [2 in chosen[0], 3 in chosen[1], 1 in chosen[2]] == [True, True, True]


def test_near_opponents_are_likelier():
    # version 1 (mu 30) is the seed of every pairing when it is the most uncertain
    ratings = [_r(1, 30.0, 5.0), _r(2, 29.0, 1.0), _r(3, 15.0, 1.0), _r(4, 22.0, 1.0)]
    versions = [_v(i) for i in (1, 2, 3, 4)]
    opponents: Counter[int] = Counter()
    for round in range(1, 400):
        (lineup,) = lineups("g/2", versions, ratings, 2, 1, "s", round)
        assert 1 in lineup and len(set(lineup)) == 2
        opponents.update(v for v in lineup if v != 1)
    assert opponents[2] > opponents[4] > opponents[3] > 0  # near likeliest, far still possible


def test_probation_and_retired_versions_are_never_scheduled():
    versions = [_v(1), _v(2, "probation"), _v(3), _v(4, "retired"), _v(5, "validating")]
    seen = {v for round in range(1, 50) for lineup in lineups("g/2", versions, RATED, 2, 4, "s", round) for v in lineup}
    assert seen == {1, 3}
    assert lineups("g/2", [_v(1), _v(2, "probation")], RATED, 2, 4, "s", 1) == []  # too few to fill the sides


def test_no_version_twice_in_a_lineup():
    versions = [_v(i) for i in range(1, 6)]
    for round in range(1, 30):
        for lineup in lineups("g/3", versions, RATED, 3, 4, "s", round):
            assert len(set(lineup)) == 3


def test_deterministic_for_a_seed():
    versions = [_v(i) for i in range(1, 6)]
    a = [lineups("g/2", versions, RATED, 2, 6, 7, r) for r in range(1, 10)]
    b = [lineups("g/2", versions, RATED, 2, 6, 7, r) for r in range(1, 10)]
    c = [lineups("g/2", versions, RATED, 2, 6, 8, r) for r in range(1, 10)]
    assert a == b and a != c
    assert lineups("other/2", versions, RATED, 2, 6, 7, 1) != a[0] or lineups("other/2", versions, RATED, 2, 6, 7, 2) != a[1]
