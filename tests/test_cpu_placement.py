"""Where the arena's processes run: a pool worker keeps to one CPU of its own, and a bot process
runs on the CPUs of the arena process that started it (arena.players.isolated.arena_cpus)."""

from __future__ import annotations

import os
import time

import pytest

from arena.players.base import Player
from arena.players.isolated import ProcessHost
from arena.tournaments.executors import LocalPoolExecutor

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")


class CpuReporter(Player):
    """Answers every decision with the CPUs its process may run on."""

    def __init__(self, settings=None, seed=0):
        pass

    def act(self, observation):
        return ",".join(str(cpu) for cpu in sorted(os.sched_getaffinity(0)))


def worker_cpus(pause: float = 0.0) -> tuple[int, ...]:
    time.sleep(pause)  # holds the worker, so that the next task starts another
    return tuple(sorted(os.sched_getaffinity(0)))


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_a_bot_process_runs_on_the_cpus_of_its_arena_process():
    before = os.sched_getaffinity(0)
    ProcessHost(CpuReporter).close()  # the fork server now runs, on every CPU: bots must not just inherit
    one = min(before)
    os.sched_setaffinity(0, {one})
    try:
        host = ProcessHost(CpuReporter)
        try:
            answer, _ = host.decide({"legal_actions": ["x"]}, 10.0)
        finally:
            host.close()
    finally:
        os.sched_setaffinity(0, before)
    assert answer == str(one)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_pool_workers_keep_to_one_cpu_each():
    cpus = sorted(os.sched_getaffinity(0))
    executor = LocalPoolExecutor(2)
    try:
        futures = [executor.pool.submit(worker_cpus, 0.5) for _ in range(2)]  # one per worker
        seen = {future.result() for future in futures}
    finally:
        executor.close()
    assert seen == {(cpus[0],), (cpus[1],)}


def test_an_unpinned_pool_leaves_workers_on_every_cpu():
    executor = LocalPoolExecutor(2, pin=False)
    try:
        assert executor.pool.submit(worker_cpus).result() == tuple(sorted(os.sched_getaffinity(0)))
    finally:
        executor.close()
