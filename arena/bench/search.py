"""The search bot's costs: rollouts per second and the ``search`` bot's decisions per second.

For every bundled game with its default options, at a dozen positions of seeded random playouts
(the engines group's :func:`resample_positions`), from a deal the seat to act could be facing:

* ``heuristic_rollouts_per_s``, ``random_rollouts_per_s`` and ``fast_rollouts_per_s``: the hand
  played out to its end (``clone``, then ``apply_id`` of the rollout policy's choice for every
  seat; ``fast``: the card play from the compiled fast path, replayed, with the target of issue
  #35, 10,000 a second; left out where the extension is not built), the work a ``search`` decision
  repeats for every sample and candidate action;
* ``solve_rollouts_per_s``: the same with ``rollout = solve`` (the heuristic, then the rest of the
  hand solved exactly once the card play has :data:`SOLVE_ENDGAME` cards in hand: Bid Euchre's whole
  card play, Five Hundred's last five tricks, All Fours' last three), where the solver's value is the
  rollout's (not 56) and the extension is built;
* ``decisions_per_s``: whole decisions of the ``search`` bot (the proxy state rebuilt from the
  observation, the samples drawn with auction inference, every candidate rolled out), with
  :data:`SAMPLES` samples and no clock limit, so the figure is its speed at a fixed amount of work.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from arena import fast
from arena.bench.common import Figures, Settings
from arena.bench.engines import RESAMPLE_POSITIONS, bench_game, bundled_games, resample_positions

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

SAMPLES = 8  # samples per decision of the decisions_per_s figure
KINDS = ("heuristic", "python", "random", "fast", "solve")  # the rollout policies measured
# "python": heuristic rollouts with compiled = false, measured in the games where the heuristic's card
# play is compiled (bots/heuristic/compiled.py), for the ratio of the two side by side
COMPILED_PLAY = ("five_hundred", "fifty_six", "all_fours", "bid_euchre")  # bots.heuristic.compiled.POLICIES
SOLVE_ENDGAME = {"five_hundred": 5, "all_fours": 3, "bid_euchre": 6}  # rollout = solve: cards in hand solved
TARGETS = {"fast": 10_000.0}  # issue #35: search rollouts at 10,000 a second or more in every game
COMPILED_NOTE = "; its card play the heuristic's, compiled (bots/heuristic/compiled.py)"
PYTHON_NOTE = " (heuristic rollouts with compiled = false: the heuristic's card play in Python)"
FAST_NOTE = ("; the card play from the compiled fast path's partner policy (arena.fast.playout),"
             " replayed by the engine, which scores the hand")


def rollouts(game: Any, positions: list[tuple[Any, int]], kind: str, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Rollouts of the hand from resampled positions for ``seconds``: (rollouts, elapsed)."""
    from bots.search import parse_settings
    from bots.search.pimc import Searcher
    from bots.heuristic import HeuristicBot

    settings = parse_settings({"samples": 1, "rollout": "heuristic" if kind == "python" else kind,
                               "compiled": kind != "python", "endgame": SOLVE_ENDGAME.get(game.name, 0)})
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    share = seconds / len(positions)
    for state, seat in positions:
        searcher = Searcher(game, seat, settings, game.options, rng, HeuristicBot)
        searcher.deadline = time.monotonic() + 3600  # a rollout's solve is not cut short here
        sample = state.resample(seat, rng)
        before = sample.scores()
        legal = sample.legal_action_ids()
        end = time.perf_counter() + share
        while True:
            searcher._rollout(sample, rng.choice(legal), before, game.side_of(seat))
            count += 1
            if time.perf_counter() >= end:
                break
    return count, time.perf_counter() - start


def decisions(game: Any, positions: list[tuple[Any, int]], seconds: float, compiled: bool = True) -> tuple[int, float]:
    """Whole ``search`` decisions (fresh bot each, the observation alone) for ``seconds``."""
    from arena.players.base import MatchInfo
    from bots.search import SearchBot

    count = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for state, seat in positions:
            if len(state.legal_action_ids()) < 2:
                continue
            bot = SearchBot({"samples": SAMPLES, "seconds": 60.0, "compiled": compiled}, count)
            bot.start_match(MatchInfo(game.name, dict(game.options), seat, ()))
            obs = state.observation(seat)
            obs["time_left"], obs["bank_left"] = 120.0, None
            bot.act(obs)
            count += 1
            if time.perf_counter() >= end:
                return count, time.perf_counter() - start


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    for name in bundled_games(registry):
        game = bench_game(registry, name)
        positions = resample_positions(game, RESAMPLE_POSITIONS, seed=1)
        for run in range(settings.repeat):
            for kind in KINDS:
                if kind in ("fast", "solve", "python") and not fast.available() or kind == "solve" and name not in SOLVE_ENDGAME \
                        or kind == "python" and name not in COMPILED_PLAY:
                    continue  # it would measure the heuristic again (the rollout falls back to it)
                count, elapsed = rollouts(game, positions, kind, settings.seconds, seed=run)
                figures.add(f"search.{name}.{kind}_rollouts_per_s", count / elapsed, "rollouts/s",
                            f"{game.title}: hands played out from a resampled position with the {kind}"
                            " policy in every seat (clone, apply_id)" + FAST_NOTE * (kind == "fast")
                            + COMPILED_NOTE * (kind == "heuristic" and name in COMPILED_PLAY and fast.available())
                            + PYTHON_NOTE * (kind == "python")
                            + (f"; solved exactly from {SOLVE_ENDGAME.get(name)} cards in hand" if kind == "solve" else ""),
                            target=TARGETS.get(kind))
            count, elapsed = decisions(game, positions, settings.seconds)
            figures.add(f"search.{name}.decisions_per_s", count / elapsed, "decisions/s",
                        f"{game.title}: search bot decisions at {SAMPLES} samples (proxy, inference, rollouts"
                        " of every candidate), at most one per position per pass")
            if name in COMPILED_PLAY and fast.available():
                count, elapsed = decisions(game, positions, settings.seconds, compiled=False)
                figures.add(f"search.{name}.python_decisions_per_s", count / elapsed, "decisions/s",
                            f"{game.title}: the same with compiled = false (the heuristic's card play in Python)")
