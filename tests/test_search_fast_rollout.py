"""The ``search`` bot's ``rollout = fast`` (bots/search/pimc.py, issue #35 build 4): the card play of
each rollout comes from the compiled fast path (arena.fast.playout, its partner policy) and is
replayed by the engine, which scores the hand; the rest of the hand is played by the heuristic.
It plays every bundled game legally, a rollout's value is the engine's score of the plays, and
without the extension it rolls out with the heuristic (and says so once)."""

from __future__ import annotations

import logging
import random

import pytest

import bots.search as search_bot
from arena import fast
from arena.matches import MatchSpec, play_match
from arena.players.base import MatchInfo
from arena.plugins import get_registry
from arena.referee import TimeControl
from arena.testing import player_counts
from bots.heuristic import HeuristicBot
from bots.search import SearchBot, parse_settings
from bots.search.pimc import FAST_POLICY, Searcher, margin

GAMES = ["five_hundred", "fifty_six", "all_fours", "bid_euchre"]
CELLS = [(g, n) for g in GAMES for n in player_counts(type(get_registry().game(g)))]
needs_fast = pytest.mark.skipif(not fast.available(), reason=f"no compiled fast path: {fast.why_unavailable()}")


@needs_fast
@pytest.mark.parametrize("game,players", CELLS, ids=[f"{g}-{n}" for g, n in CELLS])
def test_fast_rollouts_play_a_whole_hand_legally(game, players, monkeypatch):
    """In every bundled game and player count, ``search`` with fast rollouts plays a hand with no
    fault, searching (its card play rolled out on the fast path)."""
    playouts = []
    compiled = fast.playout
    monkeypatch.setattr(fast, "playout", lambda *args: playouts.append(1) or compiled(*args))
    registry = get_registry()
    options = registry.game(game, {"players": players, "max_hands": 1}).options
    names = ["search" if seat % 2 == 0 else "heuristic" for seat in range(players)]
    spec = MatchSpec.single(game, names, seed=3, options=options, isolation="inprocess",
                            settings=[{"samples": 2, "seconds": 0.2, "rollout": "fast"} if n == "search" else {}
                                      for n in names],
                            time_control=TimeControl(5.0), bot_seeds=range(players))
    result = play_match(spec, registry)
    assert result.termination.how in ("normal", "unfinished"), result.termination
    assert not result.record["faults"]
    assert result.record["hands"], "no hand was played"
    assert playouts, "no rollout reached the fast path"


def _positions(game: str, count: int, seed: int = 1):
    """(state, seat) at multi-choice decisions of heuristic play, auctions and card play alike."""
    g = get_registry().game(game, {})
    state = g.new_match(seed=seed)
    bots = [HeuristicBot(seat) for seat in range(g.options["players"])]
    for seat, bot in enumerate(bots):
        bot.start_match(MatchInfo(game, dict(g.options), seat, ()))
    found = []
    while not state.is_over() and len(found) < count:
        seat = state.current_player()
        if len(state.legal_action_ids()) > 1:
            found.append((state.clone(), seat))
        state.apply(bots[seat].act(state.observation(seat)))
    return g, found


def _searcher(g, seat: int, rollout: str, seed: int = 0) -> Searcher:
    return Searcher(g, seat, parse_settings({"rollout": rollout}), g.options, random.Random(seed), HeuristicBot)


@needs_fast
@pytest.mark.parametrize("game", GAMES)
def test_a_fast_rollout_is_scored_as_the_engine_scores_its_plays(game):
    """From auction and card-play positions alike, a fast rollout's value is the margin the engine
    gives when the same hand is played through it action by action (action strings, the checked
    path): the heuristic to the card play, then the fast path's plays, which end the hand."""
    g, positions = _positions(game, 40)
    searcher = _searcher(g, 0, "fast")
    checked = 0
    for i, (state, seat) in enumerate(positions):
        sample = state.resample(seat, random.Random(i))
        before, side = sample.scores(), g.side_of(seat)
        action = random.Random(i).choice(sample.legal_action_ids())
        searcher.rng.seed(i)
        value = searcher._rollout(sample, action, before, side)
        # the same hand by hand: the heuristic (the same players) to the card play, then the plays
        rng = random.Random(i)
        hands = len(sample.deal_results)
        replay = sample.clone()
        replay.apply(g.action_string(action))
        while not replay.is_over() and len(replay.deal_results) == hands and not fast.supports(replay):
            replay.apply(g.action_string(searcher.policy.choose(replay)))
        if not replay.is_over() and len(replay.deal_results) == hands:
            for aid in fast.playout(replay, rng.getrandbits(64), FAST_POLICY).plays:
                replay.apply(g.action_string(aid))
            checked += 1
        assert replay.is_over() or len(replay.deal_results) > hands, "the plays did not end the hand"
        assert value == margin(replay.scores(), before, side), (game, i)
    assert checked >= 20 and searcher.stats.fast_playouts == checked


@needs_fast
def test_fast_rollouts_search_with_the_fast_path():
    g, positions = _positions("bid_euchre", 1)
    state, seat = positions[0]
    bot = SearchBot({"samples": 3, "seconds": 30.0, "rollout": "fast"}, 0)
    bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
    obs = dict(state.observation(seat), time_left=60.0, bank_left=None)
    assert bot.act(obs) in obs["legal_actions"]
    stats = bot.searcher.stats
    assert stats.last_samples == 3 and stats.rollouts >= 6 and stats.fast_playouts == stats.rollouts


def test_without_the_extension_fast_rolls_out_with_the_heuristic(monkeypatch, caplog):
    """No compiled fast path: ``rollout = fast`` is the heuristic's rollouts (the same choice and
    rollouts as ``rollout = heuristic``, the fast path never called), and it says so once."""
    monkeypatch.setattr(fast, "_play", None)
    monkeypatch.setattr(search_bot, "_told_no_fast_path", False)

    def refuse(*args, **kwargs):
        raise AssertionError("the fast path was called without the extension")

    monkeypatch.setattr(fast, "playout", refuse)
    g, positions = _positions("bid_euchre", 30)
    kinds = g.page()["phases"]
    state, seat = next((s, seat) for s, seat in positions if kinds.get(s.phase) == "play")  # a card play
    obs = dict(state.observation(seat), time_left=60.0, bank_left=None)
    chosen = []
    with caplog.at_level(logging.WARNING, logger="bots.search"):
        for rollout in ("fast", "heuristic", "fast"):
            bot = SearchBot({"samples": 3, "seconds": 30.0, "rollout": rollout, "seed": 1}, 0)
            bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
            chosen.append((bot.act(dict(obs)), bot.searcher.stats.rollouts, bot.searcher.stats.fast_playouts))
    assert chosen[0] == chosen[1] == chosen[2] and chosen[0][2] == 0 and chosen[0][1] >= 6
    told = [r.getMessage() for r in caplog.records if "fast path is missing" in r.getMessage()]
    assert len(told) == 1 and "rollout fast and rollout solve play as heuristic" in told[0], told
