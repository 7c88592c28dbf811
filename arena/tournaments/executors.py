"""Executors run match specifications and hand back results as they finish.

An executor is anything with ``run(specs) -> iterator of (spec, outcome)`` and ``close()``.
``play_spec`` is the one function every executor calls: it needs nothing but the specification, so
a worker anywhere (a local process, a Ray task) can run it.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from typing import Any, Iterable, Iterator, Protocol

from arena.games.base import SeededDecks
from arena.players.factory import make_host
from arena.referee import FaultPolicy, Referee, TimeControl


def play_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """Play one match from its specification; return its result and its record (JSON-ready)."""
    from arena.plugins import get_registry

    registry = get_registry()
    game = registry.game(spec["game"], spec["options"])
    hosts = []
    try:
        for seat, bot in enumerate(spec["bots"]):
            hosts.append(make_host(registry, bot, game=game.name, seed=spec["bot_seeds"][seat],
                                   isolation=spec["isolation"], settings=spec["settings"][seat]))
        referee = Referee(
            game,
            hosts,
            list(spec["seats"]),
            seed=spec["deal_seed"],
            decks=SeededDecks(spec["deal_seed"]),
            time_control=TimeControl.from_dict(spec["time_control"]),
            policy=FaultPolicy.from_dict(spec["faults"]),
            match_id=f"{spec['index']}",
        )
        result = referee.play()
    finally:
        for host in hosts:
            host.close()
    outcome = result.as_dict()
    return {"result": outcome, "record": result.record}


class Executor(Protocol):
    def run(self, specs: Iterable[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]: ...

    def close(self) -> None: ...


class InlineExecutor:
    """One match at a time in this process: for debugging."""

    def run(self, specs):
        for spec in specs:
            yield spec, play_spec(spec)

    def close(self) -> None:
        pass


class LocalPoolExecutor:
    """A pool of worker processes on this machine (spawned: workers never share the arena's memory)."""

    def __init__(self, workers: int):
        self.workers = max(1, workers)
        self.pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))

    def run(self, specs):
        specs = list(specs)
        futures = {self.pool.submit(play_spec, spec): spec for spec in specs}
        for future in concurrent.futures.as_completed(futures):
            yield futures[future], future.result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
