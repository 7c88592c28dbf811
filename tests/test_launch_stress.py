"""Launched bots start reliably (issue: the first run works). A launched program (``cmd:``, under
``process`` or ``sandbox``) was started with ``preexec_fn``: a plain fork of the arena's threaded
process, in which gRPC's fork handlers ran and aborted the child before ``exec`` now and then
("exited with code -6 before serving ... epoll_wait error: Bad file descriptor"), whatever the
program was. Now nothing of Python runs between fork and exec (arena.players.launch).

The stress test starts ``ARENA_STRESS_STARTS`` bots (default 500) while other threads hold gRPC
channels and both CPUs are busy, and wants every one of them to start."""

from __future__ import annotations

import concurrent.futures
import os
import shlex
import shutil
import subprocess
import sys
import threading
import time
from concurrent import futures

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from arena.players.base import MatchInfo
from arena.players.seats import make_host
from tests.grpc_support import install_js_bot

PYTHON_BOT = f"cmd:{shlex.quote(sys.executable)} -m arena.players.serve random"
INFO = MatchInfo("five_hundred", {}, 0, ("a", "b", "c", "d"))
STARTS = int(os.environ.get("ARENA_STRESS_STARTS", "500"))


def _isolations() -> list[str]:
    return ["process"] + (["sandbox"] if shutil.which("bwrap") else [])


def test_launching_a_bot_runs_no_python_in_a_fork_of_the_arena(registry, tmp_path):
    """The cause itself, seen without luck: Python's at-fork handlers (gRPC's among them) run in a
    child only when subprocess forks with a preexec_fn; a launch must not make one."""
    marks = tmp_path / "forked"

    def mark() -> None:
        with open(marks, "a") as handle:
            handle.write(f"{os.getpid()}\n")

    os.register_at_fork(after_in_child=mark)  # cannot be unregistered: it only writes to tmp_path
    for isolation in _isolations():
        host = make_host(registry, PYTHON_BOT, game="five_hundred", seed=0, isolation=isolation)
        try:
            host.start(INFO, 5)
        finally:
            host.close()
    forked = marks.read_text().split() if marks.exists() else []
    assert forked == [], f"{len(forked)} launch(es) ran Python in a fork of the arena"


class _Load:
    """Threads that keep gRPC channels open and call a local server now and then (so that gRPC's
    C-core is alive in the arena's process, as it is in a ladder or a tournament of gRPC bots),
    and a busy process per CPU."""

    def __init__(self, threads: int = 3):
        self.server = grpc.server(futures.ThreadPoolExecutor(4))
        health_pb2_grpc.add_HealthServicer_to_server(health.HealthServicer(), self.server)
        self.port = self.server.add_insecure_port("127.0.0.1:0")
        self.stopping = threading.Event()
        self.calls = 0
        self.threads = [threading.Thread(target=self._call, daemon=True) for _ in range(threads)]
        self.burners: list[subprocess.Popen] = []

    def _call(self) -> None:
        while not self.stopping.is_set():
            with grpc.insecure_channel(f"127.0.0.1:{self.port}") as channel:
                stub = health_pb2_grpc.HealthStub(channel)
                for _ in range(5):
                    stub.Check(health_pb2.HealthCheckRequest(), timeout=10)
                    self.calls += 1
                    self.stopping.wait(0.1)  # mostly idle, as a tournament's channels are between calls

    def __enter__(self) -> "_Load":
        self.server.start()
        for thread in self.threads:
            thread.start()
        burn = "import time\nend = time.time() + 3600\nwhile time.time() < end: pass"
        self.burners = [subprocess.Popen([sys.executable, "-c", burn]) for _ in range(os.cpu_count() or 1)]
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        for burner in self.burners:
            burner.kill()
            burner.wait()
        for thread in self.threads:
            thread.join(15)
        self.server.stop(0)


@pytest.mark.slow
def test_hundreds_of_launched_bots_all_start_under_load_beside_grpc_threads(registry):
    seats = [PYTHON_BOT, install_js_bot()]  # a Python program and a Node.js one (no gRPC C-core in it)
    kinds = [(seat, isolation) for seat in seats for isolation in _isolations()]
    failures: list[str] = []

    def start(index: int) -> None:
        seat, isolation = kinds[index % len(kinds)]
        try:
            host = make_host(registry, seat, game="five_hundred", seed=index, isolation=isolation)
        except Exception as exc:  # noqa: BLE001 - every way of failing counts
            failures.append(f"start {index} ({isolation}, {seat}): could not be made: {exc}")
            return
        try:
            host.start(INFO, 5)
            action, _ = host.decide({"legal_actions": ["pass"], "legal_action_ids": [0]}, 10)
            if action != "pass":
                failures.append(f"start {index} ({isolation}, {seat}): answered {action!r}")
        except Exception as exc:  # noqa: BLE001
            failures.append(f"start {index} ({isolation}, {seat}): {type(exc).__name__}: {exc}")
        finally:
            host.close()

    began = time.perf_counter()
    with _Load() as load, concurrent.futures.ThreadPoolExecutor(4) as pool:
        list(pool.map(start, range(STARTS)))
    seconds = time.perf_counter() - began
    print(f"{STARTS} launched bots ({len(kinds)} kinds) in {seconds:.0f} s beside {load.calls} gRPC calls: "
          f"{len(failures)} failed")
    assert load.calls > 0
    assert failures == [], f"{len(failures)} of {STARTS} starts failed:\n" + "\n".join(failures[:10])
