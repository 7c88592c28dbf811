"""The worked examples of docs/games/fifty_six.md §15, one test each (T56-01 .. T56-17)."""

from __future__ import annotations

import pytest

from arena.errors import IllegalActionError
from arena.games.fifty_six import FiftySixGame
from arena.games.fifty_six.cards import KIND, KIND_POINTS, hand_size, pack_tokens
from arena.games.fifty_six.play import playable, trick_winner
from arena.games.fifty_six.scoring import settle, stakes

try:
    from tests.games.test_fifty_six_support import calls, card, cards, dominant, fill, match, play_out, play_trick
except ImportError:  # pragma: no cover - when tests/games is not importable as a package
    from test_fifty_six_support import calls, card, cards, dominant, fill, match, play_out, play_trick

FOUR = [0, 1, 2, 3]


def kinds_mask(tokens: list[str]) -> int:
    hand = 0
    for t in tokens:
        hand |= 1 << KIND[t]
    return hand


def test_T56_01_deck_composition():
    for players, total, size in ((4, 48, 12), (6, 48, 8), (8, 64, 8)):
        pack = pack_tokens(players)
        assert len(pack) == total and hand_size(players) == size
        assert sum(KIND_POINTS[KIND[t]] for t in pack) == 56
        ranks = {t[:-1] for t in pack}
        assert ranks == ({"9", "10", "J", "Q", "K", "A"} | ({"7", "8"} if players == 8 else set()))
        state = FiftySixGame({"players": players}).new_match(seed=1)
        assert [len(state.observation(s)["hand"]) for s in range(players)] == [size] * players


def test_T56_02_team_assignment():
    expected = {
        (6, "pairs"): [{0, 3}, {1, 4}, {2, 5}],
        (8, "pairs"): [{0, 4}, {1, 5}, {2, 6}, {3, 7}],
        (6, "two_sides"): [{0, 2, 4}, {1, 3, 5}],
        (8, "two_sides"): [{0, 2, 4, 6}, {1, 3, 5, 7}],
        (4, "pairs"): [{0, 2}, {1, 3}],
        (4, "two_sides"): [{0, 2}, {1, 3}],
    }
    for (players, mode), teams in expected.items():
        game = FiftySixGame({"players": players, "team_mode": mode})
        assert [set(game.seats_of(t)) for t in range(game.num_sides)] == teams
        assert game.new_match(seed=0).scores() == [12] * len(teams)


def test_T56_03_trump_trick():
    hands = fill({0: ["AS"], 1: ["QH"], 2: ["JS"], 3: ["KH"]}, FOUR, voids={1: "S", 3: "S"})
    game, state = match(hands, dealer=3)
    calls(state, (0, "bid 28 H"), (1, "pass"), (2, "pass"), (3, "pass"))
    play_trick(state, "0:AS 1:QH 2:JS 3:KH")
    obs = state.observation(0)
    assert obs["last_trick"]["winner"] == 3 and obs["last_trick"]["points"] == 4
    assert obs["points_won"] == [0, 4] and obs["tricks_won"] == [0, 1]
    assert state.current_player() == 3  # the winner leads


def test_T56_04_identical_cards():
    # (a) NT: JD then JD' -> the first wins.
    hands = fill({0: ["JD"], 1: ["JD"], 2: ["9D"], 3: ["QD"]}, FOUR)
    game, state = match(hands, dealer=3)
    calls(state, (0, "bid 28 NT"), (1, "pass"), (2, "pass"), (3, "pass"))
    play_trick(state, "0:JD 1:JD' 2:9D 3:QD")
    last = state.observation(1)["last_trick"]
    assert (last["winner"], last["points"]) == (0, 8)
    # (b) spades: JS then JS' as trumps -> the first wins.
    hands = fill({0: ["10H"], 1: ["JS"], 2: ["JS"], 3: ["9H"]}, FOUR, voids={1: "H", 2: "H"})
    game, state = match(hands, dealer=3)
    calls(state, (0, "bid 28 S"), (1, "pass"), (2, "pass"), (3, "pass"))
    play_trick(state, "0:TH 1:JS 2:JS' 3:9H")
    last = state.observation(1)["last_trick"]
    assert (last["winner"], last["points"]) == (1, 9)


