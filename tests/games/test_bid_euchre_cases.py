"""The worked cases of §14 of docs/games/bid_euchre.md (TBE-01 .. TBE-18), one test each."""

from __future__ import annotations

import pytest

from arena.errors import IllegalActionError
from arena.games.base import FixedDecks, MatchEnd, SeededDecks
from arena.games.bid_euchre import BidEuchreGame
from arena.games.bid_euchre.cards import INDEX, TABLES, TOKENS, ace_no_face
from arena.games.bid_euchre.dealing import deck_for
from arena.games.bid_euchre.play import playable, trick_winner
from arena.games.bid_euchre.scoring import game_winner, hand_changes

S, C, D, H = range(4)

# TBE-08's deal, by seat.
TBE08 = {
    0: ["AH", "KS", "JH", "JS", "AS", "TS"],
    1: ["TD", "9S", "KD", "QH", "QS", "9D"],
    2: ["JC", "KC", "9C", "QC", "JD", "AC"],
    3: ["QD", "TH", "AD", "TC", "9H", "KH"],
}


def start(hands, dealer, options=None, extra=None):
    """A match whose first deal gives ``hands`` (seat -> cards), later deals seeded."""
    game = BidEuchreGame(options or {})
    deck = deck_for(game, dealer, hands, extra=extra)
    return game.new_match(decks=FixedDecks([deck], dealer, then=SeededDecks("tbe")))


def run(state, *actions):
    """Apply "seat:action" steps, checking that each seat is the one to act."""
    for step in actions:
        seat, action = step.split(":", 1)
        assert state.current_player() == int(seat), (step, state.current_player(), state.phase)
        state.apply(action)


def mask_of(*cards):
    m = 0
    for c in cards:
        m |= 1 << INDEX[c.replace("T", "10") if c[0] == "T" else c]
    return m


def tokens_of(mask):
    return sorted(TOKENS[t] for t in range(25) if mask >> t & 1)


def test_tbe01_ranking():
    hearts = TABLES[H]
    trumps = sorted((t for t in range(24) if hearts.eff[t] == H), key=lambda t: -hearts.power[t])
    assert [TOKENS[t] for t in trumps] == ["JH", "JD", "AH", "KH", "QH", "10H", "9H"]
    diamonds = sorted((t for t in range(24) if hearts.eff[t] == D), key=lambda t: -hearts.power[t])
    assert [TOKENS[t] for t in diamonds] == ["AD", "KD", "QD", "10D", "9D"]
    for suit in "SC":
        order = sorted((t for t in range(24) if hearts.eff[t] == "SCDH".index(suit)), key=lambda t: -hearts.power[t])
        assert [TOKENS[t] for t in order] == [r + suit for r in ("A", "K", "Q", "J", "10", "9")]
    clubs = TABLES[C]
    trumps = sorted((t for t in range(25) if clubs.eff[t] == C), key=lambda t: -clubs.power[t])
    assert [TOKENS[t] for t in trumps] == ["JK", "JC", "JS", "AC", "KC", "QC", "10C", "9C"]


def test_tbe02_left_bower_is_not_its_printed_suit():
    hearts = TABLES[H]
    assert tokens_of(playable(mask_of("JD", "9S", "KC"), INDEX["AD"], hearts)) == ["9S", "JD", "KC"]
    assert tokens_of(playable(mask_of("JD", "TD"), INDEX["AD"], hearts)) == ["10D"]
    assert tokens_of(playable(mask_of("JD", "AS", "KC"), INDEX["9H"], hearts)) == ["JD"]


def test_tbe03_trick_with_bowers():
    cards = [(3, INDEX["KH"]), (0, INDEX["JH"]), (1, INDEX["QH"]), (2, INDEX["JD"])]
    assert trick_winner(cards, TABLES[H]) == 0


