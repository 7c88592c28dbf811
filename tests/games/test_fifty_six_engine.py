"""56 engine details outside §15: options, action strings, dealing, observations, clone, the end."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from arena.errors import IllegalActionError, OptionError
from arena.games.base import FixedDecks, SeededDecks
from arena.games.fifty_six import FiftySixGame
from arena.games.fifty_six.cards import pack_tokens
from arena.games.fifty_six.dealing import deck_for

try:
    from tests.games.test_fifty_six_support import calls, dominant, fill, match, play_out
except ImportError:  # pragma: no cover
    from test_fifty_six_support import calls, dominant, fill, match, play_out

FOUR = [0, 1, 2, 3]


# -- options ----------------------------------------------------------------------------------
def test_defaults_follow_the_rules_page():
    game = FiftySixGame()
    assert game.options == {
        "players": 4, "team_mode": "pairs", "initial_tables": 12, "double_payout": "multiply",
        "settlement": "capped", "elimination": "at_zero", "plus_noes_increment": "two_only",
        "deal_packet": 1, "first_dealer": "random", "max_hands": None,
        "auction_direction": "clockwise",  # the user's rule document (§8.1, E1)
    }
    assert game.name == "fifty_six" and game.title == "56"


def test_unknown_option_is_named():
    with pytest.raises(OptionError, match="'trumps'"):
        FiftySixGame({"trumps": "on"})


@pytest.mark.parametrize(
    "name, value",
    [("players", 5), ("team_mode", "triples"), ("initial_tables", 0), ("double_payout", "x3"),
     ("settlement", "loose"), ("elimination", "never"), ("plus_noes_increment", "three"),
     ("deal_packet", 2), ("first_dealer", 3), ("max_hands", 0), ("max_hands", "many")],
)
def test_bad_option_value_is_named(name, value):
    with pytest.raises(OptionError, match=f"'{name}'.*accepts"):
        FiftySixGame({name: value})


def test_every_combination_of_the_options_is_accepted():
    """§3 has no forbidden combination (deal_packet 4 divides every hand size; two_sides with 4
    players is the same as pairs, §5.2), so configure() refuses none."""
    for combo in itertools.product((4, 6, 8), ("pairs", "two_sides"), ("multiply", "additive"),
                                   ("capped", "uncapped"), ("at_zero", "cannot_pay"),
                                   ("two_only", "any"), (1, 4)):
        keys = ("players", "team_mode", "double_payout", "settlement", "elimination",
                "plus_noes_increment", "deal_packet")
        FiftySixGame(dict(zip(keys, combo))).new_match(seed=1)


def test_options_from_the_command_line_are_parsed():
    game = FiftySixGame({"players": "8", "deal_packet": "4", "initial_tables": "5", "max_hands": "none"})
    assert (game.players, game.options["deal_packet"], game.options["initial_tables"]) == (8, 4, 5)


# -- actions ----------------------------------------------------------------------------------
def test_action_strings_round_trip_and_are_tolerant():
    for options in ({"players": 4}, {"players": 8, "plus_noes_increment": "any"}):
        game = FiftySixGame(options)
        for i in range(game.num_actions):
            text = game.action_string(i)
            assert game.action_id(text) == i
            assert game.action_id("  " + text.upper() + " ") == i
            assert game.action_id(text.lower()) == i
    game = FiftySixGame()
    assert game.action_string(game.action_id("play TH")) == "play 10H"
    assert game.action_string(game.action_id("Bid h 28")) == "bid H 28"
    assert game.action_string(game.action_id("bid 29 NOES")) == "bid 29 noes"
    for bad in ("play 7H", "bid 28", "bid 28 X", "bid +0 S", "bid +29 S", "bid +1 noes", "play", "fold", "", "bid 28 H extra"):
        assert game.action_id(bad) is None, bad
    assert FiftySixGame({"players": 8}).action_id("play 7H") is not None


def test_six_bid_forms_make_the_same_contract_with_their_tags():
    for first, second, amount, strain, form in [
        ("bid 28 H", "pass", 28, "H", "number_suit"),
        ("bid H 28", "pass", 28, "H", "suit_number"),
        ("bid 28 NT", "pass", 28, "NT", "number_nt"),
        ("bid 29 noes", "pass", 29, "NT", "number_noes"),
        ("bid 28 D", "bid +2 H", 30, "H", "plus_suit"),
        ("bid 28 D", "bid +2 noes", 30, "NT", "plus_noes"),
    ]:
        game, state = match(fill({}, FOUR), dealer=3)
        calls(state, (0, first), (1, second))
        while state.phase == "auction":
            state.apply("pass")
        contract = state.observation(0)["contract"]
        assert (contract["amount"], contract["strain"], contract["form"]) == (amount, strain, form)


def test_auction_legal_actions():
    game, state = match(fill({}, FOUR), dealer=3)
    first = state.legal_actions()
    assert first[0] == "pass" and "double" not in first and "bid 28 H" in first and "bid 56 noes" in first
    assert not any(a.startswith("bid +") for a in first) and len(first) == 1 + 29 * 10
    calls(state, (0, "bid 55 S"))
    legal = state.legal_actions()
    assert legal == ["pass", "double", "bid 56 S", "bid 56 C", "bid 56 D", "bid 56 H", "bid S 56", "bid C 56",
                     "bid D 56", "bid H 56", "bid 56 NT", "bid 56 noes", "bid +1 S", "bid +1 C", "bid +1 D", "bid +1 H"]
    calls(state, (1, "bid 56 C"))
    assert state.legal_actions() == ["pass", "double"]  # seat 2: an opponent of seat 1
    calls(state, (2, "pass"))
    assert state.legal_actions() == ["pass"]  # seat 3, the bidder's partner: nothing higher, no double
    calls(state, (3, "pass"), (0, "double"))
    assert state.legal_actions() == ["pass", "redouble"]  # seat 1's side was doubled
    calls(state, (1, "pass"), (2, "pass"))
    assert state.phase == "auction"
    calls(state, (3, "pass"))  # three passes after the double: over, the doubler does not call again
    assert state.phase == "play" and state.observation(0)["contract"]["multiplier"] == 2


def test_a_pass_does_not_bar_later_calls():
    game, state = match(fill({}, FOUR), dealer=3)
    calls(state, (0, "pass"), (1, "bid 28 S"), (2, "pass"), (3, "pass"), (0, "bid 30 H"))
    assert state.observation(1)["auction"]["high_bid"]["bidder"] == 0


# -- dealing ----------------------------------------------------------------------------------
def test_deal_one_card_at_a_time_from_the_dealers_right():
    game = FiftySixGame()
    deck = list(pack_tokens(4))
    random.Random(3).shuffle(deck)
    state = game.new_match(decks=FixedDecks([deck], first_dealer=1))
    order = [2, 3, 0, 1]
    for seat in range(4):
        assert sorted(state.observation(seat)["hand"]) == sorted(deck[order.index(seat)::4])
    assert state.current_player() == 2


def test_deal_in_packets_of_four():
    game = FiftySixGame({"players": 6, "deal_packet": 4})
    deck = list(pack_tokens(6))
    random.Random(4).shuffle(deck)
    state = game.new_match(decks=FixedDecks([deck], first_dealer=5))
    for seat in range(6):
        mine = deck[4 * seat: 4 * seat + 4] + deck[24 + 4 * seat: 28 + 4 * seat]
        assert sorted(state.observation(seat)["hand"]) == sorted(mine)
    hands = dominant(FOUR, [1, 3])
    assert deck_for(FiftySixGame({"deal_packet": 4}), 0, hands)[:4] == hands[1][:4]


def test_first_dealer_is_seeded_and_the_deal_passes_right():
    dealers = {FiftySixGame({"players": 6}).new_match(seed=s).dealer for s in range(40)}
    assert dealers == set(range(6))
    game, state = match(fill({}, FOUR), dealer=2)
    play_out(state)
    assert state.dealer == 3 and state.deals[1]["dealer"] == 3 and state.current_player() == 0


# -- observations -----------------------------------------------------------------------------
REQUIRED_KEYS = {"game", "seat", "side", "players", "phase", "hand_index", "dealer", "hand", "legal_actions",
                 "to_act", "history", "scores", "contract", "trick", "tricks_won"}


def test_observation_is_json_and_complete():
    game, state = match(dominant(FOUR, [0, 2]), dealer=3)
    calls(state, (0, "bid 30 S"), (1, "double"), (2, "pass"), (3, "pass"), (0, "pass"))
    state.apply_id(state.legal_action_ids()[0])
    obs = state.observation(1)
    assert REQUIRED_KEYS <= set(obs)
    assert json.loads(json.dumps(obs)) == obs
    assert obs["history"][:2] == [[0, "bid 30 S"], [1, "double"]]
    assert obs["trump"] == "S" and obs["contract"]["doubled"] and obs["contract"]["doubler"] == 1
    assert obs["legal_actions"] and obs["to_act"] == 1
    assert state.observation(0)["legal_actions"] == []
    assert len(obs["trick"]) == 1 and obs["leader"] == 0
    assert obs["hand_sizes"] == [11, 12, 12, 12]
    assert obs["hand"] == sorted(obs["hand"], key=lambda t: ("SCDH".index(t[-1]), -"7 8 Q K 10 A 9 J".split().index(t[:-1])))


def test_a_hand_with_two_equal_cards_plays_one_of_them():
    hands = fill({0: ["JS", "JS"]}, FOUR)
    game, state = match(hands, dealer=3)
    calls(state, (0, "bid 28 NT"), (1, "pass"), (2, "pass"), (3, "pass"))
    assert state.observation(0)["hand"].count("JS") == 2 and state.legal_actions().count("play JS") == 1
    state.apply("play JS")
    assert state.observation(0)["hand"].count("JS") == 1


# -- clone and the end ------------------------------------------------------------------------
def test_clone_is_independent():
    state = FiftySixGame({"players": 6}).new_match(seed=9)
    rng = random.Random(1)
    for _ in range(30):
        state.apply_id(rng.choice(state.legal_action_ids()))
    twin = state.clone()
    before = json.dumps(state.observation(state.current_player())) + json.dumps(state.record())
    while not twin.is_over():
        twin.apply_id(rng.choice(twin.legal_action_ids()))
    assert json.dumps(state.observation(state.current_player())) + json.dumps(state.record()) == before


def test_max_hands_ends_unfinished_ranked_by_tables():
    game = FiftySixGame({"players": 6, "max_hands": 2})
    for seed in range(20):
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            legal = state.legal_action_ids()
            state.apply_id(legal[0] if state.phase == "auction" and rng.random() < 0.9 else rng.choice(legal))
        assert len(state.deals) <= 2
        if state.result()["end"] == "hand_limit":
            scores, ranks = state.scores(), state.ranking()
            alive = [t for t in range(3) if t not in state.result()["eliminated"]]
            for a in alive:
                assert ranks[a] == sum(1 for b in alive if scores[b] > scores[a])
            return
    raise AssertionError("no unfinished match")


def test_illegal_actions_after_the_end():
    game, state = match(dominant(FOUR, [0, 2]), dealer=3, initial_tables=1)
    calls(state, (0, "pass"), (1, "bid 28 S"), (2, "pass"), (3, "pass"), (0, "pass"))
    play_out(state)
    assert state.is_over() and state.winner() == 0 and state.phase == "over"
    with pytest.raises(IllegalActionError):
        state.apply("pass")


def test_plugin_registers_the_game():
    from arena.games.fifty_six import plugin

    assert plugin.arena_register_games() == [FiftySixGame]
    assert SeededDecks(1).deck(0, pack_tokens(8)) == SeededDecks(1).deck(0, pack_tokens(8))


def test_the_auction_goes_clockwise_as_the_users_rules_say_or_counter_clockwise_as_an_option():
    """The user's rule document: "bidding happens clockwise" (§8.1, E1); the English rules it was
    translated from bid counter-clockwise. Both start at the dealer's right (dealer+1); clockwise
    then passes to seat-1, counter-clockwise to seat+1."""
    for direction, step in (("clockwise", -1), ("counter_clockwise", +1)):
        for players in (4, 6, 8):
            state = FiftySixGame({"players": players, "auction_direction": direction}).new_match(seed=3)
            first = (state.dealer + 1) % players
            callers = []
            for _ in range(players):
                callers.append(state.current_player())
                state.apply("pass")
            assert callers == [(first + step * i) % players for i in range(players)]
            assert state.phase == "play"  # all passed: the all-pass contract (§8.7)
