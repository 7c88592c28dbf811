"""The exact solver's cost (arena.solver, issue #35): seconds per ``solve(state)`` per game.

For every bundled game with its default options, from seeded random playouts (random auctions, so
the contracts are whatever random bidding gives):

* ``last4``: positions at the lead of the fourth trick before the end (every hand holds 4 cards),
  :data:`LAST4_POSITIONS` of them (quick: :data:`QUICK_POSITIONS`);
* ``first_lead``: the first card of the hand, the whole hand solved. In Python that can take far
  longer than a benchmark may, so it is tried on :data:`FIRST_LEAD_DEALS` deals (quick: one) with a
  cap of :data:`FIRST_LEAD_CAP` seconds a solve (quick: :data:`QUICK_CAP`); ``first_lead.finished``
  says how many finished, and the times are of those that did.

Where the compiled fast path is built (arena.fast), the solver searches on it; ``last4`` is then
solved a second time on the engine (``Solver(state, use_fast=False)``), giving
``last4.engine_median_ms`` and ``last4.fast_speedup`` (all the solves' time on the engine over
that on the fast path, the same positions one after the other). Where the search itself runs in
C (Five Hundred, 56, Bid Euchre: ``arena/fast/_solve.h``), ``last4`` is solved a third time with
the search in Python on the fast path's positions (``Solver(state, compiled=False)``), giving
``last4.python_median_ms`` and ``last4.compiled_speedup``.

Each is reported as the median and the 99th percentile (with 40 positions that is near the slowest)
of the solve times, in milliseconds. The figures are measured once (``--repeat`` does not apply: a
distribution over positions is already many runs).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import TYPE_CHECKING, Any

from arena import fast
from arena.bench.common import Figures, Settings
from arena.bench.engines import bench_game, bundled_games
from arena.solver import SolveTimeout, Solver

if TYPE_CHECKING:
    from arena.games.base import GameState
    from arena.plugins.manager import Registry

LAST4_POSITIONS = 40
QUICK_POSITIONS = 3
FIRST_LEAD_DEALS = 3
FIRST_LEAD_CAP = 30.0  # seconds a whole-hand solve may take here
QUICK_CAP = 0.2


def positions(game: Any, count: int, tricks_left: int | None, seed: int = 0) -> list["GameState"]:
    """``count`` play positions of seeded random playouts: at the lead when every hand of the deal
    holds ``tricks_left`` cards, or (None) at the hand's first card. One per deal at most."""
    rng = random.Random(f"solver/{seed}")
    kinds = game.page()["phases"]
    found: list[GameState] = []
    deal = 0
    while len(found) < count:
        state = game.new_match(seed=f"bench/solver/{seed}/{deal}")
        deal += 1
        while state.current_player() is not None and len(found) < count:
            seat = state.current_player()
            if kinds.get(state.phase) == "play":
                view = state.observation(seat)
                sizes = [size for s, size in enumerate(view["hand_sizes"]) if s in view["active_seats"]]
                if not view["trick"] and (tricks_left is None or set(sizes) == {tricks_left}):
                    found.append(state.clone())
                    break  # the next position from another deal
                if tricks_left is None or min(sizes) < tricks_left:
                    break  # a short hand (the deal has fewer tricks): the next deal
            state.apply_id(rng.choice(state.legal_action_ids()))
    return found


def solve_times(states: list["GameState"], cap: float | None, use_fast: bool = True,
                compiled: bool = True) -> tuple[list[float], int, int]:
    """(seconds of each solve that finished within ``cap``, how many did not, how many searched in
    C); ``use_fast``: on the compiled fast path where it is built (arena.fast), else on the engine;
    ``compiled``: the search itself in C where the game allows."""
    times: list[float] = []
    late = in_c = 0
    for state in states:
        start = time.perf_counter()
        solver = Solver(state, cap, use_fast=use_fast, compiled=compiled)
        try:
            solver.root_values()
        except SolveTimeout:
            late += 1
            continue
        finally:
            in_c += solver.compiled
        times.append(time.perf_counter() - start)
    return times, late, in_c


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98] if len(values) > 1 else values[0]


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    count = QUICK_POSITIONS if settings.quick else LAST4_POSITIONS
    deals = 1 if settings.quick else FIRST_LEAD_DEALS
    cap = QUICK_CAP if settings.quick else FIRST_LEAD_CAP
    for name in bundled_games(registry):
        game = bench_game(registry, name)
        who = f"{game.title} ({game.players} players)"
        last4 = positions(game, count, 4)
        times, _, in_c = solve_times(last4, None)
        figures.add(f"solver.{name}.last4.median_ms", 1000 * statistics.median(times), "ms",
                    f"{who}: solve(state) at the lead 4 tricks before the end, median of {len(times)} positions")
        figures.add(f"solver.{name}.last4.p99_ms", 1000 * p99(times), "ms",
                    f"{who}: the same, 99th percentile")
        if fast.available():  # the same positions searched on the engine (clone, apply_id), right after
            engine, _, _ = solve_times(last4, None, use_fast=False)
            figures.add(f"solver.{name}.last4.engine_median_ms", 1000 * statistics.median(engine), "ms",
                        f"{who}: the same positions solved on the engine instead of the fast path, median")
            figures.ratio(f"solver.{name}.last4.fast_speedup", sum(engine), sum(times),
                          f"{who}: the time of all {len(times)} solves on the engine over that on the fast path")
        if in_c:  # the same positions with the search in Python on the fast path's positions
            python, _, _ = solve_times(last4, None, compiled=False)
            figures.add(f"solver.{name}.last4.python_median_ms", 1000 * statistics.median(python), "ms",
                        f"{who}: the same positions with the search in Python (fast path positions), median")
            figures.ratio(f"solver.{name}.last4.compiled_speedup", sum(python), sum(times),
                          f"{who}: the time of all {len(times)} solves searched in Python over that searched in C")
        times, late, _ = solve_times(positions(game, deals, None), cap)
        figures.add(f"solver.{name}.first_lead.finished", len(times), "solves",
                    f"{who}: whole-hand solves from the first lead that finished within {cap:g} s, of {deals}")
        if times:
            figures.add(f"solver.{name}.first_lead.median_ms", 1000 * statistics.median(times), "ms",
                        f"{who}: solve(state) from the first lead, median of the {len(times)} that finished")
            figures.add(f"solver.{name}.first_lead.p99_ms", 1000 * p99(times), "ms",
                        f"{who}: the same, 99th percentile")