def test_tbe04_auction_single_round():
    state = start({}, dealer=3)
    run(state, "0:bid 3", "1:pass", "2:bid 4", "3:bid 5")
    assert state.phase == "trump" and state.current_player() == 3
    assert state.contractor == 3
    run(state, "3:trump H")
    order = []
    for _ in range(4):
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [3, 0, 1, 2]


def test_tbe05_illegal_bids():
    game = BidEuchreGame()
    assert game.action_id("bid 2") is None
    assert game.action_id("bid 6") is None  # plain 6 is not an action by default
    state = start({}, dealer=3)
    with pytest.raises(IllegalActionError):
        state.apply("bid 2")
    run(state, "0:bid 4")
    with pytest.raises(IllegalActionError):
        state.apply("bid 4")
    with pytest.raises(IllegalActionError):
        state.apply("bid 6")
    run(state, "1:bid help")
    with pytest.raises(IllegalActionError):
        state.apply("bid 5")
    assert "bid moon" in state.legal_actions()
    run(state, "2:bid moon")
    assert state.legal_actions() == ["pass"]


def test_tbe06_all_pass_and_stick_the_dealer():
    state = start({}, dealer=3)
    run(state, "0:pass", "1:pass", "2:pass", "3:pass")
    assert state.deal_results[-1]["end"] == "all_pass"
    assert state.deal_results[-1]["changes"] == [0, 0]
    assert state.scores() == [0, 0]
    assert state.deals[-1]["dealer"] == 0 and state.current_player() == 1
    stuck = start({}, dealer=3, options={"stick_the_dealer": True})
    run(stuck, "0:pass", "1:pass", "2:pass")
    assert stuck.legal_actions() == ["bid 3", "bid 4", "bid 5", "bid help", "bid moon"]
    with pytest.raises(IllegalActionError):
        stuck.apply("pass")


def test_tbe07_made_contract():
    assert hand_changes(4, 6, 7, 8, 0, [5, 1], [0, 0]) == ([5, 1], True)
    assert hand_changes(3, 6, 7, 8, 0, [6, 0], [0, 0]) == ([6, 0], True)  # no bonus for a plain bid


def tbe08(options=None, dealer=2):
    return start(TBE08, dealer=dealer, options=options)


TBE08_TRICKS = [
    ("3:TC 0:JS 1:TD 2:9C", 3),
    ("3:KH 0:JH 1:QH 2:JD", 0),
    ("0:TS 1:QS 2:KC 3:TH", 3),
    ("3:AD 0:AH 1:KD 2:AC", 0),
    ("0:AS 1:9S 2:QC 3:QD", 0),
    ("0:KS 1:9D 2:JC 3:9H", 3),
]


def play_hand(state, tricks):
    """Play tricks given as ("seat:card ...", winner) pairs, checking turns and each winner."""
    for cards, winner in tricks:
        hands_before = len(state.deal_results)
        for step in cards.split():
            seat, card = step.split(":")
            assert state.current_player() == int(seat), (step, state.current_player())
            state.apply(f"play {card}")
        if len(state.deal_results) > hands_before:  # the last trick ended the hand
            assert state.deal_results[-1]["tricks"][-1]["winner"] == winner, cards
        else:
            assert state.tricks[-1][2] == winner, cards


def test_tbe08_complete_hand_set():
    state = tbe08()
    run(state, "3:bid 4", "0:pass", "1:pass", "2:pass", "3:trump H")
    # Trick 2: JD is seat 2's only trump, so it is forced.
    run(state, "3:play TC", "0:play JS", "1:play TD", "2:play 9C", "3:play KH", "0:play JH", "1:play QH")
    assert state.legal_actions() == ["play JD"]
    state.apply("play JD")
    assert [t[2] for t in state.tricks] == [3, 0]
    play_hand(state, TBE08_TRICKS[2:])
    result = state.deal_results[-1]
    assert [t["winner"] for t in result["tricks"]] == [w for _, w in TBE08_TRICKS]
    assert result["tricks_won"] == [3, 3]
    assert result["changes"] == [3, -4] and result["end"] == "set"
    assert state.scores() == [3, -4]


