"""Five Hundred speaks the shared vocabulary (docs/games/five_hundred.md §10): every observation
carries OBSERVATION_KEYS, every hand result HAND_RESULT_KEYS with its `end`, the match says how it
ended, hidden_cards says what a seat may not see; deck_for is the inverse of the deal, filling
unnamed cards in pack order."""

from __future__ import annotations

import random

import pytest

from arena.games.base import HAND_RESULT_KEYS, OBSERVATION_KEYS, FixedDecks, MatchEnd
from arena.games.five_hundred import FiveHundredGame, deck_for


@pytest.mark.parametrize("options", [{}, {"players": 5}, {"players": 2, "allow_blind_misere": True},
                                     {"players": 6, "sans_kitty": True}])
def test_observations_and_hand_results_carry_the_shared_keys(options):
    g = FiveHundredGame({"max_hands": 8, **options})
    for m in range(4):
        rng = random.Random(m)
        st = g.new_match(seed=f"vocabulary/{m}")
        while not st.is_over():
            for seat in range(g.players):
                obs = st.observation(seat)
                assert set(OBSERVATION_KEYS) <= set(obs)
                assert obs["hands_played"] == len(st.deal_results) and obs["hand_index"] == len(st.deals) - 1
                assert obs["tricks_won"] == [sum(obs["tricks_won_by_seat"][s] for s in g.seats_of(side))
                                             for side in range(g.num_sides)]
                assert obs["last_trick"] == (obs["tricks"][-1] if obs["tricks"] else None)
                assert (obs["leader"] is None) == (obs["phase"] != "play")
                assert obs["active_seats"] == [s for s in range(g.players) if s not in obs["sitting_out"]]
                check_hidden_cards(g, st, seat, obs)
            ids = st.legal_action_ids()
            st.apply_id(ids[0] if st.phase == "auction" and rng.random() < 0.5 else rng.choice(ids))
        assert st.match_end() in (MatchEnd.TARGET, MatchEnd.LOSING_SCORE, MatchEnd.HAND_LIMIT)
        assert st.result()["end"] == st.match_end().value
        assert st.deal_results[-1]["match_end"] == st.result()["end"]  # one spelling: the MatchEnd value
        for row in st.deal_results:
            assert set(HAND_RESULT_KEYS) <= set(row)
            assert row["end"] in ("made", "set", "thrown_in")
            if row["end"] == "thrown_in":
                assert row["contract"] is None and row["tricks"] == []
                continue
            assert row["made"] == (row["end"] == "made")
            assert len(row["tricks"]) == row["tricks_played"] == sum(row["tricks_won"])
            assert row["tricks_won"] == [sum(row["tricks_won_by_seat"][s] for s in g.seats_of(side))
                                         for side in range(g.num_sides)]


def check_hidden_cards(g, st, seat, obs):
    """hidden_cards(seat) is the pack less what the seat sees this deal (R-10.2), and the
    observation (the previous deal's result aside) shows none of it."""
    seen = set(obs["hand"]) | {card for t in obs["tricks"] for _, card in t["cards"]}
    seen |= {card for _, card in obs["trick"]} | set(obs["exposed"] or ()) | set(obs["discards"] or ())
    seen |= set(obs["kitty"] or ())
    hidden = st.hidden_cards(seat)
    assert hidden == set(g.pack.tokens) - seen
    shown = {word for key, value in obs.items() if key != "last_result" for word in _words(value)}
    assert not hidden & shown


def _words(value):
    """Every word of the strings in an observation, but bids ("bid 7D", a contract's "bid": "10H")."""
    if isinstance(value, dict):
        return [w for k, v in value.items() if k != "bid" for w in _words(v)]
    if isinstance(value, list):
        return [w for v in value for w in _words(v)]
    return value.split() if isinstance(value, str) and not value.startswith("bid ") else []


def test_a_match_under_way_has_no_end():
    st = FiveHundredGame({}).new_match(seed=1)
    assert st.match_end() is None and st.result()["end"] is None


def test_deck_for_deals_the_named_hands_and_fills_the_rest():
    g = FiveHundredGame({})
    deck = deck_for(g, 3, {0: ["JK", "AS"], 2: ["10H"]}, kitty=["4D"])
    st = g.new_match(decks=FixedDecks([deck], 3))
    assert {"JK", "AS"} <= set(st.observation(0)["hand"]) and "10H" in st.observation(2)["hand"]
    assert "4D" in g.pack.cards(st.kitty)
    named = {"JK", "AS", "10H", "4D"}
    spare = [t for t in g.pack.tokens if t not in named]  # seat 0 first (8 more), then seat 1 ...
    assert st.observation(0)["hand"] == sorted(spare[:8] + ["JK", "AS"], key=g.pack.tokens.index)
    assert st.observation(1)["hand"] == spare[8:18]
    two = FiveHundredGame({"players": 2})
    deck = deck_for(two, 1, {}, dead=["AH"])
    st = two.new_match(decks=FixedDecks([deck], 1))
    assert st.dead & two.pack.mask_of(["AH"])
    with pytest.raises(ValueError):
        deck_for(g, 0, {0: ["AS"], 1: ["AS"]})
