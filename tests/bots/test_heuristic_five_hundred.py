"""The heuristic bot is worth playing: over 200 seeded duplicate matches against `random` on
four-player Five Hundred it wins at least 90% (issue: the referee, part 5)."""

from __future__ import annotations

import pytest

from arena.players.hosts import InProcessHost
from arena.referee import Referee, TimeControl
from bots.heuristic import HeuristicBot
from bots.random_bot import RandomBot


def _duplicate_matches(registry, game_name, options, deals):
    game = registry.game(game_name, options)
    wins = matches = 0
    for deal in range(deals):
        for heuristic_side in (0, 1):  # the same deals with the sides swapped
            players = [
                HeuristicBot(deal * 10 + s) if game.side_of(s) == heuristic_side else RandomBot(deal * 10 + s)
                for s in range(game.players)
            ]
            names = [type(p).__name__ for p in players]
            result = Referee(game, [InProcessHost(p) for p in players], names, seed=f"dup/{deal}",
                             time_control=TimeControl(10.0)).play()
            assert result.termination.how == "normal", result.termination.as_dict()
            matches += 1
            wins += result.winners == [heuristic_side]
    return wins, matches


@pytest.mark.slow
def test_heuristic_beats_random_in_nine_matches_of_ten(registry):
    wins, matches = _duplicate_matches(registry, "five_hundred", {"max_hands": 300}, deals=100)
    assert matches == 200
    assert wins / matches >= 0.90, f"heuristic won {wins} of {matches}"


def test_heuristic_answers_only_legal_actions_in_every_configuration(registry):
    # every player count and the options that change the decisions it faces
    configurations = [
        {"players": 4, "allow_blind_misere": True, "sans_kitty": True},
        {"players": 4, "auction": "american", "misere_requires_seven": False},
        {"players": 3}, {"players": 2}, {"players": 5}, {"players": 6}, {"players": 6, "six_player_teams": "3x2"},
    ]
    for options in configurations:
        game = registry.game("five_hundred", {**options, "max_hands": 30})
        for seed in range(3):
            players = [HeuristicBot(seed * 10 + s) for s in range(game.players)]
            result = Referee(game, [InProcessHost(p) for p in players], ["h"] * game.players, seed=seed).play()
            assert not result.faults, (options, [f.as_dict() for f in result.faults])


def _duplicate_margins(registry, players, deal_sets):
    """One heuristic side against random sides; each deal set is played once per rotation of the
    heuristic over the sides. Returns (deal sets with a positive duplicate margin, first places, matches)."""
    game = registry.game("five_hundred", {"players": players, "max_hands": 300})
    beats = firsts = matches = 0
    for deal in range(deal_sets):
        margin = 0.0
        for side in range(game.num_sides):
            bots = [HeuristicBot(deal * 10 + s) if game.side_of(s) == side else RandomBot(deal * 10 + s)
                    for s in range(game.players)]
            result = Referee(game, [InProcessHost(b) for b in bots], [type(b).__name__ for b in bots],
                             seed=f"dup{players}/{deal}", time_control=TimeControl(10.0)).play()
            others = [score for s, score in enumerate(result.scores) if s != side]
            margin += result.scores[side] - sum(others) / len(others)
            firsts += result.winners == [side]
            matches += 1
        beats += margin > 0
    return beats, firsts, matches


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 6])
def test_heuristic_beats_random_in_duplicate_matches_for_three_and_six_players(registry, players):
    """Issue: Five Hundred for 2-6 players. A duplicate match is a deal set played from every side;
    the heuristic beats random when its score, summed over the rotations, is above the random sides'
    mean (the board's duplicate margin). The share of single matches it wins outright is printed: with
    three players a random contractor usually goes out backwards in the first hand, and the winner is
    then whichever defender took more tricks in that one hand (see docs/games/five_hundred.md)."""
    beats, firsts, matches = _duplicate_margins(registry, players, deal_sets=200)
    print(f"{players} players: duplicate wins {beats}/200, first place alone in {firsts}/{matches} matches")
    assert beats / 200 >= 0.90
    assert firsts / matches >= (0.55 if players == 3 else 0.90)