TBE09_TRICKS = [
    ("2:JC 3:TC 1:9S", 2),
    ("2:JS 3:QD 1:TD", 2),
    ("2:AC 3:AD 1:KD", 2),
    ("2:KC 3:TH 1:QH", 2),
    ("2:QC 3:9H 1:QS", 2),
    ("2:9C 3:KH 1:9D", 2),
]


def test_tbe09_complete_hand_help_made():
    state = tbe08(dealer=1)
    run(state, "2:bid help", "3:pass", "0:pass", "1:pass", "2:trump C")
    assert state.phase == "exchange"
    run(state, "2:give JD")
    # The partner's only legal gift is its best trump, the left bower JS (E6).
    assert state.legal_actions() == ["give JS"]
    run(state, "0:give JS")
    assert sorted(state.observation(2)["hand"]) == sorted(["JC", "KC", "9C", "QC", "AC", "JS"])
    assert state.phase == "play" and state.current_player() == 2
    play_hand(state, TBE09_TRICKS)
    result = state.deal_results[-1]
    assert [t["winner"] for t in result["tricks"]] == [2] * 6
    assert all(len(t["cards"]) == 3 for t in result["tricks"])
    assert result["tricks_won"] == [6, 0]
    assert result["changes"] == [12, 0] and state.scores() == [12, 0]


def test_tbe09_forced_follow_of_seat3():
    state = tbe08(dealer=1)
    run(state, "2:bid help", "3:pass", "0:pass", "1:pass", "2:trump C", "2:give JD", "0:give JS", "2:play JC")
    assert state.legal_actions() == ["play 10C"]


def test_tbe10_help_failed():
    assert hand_changes(7, 6, 7, 8, 0, [5, 1], [0, 0]) == ([-6, 1], False)
    # The same through play: TBE-09's deal, but the contractor gives AC and keeps JD.
    state = tbe08(dealer=1)
    run(state, "2:bid help", "3:pass", "0:pass", "1:pass", "2:trump C", "2:give AC", "0:give JS")
    play_hand(
        state,
        [
            ("2:JC 3:TC 1:9S", 2),
            ("2:JS 3:QD 1:TD", 2),
            ("2:KC 3:TH 1:QH", 2),
            ("2:QC 3:9H 1:QS", 2),
            ("2:9C 3:KH 1:KD", 2),
            ("2:JD 3:AD 1:9D", 3),
        ],
    )
    assert state.deal_results[-1]["changes"] == [-6, 1]


def test_tbe11_moon():
    assert hand_changes(8, 6, 7, 8, 1, [0, 6], [0, 0]) == ([0, 24], True)
    assert hand_changes(8, 6, 7, 8, 1, [1, 5], [0, 0]) == ([1, -6], False)
    # Made through play: seat 0 holds the six best hearts.
    state = start({0: ["JH", "JD", "AH", "KH", "QH", "TH"]}, dealer=3)
    run(state, "0:bid moon", "1:pass", "2:pass", "3:pass", "0:trump H")
    while not state.deal_results:
        state.apply(state.legal_actions()[0])
    assert state.deal_results[-1]["changes"] == [24, 0]
    # Failed through play: TBE-09's deal, seat 2 shoots the moon in clubs and loses the JD trick.
    state = tbe08(dealer=1)
    run(state, "2:bid moon", "3:pass", "0:pass", "1:pass", "2:trump C")
    assert state.phase == "play"
    play_hand(
        state,
        [
            ("2:JC 3:TC 1:9S", 2),
            ("2:AC 3:QD 1:TD", 2),
            ("2:KC 3:TH 1:QH", 2),
            ("2:QC 3:9H 1:QS", 2),
            ("2:9C 3:KH 1:KD", 2),
            ("2:JD 3:AD 1:9D", 3),
        ],
    )
    assert state.deal_results[-1]["changes"] == [-6, 1]


