"""Five Hundred game records: a seeded match replays to the same scores, an illegal action in a
record is refused at exactly its hand and action index, and the option table's errors."""

from __future__ import annotations

import json
import random

import pytest

from arena.errors import OptionError, RecordError
from arena.games.five_hundred import FiveHundredGame
from arena.records import replay

try:
    from tests.games.test_five_hundred_playouts import choose
except ImportError:  # pragma: no cover - when tests/games is not importable as a package
    from test_five_hundred_playouts import choose


def make(name, options):
    assert name == "five_hundred"
    return FiveHundredGame(options)


def seeded_match(options, seed):
    g = FiveHundredGame(options)
    rng = random.Random(seed)
    st = g.new_match(seed=seed)
    while not st.is_over():
        st.apply_id(choose(rng, st, st.legal_action_ids()))
    return st


@pytest.mark.parametrize("options", [
    {"max_hands": 12},
    {"allow_blind_misere": True, "sans_kitty": True, "defence_cap": 490},
    {"auction": "american", "joker_lead_last_trick_only": True},
    {"players": 5, "max_hands": 8},
    {"players": 2},
    {"players": 6, "six_player_teams": "3x2", "max_hands": 8},
])
def test_record_round_trip(options):
    st = seeded_match(options, "round trip")
    record = json.loads(json.dumps(st.record(seats=["random"] * st.game.players)))
    assert record["game"] == "five_hundred" and len(record["hands"]) == len(st.deals)
    again = replay(record, make_game=make)
    assert [row["scores"] for row in again.hands] == [row["scores"] for row in st.deal_results]
    assert again.hands == st.deal_results
    assert again.state.result() == st.result()
    assert again.state.is_over()


def test_replay_rejects_an_illegal_action_at_its_index():
    st = seeded_match({"max_hands": 6}, "tamper")
    record = json.loads(json.dumps(st.record()))
    hand = next(i for i, h in enumerate(record["hands"]) if len(h["actions"]) > 20)
    index = len(record["hands"][hand]["actions"]) - 3  # a play late in the hand
    seat, action = record["hands"][hand]["actions"][index]
    # The card another seat still holds is never legal for this one.
    head = {key: value for key, value in record.items() if key != "result"}
    probe = replay({**head, "hands": record["hands"][:hand] + [
        {**record["hands"][hand], "actions": record["hands"][hand]["actions"][:index]}]}, make_game=make).state
    legal = set(probe.legal_actions())
    other = next(t for s in range(4) if s != seat for t in probe.observation(s)["hand"])
    bad = f"play {other}"
    assert bad not in legal
    record["hands"][hand]["actions"][index] = [seat, bad]
    with pytest.raises(RecordError) as caught:
        replay(record, make_game=make)
    assert (caught.value.hand, caught.value.action_index) == (hand, index)
    assert sorted(caught.value.legal) == sorted(legal)


def test_replay_rejects_changed_scores():
    st = seeded_match({"max_hands": 3}, "scores")
    record = json.loads(json.dumps(st.record()))
    record["hands"][0]["result"]["scores"] = [9999] * len(record["hands"][0]["result"]["scores"])
    with pytest.raises(RecordError):
        replay(record, make_game=make)


def test_option_errors_name_the_option():
    with pytest.raises(OptionError, match="unknown option 'jokers'"):
        FiveHundredGame({"jokers": 2})
    with pytest.raises(OptionError, match="'players'.*7"):
        FiveHundredGame({"players": 7})
    with pytest.raises(OptionError, match="'defence_cap'.*500.*off, 490, 480"):
        FiveHundredGame({"defence_cap": 500})
    with pytest.raises(OptionError, match="'auction'"):
        FiveHundredGame({"auction": "british"})
    with pytest.raises(OptionError, match="'max_hands'"):
        FiveHundredGame({"max_hands": 0})
    with pytest.raises(OptionError, match="'raise_after_others_pass'.*american"):
        FiveHundredGame({"auction": "american", "raise_after_others_pass": True})
    with pytest.raises(OptionError, match="'six_player_teams'.*players=4"):
        FiveHundredGame({"six_player_teams": "3x2"})


def test_option_values_from_strings():
    g = FiveHundredGame({"defence_cap": "490", "allow_blind_misere": "on", "max_hands": "5", "players": "6",
                         "six_player_teams": "3x2"})
    assert g.options["defence_cap"] == 490 and g.options["allow_blind_misere"] is True
    assert g.options["max_hands"] == 5 and g.players == 6 and g.num_sides == 3
    assert FiveHundredGame({"defence_cap": "off"}).options["defence_cap"] is False


def test_action_ids_are_a_fixed_table():
    g = FiveHundredGame({"allow_blind_misere": True, "sans_kitty": True})
    for i in range(g.num_actions):
        assert g.action_id(g.action_string(i)) == i
    assert g.action_id("  PLAY th ") == g.action_id("play 10H")
    assert g.action_id("Bid tnt") == g.action_id("bid 10NT")
    assert g.action_id("bid 7h-sk") == g.action_id("bid 7H-SK")
    assert g.action_id("Nominate NONE") == g.action_id("nominate none")
    assert g.action_id("play jk s") == g.action_id("play JK S")
    assert g.action_id("LOOK") == g.action_id("look")
    for junk in ("", "play", "play 3S", "bid 11NT", "bid 5S", "discard JK JK", "nominate NT", "hello"):
        assert g.action_id(junk) is None
    assert FiveHundredGame({"players": 5}).action_id("partners 3 1") == FiveHundredGame({"players": 5}).action_id("partners 1 3")


def test_clone_is_independent():
    g = FiveHundredGame({})
    st = g.new_match(seed="clone")
    rng = random.Random(3)
    for _ in range(30):
        st.apply_id(choose(rng, st, st.legal_action_ids()))
    before = [st.observation(s) for s in range(4)], st.record()
    twin = st.clone()
    moves = []
    while not twin.is_over() and len(moves) < 200:
        moves.append(choose(rng, twin, twin.legal_action_ids()))
        twin.apply_id(moves[-1])
    assert ([st.observation(s) for s in range(4)], st.record()) == before
    for a in moves:
        st.apply_id(a)
    assert st.record() == twin.record() and st.scores() == twin.scores()
