"""The worked cases of §14 of docs/games/all_fours.md (TAF-01 … TAF-18), one test each.

Conventions of §14: four players, dealer seat 3, eldest seat 0, sides A = {0, 2} and B = {1, 3}.
Positions are dealt from explicit decks built by ``deck_for`` (the inverse of the dealing procedure).
"""

from __future__ import annotations

import pytest

from arena.errors import IllegalActionError
from arena.games.all_fours import AllFoursGame, AllFoursState
from arena.games.all_fours.cards import CARD_OF, SUITS, mask_of, tokens_of
from arena.games.all_fours.dealing import deck_for
from arena.games.all_fours.play import lawful_plays, trick_winner
from arena.games.all_fours.scoring import game_point
from arena.games.base import FixedDecks, SeededDecks

HEARTS, CLUBS, SPADES = SUITS.index("H"), SUITS.index("C"), SUITS.index("S")
FOUR, TWO = AllFoursGame(), AllFoursGame({"players": 2})  # deck_for's deals: four players (or two), packets of three


def start(decks, scores=None, dealer=3, **options):
    game = AllFoursGame(options)
    then = SeededDecks("after")  # later deals, when a test plays on
    return AllFoursState(game, FixedDecks(decks, first_dealer=dealer, then=then), scores)


def play(state, *cards):
    for card in cards:
        state.apply("play " + card)


def items(state, entry=0):
    return [(p["item"], p["side"], p["points"]) for p in state.deal_results[entry]["points"]]


def play_out(state):
    """Finish the current record entry playing the lowest legal action (deterministic)."""
    entry = len(state.deals)
    while not state.is_over() and len(state.deals) == entry:
        state.apply_id(state.legal_action_ids()[0])


def mask(*tokens):
    return mask_of(CARD_OF[t] for t in tokens)


def cards(*tokens):
    return [CARD_OF[t] for t in tokens]


# -- TAF-01 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "turn_up, trinidad, tobago",
    [("AS", 1, 1), ("6D", 2, 0), ("JC", 3, 3), ("KH", 0, 0), ("2D", 0, 2)],
)
def test_taf01_kick_values(turn_up, trinidad, tobago):
    deck = deck_for(FOUR, 3, {}, turn_up=turn_up)
    assert start([deck]).scores() == [0, trinidad]
    assert start([deck], kick_values="tobago").scores() == [0, tobago]
    state = start([deck])
    assert state.deal_results == [] and state.current_player() == 0 and state.phase == "stand_or_beg"


# -- TAF-02 ------------------------------------------------------------------------------------------
def test_taf02_kick_wins_the_game():
    state = start([deck_for(FOUR, 3, {}, turn_up="JH")], scores=(5, 12))
    assert state.scores() == [5, 15]
    assert state.is_over() and state.winner() == 1 and state.ranking() == [1, 0]
    assert state.current_player() is None and state.legal_actions() == []
    assert state.deals[0]["actions"] == []  # no stand or beg, no cards
    assert len(state.deals) == 1 and state.deal_results[0]["scores"] == [5, 15]
    assert state.record()["hands"][0]["actions"] == []


# -- TAF-03 ------------------------------------------------------------------------------------------
def test_taf03_stand():
    state = start([deck_for(FOUR, 3, {}, turn_up="4H")])
    assert state.legal_actions() == ["stand", "beg"]
    state.apply("stand")
    obs = state.observation(0)
    assert obs["trump"] == "H" and obs["phase"] == "play" and state.current_player() == 0
    assert all(len(state.observation(s)["hand"]) == 6 for s in range(4))  # six tricks
    assert state.scores() == [0, 0]
    play_out(state)
    assert state.deal_results[0]["tricks_won"][0] + state.deal_results[0]["tricks_won"][1] == 6


# -- TAF-04 ------------------------------------------------------------------------------------------
def test_taf04_beg_give_one():
    state = start([deck_for(FOUR, 3, {}, turn_up="9C")], scores=(5, 7))
    state.apply("beg")
    assert state.current_player() == 3 and state.legal_actions() == ["give one", "run"]
    state.apply("give one")
    assert state.scores() == [6, 7]
    assert state.observation(0)["trump"] == "C" and state.current_player() == 0


