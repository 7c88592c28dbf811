"""Random seeded playouts across option combinations, checking invariants after every action.

The checks re-derive the rules independently of the engine where they can (effective suits, trick
winners, following, §9 scores, §10 end), so they test the engine rather than restate it.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from arena.errors import IllegalActionError
from arena.games.base import HAND_RESULT_KEYS, OBSERVATION_KEYS, RESULT_KEYS
from arena.games.bid_euchre import BidEuchreGame
from arena.games.bid_euchre.cards import TOKENS

SAME_COLOUR = {"S": "C", "C": "S", "D": "H", "H": "D"}
PLAIN = ["9", "10", "J", "Q", "K", "A"]
TRUMP = ["9", "10", "Q", "K", "A"]
CARD = re.compile(r"(?<![\w])(?:10|9|J|Q|K|A)[SCDH](?![\w])|JK")


def eff(card: str, trump: str) -> str:
    if card == "JK":
        return trump
    rank, suit = card[:-1], card[-1]
    if trump != "NT" and rank == "J" and suit in (trump, SAME_COLOUR[trump]):
        return trump
    return suit


def power(card: str, trump: str) -> int:
    if card == "JK":
        return 100
    rank, suit = card[:-1], card[-1]
    if trump != "NT" and eff(card, trump) == trump:
        if rank == "J":
            return 90 if suit == trump else 80
        return 50 + TRUMP.index(rank)
    return PLAIN.index(rank)


def winner(cards: list[list], trump: str) -> int:
    led = eff(cards[0][1], trump)
    best = None
    for seat, card in cards:
        e = eff(card, trump)
        key = (2 if e == trump and trump != "NT" else 1 if e == led else 0, power(card, trump))
        if key[0] and (best is None or key > best[0]):  # strictly greater: the first copy wins
            best = (key, seat)
    return best[1]


def expected_changes(game: BidEuchreGame, result: dict) -> list[int]:
    contract, tricks, t = result["contract"], result["tricks_won"], game.tricks
    side = contract["side"]
    taken = tricks[side]
    changes = [0, 0]
    changes[1 - side] = tricks[1 - side]
    if contract["bid"] == "moon":
        changes[side] = 4 * t if taken == t else -t
    elif contract["bid"] == "help":
        changes[side] = 2 * t if taken == t else -t
    else:
        bid = int(contract["bid"])
        changes[side] = taken if taken >= bid else -bid
    return [changes[s] - 2 * result["reneges"][s] for s in (0, 1)]


def expected_winner(scores, target, bidders, mode):
    a, b = scores[0] >= target, scores[1] >= target
    if a and b:
        if scores[0] == scores[1]:
            return None
        return bidders if mode == "bidders_win" else (0 if scores[0] > scores[1] else 1)
    return 0 if a else 1 if b else None


def held(state, seat) -> Counter:
    return Counter({TOKENS[t]: n for t, n in enumerate(state.counts[seat]) if n})


def in_play(state) -> list[int]:
    """How many copies of each card index the deal holds, wherever they are now."""
    total = [a + b + c + d for a, b, c, d in zip(*state.counts)]
    for _, cards, _ in state.tricks:
        for _, t in cards:
            total[t] += 1
    for _, t in state.trick:
        total[t] += 1
    if state.discarded is not None:
        total[state.discarded] += 1
    if state.phase == "exchange":  # chosen but not yet swapped
        for t in state.gives[0] + state.gives[1]:
            total[t] += 1
    return total


def known_cards(state, seat) -> Counter:
    """What ``seat`` may see in the current deal (§11)."""
    known = held(state, seat)
    known.update(TOKENS[t] for _, cards, _ in state.tricks for _, t in cards)
    known.update(TOKENS[t] for _, t in state.trick)
    if state.discarded is not None and seat == state.deals[-1]["dealer"]:
        known[TOKENS[state.discarded]] += 1
    if seat == state.contractor:
        known.update(TOKENS[t] for t in state.gives[0] + state.gives[1])
    if seat == state.sitting_out:
        known.update(TOKENS[t] for t in state.gives[1])
        if state.phase != "exchange":
            known.update(TOKENS[t] for t in state.gives[0])
    return known


def check_observations(state, game):
    for seat in range(4):
        obs = state.observation(seat)
        json.dumps(obs)
        assert Counter(obs["hand"]) == held(state, seat)
        assert set(OBSERVATION_KEYS) <= set(obs), set(OBSERVATION_KEYS) - set(obs)
        assert obs["hand_sizes"] == [sum(state.counts[s]) for s in range(4)]
        assert obs["leader"] == (state.leader if state.phase == "play" else None)
        assert obs["legal_actions"] == (state.legal_actions() if state.current_player() == seat else [])
        current = {k: v for k, v in obs.items() if k != "last_result"}
        seen = set(CARD.findall(json.dumps(current)))
        leaked = seen - set(known_cards(state, seat))
        assert not leaked, (seat, leaked, obs)
        assert state.hidden_cards(seat) == set(game.pack) - set(known_cards(state, seat))
        if seat != state.deals[-1]["dealer"]:
            assert obs["discarded"] is None
            assert not any(a.startswith("discard") for _, a in obs["history"])
        if seat not in (state.contractor, state.sitting_out):
            assert not any(a.startswith("give") for _, a in obs["history"])


def check_illegal(state, game, rng):
    legal = set(state.legal_action_ids())
    wrong = [a for a in range(game.num_actions) if a not in legal]
    seat = state.current_player()
    def snapshot():
        return (len(state.deals), list(state.deals[-1]["actions"]), len(state.deal_results),
                json.dumps(state.observation(seat)), state.legal_action_ids())

    before = snapshot()
    for bad in (rng.choice(wrong), "bid 2", "nonsense"):
        with pytest.raises(IllegalActionError):
            if isinstance(bad, int):
                state.apply_id(bad)
            else:
                state.apply(bad)
    after = snapshot()
    assert before == after


def choose(state, game, rng, cautious):
    legal = state.legal_actions()
    if game.penalize and state.phase == "play" and state.trick and rng.random() < 0.9:
        trump = "NT" if state.trump == 4 else "SCDH"[state.trump]
        led = eff(TOKENS[state.trick[0][1]], trump)
        legal = [a for a in legal if eff(a[5:], trump) == led] or legal  # mostly follow; sometimes renege
    if cautious and state.phase == "auction":
        if "pass" in legal and rng.random() < 0.7:
            return "pass"
        numbers = [a for a in legal if a[4:].isdigit()]
        return rng.choice(numbers[:2] or legal)
    return rng.choice(legal)


def playout(options: dict, seed: int, cautious: bool, deep: bool) -> dict:
    game = BidEuchreGame(options)
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    pack = [0] * 25
    for card in game.pack:
        pack[TOKENS.index(card)] += 1
    step = 0
    while not state.is_over():
        seat = state.current_player()
        legal = state.legal_action_ids()
        assert legal and seat in range(4) and legal == sorted(legal)
        assert in_play(state) == pack
        if state.phase == "play":
            active = [s for s in range(4) if s != state.sitting_out]
            assert seat in active and len(state.trick) < len(active)
            if state.trick:
                assert seat == next(s for s in ((state.trick[-1][0] + i) % 4 for i in (1, 2)) if s != state.sitting_out)
        if deep and step % 5 == 0:
            check_observations(state, game)
            check_illegal(state, game, rng)
        action = choose(state, game, rng, cautious)
        deals_before = len(state.deal_results)
        scores_before = state.scores()
        if state.phase == "play":
            trump = "NT" if state.trump == 4 else "SCDH"[state.trump]
            card = action.split()[1]
            if state.trick and options.get("illegal_play_mode") != "penalize":
                led = eff(TOKENS[state.trick[0][1]], trump)
                if eff(card, trump) != led:
                    assert all(eff(c, trump) != led for c in held(state, seat)), "must follow (§8.3)"
        bidders = state.contractor
        state.apply(action)
        step += 1
        if len(state.deal_results) > deals_before:
            check_deal(game, state, state.deal_results[-1], scores_before, bidders, options)
    assert state.current_player() is None and state.legal_actions() == []
    last = state.deal_results[-1]
    if state.unfinished:
        assert len(state.deals) == options["max_hands"] and last.get("unfinished") is True
        assert state.winner_side is None
    else:
        assert last["end"] in ("made", "set") and state.winner() == last["winner"]
        assert sorted(state.ranking()) == [0, 1]
    assert len(state.deal_results) == len(state.deals)
    result = state.result()
    assert set(RESULT_KEYS) <= set(result) and "how" not in result
    assert result["end"] == ("hand_limit" if state.unfinished else "target")
    return {"hands": len(state.deals), "won": not state.unfinished}


def check_deal(game, state, result, scores_before, bidders, options):
    assert result["scores"] == [scores_before[s] + result["changes"][s] for s in (0, 1)]
    assert set(HAND_RESULT_KEYS) <= set(result), set(HAND_RESULT_KEYS) - set(result)
    if result["end"] in ("all_pass", "ace_no_face"):
        assert result["changes"] == [0, 0]
        assert (result["end"] == "ace_no_face") == ("claim" in result)
        return
    contract = result["contract"]
    trump = contract["trump"]
    log = result["tricks"]
    assert len(log) == game.tricks and sum(result["tricks_won"]) == game.tricks
    alone = contract["bid"] in ("help", "moon")
    assert contract["alone"] == alone
    out = (contract["seat"] + 2) % 4 if alone else None
    assert contract["sitting_out"] == out
    leader = contract["seat"]
    for trick in log:
        seats = [s for s, _ in trick["cards"]]
        assert trick["leader"] == leader == seats[0]
        assert len(seats) == (3 if alone else 4) and out not in seats
        assert seats == [s for s in ((leader + i) % 4 for i in range(4)) if s != out]
        assert trick["winner"] == winner(trick["cards"], trump)
        leader = trick["winner"]
    by_seat = Counter(t["winner"] for t in log)
    assert result["tricks_won_by_seat"] == [by_seat[s] for s in range(4)]
    assert result["tricks_won"] == [by_seat[0] + by_seat[2], by_seat[1] + by_seat[3]]
    if options.get("illegal_play_mode") != "penalize":
        assert result["reneges"] == [0, 0]
    assert result["changes"] == expected_changes(game, result)
    won = expected_winner(result["scores"], game.target, contract["side"], game.simultaneous_finish)
    assert result.get("winner") == won
    assert state.is_over() == (won is not None or result.get("unfinished") is True)


CONFIGS = [
    # (options, cautious bidding, matches)
    ({"max_hands": 300}, True, 150),
    ({"max_hands": 25}, False, 100),
    ({"deck": "double48", "joker": True, "help_exchange_count": 2, "max_hands": 300}, True, 100),
    ({"joker": True, "stick_the_dealer": True, "ace_no_face": True, "bidding_rounds": "continuous",
      "max_hands": 300}, True, 120),
    ({"allow_no_trump": True, "allow_partnership_full_bid": True, "illegal_play_mode": "penalize",
      "simultaneous_finish": "bidders_win", "max_hands": 300}, True, 60),
    ({"deck": "double48", "help_exchange_count": 3, "bidding_rounds": "continuous", "allow_no_trump": True,
      "ace_no_face": True, "max_hands": 20}, False, 80),
    ({"deck": "double48", "joker": True, "illegal_play_mode": "penalize", "stick_the_dealer": True,
      "max_hands": 20}, False, 60),
    ({"ace_no_face": True, "stick_the_dealer": True, "target_score": 12, "help_exchange_count": 3,
      "max_hands": 300}, True, 200),
    ({"joker": True, "allow_partnership_full_bid": True, "simultaneous_finish": "bidders_win",
      "target_score": 20, "max_hands": 300}, True, 140),
    ({"bidding_rounds": "continuous", "max_hands": 30}, False, 90),
]
FAST_SHARE = 0.4  # the first 40% of each config's matches run every time; the rest are marked slow


def run_config(index: int, first: int, last: int) -> None:
    options, cautious, _ = CONFIGS[index]
    finished = 0
    for m in range(first, last):
        outcome = playout(options, seed=1000 * index + m, cautious=cautious, deep=m % 8 == 0)
        finished += outcome["won"]
    if cautious:
        assert finished >= (last - first) * 0.85  # most matches end by §10, not by the harness limit


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_random_playouts(index):
    run_config(index, 0, int(CONFIGS[index][2] * FAST_SHARE))


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_random_playouts_more(index):
    run_config(index, int(CONFIGS[index][2] * FAST_SHARE), CONFIGS[index][2])


def test_playout_count_is_at_least_1000():
    assert sum(matches for _, _, matches in CONFIGS) >= 1000
