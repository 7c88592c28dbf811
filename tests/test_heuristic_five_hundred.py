"""The Five Hundred heuristic's trick counts, worked by hand (its bids rest on them), and how it
names and plays with partners when five play."""

import pytest

from arena import fast
from bots.heuristic import compiled
from bots.heuristic.five_hundred import Strategy, hand_tricks, trump_tricks
from tests.games.test_five_hundred_support import game, plan_hand, start

HAND = ("JK", "JH", "AD", "KD", "5D", "AS", "KS", "7C")


def test_trump_tricks_counts_the_left_bower_as_a_trump_and_not_in_its_printed_suit():
    # diamonds: JK, JH (the left bower), AD, KD, 5D are five trumps: the joker, the left bower,
    # the ace and the king each guarded (4.0), one trump past four (0.8), AK of spades (1.5), and
    # hearts void once the left bower is a trump (0.4)
    assert trump_tricks(HAND, "D") == pytest.approx(6.7)
    # hearts: JH is the right bower; two trumps (2.0), AK of spades and of diamonds (3.0), no ruffs
    assert trump_tricks(HAND, "H") == pytest.approx(5.0)


def test_hand_tricks_gives_each_suit_trump_tricks_count_and_no_trumps_too():
    counts = hand_tricks(HAND)
    assert set(counts) == {"S", "C", "D", "H", "NT"}
    assert all(counts[suit] == trump_tricks(HAND, suit) for suit in "SCDH")


def _five_player_call(calls: list[str], scores: list[int] | None = None) -> tuple[dict, str]:
    """The heuristic's partner call (R-6.1) after ``calls`` from seat 0 (dealer 4)."""
    g = game(players=5)
    st = start(g, [g.pack.tokens], 4, scores)
    for call in calls:
        st.apply(call)
    assert st.phase == "partners"
    obs = st.observation(st.current_player())
    return obs, Strategy(0).act(obs)


def test_five_players_the_contractor_names_the_partners_its_bid_counted_on():
    # the bid counts on a partner's tricks (PARTNER_TRICKS), so one partner is named at the 7 level,
    # not "none": the seat furthest behind (a partner scores with the contract, so the leader is
    # not lifted)
    scores = [120, 0, 0, -40, 300]
    obs, call = _five_player_call(["pass", "bid 6H", "bid 7S", "pass", "pass", "pass"], scores)
    assert obs["seat"] == 2 and call == "partners 3"
    # at the 8 level two, the next furthest behind too
    _, call = _five_player_call(["pass", "bid 6H", "bid 8S", "pass", "pass", "pass"], scores)
    assert call == "partners 1 3"


def test_five_players_the_opening_bid_counts_on_the_partner_it_will_name():
    # spades count 4.2 tricks (JS, AS, QS and two more trumps; AH): with the kitty (0.5) and a
    # partner's 2.0 that is 6.7, so the first seat opens 6S; it passed when a partner counted 0.8
    g = game(players=5)
    hand = ["JS", "AS", "QS", "8S", "7S", "AH", "9D", "6D", "5C", "4H"]
    assert trump_tricks(tuple(hand), "S") == pytest.approx(4.2)
    st = start(g, [g.deck_for(4, {0: hand})], 4)
    assert st.current_player() == 0
    assert Strategy(0).act(st.observation(0)) == "bid 6S"


def test_five_players_the_contractor_does_not_ruff_its_partner_s_winning_ace():
    # 7S by seat 2 with seat 3 as its partner; seat 3 has won the first trick and leads the
    # ace of diamonds, which the other three follow: seat 2, last and void in diamonds, leaves the
    # trick to its partner, in the Python play and the compiled one alike (the partner is of the
    # hand's contracting side, not of a side of the match: with five, every seat is its own side)
    calls = ["pass", "bid 6H", "bid 7S", "pass", "pass", "pass"]
    g = game(players=5)
    deck, actions = plan_hand(g, 4, calls, partners="partners 3", tricks=[3], voids={2: "D"},
                              held={3: ["AD"], 4: ["5D"], 0: ["6D"], 1: ["7D"], 2: ["9S", "4C"]})
    st = start(g, [deck], 4)
    for action in actions + ["play AD", "play 5D", "play 6D", "play 7D"]:
        st.apply(action)
    assert st.current_player() == 2 and st.allies(2) == {2, 3}
    obs = st.observation(2)
    assert any(a.endswith("S") for a in obs["legal_actions"])  # it could ruff
    call = Strategy(0).act(obs)
    assert not call.endswith("S") and not call.endswith("JK")
    if fast.available():
        assert g.action_string(compiled.choose(st)) == call