# -- TAF-05 ------------------------------------------------------------------------------------------
def test_taf05_give_one_ends_the_game():
    state = start([deck_for(FOUR, 3, {}, turn_up="9C")], scores=(13, 10))
    state.apply("beg")
    state.apply("give one")
    assert state.scores() == [14, 10] and state.is_over() and state.winner() == 0
    assert state.record()["hands"][0]["actions"] == [[0, "beg"], [3, "give one"]]
    assert state.deal_results[0]["end"] == "won"


# -- TAF-06 ------------------------------------------------------------------------------------------
def test_taf06_run_the_pack_same_suit_first():
    deck = deck_for(FOUR, 3, {}, turn_up="KC", runs=[({}, "AC"), ({}, "JD")], last_suits="D")
    state = start([deck])
    state.apply("beg")
    state.apply("run")
    obs = state.observation(0)
    assert obs["turn_ups"] == ["KC", "AC", "JD"] and obs["trump"] == "D" and obs["runs"] == 2
    assert state.scores() == [0, 4]
    assert [p["points"] for p in obs["points"]] == [1, 3]
    assert all(len(state.observation(s)["hand"]) == 12 for s in range(4))  # twelve tricks
    play_out(state)
    result = state.deal_results[0]
    assert sum(result["tricks_won"]) == 12
    assert "jack" not in [p["item"] for p in result["points"]]  # JD is the turn-up, out of play


# -- TAF-07 ------------------------------------------------------------------------------------------
def test_taf07_pack_exhausted():
    first = deck_for(FOUR, 3, {}, turn_up="5S", runs=[({}, "7S"), ({}, "6S")])
    second = deck_for(FOUR, 3, {}, turn_up="6C")
    state = start([first, second])
    state.apply("beg")
    state.apply("run")
    record = state.record()
    assert len(record["hands"]) == 2
    assert record["hands"][0]["actions"] == [[0, "beg"], [3, "run"]]
    assert record["hands"][0]["result"]["end"] == "redeal"
    assert record["hands"][0]["result"]["turn_ups"] == ["5S", "7S", "6S"]
    assert record["hands"][0]["result"]["stock_left"] == 1
    assert record["hands"][0]["result"]["scores"] == [0, 2]  # B keeps the kick for 6S
    assert record["hands"][1]["dealer"] == 3  # the same dealer redeals
    assert state.scores() == [0, 4]  # the new turn-up 6C kicks again
    assert state.phase == "stand_or_beg" and state.current_player() == 0  # a new stand/beg


# -- TAF-08 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "led, hand, legal",
    [
        ("KC", ("3C", "5H", "9D"), ("3C", "5H")),
        ("KC", ("5H", "9D"), ("5H", "9D")),
        ("2H", ("5H", "3C"), ("5H",)),
        ("2H", ("3C", "9D"), ("3C", "9D")),
    ],
)
def test_taf08_legal_plays(led, hand, legal):
    assert lawful_plays(mask(*hand), cards(led), HEARTS) == mask(*legal)


def test_taf08_legal_plays_in_the_engine():
    deck = deck_for(FOUR, 3, {0: ["KC"], 1: ["3C", "5H", "9D", "8D", "7S", "2S"]}, turn_up="4H", last_suits="CH")
    state = start([deck])
    state.apply("stand")
    state.apply("play KC")
    assert state.legal_actions() == ["play 3C", "play 5H"]
    with pytest.raises(IllegalActionError):
        state.apply("play 9D")


# -- TAF-09 ------------------------------------------------------------------------------------------
def test_taf09_trick_winner():
    assert trick_winner(cards("KC", "AC", "2H", "QC"), HEARTS) == 2
    deck = deck_for(FOUR, 3, {0: ["KC"], 1: ["AC"], 2: ["2H"], 3: ["QC"]}, turn_up="4H", last_suits="CH")
    state = start([deck])
    state.apply("stand")
    play(state, "KC", "AC", "2H", "QC")
    assert state.observation(0)["last_trick"]["winner"] == 2 and state.current_player() == 2