def test_T56_05_eight_player_ranking():
    plays = "8C 7C QC 8C' AD 7C' KS QC'".split()
    required = {seat: [card(t)] for seat, t in enumerate(plays)}
    hands = fill(required, list(range(8)), voids={4: "C", 6: "C"})
    game, state = match(hands, dealer=7, players=8)
    calls(state, (0, "bid 28 NT"), *[(s, "pass") for s in range(1, 8)])
    play_trick(state, " ".join(f"{s}:{t}" for s, t in enumerate(plays)))
    last = state.observation(0)["last_trick"]
    assert (last["winner"], last["points"]) == (2, 1)
    assert trick_winner([KIND[card(t)] for t in plays], -1) == 2


def test_T56_06_follow_suit_legality():
    spade = 0
    assert playable(kinds_mask(["AS", "9H", "KC"]), spade) == kinds_mask(["AS"])
    assert playable(kinds_mask(["9H", "KC"]), spade) == kinds_mask(["9H", "KC"])
    assert playable(kinds_mask(["AS", "9H", "KC"]), -1) == kinds_mask(["AS", "9H", "KC"])
    # In the engine: after a spade lead a seat holding spades is offered only its spades.
    hands = fill({0: ["AS"], 1: ["KS", "9H"]}, FOUR)
    game, state = match(hands, dealer=3)
    calls(state, (0, "bid 28 H"), (1, "pass"), (2, "pass"), (3, "pass"))
    assert sorted(state.legal_actions()) == sorted({"play " + t for t in hands[0]})
    state.apply("play AS")
    spades = {"play " + t for t in hands[1] if t.endswith("S")}
    assert set(state.legal_actions()) == spades


def test_T56_07_auction_with_forms():
    game, state = match(fill({}, FOUR), dealer=3)
    calls(state, (0, "bid 28 D"), (1, "pass"), (2, "bid +2 D"))
    assert state.observation(3)["auction"]["high_bid"]["amount"] == 30
    calls(state, (3, "bid 32 noes"), (0, "pass"), (1, "pass"))
    assert state.phase == "auction"
    calls(state, (2, "pass"))
    contract = state.observation(0)["contract"]
    assert (contract["amount"], contract["strain"], contract["declarer"], contract["side"]) == (32, "NT", 3, 1)
    assert contract["multiplier"] == 1 and contract["form"] == "number_noes"
    assert state.phase == "play" and state.current_player() == 0


def test_T56_08_illegal_calls():
    game, state = match(fill({}, FOUR), dealer=3)
    calls(state, (0, "bid 28 D"), (1, "pass"), (2, "bid +2 D"), (3, "bid 32 noes"))
    for bad in ("bid 32 S", "bid 57 S", "bid 27 S", "bid +3 noes", "redouble", "bid 32 NT"):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert game.action_id("bid 57 S") is None and game.action_id("bid +3 noes") is None
    calls(state, (0, "pass"))
    assert state.current_player() == 1
    for bad in ("double", "redouble"):  # seat 1 is on the bidder's team
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    # The plus forms are not a first call.
    game, state = match(fill({}, FOUR), dealer=3)
    for bad in ("bid +1 S", "bid +2 noes", "double", "redouble"):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    # With plus_noes_increment = any, +3 noes is an action (and legal after a bid).
    game, state = match(fill({}, FOUR), dealer=3, plus_noes_increment="any")
    calls(state, (0, "bid 28 D"), (1, "bid +3 noes"))
    assert state.observation(2)["auction"]["high_bid"]["amount"] == 31


def test_T56_09_double_cancelled_by_a_higher_bid():
    game, state = match(fill({}, FOUR), dealer=3)
    calls(state, (0, "bid 28 S"), (1, "double"))
    assert state.observation(2)["auction"]["doubled"]
    calls(state, (2, "bid 29 S"), (3, "pass"), (0, "pass"), (1, "pass"))
    contract = state.observation(0)["contract"]
    assert (contract["amount"], contract["strain"], contract["declarer"], contract["multiplier"]) == (29, "S", 2, 1)


@pytest.mark.parametrize("strong, change", [([0, 2], [4, -4]), ([1, 3], [-6, 6])])
def test_T56_10_doubled_contract(strong, change):
    game, state = match(dominant(FOUR, strong), dealer=3)
    calls(state, (0, "bid 40 H"), (1, "double"), (2, "pass"), (3, "pass"), (0, "pass"))
    contract = state.observation(0)["contract"]
    assert (contract["amount"], contract["strain"], contract["side"], contract["multiplier"]) == (40, "H", 0, 2)
    play_out(state)
    assert state.deal_results[0]["changes"] == change


