"""The heuristic Bid Euchre strategy against the bundled random bot, in duplicate pairs."""

from __future__ import annotations


import pytest

from arena.games.bid_euchre import BidEuchreGame
from arena.players.base import MatchInfo
from bots.heuristic.bid_euchre import Strategy
from bots.random_bot import RandomBot

PAIRS = 200
MAX_HANDS = 200  # a cap so that every match ends; default target score (32)


def play_match(game, seed, heuristic_seats):
    players = [Strategy(seed * 4 + s) if s in heuristic_seats else RandomBot(seed * 4 + s) for s in range(4)]
    seating = tuple("heuristic" if s in heuristic_seats else "random" for s in range(4))
    for seat, player in enumerate(players):
        player.start_match(MatchInfo(game.name, game.options, seat, seating))
    state = game.new_match(seed)
    while not state.is_over():
        seat = state.current_player()
        state.apply(players[seat].act(state.observation(seat)))
    return state


def heuristic_won(state, side):
    ranking = state.ranking()
    return ranking[side] == 0 and ranking[1 - side] != 0


@pytest.mark.slow
def test_heuristic_beats_random_in_duplicate_matches():
    game = BidEuchreGame({"max_hands": MAX_HANDS})
    wins = games = 0
    for seed in range(PAIRS):
        for seats, side in (((0, 2), 0), ((1, 3), 1)):
            state = play_match(game, seed, seats)
            wins += heuristic_won(state, side)
            games += 1
    rate = wins / games
    print(f"heuristic vs random: {wins}/{games} = {rate:.1%}")
    assert rate >= 0.90


@pytest.mark.parametrize(
    "options",
    [
        {"joker": True, "ace_no_face": True, "stick_the_dealer": True},
        {"deck": "double48", "help_exchange_count": 3, "bidding_rounds": "continuous"},
        {"allow_no_trump": True, "allow_partnership_full_bid": True, "illegal_play_mode": "penalize"},
        {"deck": "double48", "joker": True, "help_exchange_count": 2},
    ],
)
def test_heuristic_plays_every_variant(options):
    """Only legal answers, in every option the engine offers (the referee would refuse others)."""
    game = BidEuchreGame(dict(options, max_hands=30))
    for seed in range(4):
        state = play_match(game, seed, (0, 2) if seed % 2 else (1, 3))
        assert state.is_over()


def test_heuristic_goes_alone_only_with_certain_hands():
    strategy = Strategy(0)
    game = BidEuchreGame()
    strategy.start_match(MatchInfo(game.name, game.options, 0, ("h", "r", "h", "r")))
    base = {
        "game": "bid_euchre", "seat": 0, "side": 0, "players": 4, "phase": "auction", "tricks_per_hand": 6,
        "auction": [], "high_bid": None, "tricks": [], "trick": [], "exchange": None, "discarded": None,
        "legal_actions": ["pass", "bid 3", "bid 4", "bid 5", "bid help", "bid moon"],
    }
    moon = dict(base, hand=["JH", "JD", "AH", "KH", "QH", "AS"])
    assert strategy.act(moon) == "bid moon"
    help_ = dict(base, hand=["JH", "JD", "AH", "KH", "9C", "AS"])
    assert strategy.act(help_) == "bid help"
    weak = dict(base, hand=["9H", "10D", "QS", "9C", "10C", "KD"])
    assert strategy.act(weak) == "pass"
    fair = dict(base, hand=["JH", "AH", "10H", "AS", "9C", "10D"])
    assert strategy.act(fair) in ("bid 3", "bid 4")
