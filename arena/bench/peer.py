"""A peer: OpenSpiel's ``euchre`` played at random through its Python interface, beside our Bid
Euchre played at random through the fast path, in the same run.

Needs the optional ``bench`` extra (``pip install -e '.[bench]'`` in the checkout: the ``open-spiel``
package); without it the group is skipped and says so.

**OpenSpiel**: ``state = game.new_initial_state()``, then ``state.apply_action(choice(
state.legal_actions()))`` until ``state.is_terminal()``. A game of ``euchre`` is one hand: the
dealer is drawn and the 24 cards are dealt *one by one through the interface* (each a chance node
with uniform outcomes, so a uniform choice among ``legal_actions()`` is the right sample), then
the two bidding rounds, the dealer's discard and five tricks.

**Ours**: ``state.apply_id(choice(state.legal_action_ids()))`` until the match is over, on Bid
Euchre with its default options (24 cards, six tricks each, one round of bidding) and a harness
limit of 50 deals per match (random play never ends a match); a hand is dealt inside the engine
from a seeded shuffle (one call, not 24), and the match carries its record (every action, the
deck, each hand's result) as it goes. Both loops use the same ``random.Random.choice``.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from arena.bench.common import Figures, Settings, interleave
from arena.bench.engines import bench_game, playouts

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

TARGET = 1.0
REQUIREMENT = "open-spiel>=2.0"


def load_peer() -> Any | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("euchre")


def openspiel_games(game: Any, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """(games, decisions of players, elapsed) of random OpenSpiel euchre games."""
    rng = random.Random(seed)
    choice = rng.choice
    games = actions = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        games += 1
        history = state.history()
        actions += len(history)
        now = time.perf_counter()
        if now >= end:
            return games, actions, now - start


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    peer = load_peer()
    if peer is None:
        figures.skipped["peer"] = f"OpenSpiel is not installed (the bench extra: pip install '{REQUIREMENT}')"
        return
    if "bid_euchre" not in registry.games:
        figures.skipped["peer"] = "bid_euchre is not installed"
        return
    import pyspiel

    ours = bench_game(registry, "bid_euchre")
    openspiel_games(peer, 0.05)
    playouts(ours, 0.05, True)
    rates: dict[tuple[int, str], float] = {}

    def theirs(run: int) -> None:
        games, actions, elapsed = openspiel_games(peer, settings.seconds, seed=run)
        rates[run, "peer"] = games / elapsed
        figures.add("peer.openspiel_euchre.games_per_s", games / elapsed, "games/s",
                    f"OpenSpiel {getattr(pyspiel, '__version__', '')} euchre: random games (one hand each) "
                    "through its Python interface, dealing included")
        figures.add("peer.openspiel_euchre.actions_per_s", actions / elapsed, "actions/s",
                    "the same: actions applied per second (chance actions, i.e. the deal, included)")

    def mine(run: int) -> None:
        hands, decisions, elapsed = playouts(ours, settings.seconds, True, seed=run)
        rates[run, "ours"] = hands / elapsed
        figures.add("peer.bid_euchre.hands_per_s", hands / elapsed, "hands/s",
                    "our Bid Euchre: random hands through the fast path (legal_action_ids/apply_id)")

    interleave(settings.repeat, theirs, mine)
    for run in range(settings.repeat):
        figures.ratio("peer.ratio", rates[run, "ours"], rates[run, "peer"],
                      "our Bid Euchre hands/s (fast path) over OpenSpiel euchre games/s", TARGET)
