"""Executors run match specifications and hand back results as they finish.

An executor is anything with ``run(specs) -> iterator of (spec, outcome)`` and ``close()``.
``play_spec`` is the one function every executor calls: it needs nothing but the specification, so
a worker anywhere (a local process, a Ray task) can run it.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os

from typing import Any, Iterable, Iterator, Protocol

from arena import records
from arena.kinds import ExecutorKind  # its home is arena.kinds; executor plugins import it from here too
from arena.matches import MatchSpec, arena_error_outcome, play_match
from arena.players.hosts import ArenaFailure

Outcome = dict[str, Any]  # {"result": JSON-ready result, "record": the record as JSON text}


def play_spec(spec: MatchSpec) -> Outcome:
    """Play one match from its specification; return its result (JSON-ready) and its record as JSON text.

    The record is encoded here, in the worker, because the arena's process only stores it: one
    string crosses the process boundary instead of thousands of small objects, and the encoding
    runs in parallel with the other workers rather than in the one process every result goes through.
    """
    from arena.plugins import get_registry  # the worker's own registry (loaded once per process)

    try:
        result = play_match(spec, get_registry(), tolerant=True)  # a seat the bot cannot take is that seat's fault
    except ArenaFailure as exc:  # the arena's, after its retries: recorded as the arena's, nobody charged
        return arena_error_outcome(spec, exc)
    return {"result": result.as_dict(), "record": records.dumps(result.record)}


class Executor(Protocol):
    def run(self, specs: Iterable[MatchSpec]) -> Iterator[tuple[MatchSpec, Outcome]]: ...

    def close(self) -> None: ...


class InlineExecutor:
    """One match at a time in this process: for debugging."""

    def run(self, specs):
        for spec in specs:
            yield spec, play_spec(spec)

    def close(self) -> None:
        pass


def play_specs(specs: list[MatchSpec]) -> list[tuple[bool, Any]]:
    """Play several matches in a row: ``(True, outcome)`` or ``(False, the exception)`` for each."""
    outcomes: list[tuple[bool, Any]] = []
    for spec in specs:
        try:
            outcomes.append((True, play_spec(spec)))
        except Exception as exc:  # handed back, and raised where it would have been
            outcomes.append((False, exc))
    return outcomes


def _start_worker(parent: int, cpus: Any = None) -> None:
    """Pool worker start-up: leave Ctrl-C to the arena (which stops the pool: one message, not one
    traceback per worker), die with the arena's process ``parent`` (or exit now if it died while
    this worker started: a kill -9 of the arena then left idle workers behind), keep the arena's
    standard output free of what in-process bots print, and keep to one CPU when ``cpus`` (a
    queue of them) is given."""
    import signal
    import sys

    from arena.players.launch import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    try:
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    except OSError:
        pass
    if cpus is not None:
        _pin_worker(cpus)


def _pin_worker(cpus: Any) -> None:
    """Pool worker start-up: keep this worker to the next CPU of the pool's list."""
    cpu = cpus.get()
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:  # the CPU went away (hot-unplugged, a changed cpuset): run unpinned
        pass


def chunk_size(matches: int, workers: int, most: int = 8) -> int:
    """Matches per task: a few, so that the pool's cost per task (pickling, queues, waking the
    arena) is shared, yet at least four tasks per worker so that the load stays even."""
    return max(1, min(most, matches // (4 * max(1, workers))))


class LocalPoolExecutor:
    """A pool of worker processes on this machine (spawned: workers never share the arena's memory).

    Matches go to the workers a few at a time (``chunk`` per task; default :func:`chunk_size`);
    each result is handed back, and stored, as its task finishes.
    """

    def __init__(self, workers: int, chunk: int | None = None, pin: bool = True):
        self.workers = max(1, workers)
        self.chunk = chunk
        context = multiprocessing.get_context("spawn")
        initializer = _start_worker
        initargs: tuple[Any, ...] = (os.getpid(),)
        cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        if pin and 1 < self.workers <= len(cpus):
            # One CPU per worker: its matches and its bots' processes stay there (see
            # arena.players.isolated.arena_cpus), and the workers never compete for one CPU.
            queue = context.SimpleQueue()
            for cpu in cpus[:self.workers]:
                queue.put(cpu)
            initargs = (os.getpid(), queue)
        self.pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=context, initializer=initializer,
                                                           initargs=initargs)

    def run(self, specs):
        specs = list(specs)
        size = self.chunk or chunk_size(len(specs), self.workers)
        chunks = [specs[i:i + size] for i in range(0, len(specs), size)]
        futures = {self.pool.submit(play_specs, chunk): chunk for chunk in chunks}
        for future in concurrent.futures.as_completed(futures):
            chunk = futures.pop(future)  # drop the finished task: results are not kept here
            for spec, (ok, outcome) in zip(chunk, future.result()):
                if not ok:
                    raise outcome
                yield spec, outcome

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

    def stop(self) -> None:
        """Stop at once (Ctrl-C, SIGTERM): cancel what has not started and kill the workers (their
        bots' processes die with them); what is stored stays stored."""
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            try:
                process.kill()
            except (OSError, ValueError, AttributeError):
                pass
        for process in processes:
            try:
                process.join(5)
            except (OSError, ValueError, AssertionError, AttributeError):
                pass