@pytest.mark.parametrize("strong, change", [([0, 2], [8, -8]), ([1, 3], [-12, 12])])
def test_T56_10_redouble_ends_the_auction(strong, change):
    game, state = match(dominant(FOUR, strong), dealer=3)
    calls(state, (0, "bid 40 H"), (1, "double"), (2, "redouble"))
    assert state.phase == "play" and state.observation(0)["contract"]["multiplier"] == 4
    play_out(state)
    assert state.deal_results[0]["changes"] == change


def test_T56_11_redouble_with_three_teams_made():
    six = list(range(6))
    game, state = match(dominant(six, [0, 3]), dealer=5, players=6)
    calls(state, (0, "bid 30 H"), (1, "double"), (2, "pass"), (3, "redouble"))
    assert state.observation(0)["contract"]["stakes"] == {"made": 4, "lost": 8}
    play_out(state)
    assert state.scores() == [20, 8, 8] and sum(state.scores()) == 36


def test_T56_11_redouble_with_three_teams_lost():
    six = list(range(6))
    game, state = match(dominant(six, [1, 4]), dealer=5, players=6)
    calls(state, (0, "bid 30 H"), (1, "double"), (2, "pass"), (3, "redouble"))
    play_out(state)
    assert state.scores() == [0, 20, 16]  # B paid first (seat 1 = declarer+1), C only 4
    assert state.deal_results[0]["eliminated"] == [0]
    # Next hand: seats 1 2 4 5 (B C B C), seat 1 deals, 48 cards, 12 each; seat 2 calls first.
    assert not state.is_over()
    assert state.active_seats == [1, 2, 4, 5] and state.dealer == 1
    assert len(state.deals[1]["deck"]) == 48
    assert [len(state.observation(s)["hand"]) for s in range(6)] == [0, 12, 12, 0, 12, 12]
    assert state.current_player() == 2
    calls(state, (2, "pass"), (4, "pass"), (5, "pass"), (1, "pass"))
    assert state.observation(2)["contract"]["declarer"] == 2 and state.current_player() == 2
    play_out(state)
    assert sum(state.scores()) == 36 and state.scores()[0] == 0


@pytest.mark.parametrize("strong, change", [([0, 2], [1, -1]), ([1, 3], [-2, 2])])
def test_T56_12_all_pass(strong, change):
    game, state = match(dominant(FOUR, strong), dealer=3)
    calls(state, (0, "pass"), (1, "pass"), (2, "pass"), (3, "pass"))
    contract = state.observation(0)["contract"]
    assert (contract["amount"], contract["strain"], contract["multiplier"]) == (28, "NT", 1)
    assert (contract["declarer"], contract["side"], contract["all_pass"]) == (0, 0, True)
    assert state.current_player() == 0
    play_out(state)
    assert state.deal_results[0]["changes"] == change


T13_HANDS = {
    0: "9S AS' TS' KS KS' 9H 9D' QD' JC JC' AC' QC'",
    1: "JS' 9S' QS' JH' KH' QH JD 9D AD' TC' KC QC",
    2: "JS AS TS JH AH' TH KH JD' KD KD' 9C AC",
    3: "QS 9H' AH TH' QH' AD TD TD' QD 9C' TC KC'",
}
T13_TRICKS = [
    ("0:9H 1:JH' 2:KH 3:9H'", 1, 7, 0, 7),
    ("1:9S' 2:TS 3:QS 0:TS'", 1, 4, 0, 11),
    ("1:QC 2:9C 3:KC' 0:JC'", 0, 5, 5, 11),
    ("0:9S 1:JS' 2:AS 3:QD", 1, 6, 5, 17),
    ("1:KH' 2:JH 3:AH 0:AC'", 2, 5, 10, 17),
    ("2:JS 3:TC 0:KS' 1:QS'", 2, 4, 14, 17),
    ("2:TH 3:TH' 0:JC 1:QH", 2, 5, 19, 17),
    ("2:AH' 3:QH' 0:AS' 1:KC", 2, 2, 21, 17),
    ("2:KD 3:TD 0:QD' 1:JD", 1, 4, 21, 21),
    ("1:TC' 2:AC 3:9C' 0:QC'", 3, 4, 21, 25),
    ("3:AD 0:9D' 1:AD' 2:JD'", 2, 7, 28, 25),
    ("2:KD' 3:TD' 0:KS 1:9D", 1, 3, 28, 28),
]


