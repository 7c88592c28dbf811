"""What does a Ray task cost a match? Matches per second with the local pool and with Ray, on this
machine, for the same small tournament.

For each tournament below, each executor is started (timed: ``start``), plays the whole schedule
once to warm up (worker processes, imports), then plays it ``--passes`` times more, timed:
``matches/s`` is the median pass (the lowest and highest in brackets). Both have the same number of workers (``--workers``, default 2); Ray is a local
instance of this run's own (what ``arena run FILE --executor ray`` starts), so the difference is
the cost of a task: submitting it, scheduling it, shipping the spec and the result (the game record)
through Ray's object store. Per match, over ``w`` workers::

    overhead per match ≈ w × (1 / ray_rate − 1 / local_rate)

Tournaments:

* ``toy``: the test suite's toy game (2 players, 8 cards), three random bots in the arena's
  process: a match takes about a millisecond, so the figure is nearly all overhead;
* ``five_hundred``: four-player Five Hundred, random against heuristic, each bot in a process of its
  own (the isolation of the bundled tournament files): a realistic small tournament.

Run: ``python benchmarks/ray_overhead.py [--workers 2] [--passes 3] [--only toy|five_hundred]``. Loopback only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TOURNAMENTS = {
    "toy": """
[tournament]
game = "toy"
deal_sets = 40
seed = 1
isolation = "inprocess"
[options]
target = 10
[[bots]]
bot = "random"
[[bots]]
name = "random-b"
bot = "random"
[[bots]]
name = "random-c"
bot = "random"
""",
    "five_hundred": """
[tournament]
game = "five_hundred"
deal_sets = 10
seed = 2026
isolation = "process"
[options]
players = 4
max_hands = 200
[[bots]]
bot = "heuristic"
[[bots]]
bot = "random"
""",
}


def measure(name: str, text: str, workers: int, passes: int) -> list[tuple]:
    from arena.plugins import get_registry
    from arena.tournaments import config as tconfig
    from arena.tournaments import schedule

    registry = get_registry()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{name}.toml"
        path.write_text(text)
        config = tconfig.load(path, registry)
    specs = schedule.build(config, registry.game(config.game, config.options))
    rows = []
    for kind in ("local", "ray"):
        started = time.perf_counter()
        executor = registry.executor(kind).make(workers, {})
        start = time.perf_counter() - started
        try:
            for _ in executor.run(specs):  # warm up
                pass
            rates = []
            for _ in range(passes):
                started = time.perf_counter()
                played = sum(1 for _ in executor.run(specs))
                rates.append(played / (time.perf_counter() - started))
                assert played == len(specs)
        finally:
            executor.close()
        rows.append((kind, start, len(specs), statistics.median(rates), min(rates), max(rates)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=sorted(TOURNAMENTS))
    parser.add_argument("--passes", type=int, default=3, help="timed passes over the schedule (the median is shown)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, {args.workers} workers, Python {sys.version.split()[0]}", end="")
    try:
        import ray

        print(f", Ray {ray.__version__}")
    except ImportError:
        sys.exit("\nthis measures the Ray executor: pip install -e '.[ray]' in the checkout")
    print(f"{'tournament':<14}{'executor':<10}{'start s':>9}{'matches':>9}{'matches/s':>11}{'(min-max)':>16}"
          f"{'overhead ms/match':>19}")
    for name, text in TOURNAMENTS.items():
        if args.only and name != args.only:
            continue
        rows = measure(name, text, args.workers, args.passes)
        local_rate = rows[0][3]
        for kind, start, played, rate, low, high in rows:
            overhead = "" if kind == "local" else f"{1000 * args.workers * (1 / rate - 1 / local_rate):+.1f}"
            spread = f"({low:.1f}-{high:.1f})"
            print(f"{name:<14}{kind:<10}{start:>9.2f}{played:>9}{rate:>11.1f}{spread:>16}{overhead:>19}")


if __name__ == "__main__":
    # the toy game is a test plugin: workers and bot processes find it through these two variables
    sys.path.insert(0, str(ROOT))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    os.environ.setdefault("TRICK_ARENA_PLUGINS", "tests.plugins.toy_game")
    main()
