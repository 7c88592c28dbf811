"""The exact uniform constrained dealer under GameState.resample (arena/games/resample.py)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from arena.games.resample import ResampleError, count_fillings, deal_uniform
from arena.testing.resampling import chi2_sf


def brute_force(cards, sizes, allowed):
    """Every filling, by trying every slot for every card (cards told apart by position)."""
    out = Counter()
    for where in itertools.product(range(len(sizes)), repeat=len(cards)):
        if any(not allowed[i] >> s & 1 for i, s in enumerate(where)):
            continue
        if [where.count(s) for s in range(len(sizes))] != list(sizes):
            continue
        out[tuple(tuple(sorted(cards[i] for i in range(len(cards)) if where[i] == s)) for s in range(len(sizes)))] += 1
    return out


CASES = [
    (["AS", "KS", "QH", "JH", "10D", "9C"], [2, 2, 2], [0b011, 0b011, 0b110, 0b110, 0b111, 0b101]),
    (["AS", "AS", "KH", "KH", "QD"], [2, 2, 1], [0b111, 0b111, 0b101, 0b101, 0b011]),  # duplicate cards
    (["AS", "KS", "QS", "JH"], [1, 3], [0b10, 0b10, 0b10, 0b11]),
]


@pytest.mark.parametrize("cards, sizes, allowed", CASES)
def test_the_count_is_the_brute_force_count(cards, sizes, allowed):
    assert count_fillings(sizes, allowed) == sum(brute_force(cards, sizes, allowed).values())


@pytest.mark.parametrize("cards, sizes, allowed", CASES)
def test_every_filling_is_drawn_with_its_weight(cards, sizes, allowed):
    expected = brute_force(cards, sizes, allowed)
    total = sum(expected.values())
    rng = random.Random(7)
    n = 4000
    seen = Counter()
    for _ in range(n):
        slots = deal_uniform(cards, sizes, allowed, rng)
        assert [len(s) for s in slots] == sizes
        seen[tuple(tuple(sorted(s)) for s in slots)] += 1
    assert set(seen) <= set(expected)
    stat = sum((seen[k] - n * w / total) ** 2 / (n * w / total) for k, w in expected.items())
    assert chi2_sf(stat, len(expected) - 1) > 1e-6, (seen, expected)


def test_no_filling_is_an_error():
    with pytest.raises(ResampleError, match="no filling"):
        deal_uniform(["AS", "KS"], [1, 1], [0b01, 0b01], random.Random(0))


def test_the_chi_square_tail():
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi2_sf(18.307, 10) == pytest.approx(0.05, abs=1e-3)
    assert chi2_sf(100, 3) < 1e-20 and chi2_sf(0, 4) == 1.0
