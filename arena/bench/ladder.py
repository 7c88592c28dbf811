"""The ladder (``arena ladder``): how fast its scheduler plays and stores matches, and how long a
new submission waits for its first rating.

- ``ladder.matches_per_s``: a ladder of house bots (heuristic, random; All Fours for two, two
  hands a match), rounds of ``2 x workers`` duplicate deal sets on the local pool: matches stored
  (checked, rated) per second, from the ladder's start (pool included) to its last rating.
- ``ladder.submission_to_rated_s``: with that ladder running, a module bot is submitted through
  the submissions' own functions (installed, validated by a smoke match in the sandbox); the
  seconds until its first deal set is rated (it waits for the round under way, then plays first).
- ``ladder.unloaded.*`` and ``ladder.slow_installs.*``: the ladder's board (``/api/ladder/board``)
  and a person's move at a table of the same server (arena.bench.stall), p99, with no load and
  while ``SLOW_INSTALLS`` submissions wait in the install queue behind installs that take minutes
  (each install sleeps, without using the CPU, until the measurement ends; then it is refused).
"""

from __future__ import annotations

import base64
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.bench.common import Figures, Settings

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

LADDER = {"game": "all_fours", "players": 2, "options": {"max_hands": 2}}
SLOW_INSTALLS = 50
MODULE_BOT = '''"""The first legal action, always."""
from arena.players.base import Player


class FirstLegal(Player):
    def act(self, observation):
        return observation["legal_actions"][0]


def make(settings, seed):
    return FirstLegal()
'''


def _ladder(registry: "Registry", folder: Path, workers: int) -> Any:
    from arena.ladder.config import parse
    from arena.ladder.scheduler import Ladder
    from arena.ladder.store import LadderStore

    config = parse({"ladder": [LADDER]}, "bench", registry)
    return Ladder(LadderStore(folder / "ladder.db"), registry, config, folder / "ladder_files", executor="local",
                  workers=workers, seed=1, house=["heuristic", "random"], log=lambda message: None)


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    _stall(registry, settings, figures)
    workers = max(1, settings.cores)
    rounds = 1 if settings.quick else 3
    for _ in range(settings.repeat):
        with tempfile.TemporaryDirectory(prefix="arena-bench-ladder-") as folder:
            ladder = _ladder(registry, Path(folder), workers)
            start = time.perf_counter()
            ladder.run(rounds=rounds)
            elapsed = time.perf_counter() - start
            stored = ladder.store.counts()["matches_finished"]
            ladder.store.close()
        figures.add("ladder.matches_per_s", stored / elapsed, "matches/s",
                    f"matches stored and rated per second by a ladder of house bots ({rounds} rounds of "
                    f"{2 * workers} deal sets, All Fours for two, 2 hands a match, {workers} workers)")
    from arena.bench.sandbox import unavailable

    why = unavailable(registry)
    if why:  # a submission is validated in the sandbox: without bubblewrap it cannot be
        figures.skipped["ladder.submission_to_rated_s"] = why
        return
    for _ in range(settings.repeat):
        figures.add("ladder.submission_to_rated_s", _submission_to_rated(registry, workers), "s",
                    "seconds from submitting a module bot (through the submissions' functions) to its first "
                    "rated deal set, on a running ladder of house bots")


