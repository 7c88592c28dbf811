"""The engines alone: random legal playouts through the public game interface, in one process.

For every bundled game with its default options, two loops play the same seeded matches with the
same random choices:

* ``strings``: ``state.apply(choice(state.legal_actions()))``, the interface bots and records use;
* ``ids``: ``state.apply_id(choice(state.legal_action_ids()))``, the fast path for search bots.

and ``resample_per_s`` counts ``state.resample(seat, rng)`` calls (a full state the seat to act
could be facing) at a dozen positions of seeded random playouts.

Every action is counted as a decision (forced ones too: a playout applies them all), and a hand is
one deal entry finished (``len(state.deal_results)``). Random play never ends some games (a Bid
Euchre match between random players drifts below zero for ever), so each match stops after
:data:`HANDS_PER_MATCH` deals through the ``max_hands`` harness option, which changes no rule.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from arena.bench.common import Figures, Settings, interleave

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

GAMES = ("five_hundred", "fifty_six", "all_fours", "bid_euchre")
HANDS_PER_MATCH = 50


def bundled_games(registry: "Registry") -> list[str]:
    return [name for name in GAMES if name in registry.games]


def bench_game(registry: "Registry", name: str) -> Any:
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


RESAMPLE_POSITIONS = 12  # positions of seeded random playouts each resample figure cycles through


def resample_positions(game: Any, count: int, seed: int = 0) -> list[tuple[Any, int]]:
    """(state, the seat to act) at ``count`` decisions of seeded random playouts, spread over the
    phases of a hand (one position in 8 decisions on average)."""
    rng = random.Random(f"resample/{seed}")
    found: list[tuple[Any, int]] = []
    match = 0
    while len(found) < count:
        state = game.new_match(seed=f"bench/resample/{seed}/{match}")
        match += 1
        while not state.is_over() and len(found) < count:
            if rng.random() < 0.125:
                found.append((state.clone(), state.current_player()))
            state.apply_id(rng.choice(state.legal_action_ids()))
    return found


def resamples(positions: list[tuple[Any, int]], seconds: float, seed: int = 0) -> tuple[int, float]:
    """``state.resample(seat, rng)`` for ``seconds``, an equal share at each position (as a search
    bot resamples one position many times): (samples, elapsed)."""
    rng = random.Random(seed)
    samples = 0
    start = time.perf_counter()
    share = seconds / len(positions)
    for state, seat in positions:
        end = time.perf_counter() + share
        while True:
            state.resample(seat, rng)
            samples += 1
            if time.perf_counter() >= end:
                break
    return samples, time.perf_counter() - start


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
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
        positions = resample_positions(game, RESAMPLE_POSITIONS)
        for run in range(settings.repeat):
            samples, elapsed = resamples(positions, settings.seconds, seed=run)
            figures.add(f"engines.{name}.resample_per_s", samples / elapsed, "samples/s",
                        f"{game.title}: state.resample(seat, rng) per second, the seat to act at"
                        f" {RESAMPLE_POSITIONS} positions of random playouts (a deal it could be facing)")
