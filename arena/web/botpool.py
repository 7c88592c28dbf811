"""Where the bots of `arena serve`'s tables compute: each in a process of its own (the arena's
``process`` isolation, forked from its fork server, at a lower CPU priority than the server), and
each person's bots within a budget of decision-seconds per minute (docs/web.md, "Limits"):

* one person's bots decide one at a time (their tables take turns);
* a person who used less than half their budget this minute decides at once; the others share
  :attr:`BotPool.workers` decisions at once, the one with the most budget left first, so a light
  game never queues behind a heavy one;
* a person whose bots used their whole budget has their bots' next decisions wait (the game goes on,
  more slowly, and the table says why) until it is back.

Nobody's tables slow anyone else's, and the server's own threads and event loop keep the CPU they
need to answer.
"""

from __future__ import annotations

import heapq
import itertools
import os
import threading
import time
from typing import Any, Callable, TypeVar

T = TypeVar("T")
# The bot processes' niceness, the lowest there is: the server answers first. Not the idle class
# (SCHED_IDLE): that one starves the bots behind any other work at normal priority on the machine
# (a person's game stalled past 30 s beside four busy processes on two cores), where niceness 19 only slows them.
NICE = 19


def default_workers() -> int:
    return os.cpu_count() or 1


def lower_priority(host: Any) -> None:
    """Lower the CPU priority of ``host``'s bot process (a ProcessHost's ``pid``, a launched
    command's ``process``; an in-process bot has none). A sandboxed bot's every process: the
    bot runs in bwrap's children, forked before the launcher's pid could be reniced, and what the
    bot starts later inherits the niceness."""
    pid = getattr(host, "pid", None)
    if pid is None:
        pid = getattr(getattr(host, "process", None), "pid", None)
    if pid is None or getattr(host, "_niced", None) == pid:
        return
    sandbox = getattr(host, "sandbox", None)
    for each in sandbox.members() if sandbox is not None else [pid]:
        try:
            os.setpriority(os.PRIO_PROCESS, each, NICE)
        except OSError:  # gone already, or not ours to change: as it is
            pass
    host._niced = pid


class BotPool:
    """The server-wide bound on bot decisions, and each person's budget of them."""

    def __init__(self, workers: int = 0, seconds_per_minute: float = 30.0,
                 clock: Callable[[], float] = time.monotonic):
        self.workers = workers or default_workers()
        self.budget = seconds_per_minute
        self.clock = clock
        self._lock = threading.Condition()
        self._levels: dict[str, tuple[float, float]] = {}  # person -> (seconds left, when)
        self._busy: set[str] = set()  # people one of whose bots decides now
        self._heavy = 0  # decisions under way that took a slot
        self._queue: list[tuple[float, int, str]] = []  # (-budget left, order, person) waiting for a slot
        self._order = itertools.count()
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
        slot = self._acquire(person)
        start = self.clock()
        try:
            return decision()
        finally:
            self._release(person, slot, self.clock() - start)

    def _acquire(self, person: str) -> bool:
        """Wait for ``person``'s turn; whether a slot was taken (False: a light person's decision)."""
        with self._lock:
            while person in self._busy:  # their other table's bot decides now
                self._lock.wait()
            self._busy.add(person)
            left = self._level(person, self.clock())
            if left >= self.budget / 2:
                return False
            entry = (-left, next(self._order), person)
            heapq.heappush(self._queue, entry)
            while self._heavy >= self.workers or self._queue[0] is not entry:
                self._lock.wait()
            heapq.heappop(self._queue)
            self._heavy += 1
            self._lock.notify_all()
            return True

    def _release(self, person: str, slot: bool, seconds: float) -> None:
        with self._lock:
            now = self.clock()
            self._busy.discard(person)
            self._heavy -= slot
            self._levels[person] = (self._level(person, now) - seconds, now)
            self._lock.notify_all()
            if len(self._levels) > 4096:  # forget the people whose budget is whole again
                for key in [k for k in self._levels if self._level(k, now) >= self.budget]:
                    del self._levels[key]
