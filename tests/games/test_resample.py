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


# -- a match started mid-way ---------------------------------------------------------------------

from arena.games.all_fours import dealing as all_fours_dealing  # noqa: E402
from arena.games.fifty_six.dealing import deck_for as fifty_six_deck  # noqa: E402
from arena.games.five_hundred.dealing import deck_for as five_hundred_deck  # noqa: E402


def test_start_hand_deals_the_deck_with_the_scores_given():
    game = get_registry().game("five_hundred", {})
    deck = five_hundred_deck(game, 2, {0: ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "9H", "8H", "7H"]})
    state = game.start_hand(2, deck, [120, -40])
    obs = state.observation(0)
    assert obs["scores"] == [120, -40] and obs["dealer"] == 2 and obs["hand_index"] == 0
    assert sorted(obs["hand"]) == sorted(["JK", "JH", "JD", "AH", "KH", "QH", "10H", "9H", "8H", "7H"])
    assert state.record()["hands"][0]["deck"] == deck
    with pytest.raises(ValueError, match="scores: 3 given"):
        game.start_hand(2, deck, [1, 2, 3])
    with pytest.raises(TypeError, match="no match setting"):
        game.start_hand(2, deck, knocked_out={1: 0})


@pytest.mark.parametrize("name, options", [("five_hundred", {"players": 3}), ("all_fours", {"players": 2}), ("bid_euchre", {})])
def test_start_hand_refuses_what_the_game_cannot_deal(name, options):
    game = get_registry().game(name, options)
    deck = game.deck_for(0, {})
    sides = game.num_sides
    with pytest.raises(ValueError, match=f"scores: {sides + 1} given, this .* game has {sides} sides"):
        game.start_hand(0, deck, [0] * (sides + 1))
    with pytest.raises(ValueError, match=f"dealer {game.players} is not a seat of the {game.players}-player game"):
        game.start_hand(game.players, deck)
    with pytest.raises(TypeError, match=f"{game.title} has no match setting"):
        game.start_hand(0, deck, knocked_out={1: 0})
    assert game.start_hand(0, deck, [0] * sides).observation(0)["dealer"] == 0


def test_fifty_six_starts_with_a_team_knocked_out():
    game = get_registry().game("fifty_six", {"players": 6})
    active = [0, 1, 3, 4]  # team 2 (seats 2 and 5) is out
    deck = fifty_six_deck(game, 0, {}, active=active)
    state = game.start_hand(0, deck, [10, 14, 0], knocked_out={2: 3})
    obs = state.observation(1)
    assert obs["active_seats"] == active and obs["scores"] == [10, 14, 0]
    assert obs["hand_sizes"][2] == obs["hand_sizes"][5] == 0 and len(obs["hand"]) == 12  # the 4-player deal (§4.1)
    with pytest.raises(ValueError, match="dealer 2 is not a seat left"):
        game.start_hand(2, deck, [10, 14, 0], knocked_out={2: 3})
    with pytest.raises(ValueError, match="at least two teams"):
        game.start_hand(0, deck, knocked_out={1: 0, 2: 1})


def test_all_fours_counts_the_kick_once():
    game = get_registry().game("all_fours", {})
    deck = all_fours_dealing.deck_for(game, 0, {}, turn_up="JS")  # a jack turned up: 3 to the dealer's side
    state = game.start_hand(0, deck, [5, 7])
    assert state.scores() == [8, 7]
    # a sample of it keeps the observed scores, not 3 more
    sample = state.resample(1, random.Random(0))
    assert sample.scores() == [8, 7] and sample.observation(1) == state.observation(1)


def test_a_sample_mid_match_keeps_the_earlier_hands():
    game = get_registry().game("bid_euchre", {})
    state = game.new_match(seed=5)
    rng = random.Random(5)
    while len(state.deal_results) < 2 or state.phase != "play":
        state.apply_id(rng.choice(state.legal_action_ids()))
    sample = state.resample(0, random.Random(1))
    assert sample.observation(0)["last_result"] == state.observation(0)["last_result"]
    assert sample.record()["hands"][:-1] == state.record()["hands"][:-1]
    assert sample.scores() == state.scores()


def _effective_suit(state, name, card):
    if name == "five_hundred":
        e = state.eff[state.game.pack.index[card]]
        return "SCDH"[e] if e < 4 else None
    if name == "bid_euchre":
        from arena.games.bid_euchre.cards import INDEX
        return "SCDH"[state.table.eff[INDEX[card]]]
    return card[-1]  # 56, All Fours: the printed suit


@pytest.mark.parametrize("name", ["five_hundred", "fifty_six", "all_fours", "bid_euchre"])
def test_a_seat_never_holds_a_card_of_a_suit_it_showed_void_in(name):
    game = get_registry().game(name, {})
    rng = random.Random(11)
    shown = 0
    for match in range(4):
        state = game.new_match(seed=f"voids/{match}")
        while not state.is_over() and len(state.deals) < 4:
            if state.phase == "play":
                for seat, suits in state.voids().items():
                    hand = state.observation(seat)["hand"]
                    held = {_effective_suit(state, name, card) for card in hand}
                    assert not held & set(suits), (seat, suits, hand)
                    shown += 1
            state.apply_id(rng.choice(state.legal_action_ids()))
    assert shown > 20


WITH_HANDS = [("five_hundred", {}), ("five_hundred", {"players": 3}), ("fifty_six", {}), ("all_fours", {}),
              ("bid_euchre", {}), ("bid_euchre", {"deck": "double48", "help_exchange_count": 2, "joker": True})]


@pytest.mark.parametrize("name, options", WITH_HANDS, ids=[f"{n}-{o}" for n, o in WITH_HANDS])
def test_with_hands_accepts_the_real_hands(name, options):
    """The real deal is one the seat could be facing: with_hands given the real hands finds it
    (also where the seat knows cards in another hand: an exposed misère hand, its gifts)."""
    game = get_registry().game(name, options)
    rng = random.Random(2)
    tried = 0
    for match in range(30):
        state = game.new_match(seed=f"with/{match}")
        while not state.is_over() and tried < 150:
            if rng.random() < 0.1 or getattr(state, "exposed", False) or getattr(state, "gives", [[]])[0]:
                seat = rng.randrange(game.players)
                hands = {s: state.observation(s)["hand"] for s in range(game.players) if s != seat}
                found = state.with_hands(seat, hands, random.Random(0))
                assert found is not None, (match, state.phase, seat)
                assert {s: sorted(found.observation(s)["hand"]) for s in hands} == {s: sorted(h) for s, h in hands.items()}
                tried += 1
            state.apply_id(rng.choice(state.legal_action_ids()))
    assert tried >= 100


def test_a_clone_resamples_its_own_position_after_the_original_moved_on():
    game = get_registry().game("five_hundred", {})
    state = game.new_match(seed=8)
    rng = random.Random(8)
    while state.phase != "play":
        state.apply_id(rng.choice(state.legal_action_ids()))
    state.resample(0, random.Random(0))  # the original keeps this position's layout
    copy = state.clone()
    while len(state.deals) == len(copy.deals) and not state.is_over():
        state.apply_id(rng.choice(state.legal_action_ids()))
    sample = copy.resample(0, random.Random(1))
    assert sample.observation(0) == copy.observation(0)