# -- TAF-10 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand, default, no_undertrump",
    [
        (("3H", "7C", "9D"), ("7C", "3H"), ("7C",)),
        (("3H", "9D"), ("3H", "9D"), ("9D",)),
        (("3H", "2H"), ("3H", "2H"), ("3H", "2H")),
        (("KH", "9D"), ("KH", "9D"), ("KH", "9D")),
    ],
)
def test_taf10_no_undertrump(hand, default, no_undertrump):
    trick = cards("5C", "QH")
    assert lawful_plays(mask(*hand), trick, HEARTS) == mask(*default)
    assert lawful_plays(mask(*hand), trick, HEARTS, no_undertrump=True) == mask(*no_undertrump)


def test_taf10_no_undertrump_in_the_engine():
    deck = deck_for(FOUR, 3, {0: ["5C"], 1: ["QH"], 2: ["3H", "7C", "9D"]}, turn_up="4H", last_suits="CH")
    for option, legal in ((False, ["play 7C", "play 3H"]), (True, ["play 7C"])):
        state = start([deck], no_undertrump=option)
        state.apply("stand")
        play(state, "5C", "QH")
        assert [a for a in state.legal_actions() if a[-1] in "CH"] == legal


# -- TAF-11, TAF-12, TAF-17 ----------------------------------------------------------------------------
TAF11_HANDS = {
    0: ["JH", "KC", "3C", "TD", "5S", "2D"],
    1: ["QH", "AC", "7C", "9D", "TS", "4S"],
    2: ["2H", "TC", "8C", "AD", "KS", "6S"],
    3: ["9H", "5C", "JC", "KD", "3S", "QS"],
}
TAF11_TRICKS = [
    (["KC", "AC", "8C", "5C"], 1),
    (["QH", "2H", "9H", "JH"], 1),
    (["TS", "6S", "3S", "5S"], 1),
    (["4S", "KS", "QS", "2D"], 2),
    (["AD", "KD", "TD", "9D"], 2),
    (["TC", "JC", "3C", "7C"], 3),
]


def taf11(scores=None):
    state = start([deck_for(FOUR, 3, TAF11_HANDS, turn_up="4H")], scores)
    state.apply("stand")
    return state


def test_taf11_complete_hand():
    state = taf11()
    assert state.scores() == [0, 0]
    for number, (trick, winner) in enumerate(TAF11_TRICKS):
        if number == 1:  # trump led: every seat holding a trump must play one
            state.apply("play QH")
            assert state.legal_actions() == ["play 2H"]
            play(state, "2H")
            assert state.legal_actions() == ["play 9H"]
            play(state, "9H")
            assert state.legal_actions() == ["play JH"]
            play(state, "JH")
        else:
            play(state, *trick)
        assert state.deal_results or state.observation(0)["last_trick"]["winner"] == winner
    result = state.deal_results[0]
    assert [t["winner"] for t in result["tricks"]] == [w for _, w in TAF11_TRICKS]
    assert items(state) == [("high", 1, 1), ("low", 0, 1), ("jack", 1, 3), ("game", 1, 1)]
    assert result["game_counts"] == [22, 31]
    assert result["changes"] == [1, 5] and result["scores"] == [1, 5]  # before the next deal's kick


def test_taf11_hang_jack_classic_value():
    state = start([deck_for(FOUR, 3, TAF11_HANDS, turn_up="4H")], hang_jack_points=1)
    state.apply("stand")
    for trick, _ in TAF11_TRICKS:
        play(state, *trick)
    assert ("jack", 1, 1) in items(state) and state.deal_results[0]["scores"] == [1, 3]


