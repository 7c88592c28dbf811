"""The results store (SQLite): the only writer of the results database.

One transaction per finished match, so an interrupted tournament (Ctrl-C, a kill, a power cut)
loses no finished match, and running the same tournament again resumes where it stopped.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterator

from arena.errors import ArenaError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    name        TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    config      TEXT NOT NULL,
    created     REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    idx         INTEGER PRIMARY KEY,   -- schedule order: ratings are computed in this order
    spec        TEXT NOT NULL,         -- the self-contained match specification
    result      TEXT,                  -- NULL until the match is finished
    record      TEXT,                  -- the game record, with thinking times and faults
    finished_at REAL
);
CREATE TABLE IF NOT EXISTS meta (          -- facts about the runs, e.g. the arena versions that played
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL             -- JSON
);
"""


class StoreError(ArenaError):
    """The database cannot be used for this tournament."""


class Store:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)  # explicit transactions below
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")  # a committed match survives a power cut
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a usable results database ({exc})") from exc

    def close(self) -> None:
        self.db.close()

    # -- writing ------------------------------------------------------------------------------
    def begin_tournament(self, name: str, fingerprint: str, config: dict[str, Any], specs: list[dict[str, Any]]) -> None:
        """Record the tournament and its schedule, or check that the database holds this same one."""
        row = self.db.execute("SELECT name, fingerprint FROM tournament").fetchone()
        if row is not None:
            if row[1] != fingerprint:
                raise StoreError(
                    f"{self.path} holds tournament {row[0]!r} with other settings; "
                    "run it with another --db, or start afresh with --fresh"
                )
            return
        with self._transaction():
            self.db.execute(
                "INSERT INTO tournament (id, name, fingerprint, config, created) VALUES (1, ?, ?, ?, ?)",
                (name, fingerprint, json.dumps(config), time.time()),
            )
            self.db.executemany(
                "INSERT INTO matches (idx, spec) VALUES (?, ?)",
                [(spec["index"], json.dumps(spec)) for spec in specs],
            )

    def save(self, index: int, result: dict[str, Any], record: dict[str, Any] | str) -> None:
        """Store one finished match in its own transaction. ``record`` may come already as JSON text."""
        text = record if isinstance(record, str) else json.dumps(record)
        with self._transaction():
            self.db.execute(
                "UPDATE matches SET result = ?, record = ?, finished_at = ? WHERE idx = ? AND result IS NULL",
                (json.dumps(result), text, time.time(), index),
            )

    def _transaction(self):
        db = self.db

        class _Tx:
            def __enter__(self_inner):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self_inner, kind, value, tb):
                db.execute("COMMIT" if kind is None else "ROLLBACK")
                return False

        return _Tx()

    # -- reading ------------------------------------------------------------------------------
    def tournament(self) -> dict[str, Any] | None:
        row = self.db.execute("SELECT name, fingerprint, config FROM tournament").fetchone()
        if row is None:
            return None
        return {"name": row[0], "fingerprint": row[1], "config": json.loads(row[2])}

    def pending(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT spec FROM matches WHERE result IS NULL ORDER BY idx")
        return [json.loads(spec) for (spec,) in rows]

    def counts(self) -> tuple[int, int]:
        done, total = self.db.execute("SELECT COUNT(result), COUNT(*) FROM matches").fetchone()
        return done, total

    def results(self) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        """(spec, result) of every finished match, in schedule order."""
        rows = self.db.execute("SELECT spec, result FROM matches WHERE result IS NOT NULL ORDER BY idx")
        for spec, result in rows:
            yield json.loads(spec), json.loads(result)

    def record(self, index: int) -> dict[str, Any] | None:
        row = self.db.execute("SELECT record FROM matches WHERE idx = ?", (index,)).fetchone()
        return json.loads(row[0]) if row and row[0] else None

    # -- facts about the runs (the board's settings) -------------------------------------------
    def created(self) -> float | None:
        """When the tournament was first started (seconds since the epoch), or None."""
        row = self.db.execute("SELECT created FROM tournament").fetchone()
        return row[0] if row else None

    def meta(self) -> dict[str, Any]:
        return {key: json.loads(value) for key, value in self.db.execute("SELECT key, value FROM meta")}

    def note_version(self, version: str) -> None:
        """Add ``version`` to the arena versions that have run this tournament (first one first)."""
        versions = self.meta().get("arena_versions", [])
        if version not in versions:
            with self._transaction():
                self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('arena_versions', ?)",
                                (json.dumps(versions + [version]),))