@pytest.mark.parametrize(
    "auction, change",
    [
        ([(0, "pass"), (1, "pass"), (2, "bid 28 H"), (3, "pass"), (0, "pass"), (1, "pass")], [1, -1]),
        ([(0, "pass"), (1, "bid 29 H"), (2, "pass"), (3, "pass"), (0, "pass")], [2, -2]),
        ([(0, "bid 28 H"), (1, "pass"), (2, "pass"), (3, "double"), (0, "pass"), (1, "pass"), (2, "pass")], [2, -2]),
    ],
    ids=["28H_by_seat2_made", "29H_by_seat1_lost", "28H_by_seat0_doubled_made"],
)
def test_T56_13_complete_four_player_hand(auction, change):
    hands = {seat: cards(text) for seat, text in T13_HANDS.items()}
    assert [sum(KIND_POINTS[KIND[t]] for t in hands[s]) for s in FOUR] == [15, 15, 16, 10]
    game, state = match(hands, dealer=3)
    calls(state, *auction)
    assert state.observation(0)["trump"] == "H"
    for plays, winner, points, team0, team1 in T13_TRICKS:
        play_trick(state, plays)
        if len(state.deals) == 1:
            obs = state.observation(0)
            assert (obs["last_trick"]["winner"], obs["last_trick"]["points"]) == (winner, points)
            assert obs["points_won"] == [team0, team1]
    result = state.deal_results[0]
    assert result["points"] == [28, 28]
    assert result["changes"] == change
    assert state.scores() == [12 + change[0], 12 + change[1]]


def test_T56_14_stake_boundaries():
    table = [
        (39, 0, True, 1), (39, 0, False, -2), (40, 0, True, 2), (47, 0, False, -3),
        (48, 0, True, 3), (55, 0, False, -4), (56, 0, True, 4), (56, 0, False, -5),
        (44, 1, False, -6), (52, 2, True, 12),
    ]
    for amount, level, made, tables in table:
        win, loss = stakes(amount, level, additive=False)
        assert (win if made else -loss) == tables, (amount, level, made)
    assert stakes(44, 1, additive=True)[1] == 4
    assert stakes(52, 2, additive=True)[0] == 5


def test_T56_15_elimination_two_teams():
    for cannot_pay in (False, True):
        tables = [21, 3]
        win, loss = stakes(40, 1, False)
        made = 38 >= 40
        out = settle(tables, 1, [0], made, win, loss, capped=True, cannot_pay=cannot_pay)
        assert tables == [24, 0] and out == [1]
    # In the engine: team 1 holds 3 tables, contracts 40 S, is doubled and takes no points.
    for elimination in ("at_zero", "cannot_pay"):
        game, state = match(dominant(FOUR, [0, 2]), dealer=3, elimination=elimination)
        state.tables = [21, 3]  # set up the position of the case
        calls(state, (0, "pass"), (1, "bid 40 S"), (2, "double"), (3, "pass"), (0, "pass"), (1, "pass"))
        play_out(state)
        assert state.is_over() and state.scores() == [24, 0]
        assert state.winner() == 0 and state.ranking() == [0, 1]
        assert state.result()["end"] == "elimination"


def test_T56_16_multi_team_win_with_a_capped_payer():
    tables = [12, 1, 12]
    win, loss = stakes(48, 0, False)
    assert settle(tables, 0, [1, 2], True, win, loss, capped=True, cannot_pay=False) == [1]
    assert tables == [16, 0, 9]
    six = list(range(6))
    game, state = match(dominant(six, [0, 3]), dealer=5, players=6)
    state.tables = [12, 1, 12]  # set up the position of the case
    calls(state, (0, "bid 48 D"), *[(s, "pass") for s in range(1, 6)])
    play_out(state)
    assert state.scores() == [16, 0, 9] and not state.is_over()
    assert state.active_seats == [0, 2, 3, 5]  # A C A C
    assert [len(state.observation(s)["hand"]) for s in six] == [12, 0, 12, 12, 0, 12]
    assert state.observation(0)["eliminated_sides"] == [1]


def test_T56_17_doubling_your_own_side_is_illegal():
    game, state = match(fill({}, FOUR), dealer=3)
    calls(state, (0, "bid 28 S"), (1, "pass"))
    with pytest.raises(IllegalActionError):
        state.apply("double")  # seat 2, same team
    game, state = match(fill({}, FOUR), dealer=3)
    calls(state, (0, "bid 28 S"), (1, "double"), (2, "pass"))
    for bad in ("double", "redouble"):  # seat 3: already doubled; not the contracting team
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert "redouble" in (calls(state, (3, "pass")) or state.legal_actions())  # seat 0 may