def _stall(registry: "Registry", settings: Settings, figures: Figures) -> None:
    import contextlib

    import uvicorn

    from arena.bench import stall
    from arena.ladder import api, install, jobs, web
    from arena.web.app import create_app
    from arena.web.command import _listen
    from arena.web.guard import uvicorn_config
    from arena.web.limits import Limit, ServeLimits

    count = 30 if settings.quick else 150
    installs = 5 if settings.quick else SLOW_INSTALLS
    released = threading.Event()
    slow = install.install_python

    def sleeping_install(*args: Any) -> Any:
        released.wait(3600)
        raise install.InstallError("the bench's slow install was stopped")

    with tempfile.TemporaryDirectory(prefix="arena-bench-ladder-") as folder, contextlib.ExitStack() as stack:
        ladder = _ladder(registry, Path(folder), 1)
        stack.callback(ladder.store.close)
        ladder.registrations = Limit(100000, 1.0)  # every client of the bench is loopback, one address
        one_address = ServeLimits(new_tables=Limit(100000, 1.0), new_players=Limit(100000, 1.0))
        app = create_app(Path(folder) / "ladder.db", registry=registry, pace=0.0, limits=one_address,
                         extra_routes=api.routes(ladder) + web.routes(ladder))
        sock = _listen("127.0.0.1", 0)
        host, port = sock.getsockname()[:2]
        server = uvicorn.Server(uvicorn_config(app, timeout_graceful_shutdown=2))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        stack.callback(sock.close)
        stack.callback(thread.join, 30)
        stack.callback(setattr, server, "should_exit", True)
        while not server.started:
            time.sleep(0.02)
        url = f"http://{host}:{port}"
        board = "/api/ladder/board"
        def measure() -> list[tuple[float, float]]:
            return [stall.probe(url, board, count) for _ in range(settings.repeat)]

        unloaded = measure()
        stall.unloaded_figures(figures, "ladder", unloaded, "a ladder's server, the probe alone")
        setattr(install, "install_python", sleeping_install)
        stack.callback(jobs.idle, 60, ladder)
        stack.callback(setattr, install, "install_python", slow)
        stack.callback(released.set)

        def queue(ready: threading.Event, stop: threading.Event) -> None:
            token = ""
            for n in range(installs):
                if n % jobs.PER_AUTHOR == 0:
                    status, author, _ = stall.request(url, "/api/ladder/authors", {"name": f"slow{n}"})
                    token = author["token"]
                status, version, _ = stall.request(url, "/api/ladder/bots", {
                    "name": f"slow-{n}", "kind": "python", "games": [LADDER["game"]], "filename": "slow.py",
                    "content_base64": base64.b64encode(MODULE_BOT.encode()).decode()}, token=token)
                if status != 201:
                    raise RuntimeError(f"a slow submission was refused: {status} {version}")
            ready.set()
            stop.wait()

        loaded = stall.under(queue, measure, warmup=300)
        stall.compare(figures, "ladder", "slow_installs", f"{installs} submissions wait in the install queue "
                      "behind installs that do not end", unloaded, loaded)


def _submission_to_rated(registry: "Registry", workers: int) -> float:
    from arena.ladder import submissions

    with tempfile.TemporaryDirectory(prefix="arena-bench-ladder-") as folder:
        ladder = _ladder(registry, Path(folder), workers)
        store = ladder.store
        stop = threading.Event()
        thread = threading.Thread(target=ladder.run, kwargs={"stop_event": stop}, daemon=True)
        thread.start()
        try:
            while store.counts()["matches_finished"] == 0:  # the ladder is under way
                time.sleep(0.05)
            store.add_author("bench", "")
            start = time.perf_counter()
            version = submissions.submit(ladder, "bench", {
                "name": "first-legal", "kind": "python", "games": [LADDER["game"]], "filename": "first_legal.py",
                "content_base64": base64.b64encode(MODULE_BOT.encode()).decode()})
            deadline = start + 600
            while not store.history(version["id"]):
                current = store.version(version["id"])
                if current is None or current["status"] in ("refused", "probation", "retired"):
                    raise RuntimeError(f"the bench's submission was not rated: {current}")
                if time.perf_counter() > deadline or not thread.is_alive():
                    raise RuntimeError("the bench's submission was not rated within 10 minutes")
                time.sleep(0.05)
            return time.perf_counter() - start
        finally:
            ladder.stop()
            stop.set()
            thread.join(60)
            from arena.ladder import validation

            validation.idle(30)
            store.close()
