"""Matchpoints (arena.web.matchpoints): worked examples of one deal's scoring, as the daily set
uses it (docs/web.md, "The daily set")."""

from __future__ import annotations

import pytest

from arena.web.matchpoints import ALONE, matchpoints, ranks, total


def test_each_entry_scores_the_share_of_the_others_it_beats_ties_counting_half():
    # Four entries of one deal: 120 beats all three; the two 50s beat -30 and tie each other.
    points = matchpoints({"ann": 120, "bob": 50, "bot: heuristic": 50, "bot: random": -30})
    assert points == {"ann": 100.0, "bob": pytest.approx(100 * 1.5 / 3), "bot: heuristic": pytest.approx(50.0),
                      "bot: random": 0.0}


def test_everyone_tied_scores_fifty_and_alone_on_a_deal_scores_fifty():
    assert matchpoints({"a": 0, "b": 0, "c": 0}) == {"a": 50.0, "b": 50.0, "c": 50.0}
    assert matchpoints({"only": -200}) == {"only": ALONE} == {"only": 50.0}
    assert matchpoints({}) == {}


def test_two_entries_beat_or_lose_outright():
    assert matchpoints({"a": 10, "b": -10}) == {"a": 100.0, "b": 0.0}


def test_a_bot_in_the_field_is_an_entry_like_a_person():
    # the field bots fill the deal: a person alone with three bots is compared with them
    people_only = matchpoints({"ann": 40})
    with_bots = matchpoints({"ann": 40, "heuristic": 60, "random": -100, "search": 40})
    assert people_only["ann"] == 50.0 and with_bots["ann"] == pytest.approx(100 * (1 + 0.5) / 3)
    assert with_bots["heuristic"] == 100.0 and with_bots["random"] == 0.0


def test_seats_are_kept_apart_by_the_caller_and_totals_are_means_ranked_highest_first():
    # Scoring is per deal (and instance and seat): the caller passes one deal's entries at a time.
    deal_one = matchpoints({"ann": 100, "bob": 0})
    deal_two = matchpoints({"ann": 0, "bob": 100, "cat": 100})
    ann = total([deal_one["ann"], deal_two["ann"]])
    bob = total([deal_one["bob"], deal_two["bob"]])
    assert ann == pytest.approx((100 + 0) / 2) and bob == pytest.approx((0 + 75) / 2)
    assert total([]) == 0.0
    assert ranks({"ann": 50.0, "bob": 37.5, "cat": 50.0, "dan": 10.0}) == {"ann": 1, "cat": 1, "bob": 3, "dan": 4}