def test_taf12_counting_order_decides_the_winner():
    state = taf11(scores=(13, 12))
    for trick, _ in TAF11_TRICKS:
        play(state, *trick)
    assert items(state) == [("high", 1, 1), ("low", 0, 1)]  # Jack and Game never scored
    assert state.scores() == [14, 13] and state.is_over() and state.winner() == 0
    assert len(state.deals) == 1


def test_taf17_next_dealer_after_a_completed_hand():
    state = taf11()
    for trick, _ in TAF11_TRICKS:
        play(state, *trick)
    assert [deal["dealer"] for deal in state.deals] == [3, 0]
    assert state.current_player() == 1  # the new eldest


def test_taf17_redeal_keeps_the_dealer():
    first = deck_for(FOUR, 3, {}, turn_up="5S", runs=[({}, "7S"), ({}, "8S")])
    state = start([first, deck_for(FOUR, 3, {}, turn_up="4C")])
    state.apply("beg")
    state.apply("run")
    assert [deal["dealer"] for deal in state.deals] == [3, 3]


# -- TAF-13 ------------------------------------------------------------------------------------------
def test_taf13_jack_kept_by_its_own_side():
    hands = {0: ["2C", "9S"], 1: ["3C", "2S"], 2: ["AC", "JS"], 3: ["4C", "4S"]}
    state = start([deck_for(FOUR, 3, hands, turn_up="5S", last_suits="SC")])
    state.apply("stand")
    play(state, "2C", "3C", "AC", "4C", "JS", "4S", "9S", "2S")
    assert state.observation(0)["last_trick"]["winner"] == 2
    play_out(state)
    assert ("jack", 0, 1) in items(state)


def test_taf13_jack_won_by_the_holders_partner():
    hands = {0: ["2C", "QS"], 1: ["3C", "4S"], 2: ["AC", "JS"], 3: ["4C", "3S"]}
    state = start([deck_for(FOUR, 3, hands, turn_up="5S", last_suits="SC")])
    state.apply("stand")
    play(state, "2C", "3C", "AC", "4C", "JS", "3S", "QS", "4S")
    assert state.observation(0)["last_trick"]["winner"] == 0
    play_out(state)
    assert ("jack", 0, 1) in items(state)  # 1, not the hang-jack 3


# -- TAF-14 ------------------------------------------------------------------------------------------
def test_taf14_single_trump_counts_three_times():
    state = start([deck_for(FOUR, 3, {1: ["JH"]}, turn_up="7H", last_suits="H")])
    assert [c for s in range(4) for c in state.observation(s)["hand"] if c.endswith("H")] == ["JH"]
    state.apply("stand")
    play_out(state)
    scored = items(state)
    assert scored[:3] == [("high", 1, 1), ("low", 1, 1), ("jack", 1, 1)]
    game_side = next((side for item, side, _ in scored if item == "game"), None)
    assert state.deal_results[0]["changes"] == [int(game_side == 0), 3 + int(game_side == 1)]


# -- TAF-15 ------------------------------------------------------------------------------------------
TAF15_HANDS = {  # tricks 1-4 (A, K, Q, J of each suit) go to B, trick 5 (the four tens) to A: 40 each
    0: ["KS", "KC", "KD", "KH", "TH", "2C"],
    1: ["AS", "AC", "AD", "AH", "TS", "2D"],
    2: ["QS", "QC", "QD", "QH", "TC", "3D"],
    3: ["JS", "JC", "JD", "JH", "TD", "3C"],
}
TAF15_PLAY = ["KS", "AS", "QS", "JS", "AC", "QC", "JC", "KC", "AD", "QD", "JD", "KD",
              "AH", "QH", "JH", "KH", "TS", "TC", "TD", "TH", "2C", "2D", "3D", "3C"]


@pytest.mark.parametrize("tie, changes", [("none", [1, 2]), ("eldest", [2, 2])])
def test_taf15_game_tie(tie, changes):
    state = start([deck_for(FOUR, 3, TAF15_HANDS, turn_up="4H")], game_tie=tie)
    state.apply("stand")
    play(state, *TAF15_PLAY)
    result = state.deal_results[0]
    assert result["game_counts"] == [40, 40]
    assert [p for p in items(state) if p[0] == "game"] == ([] if tie == "none" else [("game", 0, 1)])
    assert result["changes"] == changes