def test_tbe12_partner_holds_no_trump():
    partner = ["AH", "KH", "QD", "TD", "9C", "TC"]
    state = start({2: partner}, dealer=3)
    run(state, "0:bid help", "1:pass", "2:pass", "3:pass", "0:trump S")
    run(state, "0:" + state.legal_actions()[0])
    assert state.current_player() == 2
    assert sorted(state.legal_actions()) == sorted(f"give {c.replace('T', '10')}" for c in partner)
    with_jc = ["AH", "KH", "QD", "TD", "9C", "JC"]
    state = start({2: with_jc}, dealer=3)
    run(state, "0:bid help", "1:pass", "2:pass", "3:pass", "0:trump S")
    run(state, "0:" + state.legal_actions()[0])
    assert state.legal_actions() == ["give JC"]


def test_tbe13_winning_the_game():
    # The five bullets, with the scoring functions.
    def after(scores, level, side, tricks, mode="higher_score"):
        changes, _ = hand_changes(level, 6, 7, 8, side, tricks, [0, 0])
        new = [scores[0] + changes[0], scores[1] + changes[1]]
        return new, game_winner(new, 32, side, mode)

    assert after([30, 20], 3, 0, [4, 2]) == ([34, 22], 0)
    assert after([29, 30], 3, 0, [3, 3]) == ([32, 33], 1)
    assert after([29, 30], 3, 0, [3, 3], "bidders_win") == ([32, 33], 0)
    assert after([29, 29], 3, 0, [3, 3]) == ([32, 32], None)
    assert after([26, 10], 7, 0, [6, 0]) == ([38, 10], 0)
    assert after([31, 31], 5, 1, [2, 4]) == ([33, 26], 0)


@pytest.mark.parametrize(
    "before, options, over, winner",
    [
        ([29, 36], {}, False, None),  # (32, 32): another hand
        ([30, 36], {}, True, 0),  # (33, 32): the higher score wins
        ([30, 36], {"simultaneous_finish": "bidders_win"}, True, 1),  # ... or the bidders
        ([31, 31], {}, True, 0),  # (34, 27): the defenders win
        ([20, 20], {}, False, None),
    ],
)
def test_tbe13_winning_the_game_through_play(before, options, over, winner):
    state = tbe08(options)
    state.total = list(before)
    run(state, "3:bid 4", "0:pass", "1:pass", "2:pass", "3:trump H")
    play_hand(state, TBE08_TRICKS)
    assert state.scores() == [before[0] + 3, before[1] - 4]
    assert state.is_over() is over
    assert state.winner() == winner
    if not over:
        assert len(state.deals) == 2 and state.phase == "auction"


def test_tbe14_renege_penalty():
    state = tbe08({"illegal_play_mode": "penalize"})
    run(state, "3:bid 4", "0:pass", "1:pass", "2:pass", "3:trump H")
    play_hand(
        state,
        [
            ("3:TC 0:JS 1:TD 2:9C", 3),
            ("3:KH 0:JH 1:QH 2:JD", 0),
            ("0:TS 1:9S 2:KC 3:TH", 3),
            ("3:AD 0:AH 1:QS 2:AC", 0),  # seat 1 holds KD and 9D and discards QS: a renege
            ("0:AS 1:KD 2:QC 3:QD", 0),
            ("0:KS 1:9D 2:JC 3:9H", 3),
        ],
    )
    result = state.deal_results[-1]
    assert result["reneges"] == [0, 1]
    assert result["changes"] == [3, -4 - 2]
    # In the default mode the same renege is refused.
    state = tbe08()
    run(state, "3:bid 4", "0:pass", "1:pass", "2:pass", "3:trump H")
    play_hand(state, [("3:TC 0:JS 1:TD 2:9C", 3), ("3:KH 0:JH 1:QH 2:JD", 0), ("0:TS 1:9S 2:KC 3:TH", 3)])
    run(state, "3:play AD", "0:play AH")
    with pytest.raises(IllegalActionError):
        state.apply("play QS")


