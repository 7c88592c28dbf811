"""Game records of Bid Euchre: a seeded match replays to the same scores, and a bad action is
rejected at exactly its hand and action index (docs/game-interface.md, arena.records.replay)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from arena.errors import RecordError
from arena.games.bid_euchre import BidEuchreGame
from arena.records import replay

OPTION_SETS = [
    {},
    {"joker": True, "ace_no_face": True, "stick_the_dealer": True, "help_exchange_count": 2},
    {"deck": "double48", "bidding_rounds": "continuous", "allow_no_trump": True, "illegal_play_mode": "penalize"},
]


def make_game(name, options):
    assert name == "bid_euchre"
    return BidEuchreGame(options)


def play(options, seed, max_hands=40):
    game = BidEuchreGame(dict(options, max_hands=max_hands))
    state = game.new_match(seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        legal = state.legal_actions()
        if state.phase == "auction" and "pass" in legal and rng.random() < 0.6:
            state.apply("pass")
        else:
            state.apply(rng.choice(legal))
    return state


@pytest.mark.parametrize("options", OPTION_SETS)
def test_record_round_trip(options):
    state = play(options, seed=7)
    record = json.loads(json.dumps(state.record(seats=["a", "b", "c", "d"])))
    assert record["game"] == "bid_euchre" and record["seats"] == ["a", "b", "c", "d"]
    assert all(len(hand["deck"]) == len(state.game.pack) for hand in record["hands"])
    result = replay(record, make_game=make_game)
    assert [row["scores"] for row in result.hands] == [row["scores"] for row in state.deal_results]
    assert result.state.scores() == state.scores()
    assert result.state.winner() == state.winner() and result.state.is_over()
    assert result.state.record(seats=["a", "b", "c", "d"]) == record


def test_record_of_a_game_in_progress_replays():
    state = play({}, seed=3)
    record = state.record()
    record["hands"] = record["hands"][:2]
    record["hands"][1]["actions"] = record["hands"][1]["actions"][:5]
    del record["result"]
    for hand in record["hands"]:
        hand.pop("result", None)
    result = replay(record, make_game=make_game)
    assert len(result.state.deals) == 2 and not result.state.is_over()


def test_replay_rejects_an_illegal_action_at_its_index():
    state = play({}, seed=11)
    record = state.record()
    # Find a hand with play, and replace one play by a card its player does not hold.
    for h, hand in enumerate(record["hands"]):
        plays = [i for i, (_, a) in enumerate(hand["actions"]) if a.startswith("play")]
        if len(plays) > 3:
            break
    index = plays[3]
    seat, action = hand["actions"][index]
    bad = copy.deepcopy(record)
    dealt = set(bad["hands"][h]["deck"]) - {a.split()[1] for s, a in hand["actions"] if s == seat and a.startswith("play")}
    bad["hands"][h]["actions"][index] = [seat, f"play {sorted(dealt)[0]}"]
    with pytest.raises(RecordError) as info:
        replay(bad, make_game=make_game)
    assert info.value.hand == h and info.value.action_index == index
    # The wrong seat acting is also caught at its index.
    bad = copy.deepcopy(record)
    bad["hands"][h]["actions"][index] = [(seat + 1) % 4, action]
    with pytest.raises(RecordError) as info:
        replay(bad, make_game=make_game)
    assert info.value.hand == h and info.value.action_index == index


def test_replay_rejects_changed_scores():
    state = play({}, seed=5)
    record = state.record()
    record["hands"][0]["result"]["scores"] = [99, 99]
    with pytest.raises(RecordError) as info:
        replay(record, make_game=make_game)
    assert info.value.hand == 0


def test_clone_is_independent():
    game = BidEuchreGame({"joker": True})
    state = game.new_match(seed=9)
    rng = random.Random(1)
    for _ in range(15):
        state.apply(rng.choice(state.legal_actions()))
    copy_ = state.clone()
    assert copy_.observation(0) == state.observation(0)
    before = state.observation(state.current_player())
    while not copy_.is_over() and len(copy_.deals) < 4:
        copy_.apply(rng.choice(copy_.legal_actions()))
    assert state.observation(before["seat"]) == before
