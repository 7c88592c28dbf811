"""The heuristic All Fours bot (bots/heuristic/all_fours.py) against the bundled RandomBot.

A duplicate match is one seed played twice with the bots' sides swapped, so both sides get the
same deals. The heuristic beats random in it when its duplicate margin is positive: its final score
minus the opponents', summed over the two games (the comparison the results board makes per deal
set, arena/rating.py). The issue asks for at least 90% of 200 such matches. The bot sees only
observations (the loop below hands it nothing else).

Measured on these seeds: 94.0% (4 players) and 93.5% (2 players) of duplicate matches; over 500
other seeds 94.8% and 92.2%. Counted game by game the bot wins 82-84% (4 players) and 76-77%
(2 players): in a split pair the heuristic usually loses narrowly and wins widely. A bot given
every hand (perfect information) won only ~88-91% of single games, so most single-game losses are
the luck of kicks and of who is dealt the high trumps; the per-game floors below guard against a
regression there.
"""

from __future__ import annotations

import pytest

from arena.games.all_fours import AllFoursGame
from arena.players.base import MatchInfo
from bots.heuristic.all_fours import Strategy
from bots.random_bot import RandomBot

SEEDS = 200  # duplicate matches (400 games) per player count
DUPLICATE_TARGET = 0.90  # the bar
GAME_FLOOR = {4: 0.80, 2: 0.72}  # single games won; measured on these seeds: 82.2% and 76.2%


def play(game, players, seed):
    state = game.new_match(seed=seed)
    seating = tuple(type(p).__name__ for p in players)
    for seat, player in enumerate(players):
        player.start_match(MatchInfo(game.name, game.options, seat, seating))
    while not state.is_over():
        seat = state.current_player()
        state.apply(players[seat].act(state.observation(seat)))
    return state


def duplicate_results(options, seeds):
    """(duplicate matches won, single games won), each as a fraction, for the heuristic on even seats."""
    game = AllFoursGame(options)
    n = game.players
    matches_won = games_won = 0
    for seed in range(seeds):
        margin = 0
        for side in (0, 1):  # the heuristic holds `side`; the same seed is played with the sides swapped
            players = [Strategy(seed * 10 + s) if s % 2 == side else RandomBot(seed * 10 + s) for s in range(n)]
            state = play(game, players, f"heuristic/{seed}")
            scores = state.scores()
            margin += scores[side] - scores[1 - side]
            games_won += state.winner() == side
        matches_won += margin > 0
    return matches_won / seeds, games_won / (2 * seeds)


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
    matches, games = duplicate_results({"players": players}, SEEDS)
    print(f"\nheuristic vs random, {players} players: {matches:.1%} of {SEEDS} duplicate matches, "
          f"{games:.1%} of {2 * SEEDS} games")
    assert matches >= DUPLICATE_TARGET
    assert games >= GAME_FLOOR[players]


# -- the behaviours the issue names, on hand-made positions (observations as the engine shapes them)

def stand_or_beg(hand, scores=(0, 0), turn_up="6S", phase="stand_or_beg"):
    legal = ["stand", "beg"] if phase == "stand_or_beg" else ["give one", "run"]
    seat = 2 if phase == "stand_or_beg" else 1
    return {
        "game": "all_fours", "seat": seat, "side": seat % 2, "players": 4, "phase": phase,
        "hand_index": 0, "hands_played": 0, "dealer": 1, "eldest": 2, "hand": hand, "legal_actions": legal, "to_act": seat,
        "history": [] if phase == "stand_or_beg" else [[2, "beg"]], "scores": list(scores),
        "target_score": 14, "contract": None, "trump": None, "proposed_suit": turn_up[-1],
        "turn_up": turn_up, "turn_ups": [turn_up], "stock_count": 27, "runs": 0, "points": [],
        "trick": [], "leader": None, "tricks": [], "last_trick": None, "tricks_won": [0, 0],
        "tricks_won_by_seat": [0, 0, 0, 0], "active_seats": [0, 1, 2, 3], "last_result": None,
        "game_counts": [0, 0], "hand_sizes": [6, 6, 6, 6], "revokes": [], "game_barred": [False, False],
    }


def playing(hand, trick, trump="S", seat=0):
    legal = [f"play {c}" for c in hand]
    obs = stand_or_beg(hand)
    obs.update(seat=seat, side=seat % 2, phase="play", legal_actions=legal, to_act=seat, trump=trump,
               contract={"trump": trump, "decision": "stand", "runs": 0}, trick=[list(t) for t in trick],
               leader=trick[0][0] if trick else seat,
               hand_sizes=[len(hand) if s == seat else 6 - any(p == s for p, _ in trick) for s in range(4)])
    return obs


def decide(obs):
    bot = Strategy(0)
    bot.start_match(MatchInfo("all_fours", {}, obs["seat"], ("a", "b", "c", "d")))
    return bot.act(obs)


def test_eldest_begs_with_a_weak_trump_holding_and_stands_with_a_strong_one():  # docs/games/all_fours.md §7.1
    assert decide(stand_or_beg(["4C", "7C", "8D", "9D", "3H", "KH"])) == "beg"  # no trump at all
    assert decide(stand_or_beg(["5S", "4C", "7C", "8D", "3H", "KH"])) == "beg"  # one middling trump
    assert decide(stand_or_beg(["AS", "KS", "JS", "QS", "3H", "5H"])) == "stand"


def test_eldest_begs_when_the_given_point_wins_the_game():  # §7.2: give one scores a point
    assert decide(stand_or_beg(["AS", "KS", "JS", "QS", "3H", "5H"], scores=(13, 5))) == "beg"


def test_dealer_runs_the_pack_rather_than_hand_the_opponents_the_game():  # §7.2, §10
    strong = ["AS", "KS", "JS", "2S", "3H", "5H"]
    assert decide(stand_or_beg(strong, scores=(13, 5), phase="give_or_run")) == "run"
    assert decide(stand_or_beg(strong, scores=(5, 5), phase="give_or_run")) == "give one"


def test_dealer_runs_the_pack_when_the_turn_up_suit_is_bad_for_it():
    assert decide(stand_or_beg(["4C", "7C", "8D", "9D", "3H", "KH"], phase="give_or_run")) == "run"


def test_captures_the_jack_of_trumps():  # §9: Jack goes to whoever wins the trick holding it
    assert decide(playing(["QS", "3S", "4D", "5D"], [(1, "JS")])) == "play QS"


def test_keeps_its_own_ten_back_from_a_trick_the_opponents_hold():  # §9: Game counts tens as 10
    assert decide(playing(["10H", "2H", "4D", "5D"], [(1, "AH")])) == "play 2H"


def test_feeds_its_ten_to_a_trick_its_partner_holds_for_certain():
    trick = [(1, "2H"), (2, "AS"), (3, "3H")]  # partner (seat 2) trumped with the ace: nobody can beat it
    assert decide(playing(["10H", "4H", "4D"], trick)) == "play 10H"
