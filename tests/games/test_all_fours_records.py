"""Game records: a seeded match, written down and replayed, gives the same scores after every entry.

The records chosen include an entry exhausted by running the pack (ending with its ``run``, the
redeal being the next entry with the same dealer and its own deck) and a game that ends in the
middle of an entry (a kick before any action, or a give-one).
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from arena.errors import RecordError
from arena.games.all_fours import AllFoursGame
from arena.records import replay


def make_game(name, options):
    assert name == "all_fours"
    return AllFoursGame(options)


def random_match(options, seed):
    game = AllFoursGame(options)
    rng = random.Random(seed)
    state = game.new_match(seed=f"record/{seed}")
    while not state.is_over():
        state.apply_id(rng.choice(state.legal_action_ids()))
    return state


def find_match(options, wanted, limit=600):
    for seed in range(limit):
        state = random_match(options, seed)
        if wanted(state):
            return state
    raise AssertionError("no such match among the seeds tried")


def round_trip(state):
    record = json.loads(json.dumps(state.record(seats=["a", "b", "c", "d"][: state.game.players])))
    replayed = replay(record, make_game=make_game)
    assert [row["scores"] for row in replayed.hands] == [row["scores"] for row in state.deal_results]
    assert replayed.state.scores() == state.scores() and replayed.state.winner() == state.winner()
    assert replayed.state.result() == state.result()
    assert len(replayed.hands) == len(record["hands"])
    return record


def has_redeal(state):
    return any(r["end"] == "redeal" for r in state.deal_results)


def test_round_trip_with_a_redealt_hand():
    state = find_match({}, lambda s: has_redeal(s) and not s.deals[-1]["actions"])
    record = round_trip(state)
    for index, hand in enumerate(record["hands"]):
        if hand["result"]["end"] == "redeal":
            assert hand["actions"][-1] == [hand["dealer"], "run"]
            assert record["hands"][index + 1]["dealer"] == hand["dealer"]
            assert record["hands"][index + 1]["deck"] != hand["deck"]
    assert record["hands"][-1]["actions"] == []  # the first kick of the last entry won the game


def test_round_trip_ending_with_give_one():
    state = find_match({}, lambda s: s.deal_results[-1]["decision"] == "give one" and not s.deal_results[-1]["tricks"])
    record = round_trip(state)
    assert record["hands"][-1]["actions"][-1][1] == "give one"


@pytest.mark.parametrize(
    "options",
    [{"players": 2, "deal_packet": 1}, {"illegal_play_mode": "penalize", "kick_values": "tobago"}, {"max_hands": 2}],
)
def test_round_trip_other_options(options):
    for seed in range(5):
        round_trip(random_match(options, seed))


def test_replay_rejects_an_illegal_action_where_it_is():
    state = find_match({}, lambda s: has_redeal(s) and len(s.deals) > 3)
    record = state.record()
    entry = next(i for i, r in enumerate(state.deal_results) if r["end"] == "played")
    actions = record["hands"][entry]["actions"]
    position = next(i for i, (_, a) in enumerate(actions) if a.startswith("play"))
    seat = actions[position][0]
    others = {card for s, a in actions if s != seat and a.startswith("play") for card in [a.split()[1]]}
    bad = copy.deepcopy(record)
    bad["hands"][entry]["actions"][position] = [seat, "play " + sorted(others)[0]]
    with pytest.raises(RecordError) as caught:
        replay(bad, make_game=make_game)
    assert caught.value.hand == entry and caught.value.action_index == position


def test_replay_rejects_an_action_after_the_game_ended():
    state = find_match({}, lambda s: not s.deals[-1]["actions"])
    bad = state.record()
    bad["hands"][-1]["actions"].append([0, "stand"])
    with pytest.raises(RecordError) as caught:
        replay(bad, make_game=make_game)
    assert caught.value.hand == len(bad["hands"]) - 1 and caught.value.action_index == 0


def test_replay_rejects_wrong_carried_scores():
    state = random_match({}, 1)
    bad = state.record()
    bad["hands"][0]["result"]["scores"] = [99, 99]
    with pytest.raises(RecordError, match="hand 0"):
        replay(bad, make_game=make_game)