def test_tbe15_ace_no_face():
    assert ace_no_face(mask_of("AS", "9H", "TH", "9C", "TD", "9D"))
    assert not ace_no_face(mask_of("AS", "JH", "9C", "TC", "TD", "9D"))
    assert not ace_no_face(mask_of("9S", "TS", "9H", "TH", "9C", "TC"))
    hands = {0: ["AS", "9H", "TH", "9C", "TD", "9D"], 2: ["AH", "AC", "AD", "9S", "TS", "TC"]}
    state = start(hands, dealer=3, options={"ace_no_face": True})
    assert state.phase == "ace_no_face" and state.current_player() == 0
    assert state.legal_actions() == ["claim", "decline"]
    run(state, "0:decline")
    assert state.current_player() == 2  # seats 1 and 3 are not eligible
    run(state, "2:claim")
    result = state.deal_results[-1]
    assert result["end"] == "ace_no_face" and result["changes"] == [0, 0]
    assert result["claim"] == {"seat": 2, "hand": ["9S", "10S", "10C", "AC", "AD", "AH"]}
    assert state.deals[-1]["dealer"] == 0
    assert state.observation(1)["last_result"]["claim"]["seat"] == 2
    # The first eligible player's claim voids the deal too.
    state = start(hands, dealer=3, options={"ace_no_face": True})
    run(state, "0:claim")
    assert state.deals[-1]["dealer"] == 0 and len(state.deal_results) == 1


def test_tbe16_joker():
    hands = {
        3: ["JK", "AC", "9C", "TD", "QS", "KH"],
        0: ["JC", "9S", "TS", "JS", "QC", "KD"],
        1: ["KC", "9D", "QD", "JD", "AH", "QH"],
        2: ["TC", "AS", "KS", "AD", "TH", "JH"],
    }
    state = start(hands, dealer=3, options={"joker": True}, extra="9H")
    assert state.phase == "discard" and state.current_player() == 3
    assert len(state.observation(3)["hand"]) == 7
    run(state, "3:discard 9H")
    assert "9H" not in state.observation(3)["hand"] and state.observation(3)["discarded"] == "9H"
    for seat in (0, 1, 2):
        obs = state.observation(seat)
        assert obs["discarded"] is None and all(not a.startswith("discard") for _, a in obs["history"])
    run(state, "0:pass", "1:pass", "2:pass", "3:bid 3", "3:trump C", "3:play JK")
    # Seat 0 must follow with a trump: JC, QC, or JS (the left bower); not 9S, 10S, KD.
    assert state.legal_actions() == ["play JS", "play JC", "play QC"]
    run(state, "0:play JS")
    assert state.legal_actions() == ["play KC"]
    run(state, "1:play KC")
    assert state.legal_actions() == ["play 10C"]
    run(state, "2:play 10C")
    assert state.tricks[-1][2] == 3


def test_tbe17_double_deck():
    options = {"deck": "double48"}
    game = BidEuchreGame(options)
    assert len(game.pack) == 48 and game.tricks == 12
    assert game.action_id("bid 11") is not None and game.action_id("bid 12") is None
    assert BidEuchreGame({"deck": "double48", "allow_partnership_full_bid": True}).action_id("bid 12") is not None
    hands = {
        0: ["JH", "9S", "9S", "TS", "TS", "JS", "JS", "QS", "QS", "KS", "KS", "AS"],
        1: ["JH", "AS", "9C", "9C", "TC", "TC", "JC", "JC", "QC", "QC", "KC", "KC"],
    }
    state = start(hands, dealer=3, options=options)
    assert len(state.observation(0)["hand"]) == 12
    assert "bid 11" in state.legal_actions() and "bid 12" not in state.legal_actions()
    run(state, "0:bid 3", "1:pass", "2:pass", "3:pass", "0:trump H", "0:play JH")
    assert state.legal_actions() == ["play JH"]  # seat 1's only trump: the second copy
    run(state, "1:play JH")
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.tricks[-1][2] == 0  # the copy played first wins (§4.4)
    assert hand_changes(14, 12, 13, 14, 0, [12, 0], [0, 0]) == ([48, 0], True)
    assert hand_changes(13, 12, 13, 14, 0, [11, 1], [0, 0]) == ([-12, 1], False)


