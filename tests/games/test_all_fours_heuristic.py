"""The heuristic All Fours bot (bots/heuristic/all_fours.py) against the bundled RandomBot.

Duplicate matches: each seed is played twice with the bots' sides swapped, so both sides get the
same deals. The bot sees only observations (the loop below hands it nothing else).

The brief asked for a 90% win rate in four-player games. Measured over 2000 matches (1000 seeds)
the bot wins 85% with four players and 79% with two; a perfect-information Monte Carlo player
(which sees every hand) reached only about 88-90% against the same random opponents, so most of
the remaining losses are the luck of kicks and of who is dealt the high trumps. The assertions
below are floors under the rates these (deterministic) seeds give; see FLOOR.
"""

from __future__ import annotations

import pytest

from arena.games.all_fours import AllFoursGame
from arena.players.base import MatchInfo
from bots.heuristic.all_fours import Strategy
from bots.random_bot import RandomBot

SEEDS = 200  # duplicate pairs: 400 matches per player count
FLOOR = {4: 0.80, 2: 0.72}  # measured on these seeds: 82.2% and 76.2%


def play(game, players, seed):
    state = game.new_match(seed=seed)
    seating = tuple(type(p).__name__ for p in players)
    for seat, player in enumerate(players):
        player.start_match(MatchInfo(game.name, game.options, seat, seating))
    while not state.is_over():
        seat = state.current_player()
        state.apply(players[seat].act(state.observation(seat)))
    return state


def duplicate_win_rate(options, seeds):
    game = AllFoursGame(options)
    n = game.players
    wins = 0
    for seed in range(seeds):
        for side in (0, 1):  # the heuristic holds `side`; the same seed is played with the sides swapped
            players = [Strategy(seed * 10 + s) if s % 2 == side else RandomBot(seed * 10 + s) for s in range(n)]
            state = play(game, players, f"heuristic/{seed}")
            wins += state.winner() == side
    return wins / (2 * seeds)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"players": 2, "deal_packet": 1},
        {"illegal_play_mode": "penalize", "no_undertrump": True},
        {"kick_values": "tobago", "hang_jack_points": 1, "game_tie": "eldest", "target_score": 7},
    ],
)
def test_heuristic_plays_legal_actions_under_every_option(options):
    game = AllFoursGame(options)
    n = game.players
    for seed in range(3):
        players = [Strategy(s) if s % 2 == 0 else RandomBot(s) for s in range(n)]
        state = play(game, players, f"smoke/{seed}")  # apply() raises on an illegal action
        if game.penalize:
            assert all(not r["revokes"] or all(x["seat"] % 2 == 1 for x in r["revokes"]) for r in state.deal_results)


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 2])
def test_heuristic_beats_random(players):
    rate = duplicate_win_rate({"players": players}, SEEDS)
    print(f"\nheuristic vs random, {players} players: {rate:.1%} of {2 * SEEDS} duplicate matches")
    assert rate >= FLOOR[players]
