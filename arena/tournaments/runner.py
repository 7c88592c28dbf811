"""Run a tournament: build the schedule, store it, play what is not finished, store each result.

Results are stored as matches finish, in any order; ratings are always computed from the store in
schedule order, so an interrupted and resumed run ends with exactly the board of an uninterrupted one.
"""

from __future__ import annotations

import dataclasses

import sys

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from arena.errors import ArenaError
from arena import __version__
from arena.deals import Deals
from arena.matches import MatchSpec, is_arena_error
from arena.store import RunLock, Store
from arena.tournaments import integrity, schedule
from arena.tournaments.config import TournamentConfig

if TYPE_CHECKING:
    from arena.plugins.manager import Registry


def run(config: TournamentConfig, registry: "Registry", db: str | Path, *, executor: str = "local",
        workers: int | None = None, progress: bool = True, fresh: bool = False,
        executor_options: Mapping[str, Any] | None = None) -> Store:
    """Play every unfinished match of ``config`` on the registered ``executor`` (made with
    ``executor_options``), storing each as it finishes. Returns the store."""
    kind = registry.executor(executor)
    lock = RunLock(db)  # one run per database: a second one is told that it is in use
    try:
        if fresh and Path(db).exists():
            for suffix in ("", "-wal", "-shm"):
                try:
                    Path(str(db) + suffix).unlink(missing_ok=True)
                except OSError as exc:
                    raise ArenaError(f"--fresh: cannot delete {db}{suffix}: {exc.strerror}") from None
        game = registry.game(config.game, config.options)
        deals = Deals.of(config.seed)  # a new run's secret (kept only if this run is new: a resumed one has its own)
        specs = schedule.build(config, game, deals)
        store = Store(db)
    except BaseException:
        lock.release()
        raise
    store.lock = lock
    try:
        store.begin_tournament(config.name, config.fingerprint(), config.as_dict(), [s.as_dict() for s in specs],
                               deals)
        store.note_version(__version__)  # shown in the board's settings
    except BaseException:
        store.close()
        raise
    logs = str(log_dir(db))  # each bot's output, per match (capped): arena.players.logs
    pending = [dataclasses.replace(MatchSpec.from_dict(spec), log_dir=logs) for spec in store.pending()]
    done, total = store.counts()
    if not pending:
        return store
    try:
        runner = kind.make(workers or config.workers(), dict(executor_options or {}))
    except BaseException:  # e.g. a Ray cluster that refuses us: the database is free again
        store.close()
        raise
    bar = _progress(len(pending), total, done) if progress else None
    try:
        _play_pending(runner, pending, store, registry, bar)
        runner.close()  # inside: an interrupt while the workers wind down is an interrupt of the run too
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (see interrupts_as_keyboard): keep what is stored
        _ignore_interrupts()  # a second Ctrl-C while stopping would only leave a traceback
        if bar is not None:
            bar.close()
            bar = None
        getattr(runner, "stop", runner.close)()
        done, total = store.counts()
        store.close()
        raise Interrupted(str(db), done, total) from None
    except BaseException:
        getattr(runner, "stop", runner.close)()
        raise
    finally:
        if bar is not None:
            bar.close()
    return store


def log_dir(db: str | Path) -> Path:
    """Where the bots' logs of a run go: ``results/NAME.db`` -> ``results/NAME_logs/``
    (``match-NNNN-seat-S.log``, each capped at the [limits] log_size)."""
    path = Path(db)
    return path.with_name(path.stem + "_logs")


class Interrupted(KeyboardInterrupt):
    """The run was interrupted; every finished match is stored (``done`` of ``total``)."""

    def __init__(self, db: str, done: int, total: int):
        self.db, self.done, self.total = db, done, total
        super().__init__(f"{done} of {total} matches are stored in {db}")


def interrupts_as_keyboard():
    """A context in which SIGTERM stops the run as Ctrl-C does (KeyboardInterrupt in the main thread)."""
    import contextlib
    import signal

    @contextlib.contextmanager
    def scope():
        def on_term(signum, frame):
            raise KeyboardInterrupt

        try:
            previous = signal.signal(signal.SIGTERM, on_term)
        except ValueError:  # not the main thread
            yield
            return
        try:
            yield
        finally:
            signal.signal(signal.SIGTERM, previous)

    return scope()


def _ignore_interrupts() -> None:
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    except ValueError:  # not the main thread
        pass


def _play_pending(runner: Any, pending: list[MatchSpec], store: Store, registry: "Registry", bar: Any) -> None:
    for spec, outcome in runner.run(pending):
        if is_arena_error(outcome["result"]):  # the arena's failure, not a bot's: not stored, played on resume
            print(f"arena: match {spec.index} not played: {outcome['result']['termination'].get('message', '')} "
                  "(the arena's failure, not a bot's: it is played again when the run is resumed)",
                  file=sys.stderr, flush=True)
            continue
        result = integrity.checked(spec, outcome["result"], outcome["record"], registry)  # never trusted
        store.save(spec.index, result, outcome["record"])
        if bar is not None:
            bar.update(1)


def _progress(pending: int, total: int, done: int):
    from tqdm import tqdm

    return tqdm(total=total, initial=done, unit="match", file=sys.stderr, dynamic_ncols=True,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} matches [{elapsed}<{remaining}, {rate_fmt}]")


