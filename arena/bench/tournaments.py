"""Tournaments: matches per second with one worker and with one per core, and the arena's memory.

The speed-up runs the same schedule (a round robin of two ``random`` entries, in-process bots, so
that the figure measures the executor and not the bots) on the local process pool
(``LocalPoolExecutor``) with one worker, then with one worker per core. Each pool is started and
warmed up (every worker has imported the arena and played a match) before the clock starts: the
figure is the pool's steady throughput, results collected in this process as ``arena run`` does.

The memory figure runs ``arena run`` on a tournament of a thousand matches (the same entries, one
worker per core, process-isolated bots as tournaments have by default) in a child process and
reports that process's peak resident memory (the arena's process: the schedule, the store, the
results flowing back), and the largest peak of its worker processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import TYPE_CHECKING, Any

from arena.bench.common import Figures, Settings, interleave

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

TARGET = 1.7
GAME = "bid_euchre"
OPTIONS = {"max_hands": 10}


def config_data(matches: int, isolation: str) -> dict[str, Any]:
    """A round robin of two random entries with ``matches`` matches (two per deal set)."""
    return {
        "tournament": {"name": "bench", "game": GAME, "format": "round_robin", "deal_sets": max(1, matches // 2),
                       "seed": 7, "isolation": isolation},
        "options": dict(OPTIONS),
        "time_control": {"per_decision": 5.0},
        "bots": [{"name": "random-a", "bot": "random"}, {"name": "random-b", "bot": "random"}],
    }


def specs(registry: "Registry", matches: int, isolation: str = "inprocess") -> list[Any]:
    from arena.tournaments import config, schedule

    parsed = config.parse(config_data(matches, isolation), "bench", registry)
    game = registry.game(parsed.game, parsed.options)
    return schedule.build(parsed, game)[:matches]


def _burn(loops: int) -> int:
    """Pure CPU work in a worker: the machine's own ceiling for the speed-up."""
    total = 0
    for i in range(loops):
        total += i
    return total


def burn_rate(executor: Any, tasks: int, loops: int) -> float:
    """Tasks of :func:`_burn` per second on ``executor``'s pool."""
    start = time.perf_counter()
    for future in [executor.pool.submit(_burn, loops) for _ in range(tasks)]:
        future.result()
    return tasks / (time.perf_counter() - start)


def pool_rate(executor: Any, batch: list[dict[str, Any]]) -> float:
    start = time.perf_counter()
    done = sum(1 for _ in executor.run(batch))
    return done / (time.perf_counter() - start)


def warm_up(executor: Any, registry: "Registry", workers: int) -> None:
    """Make every worker start, import the arena and play one match before the clock starts."""
    list(executor.run(specs(registry, workers * 2)))


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    from arena.tournaments.executors import LocalPoolExecutor

    cores = settings.cores
    batch = specs(registry, settings.speedup_matches)
    one, many = LocalPoolExecutor(1), LocalPoolExecutor(cores)
    rates: dict[tuple[int, int], float] = {}
    try:
        warm_up(one, registry, 1)
        warm_up(many, registry, cores)

        def measure(run: int, executor: Any, workers: int) -> None:
            rate = pool_rate(executor, batch)
            rates[run, workers] = rate
            figures.add(f"tournaments.matches_per_s.workers_{workers}", rate, "matches/s",
                        f"round robin, in-process random bots, {GAME} {OPTIONS}, local pool of {workers}")

        def ceiling(run: int) -> None:
            loops = 200_000 if settings.quick else 1_000_000
            tasks = 2 * cores
            rates[run, -1] = burn_rate(one, tasks, loops)
            rates[run, -cores] = burn_rate(many, tasks, loops)

        interleave(settings.repeat, lambda run: measure(run, one, 1), lambda run: measure(run, many, cores), ceiling)
    finally:
        one.close()
        many.close()
    for run in range(settings.repeat):
        figures.ratio("tournaments.speedup", rates[run, cores], rates[run, 1],
                      f"matches/s with {cores} workers (one per core) over one worker", TARGET if cores >= 2 else None)
        figures.ratio("tournaments.cpu_speedup_ceiling", rates[run, -cores], rates[run, -1],
                      f"the same pools running pure CPU work: what {cores} workers can gain on this machine now "
                      "(below the cores when other programs use them)")
    if settings.tournament_matches:
        peak = peak_memory(settings.tournament_matches, cores)
        figures.add("tournaments.peak_memory_mb", peak["arena_mb"], "MiB",
                    f"peak resident memory of the arena process running {settings.tournament_matches} matches "
                    f"(arena run, {cores} workers, process-isolated bots)")
        figures.add("tournaments.worker_peak_memory_mb", peak["workers_mb"], "MiB",
                    "the largest peak resident memory of a worker or bot process of that run")
        figures.add("tournaments.memory_run_matches_per_s", peak["matches_per_s"], "matches/s",
                    "that run's matches per second, process-isolated bots (each match starts its bot processes)")


_PEAK = r"""
import json, resource, sys, time
from arena.plugins import get_registry
from arena.tournaments import config, runner
from arena.bench.tournaments import config_data
registry = get_registry()
parsed = config.parse(config_data(int(sys.argv[1]), "process"), "bench", registry)
start = time.perf_counter()
store = runner.run(parsed, registry, sys.argv[3], workers=int(sys.argv[2]), progress=False)
elapsed = time.perf_counter() - start
done, total = store.counts()
store.close()
print(json.dumps({"done": done, "elapsed": elapsed,
                  "self_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "children_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def peak_memory(matches: int, workers: int) -> dict[str, float]:
    """Run a tournament of ``matches`` in a child process; its peak memory and its pace."""
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "bench.db")
        out = subprocess.run([sys.executable, "-c", _PEAK, str(matches), str(workers), db],
                             capture_output=True, text=True, check=True, env={**os.environ})
    data = json.loads(out.stdout.strip().splitlines()[-1])
    if data["done"] != matches:
        raise RuntimeError(f"the memory run finished {data['done']} of {matches} matches")
    return {"arena_mb": data["self_kb"] / 1024, "workers_mb": data["children_kb"] / 1024,
            "matches_per_s": data["done"] / data["elapsed"]}
