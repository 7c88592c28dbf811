"""The Five Hundred heuristic's trick counts, worked by hand (its bids rest on them)."""

import pytest

from bots.heuristic.five_hundred import hand_tricks, trump_tricks

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