# -- TAF-16 ------------------------------------------------------------------------------------------
def test_taf16_two_players_runs_until_the_pack_is_exhausted():
    spades = ["3S", "4S", "5S", "7S", "8S", "9S"]
    deck = deck_for(TWO, 1, {}, turn_up=spades[0], runs=[({}, t) for t in spades[1:]], last_suits="S")
    state = start([deck, deck_for(TWO, 1, {}, turn_up="4C")], dealer=1, players=2)
    assert state.current_player() == 0  # the non-dealer is eldest
    state.apply("beg")
    assert state.current_player() == 1
    state.apply("run")
    first = state.deal_results[0]
    assert first["end"] == "redeal" and first["runs"] == 5 and first["stock_left"] == 4
    assert [deal["dealer"] for deal in state.deals] == [1, 1]


def test_taf16_two_players_fifth_run_changes_suit():
    turn_ups = ["3S", "4S", "5S", "7S", "8S", "9D"]
    deck = deck_for(TWO, 1, {}, turn_up=turn_ups[0], runs=[({}, t) for t in turn_ups[1:]], last_suits="S")
    state = start([deck], dealer=1, players=2)
    state.apply("beg")
    state.apply("run")
    obs = state.observation(0)
    assert obs["trump"] == "D" and obs["runs"] == 5 and obs["stock_count"] == 4
    assert len(obs["hand"]) == 21 and len(state.observation(1)["hand"]) == 21
    play_out(state)
    assert sum(state.deal_results[0]["tricks_won"]) == 21


# -- TAF-18 ------------------------------------------------------------------------------------------
def test_taf18_serious_revoke_loses_the_game():
    deck = deck_for(FOUR, 3, {0: ["8C"], 1: ["KC", "4C", "9D"]}, turn_up="5C", last_suits="C")
    state = start([deck], illegal_play_mode="penalize")
    state.apply("stand")
    state.apply("play 8C")
    obs = state.observation(1)
    assert "play 9D" in obs["legal_actions"] and obs["lawful_actions"] == ["play 4C", "play KC"]
    state.apply("play 9D")
    assert not state.is_over()  # established only at the end of the trick
    state.apply_id(state.legal_action_ids()[0])
    state.apply_id(state.legal_action_ids()[0])
    assert state.is_over() and state.winner() == 0 and state.ranking() == [0, 1]
    assert state.deal_results[0]["end"] == "lost_by_revoke"
    assert state.result()["end"] == "penalty"


def test_taf18_ordinary_revoke_point_and_no_game():
    deck = deck_for(FOUR, 3, {0: ["8C"], 1: ["4C", "3C", "9D"]}, turn_up="5C", last_suits="CD")
    state = start([deck], illegal_play_mode="penalize")
    state.apply("stand")
    play(state, "8C", "9D")
    state.apply_id(state.legal_action_ids()[0])
    state.apply_id(state.legal_action_ids()[0])
    assert not state.is_over() and state.scores() == [1, 0]
    assert state.observation(0)["revokes"] == [{"seat": 1, "trick": 0, "serious": False}]
    assert state.observation(2)["game_barred"] == [False, True]
    play_out(state)
    assert ("game", 1, 1) not in items(state)
    assert game_point([10, 30], "none", 0, [False, True]) is None
    assert game_point([30, 30], "eldest", 1, [False, True]) is None
    assert game_point([30, 10], "none", 1, [False, True]) == 0


def test_reject_mode_refuses_a_revoke():
    deck = deck_for(FOUR, 3, {0: ["8C"], 1: ["KC", "4C", "9D"]}, turn_up="5C", last_suits="C")
    state = start([deck])
    state.apply("stand")
    state.apply("play 8C")
    before = state.observation(1)
    with pytest.raises(IllegalActionError):
        state.apply("play 9D")
    assert state.observation(1) == before
