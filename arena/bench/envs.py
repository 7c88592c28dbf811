"""The learning environments (docs/learning.md): environment steps per second of one PettingZoo AEC
environment and of the vector environment, side by side, for every bundled game.

A step is one action applied for the seat to act, with the observation (tensor and action mask)
of the next seat to act produced, the work a self-play loop needs per decision. Actions are random
legal ids. **AEC**: ``arena.envs.env(game)`` with its wrappers, ``env.last()`` then
``env.step(rng.choice(legal ids))``, ``reset()`` (no seed: the next match) when a match ends.
**Vector**: ``arena.envs.vector_env(game, N)`` (:data:`NUM_ENVS`, :data:`QUICK_NUM_ENVS` at
--quick), ``step`` with one uniform legal id per match drawn at once with numpy, returning copies
(its default); N steps per call. Both play the game's default options with a harness limit of
:data:`arena.bench.engines.HANDS_PER_MATCH` deals per match, as the engines group does.

Needs the ``rl`` extra (pettingzoo, gymnasium, numpy); without it the group is skipped and says so.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from arena.bench.common import Figures, Settings, interleave
from arena.bench.engines import HANDS_PER_MATCH, bundled_games

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

NUM_ENVS = 64
QUICK_NUM_ENVS = 8


def aec_steps(env: Any, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Random legal steps of one AEC environment for ``seconds``: (steps, elapsed)."""
    import numpy as np

    rng = random.Random(seed)
    choice, legal = rng.choice, np.flatnonzero
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        env.step(choice(legal(observation["action_mask"]).tolist()))
        steps += 1
        if time.perf_counter() >= end:
            return steps, time.perf_counter() - start


def vector_steps(vector: Any, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Random legal steps of the vector environment for ``seconds``: (steps, elapsed)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    _, mask, _ = vector.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        # a uniform legal id per match: the largest of uniform draws over its legal ids
        _, mask, _, _, _ = vector.step(np.argmax(mask * rng.random(mask.shape), axis=1))
        steps += vector.num_envs
        if time.perf_counter() >= end:
            return steps, time.perf_counter() - start


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    try:
        import arena.envs
        import arena.envs.aec  # the package imports its environments lazily: pettingzoo is needed here
    except ImportError as exc:
        figures.skipped["envs"] = f"{exc.name or 'a package'} is not installed (the rl extra: pip install -e '.[rl]')"
        return
    num_envs = QUICK_NUM_ENVS if settings.quick else NUM_ENVS
    for name in bundled_games(registry):
        single = arena.envs.env(name, max_hands=HANDS_PER_MATCH)
        vector = arena.envs.vector_env(name, num_envs, max_hands=HANDS_PER_MATCH)
        title = single.unwrapped.game.title
        aec_steps(single, min(0.05, settings.seconds))  # warm up
        vector_steps(vector, min(0.05, settings.seconds))
        rates: dict[tuple[int, str], float] = {}

        def measure_aec(run: int, name: str = name, single: Any = single, title: str = title) -> None:
            steps, elapsed = aec_steps(single, settings.seconds, seed=run)
            rates[run, "aec"] = steps / elapsed
            figures.add(f"envs.{name}.aec_steps_per_s", steps / elapsed, "steps/s",
                        f"{title}: random legal steps per second of one PettingZoo AEC environment (wrapped)")

        def measure_vector(run: int, name: str = name, vector: Any = vector, title: str = title) -> None:
            steps, elapsed = vector_steps(vector, settings.seconds, seed=run)
            rates[run, "vector"] = steps / elapsed
            figures.add(f"envs.{name}.vector_steps_per_s", steps / elapsed, "steps/s",
                        f"{title}: random legal steps per second of the vector environment, {num_envs} matches")

        interleave(settings.repeat, measure_aec, measure_vector)
        for run in range(settings.repeat):
            figures.ratio(f"envs.{name}.vector_over_aec", rates[run, "vector"], rates[run, "aec"],
                          f"{title}: vector environment steps/s over one AEC environment's")
