"""Where the bots of `arena serve`'s tables compute: each in a process of its own (the arena's
``process`` isolation, forked from its fork server, at a lower CPU priority than the server), at
most :attr:`BotPool.workers` decisions at once in all, and each person's bots within a budget of
decision-seconds per minute (docs/web.md, "Limits").

A person whose bots used more than their budget has their bots' next decisions wait (the game
goes on, more slowly, and the table says why) until the budget is back: nobody's tables slow
anyone else's, and the server's own threads and event loop keep the CPU they need to answer.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any, Callable, TypeVar

T = TypeVar("T")
NICE = 10  # the bot processes' niceness: the server answers first


def default_workers() -> int:
    return max(1, (os.cpu_count() or 1) - 1)


def lower_priority(host: Any) -> None:
    """Lower the CPU priority of ``host``'s bot process (a ProcessHost; others have none)."""
    process = getattr(host, "process", None)
    pid = getattr(process, "pid", None)
    if pid is None or getattr(host, "_niced", None) == pid:
        return
    try:
        os.setpriority(os.PRIO_PROCESS, pid, NICE)
    except OSError:  # gone already, or not ours to change: it runs as it is
        pass
    host._niced = pid


class BotPool:
    """The server-wide bound on bot decisions, and each person's budget of them."""

    def __init__(self, workers: int = 0, seconds_per_minute: float = 30.0,
                 clock: Callable[[], float] = time.monotonic):
        self.workers = workers or default_workers()
        self.budget = seconds_per_minute
        self.clock = clock
        self._slots = threading.BoundedSemaphore(self.workers)
        self._lock = threading.Lock()
        self._levels: dict[str, tuple[float, float]] = {}  # person -> (seconds left, when)
        self.waits = 0  # decisions held back by a budget (shown by the bench and the tests)

    def _level(self, person: str, now: float) -> float:
        left, at = self._levels.get(person, (self.budget, now))
        return min(self.budget, left + (now - at) * self.budget / 60.0)

    def over_budget(self, person: str) -> float:
        """Seconds until ``person``'s bots may decide again (0: now)."""
        with self._lock:
            level = self._level(person, self.clock())
        return 0.0 if level > 0 else (-level + 1e-3) * 60.0 / self.budget

    def decide(self, person: str, decision: Callable[[], T], stopping: threading.Event,
               on_wait: Callable[[float], None] | None = None) -> T:
        """Run ``decision`` (a bot's) for ``person``'s table once their budget and a slot allow;
        ``stopping`` set while waiting ends the wait (returns by raising nothing: the decision runs
        and the caller's own check stops the table). ``on_wait(seconds)``: told before a budget wait."""
        wait = self.over_budget(person)
        if wait > 0:
            self.waits += 1
            if on_wait is not None:
                on_wait(wait)
            while wait > 0 and not stopping.wait(min(wait, 1.0)):
                wait = self.over_budget(person)
        with self._slots:
            start = self.clock()
            try:
                return decision()
            finally:
                self._charge(person, self.clock() - start)

    def _charge(self, person: str, seconds: float) -> None:
        with self._lock:
            now = self.clock()
            self._levels[person] = (self._level(person, now) - seconds, now)
            if len(self._levels) > 4096:  # forget the people whose budget is whole again
                for key in [k for k in self._levels if self._level(k, now) >= self.budget]:
                    del self._levels[key]
