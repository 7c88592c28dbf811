"""The Five Hundred heuristic's trick counts, worked by hand (its bids rest on them), and its
five-player partner call."""

import pytest

from bots.heuristic.five_hundred import Strategy, hand_tricks, trump_tricks
from tests.games.test_five_hundred_support import game, start

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
