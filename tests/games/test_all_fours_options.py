"""Options (docs/games/all_fours.md §3), the action strings (§12a), and the match-level helpers."""

from __future__ import annotations

import itertools

import pytest

from arena.errors import OptionError
from arena.games.all_fours import AllFoursGame
from arena.games.all_fours.dealing import max_runs

DEFAULTS = {
    "players": 4, "target_score": 14, "deal_packet": 3, "kick_values": "trinidad",
    "kick_scores_on_same_suit_turnups": True, "hang_jack_points": 3, "game_tie": "none",
    "no_undertrump": False, "illegal_play_mode": "reject", "first_dealer": "cut", "max_hands": None,
}


def test_defaults_are_the_specifications():
    assert AllFoursGame().options == DEFAULTS
    assert AllFoursGame.name == "all_fours" and AllFoursGame.title == "All Fours"


def test_command_line_spellings():
    game = AllFoursGame({"players": "2", "deal_packet": "1", "no_undertrump": "on", "game_tie": "Eldest", "max_hands": "5"})
    assert game.options["players"] == 2 and game.options["deal_packet"] == 1
    assert game.options["no_undertrump"] is True and game.options["game_tie"] == "eldest" and game.options["max_hands"] == 5


def test_unknown_option():
    with pytest.raises(OptionError, match="unknown option 'trumps'"):
        AllFoursGame({"trumps": "H"})


@pytest.mark.parametrize(
    "name, value",
    [
        ("players", 3), ("target_score", 0), ("target_score", "many"), ("deal_packet", 2),
        ("kick_values", "barbados"), ("kick_scores_on_same_suit_turnups", "maybe"), ("hang_jack_points", 2),
        ("game_tie", "dealer"), ("no_undertrump", 3), ("illegal_play_mode", "forgive"), ("first_dealer", "oldest"),
        ("max_hands", 0),
    ],
)
def test_bad_values_name_the_option(name, value):
    with pytest.raises(OptionError, match=f"option '{name}'.*accepts"):
        AllFoursGame({name: value})


def test_every_combination_is_playable():
    # §3 has no option that excludes another: every combination configures and deals.
    choices = [(4, 2), (3, 1), ("trinidad", "tobago"), (True, False), (3, 1), ("none", "eldest"), (True, False),
               ("reject", "penalize"), ("cut", "random")]
    names = ["players", "deal_packet", "kick_values", "kick_scores_on_same_suit_turnups", "hang_jack_points",
             "game_tie", "no_undertrump", "illegal_play_mode", "first_dealer"]
    for values in itertools.product(*choices):
        state = AllFoursGame(dict(zip(names, values))).new_match(seed=1)
        assert state.is_over() or state.legal_actions() == ["stand", "beg"]


def test_action_strings():
    game = AllFoursGame()
    assert game.num_actions == 4 + 52
    assert [game.action_string(i) for i in range(4)] == ["stand", "beg", "give one", "run"]
    assert game.action_string(4) == "play 2S" and game.action_string(4 + 52 - 1) == "play AH"
    for i in range(game.num_actions):
        assert game.action_id(game.action_string(i)) == i
    assert game.action_id("  Give   One ") == 2
    assert game.action_id("PLAY th") == game.action_id("play 10H")
    assert game.action_id("play 10h ") == game.action_id("play 10H")
    for junk in ("play JK", "play 11H", "bid 7H", "pass", "play", "give", "", "play 1H", 7):
        assert game.action_id(junk) is None


def test_sides_and_pack_limits():
    four, two = AllFoursGame(), AllFoursGame({"players": 2})
    assert four.num_sides == two.num_sides == 2
    assert [four.side_of(s) for s in range(4)] == [0, 1, 0, 1] and [two.side_of(s) for s in range(2)] == [0, 1]
    assert max_runs(4) == 2 and max_runs(2) == 5  # §7.5


def test_unfinished_match_is_ranked_by_score():
    game = AllFoursGame({"max_hands": 1, "target_score": 100})
    state = game.new_match(seed=5)
    while not state.is_over():
        state.apply_id(state.legal_action_ids()[-1])
    scores = state.scores()
    assert state.result()["end"] == "hand_limit" and len(state.deals) == 1
    assert state.ranking() == [int(scores[0] < scores[1]), int(scores[1] < scores[0])]


def test_plugin_registers_the_game():
    from arena.games.all_fours import plugin

    assert plugin.arena_register_games() == [AllFoursGame]
