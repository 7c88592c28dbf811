"""The engines alone: random legal playouts through the public game interface, in one process.

For every bundled game with its default options, two loops play the same seeded matches with the
same random choices:

* ``strings``: ``state.apply(choice(state.legal_actions()))``, the interface bots and records use;
* ``ids``: ``state.apply_id(choice(state.legal_action_ids()))``, the fast path for search bots.

Every action is counted as a decision (forced ones too: a playout applies them all), and a hand is
one deal entry finished (``len(state.deal_results)``). Random play never ends some games (a Bid
Euchre match between random players drifts below zero for ever), so each match stops after
:data:`HANDS_PER_MATCH` deals through the ``max_hands`` harness option, which changes no rule.
"""

from __future__ import annotations

import random
import time
from typing import Any

from arena.bench.common import Figures, Settings, interleave

GAMES = ("five_hundred", "fifty_six", "all_fours", "bid_euchre")
HANDS_PER_MATCH = 50


def bundled_games(registry: Any) -> list[str]:
    return [name for name in GAMES if name in registry.games]


def bench_game(registry: Any, name: str) -> Any:
    """The game with its default options and the harness limit of :data:`HANDS_PER_MATCH` deals."""
    return registry.game(name, {"max_hands": HANDS_PER_MATCH})


def playouts(game: Any, seconds: float, fast: bool, seed: int = 0) -> tuple[int, int, float]:
    """Random playouts for ``seconds``: (hands, decisions, elapsed)."""
    rng = random.Random(seed)
    choice = rng.choice
    hands = decisions = matches = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        state = game.new_match(seed=f"bench/{seed}/{matches}")
        matches += 1
        if fast:
            legal, apply = state.legal_action_ids, state.apply_id
        else:
            legal, apply = state.legal_actions, state.apply
        over = state.is_over
        while not over():
            apply(choice(legal()))
        hands += len(state.deal_results)
        decisions += sum(len(deal["actions"]) for deal in state.deals)
        now = time.perf_counter()
        if now >= end:
            return hands, decisions, now - start


def run(registry: Any, settings: Settings, figures: Figures) -> None:
    for name in bundled_games(registry):
        game = bench_game(registry, name)
        playouts(game, min(0.05, settings.seconds), True)  # warm up
        rates: dict[tuple[int, bool], float] = {}

        def measure(run: int, fast: bool, name: str = name, game: Any = game) -> None:
            hands, decisions, elapsed = playouts(game, settings.seconds, fast, seed=run)
            path, how = ("ids", "legal_action_ids/apply_id") if fast else ("strings", "legal_actions/apply")
            figures.add(f"engines.{name}.{path}.hands_per_s", hands / elapsed, "hands/s",
                        f"{game.title}: hands of random legal playouts per second through {how}")
            figures.add(f"engines.{name}.{path}.decisions_per_s", decisions / elapsed, "decisions/s",
                        f"{game.title}: actions applied per second through {how}")
            rates[run, fast] = decisions / elapsed

        interleave(settings.repeat, lambda run: measure(run, False), lambda run: measure(run, True))
        for run in range(settings.repeat):
            figures.ratio(f"engines.{name}.ids_over_strings", rates[run, True], rates[run, False],
                          f"{game.title}: decisions/s through the fast path over those through strings")
