"""56 game records: the round trip (also through a knock-out, where the pack changes), and replay
errors that point at the exact hand and action."""

from __future__ import annotations

import copy
import json

import pytest

from arena.errors import RecordError
from arena.games.fifty_six import FiftySixGame
from arena.players.base import MatchInfo
from arena.records import replay
from bots.random_bot import RandomBot


def make_game(name, options):
    assert name == "fifty_six"
    return FiftySixGame(options)


def random_match(options: dict, seed: int):
    game = FiftySixGame(options)
    state = game.new_match(seed=seed)
    bots = [RandomBot(seed * 100 + s) for s in range(game.players)]
    for seat, bot in enumerate(bots):
        bot.start_match(MatchInfo(game.name, game.options, seat, tuple(["random"] * game.players)))
    while not state.is_over():
        seat = state.current_player()
        state.apply(bots[seat].act(state.observation(seat)))
    return state


def round_trip(state):
    record = json.loads(json.dumps(state.record(["random"] * state.game.players)))
    again = replay(record, make_game=make_game)
    assert [row["scores"] for row in again.hands] == [row["scores"] for row in state.deal_results]
    assert again.hands == json.loads(json.dumps(state.deal_results))
    assert again.state.result() == state.result()
    assert again.state.ranking() == state.ranking()
    return record


@pytest.mark.parametrize("options", [{"players": 4}, {"players": 6, "team_mode": "two_sides"},
                                     {"players": 8, "deal_packet": 4, "double_payout": "additive"}])
def test_round_trip(options):
    round_trip(random_match(options, seed=11))


def test_round_trip_through_a_knockout():
    """8 players in pairs: a team is knocked out, later hands are dealt from the 48-card pack."""
    for seed in range(50):
        state = random_match({"players": 8}, seed)
        sizes = [len(deal["deck"]) for deal in state.deals]
        if 48 in sizes and len(state.deals) >= 3:
            break
    else:
        raise AssertionError("no knock-out in 50 matches")
    record = round_trip(state)
    knocked = next(i for i, hand in enumerate(record["hands"]) if hand["result"]["eliminated"])
    assert len(record["hands"][knocked + 1]["deck"]) in (48, 64)
    assert record["result"]["over"] and len(record["result"]["eliminated"]) == 3


def test_replay_rejects_an_illegal_action_where_it_is():
    state = random_match({"players": 6}, seed=5)
    record = json.loads(json.dumps(state.record()))
    hand = len(record["hands"]) - 1
    actions = record["hands"][hand]["actions"]
    index = next(i for i, (_, a) in enumerate(actions) if a.startswith("play")) + 2
    seat = actions[index][0]
    bad = copy.deepcopy(record)
    bad["hands"][hand]["actions"][index] = [seat, "bid 28 S"]
    with pytest.raises(RecordError) as err:
        replay(bad, make_game=make_game)
    assert (err.value.hand, err.value.action_index, err.value.seat) == (hand, index, seat)
    bad = copy.deepcopy(record)
    bad["hands"][0]["actions"][0] = [(record["hands"][0]["actions"][0][0] + 1) % 6, "pass"]
    with pytest.raises(RecordError) as err:
        replay(bad, make_game=make_game)
    assert (err.value.hand, err.value.action_index) == (0, 0)


def test_replay_rejects_a_deck_of_the_wrong_pack():
    for seed in range(50):
        state = random_match({"players": 8}, seed)
        if len(state.deals) >= 2 and len(state.deals[1]["deck"]) == 48:
            break
    else:
        raise AssertionError("no knock-out in the first hand in 50 matches")
    record = json.loads(json.dumps(state.record()))
    record["hands"][1]["deck"] = record["hands"][0]["deck"]  # 64 cards where 48 are dealt
    with pytest.raises(RecordError) as err:
        replay(record, make_game=make_game)
    assert err.value.hand == 1
