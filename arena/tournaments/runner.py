"""Run a tournament: build the schedule, store it, play what is not finished, store each result.

Results are stored as matches finish, in any order; ratings are always computed from the store in
schedule order, so an interrupted and resumed run ends with exactly the board of an uninterrupted one.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Mapping

from arena import __version__
from arena.matches import MatchSpec
from arena.store import Store
from arena.tournaments import schedule
from arena.tournaments.config import TournamentConfig


def run(config: TournamentConfig, registry: Any, db: str | Path, *, executor: str = "local",
        workers: int | None = None, progress: bool = True, fresh: bool = False,
        executor_options: Mapping[str, Any] | None = None) -> Store:
    """Play every unfinished match of ``config`` on the registered ``executor`` (made with
    ``executor_options``), storing each as it finishes. Returns the store."""
    kind = registry.executor(executor)
    if fresh and Path(db).exists():
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
    game = registry.game(config.game, config.options)
    specs = schedule.build(config, game)
    store = Store(db)
    store.begin_tournament(config.name, config.fingerprint(), config.as_dict(), [s.as_dict() for s in specs])
    store.note_version(__version__)  # shown in the board's settings
    pending = [MatchSpec.from_dict(spec) for spec in store.pending()]
    done, total = store.counts()
    if not pending:
        return store
    runner = kind.make(workers or config.workers(), dict(executor_options or {}))
    bar = _progress(len(pending), total, done) if progress else None
    try:
        for spec, outcome in runner.run(pending):
            store.save(spec.index, outcome["result"], outcome["record"])
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
        runner.close()
    return store


def _progress(pending: int, total: int, done: int):
    from tqdm import tqdm

    return tqdm(total=total, initial=done, unit="match", file=sys.stderr, dynamic_ncols=True,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} matches [{elapsed}<{remaining}, {rate_fmt}]")


