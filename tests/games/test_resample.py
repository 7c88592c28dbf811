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


# -- the engines: positions with actions hidden from the seat, and non-default options -------------

from arena.plugins import get_registry  # noqa: E402
from arena.records import replay  # noqa: E402
from arena.testing import ConformanceError, check_resample  # noqa: E402


def hidden_action_positions(game, count, seed=0):
    """(state, seat) where seat's history lacks some of the deal's actions (a discard, a gift)."""
    rng = random.Random(seed)
    found = []
    for match in range(200):
        state = game.new_match(seed=f"hidden/{match}")
        while not state.is_over() and len(found) < count:
            for seat in range(game.players):
                if len(state.observation(seat)["history"]) < len(state.deals[-1]["actions"]) and rng.random() < 0.3:
                    found.append((state.clone(), seat))
                    break
            state.apply_id(rng.choice(state.legal_action_ids()))
        if len(found) >= count:
            return found
    return found


HIDDEN = [("bid_euchre", {}), ("bid_euchre", {"joker": True}), ("bid_euchre", {"deck": "double48", "help_exchange_count": 2}),
          ("five_hundred", {}), ("five_hundred", {"players": 3}), ("five_hundred", {"players": 5}),
          ("five_hundred", {"allow_blind_misere": True})]


@pytest.mark.parametrize("name, options", HIDDEN, ids=[f"{n}-{o}" for n, o in HIDDEN])
def test_actions_hidden_from_the_seat_are_filled_in(name, options):
    game = get_registry().game(name, options)
    positions = hidden_action_positions(game, 25)
    assert len(positions) >= 10
    for state, seat in positions:
        for k in range(3):
            sample = state.resample(seat, random.Random(k))
            assert sample.observation(seat) == state.observation(seat)
            again = replay(sample.record(), lambda n, o: type(game)(o)).state
            assert [again.observation(s) for s in range(game.players)] == [
                sample.observation(s) for s in range(game.players)]


OPTIONS = [("bid_euchre", {"joker": True}), ("bid_euchre", {"deck": "double48", "help_exchange_count": 2}),
           ("bid_euchre", {"ace_no_face": True, "illegal_play_mode": "penalize"}),
           ("fifty_six", {"players": 6, "team_mode": "two_sides"}), ("fifty_six", {"deal_packet": 4}),
           ("all_fours", {"no_undertrump": True, "deal_packet": 1}), ("all_fours", {"illegal_play_mode": "penalize"}),
           ("all_fours", {"players": 2, "kick_values": "tobago"}),
           ("five_hundred", {"allow_blind_misere": True}), ("five_hundred", {"sans_kitty": True}),
           ("five_hundred", {"auction": "american", "joker_lead_last_trick_only": True, "misere_requires_seven": False}),
           ("five_hundred", {"players": 6, "six_player_teams": "3x2"})]


@pytest.mark.parametrize("name, options", OPTIONS, ids=[f"{n}-{o}" for n, o in OPTIONS])
def test_the_resample_checks_pass_with_other_options(name, options):
    players = options.get("players", 4)
    try:
        check_resample(name, players=players, options={k: v for k, v in options.items() if k != "players"})
    except ConformanceError as failure:
        pytest.fail(str(failure), pytrace=False)


def test_the_voids_follow_the_effective_suits():
    game = get_registry().game("bid_euchre", {})
    state = game.new_match(seed=3)
    rng = random.Random(3)
    checked = 0
    while not state.is_over() and checked < 200:
        if state.phase == "play" and state.table is not None:
            voids = state.voids()
            for seat, suits in voids.items():
                for suit in suits:  # the seat holds no card of that effective suit
                    assert not [t for t in range(25) if state.counts[seat][t] and "SCDH"[state.table.eff[t]] == suit]
            checked += 1
        state.apply_id(rng.choice(state.legal_action_ids()))
    assert checked
