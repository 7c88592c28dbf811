"""The search bot's value of a rollout with the match in view (setting ``value = "match"``): the
change in the side's chance of winning the match, a hand that ends the match by its rules
deciding it (bots/search/pimc.py, ``match_value``; each game's ``match_stake``)."""

from __future__ import annotations

import random

import pytest

from arena.games.base import MatchEnd
from arena.players.base import MatchInfo
from arena.plugins import get_registry
from bots.heuristic import HeuristicBot
from bots.search import SearchBot, SettingsError
from bots.search.pimc import chance, margin, match_value


def _hand_from(game: str, scores: list[int], seed: int, **options):
    """A match of ``game`` whose first hand starts at ``scores``, its deck shuffled by ``seed``."""
    g = get_registry().game(game, options)
    deck = g.deck_for(0, {})
    random.Random(seed).shuffle(deck)
    return g, g.start_hand(0, deck, scores)


def _played_out(state) -> None:
    """The hand played to its end (or the match's) by the heuristic in every seat."""
    bots = [HeuristicBot(seat) for seat in range(state.game.players)]
    hands = len(state.deal_results)
    while not state.is_over() and len(state.deal_results) == hands:
        mover = state.current_player()
        state.apply(bots[mover].act(dict(state.observation(mover), time_left=60.0, bank_left=None)))


@pytest.mark.parametrize("game,options,stake", [
    ("five_hundred", {}, 500), ("all_fours", {"target_score": 10}, 10), ("bid_euchre", {}, 32),
    ("fifty_six", {"initial_tables": 8}, 8)])
def test_every_bundled_game_gives_its_match_stake(game, options, stake):
    assert get_registry().game(game, options).match_stake() == stake


def test_the_chance_read_from_the_scores():
    assert chance([0, 0], 0, 125) == pytest.approx(0.5)
    assert chance([500, 0], 0, 125) == pytest.approx(0.982, abs=1e-3)  # a lead of the whole stake
    assert chance([-300, 200], 0, 125) + chance([-300, 200], 1, 125) == pytest.approx(1.0)
    assert chance([12, 12, 12], 2, 3) == pytest.approx(1 / 3)


@pytest.mark.parametrize("seed", range(4))
def test_a_hand_that_ends_the_match_is_worth_the_match_won_or_lost(seed):
    """Bid Euchre at 31 all, 32 to win: whatever is played, the hand ends the match, and each side's
    value is its share of the win less the even chance it had (not the hand's margin)."""
    g, state = _hand_from("bid_euchre", [31, 31], seed)
    before = state.scores()
    _played_out(state)
    assert state.match_end() == MatchEnd.TARGET
    assert len(state.winners()) == 1 and state.scores()[state.winners()[0]] >= 32  # §10: a winner reached 32
    spread = g.match_stake() / 4
    values = [match_value(state, before, side, spread) for side in (0, 1)]
    assert values == [(0.5 if side in state.winners() else -0.5) for side in (0, 1)]
    assert margin(state.scores(), before, 0) not in (0.5, -0.5)


def test_a_stop_at_max_hands_is_not_the_match_s_end():
    """With ``max_hands`` the match stops after the hand, but that is not the rules: the value is
    read from the scores, as after any other hand."""
    g, state = _hand_from("bid_euchre", [20, 0], 1, max_hands=1)
    before = state.scores()
    _played_out(state)
    assert state.match_end() == MatchEnd.HAND_LIMIT
    spread = g.match_stake() / 4
    for side in (0, 1):
        assert match_value(state, before, side, spread) == pytest.approx(
            chance(state.scores(), side, spread) - chance(before, side, spread))


def test_a_bot_playing_for_the_match_values_its_rollouts_by_it(monkeypatch):
    """The setting reaches the rollouts: at 31 all every candidate's value on every sample is a
    match won, lost or shared (+-0.5 or 0), where the default values the hand's margin."""
    import bots.search.pimc as pimc
    rows: list = []
    choose = pimc.choose
    monkeypatch.setattr(pimc, "choose", lambda r: rows.append([v for _, row in r for v in row]) or choose(r))
    g, state = _hand_from("bid_euchre", [31, 31], 2)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seat = state.current_player()
    obs = dict(state.observation(seat), time_left=60.0, bank_left=None)
    for value in ("match", "hand"):
        bot = SearchBot({"samples": 4, "seconds": 30.0, "value": value}, 0)
        bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
        assert bot.act(dict(obs)) in obs["legal_actions"]
    match, hand = rows
    assert set(match) <= {0.5, 0.0, -0.5} and len(match) >= 8
    assert not set(hand) <= {0.5, 0.0, -0.5}


def test_value_match_is_refused_where_the_game_gives_no_stake(monkeypatch):
    g = get_registry().game("bid_euchre", {})
    monkeypatch.setattr(type(g), "match_stake", lambda self: None)
    bot = SearchBot({"value": "match"}, 0)
    with pytest.raises(SettingsError) as caught:
        bot.start_match(MatchInfo(g.name, dict(g.options), 0, ()))
    assert str(caught.value) == ("search: value match needs the game's match_stake, and bid_euchre gives none "
                                 "(docs/game-interface.md)")


def test_match_point_plays_deal_pairs_and_refuses_a_bad_setting():
    """scripts/match-point: a deal pair is two matches on the same cards with the sides swapped,
    each from its drawn scores to the rules' end; a bad setting is refused in one line first."""
    import json
    import subprocess
    import sys
    from pathlib import Path
    script = Path(__file__).resolve().parents[1] / "scripts" / "match-point"
    run = subprocess.run([sys.executable, str(script), "--game", "bid_euchre", "--scores", "30-31", "--a",
                          "value=match", "--pairs", "1", "--seconds", "0.01"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    row, total = run.stdout.strip().splitlines()
    shares = json.loads(row)["a_shares"]
    assert len(shares) == 2 and all(share in (0.0, 0.5, 1.0) for share in shares)
    assert total.startswith(f"A {{'value': 'match'}} against B {{}}, bid_euchre from 30-31: "
                            f"A's score {sum(shares) / 2:.3f} over 1 deal pairs; pairs A-level-B ")
    bad = subprocess.run([sys.executable, str(script), "--game", "bid_euchre", "--scores", "30-31", "--b",
                          "value=points"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines()[-1].endswith(
        "--b: search: value must be one of hand, match, not 'points'")
    unknown = subprocess.run([sys.executable, str(script), "--game", "no_such_game", "--scores", "1-2"],
                             capture_output=True, text=True, timeout=300)
    assert unknown.returncode == 2
    assert unknown.stderr.strip().splitlines()[-1].startswith("match-point: error: unknown game 'no_such_game'")