def test_tbe18_lone_rotation():
    hands = {
        2: ["9S", "JH", "JD", "AH", "KH", "QH"],
        1: ["AS", "KS", "QS", "JS", "9C", "TC"],
        3: ["TS", "9D", "TD", "JC", "QC", "KC"],
        0: ["AC", "QD", "KD", "AD", "TH", "9H"],
    }
    state = start(hands, dealer=1)
    run(state, "2:bid moon", "3:pass", "0:pass", "1:pass", "2:trump H")
    assert state.observation(1)["active_seats"] == [1, 2, 3]
    run(state, "2:play 9S", "3:play 10S", "1:play AS")
    assert state.tricks[-1] == (2, ((2, INDEX["9S"]), (3, INDEX["10S"]), (1, INDEX["AS"])), 1)
    order = []
    for _ in range(3):
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [1, 2, 3]
    while not state.deal_results:
        assert state.current_player() != 0
        state.apply(state.legal_actions()[0])
    assert all(len(t["cards"]) == 3 for t in state.deal_results[-1]["tricks"])


def test_help_exchange_information():
    """§11: the exchanged cards are known to the two partners only; the partner chooses blind (E5)."""
    state = tbe08(dealer=1)
    run(state, "2:bid help", "3:pass", "0:pass", "1:pass", "2:trump C", "2:give JD")
    partner = state.observation(0)
    assert not any(a.startswith("give") for _, a in partner["history"])
    assert partner["exchange"]["given"] == [] and partner["exchange"]["done"] is False
    run(state, "0:give JS")
    for seat in (2, 0):
        obs = state.observation(seat)
        assert [a for _, a in obs["history"] if a.startswith("give")] == ["give JD", "give JS"]
        assert obs["exchange"]["done"] is True
    assert state.observation(2)["exchange"]["received"] == ["JS"]
    assert state.observation(0)["exchange"]["received"] == ["JD"]
    assert "JD" in state.observation(0)["hand"]  # out of play with the partner
    for seat in (1, 3):
        obs = state.observation(seat)
        assert not any(a.startswith("give") for _, a in obs["history"])
        assert "given" not in obs["exchange"] and "received" not in obs["exchange"]
        assert obs["contract"]["sitting_out"] == 0 and obs["active_seats"] == [1, 2, 3]


def test_continuous_auction():
    state = start({}, dealer=3, options={"bidding_rounds": "continuous"})
    run(state, "0:bid 3", "1:bid 4", "2:pass", "3:pass", "0:bid 5")
    assert state.current_player() == 1  # seats 2 and 3 passed: they are out
    run(state, "1:pass")
    assert state.phase == "trump" and state.contractor == 0
    state = start({}, dealer=3, options={"bidding_rounds": "continuous"})
    run(state, "0:pass", "1:bid 3", "2:pass", "3:pass")
    assert state.phase == "trump" and state.contractor == 1
    state = start({}, dealer=3, options={"bidding_rounds": "continuous", "stick_the_dealer": True})
    run(state, "0:pass", "1:pass", "2:pass")
    assert "pass" not in state.legal_actions()


def test_max_hands_ends_the_match_unfinished():
    game = BidEuchreGame({"max_hands": 2})
    state = game.new_match(decks=FixedDecks([], 3, then=SeededDecks(1)))
    run(state, "0:pass", "1:pass", "2:pass", "3:pass", "1:pass", "2:pass", "3:pass", "0:pass")
    assert state.is_over() and state.deal_results[-1]["unfinished"] is True
    assert state.match_end() is MatchEnd.HAND_LIMIT and state.result()["end"] == "hand_limit"
    assert state.ranking() == [0, 0] and state.winner() is None and state.current_player() is None
