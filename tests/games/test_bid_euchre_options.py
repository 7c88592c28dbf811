"""Options of Bid Euchre (§3): defaults, errors that name the option, and the action strings."""

from __future__ import annotations

import pytest

from arena.errors import OptionError
from arena.games.bid_euchre import BidEuchreGame


def test_defaults():
    game = BidEuchreGame()
    assert game.options == {
        "players": 4,
        "deck": "single24",
        "joker": False,
        "stick_the_dealer": False,
        "ace_no_face": False,
        "bidding_rounds": "single",
        "allow_partnership_full_bid": False,
        "allow_no_trump": False,
        "help_exchange_count": 1,
        "target_score": 32,
        "simultaneous_finish": "higher_score",
        "illegal_play_mode": "reject",
        "max_hands": None,
    }
    assert game.name == "bid_euchre" and game.title == "Bid Euchre"
    assert game.num_sides == 2 and [game.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert len(game.pack) == 24


def test_unknown_option():
    with pytest.raises(OptionError, match="trump_order"):
        BidEuchreGame({"trump_order": 1})


@pytest.mark.parametrize(
    "name, value",
    [
        ("deck", "triple72"),
        ("players", 6),
        ("help_exchange_count", 4),
        ("target_score", 0),
        ("target_score", "many"),
        ("joker", "maybe"),
        ("bidding_rounds", "twice"),
        ("simultaneous_finish", "both"),
        ("illegal_play_mode", "ignore"),
        ("max_hands", 0),
    ],
)
def test_bad_value_names_the_option(name, value):
    with pytest.raises(OptionError, match=name):
        BidEuchreGame({name: value})


def test_bad_combination_names_both_options():
    with pytest.raises(OptionError) as info:
        BidEuchreGame({"joker": True, "allow_no_trump": True})
    assert "joker" in str(info.value) and "allow_no_trump" in str(info.value)


def test_values_from_the_command_line():
    game = BidEuchreGame({"joker": "on", "help_exchange_count": "2", "target_score": "50", "max_hands": "none"})
    assert game.options["joker"] is True and game.options["help_exchange_count"] == 2
    assert game.options["target_score"] == 50 and game.options["max_hands"] is None


def test_action_strings():
    game = BidEuchreGame()
    names = [game.action_string(i) for i in range(game.num_actions)]
    assert names[:6] == ["pass", "bid 3", "bid 4", "bid 5", "bid help", "bid moon"]
    assert "trump NT" not in names and "claim" not in names and not any(n.startswith("discard") for n in names)
    assert all(game.action_id(n) == i for i, n in enumerate(names))
    assert game.action_id("  Play TD ") == game.action_id("play 10D")
    assert game.action_id("BID HELP") == names.index("bid help")
    assert game.action_id("give th") == names.index("give 10H")
    for bad in ("bid 6", "bid 2", "play 2S", "play JK", "trump NT", "discard 9S", "claim", "", "play", "hello 9S"):
        assert game.action_id(bad) is None, bad


def test_optional_action_strings():
    game = BidEuchreGame({
        "joker": True, "ace_no_face": True, "allow_partnership_full_bid": True, "deck": "double48",
    })
    for name in ("bid 11", "bid 12", "bid help", "bid moon", "play JK", "give JK", "discard JK", "claim", "decline"):
        assert game.action_id(name) is not None, name
    assert game.action_id("bid 13") is None
    nt = BidEuchreGame({"allow_no_trump": True, "allow_partnership_full_bid": True})
    assert nt.action_id("trump nt") == nt.action_id("trump NT") is not None
    assert nt.action_id("bid 6") is not None
