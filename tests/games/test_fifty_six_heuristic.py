"""The 56 heuristic strategy (bots/heuristic/fifty_six.py) against the bundled RandomBot."""

from __future__ import annotations

import pytest

from arena.games.fifty_six import FiftySixGame
from arena.players.base import MatchInfo
from bots.heuristic.fifty_six import Strategy
from bots.random_bot import RandomBot


def play_match(game: FiftySixGame, seed: int, heuristic_side: int):
    """One match: the heuristic on every seat of ``heuristic_side``, RandomBot elsewhere."""
    seating = tuple("heuristic" if game.side_of(s) == heuristic_side else "random" for s in range(game.players))
    players = [
        Strategy(seed * 31 + s) if name == "heuristic" else RandomBot(seed * 31 + s)
        for s, name in enumerate(seating)
    ]
    state = game.new_match(seed)
    for seat, player in enumerate(players):
        player.start_match(MatchInfo(game.name, game.options, seat, seating))
    while not state.is_over():
        seat = state.current_player()
        action = players[seat].act(state.observation(seat))
        assert action in state.legal_actions()
        state.apply(action)
    return state


@pytest.mark.slow
def test_heuristic_beats_random_in_duplicate_matches():
    """200 duplicate pairs (400 matches): each seed played twice, the bots' seats swapped."""
    game = FiftySixGame({"players": 4, "max_hands": 200})
    wins = total = 0
    for seed in range(200):
        for side in (0, 1):
            state = play_match(game, seed, side)
            wins += state.winner() == side
            total += 1
    rate = wins / total
    print(f"heuristic vs random, 4 players: {wins}/{total} = {rate:.3f}")
    assert rate >= 0.9


@pytest.mark.parametrize(
    "options",
    [{"players": 4}, {"players": 6}, {"players": 8}, {"players": 6, "team_mode": "two_sides"},
     {"players": 8, "team_mode": "two_sides", "plus_noes_increment": "any", "double_payout": "additive"}],
)
def test_heuristic_plays_legal_actions_everywhere(options):
    game = FiftySixGame({**options, "max_hands": 30})
    for seed in range(3):
        play_match(game, seed, seed % game.num_sides)
