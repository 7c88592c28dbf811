"""A peer: OpenSpiel's ``euchre`` played at random through its Python interface, beside our Bid
Euchre played at random through the fast path, in the same run.

Needs the optional ``bench`` extra (``pip install -e '.[bench]'`` in the checkout: the ``open-spiel``
package); without it the group is skipped and says so.

**OpenSpiel**: ``state = game.new_initial_state()``, then ``state.apply_action(choice(
state.legal_actions()))`` until ``state.is_terminal()``. A game of ``euchre`` is one hand: the
dealer is drawn and the 24 cards are dealt *one by one through the interface* (each a chance node
with uniform outcomes, so a uniform choice among ``legal_actions()`` is the right sample), then
the two bidding rounds, the dealer's discard and five tricks.

**Ours** (``peer.bid_euchre.hands_per_s``, what ``peer.ratio`` reads): Bid Euchre with its default
options (24 cards, six tricks each, one round of bidding) through the compiled fast path's whole
hand (``arena.games.bid_euchre.fast.new_hand``: ``arena/fast/_hand.h``): ``hand =
new_hand(game, dealer, seed)``, then ``hand.apply_id(choice(hand.legal_action_ids()))`` until
``hand.is_over()``. A hand is dealt inside it from a seeded shuffle (one call, not 24); it is one
hand, as an OpenSpiel ``euchre`` game is, and keeps no record. Both loops use the same
``random.Random.choice``.

Beside it, ``peer.bid_euchre.engine_hands_per_s``: the Python engine (the rules of record) through
its own fast path, ``state.apply_id(choice(state.legal_action_ids()))`` until the match is over,
with a harness limit of 50 deals per match (random play never ends a match); the match carries its
record (every action, the deck, each hand's result) as it goes. Without the compiled extension the
ratio reads this figure and says so.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from arena import fast
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


def compiled_hands(game: Any, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """(hands, actions, elapsed) of random Bid Euchre hands through the compiled whole hand."""
    from arena.games.bid_euchre.fast import new_hand
    rng = random.Random(seed)
    choice = rng.choice
    hands = actions = 0
    first = seed << 32
    start = time.perf_counter()
    end = start + seconds
    while True:
        hand = new_hand(game, hands & 3, first + hands)
        legal, apply, over = hand.legal_action_ids, hand.apply_id, hand.is_over
        while not over():
            apply(choice(legal()))
            actions += 1
        hands += 1
        now = time.perf_counter()
        if now >= end:
            return hands, actions, now - start


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
    compiled = fast.available()
    openspiel_games(peer, 0.05)
    playouts(ours, 0.05, True)
    if compiled:
        compiled_hands(ours, 0.05)
    rates: dict[tuple[int, str], float] = {}

    def theirs(run: int) -> None:
        games, actions, elapsed = openspiel_games(peer, settings.seconds, seed=run)
        rates[run, "peer"] = games / elapsed
        figures.add("peer.openspiel_euchre.games_per_s", games / elapsed, "games/s",
                    f"OpenSpiel {getattr(pyspiel, '__version__', '')} euchre: random games (one hand each) "
                    "through its Python interface, dealing included")
        figures.add("peer.openspiel_euchre.actions_per_s", actions / elapsed, "actions/s",
                    "the same: actions applied per second (chance actions, i.e. the deal, included)")

    def engine(run: int) -> None:
        hands, decisions, elapsed = playouts(ours, settings.seconds, True, seed=run)
        rates[run, "engine"] = hands / elapsed
        figures.add("peer.bid_euchre.engine_hands_per_s", hands / elapsed, "hands/s",
                    "our Bid Euchre engine (the rules of record): random hands through its legal_action_ids/apply_id, "
                    "the match's record kept")

    def mine(run: int) -> None:
        hands, actions, elapsed = compiled_hands(ours, settings.seconds, seed=run)
        rates[run, "ours"] = hands / elapsed
        figures.add("peer.bid_euchre.hands_per_s", hands / elapsed, "hands/s",
                    "our Bid Euchre: random hands through the compiled whole hand (legal_action_ids/apply_id)")
        figures.add("peer.bid_euchre.actions_per_s", actions / elapsed, "actions/s",
                    "the same: actions applied per second (the deal is one call, not counted)")

    interleave(settings.repeat, theirs, engine, *([mine] if compiled else []))
    if not compiled:
        figures.skipped["peer.bid_euchre.hands_per_s"] = f"the ratio reads the engine: {fast.why_unavailable()}"
    for run in range(settings.repeat):
        figures.ratio("peer.ratio", rates[run, "ours" if compiled else "engine"], rates[run, "peer"],
                      f"our Bid Euchre hands/s ({'the compiled whole hand' if compiled else 'the engine'}) "
                      "over OpenSpiel euchre games/s", TARGET)
