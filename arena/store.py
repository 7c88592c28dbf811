"""The results store (SQLite): the only writer of the results database.

One transaction per finished match, so an interrupted tournament (Ctrl-C, a kill, a power cut)
loses no finished match, and running the same tournament again resumes where it stopped.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from arena import records
from arena.errors import ArenaError
from arena.results import MatchRow, row_of

if TYPE_CHECKING:
    from arena.deals import Deals

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


class RunLock:
    """The exclusive right of one ``arena run`` to write a results database: an ``flock`` on the
    file ``<db>.lock`` beside it, held until :meth:`release` (or the process ends, however it ends).
    A second run on the same database is refused with the first one's pid."""

    def __init__(self, db: str | Path):
        import fcntl

        self.path = Path(str(db) + ".lock")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.handle = open(self.path, "a+")
        except OSError as exc:
            raise StoreError(f"{db}: cannot create its lock file {self.path}: {exc.strerror}") from None
        try:
            fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.handle.seek(0)
            pid = self.handle.read().strip() or "unknown"
            self.handle.close()
            raise StoreError(f"database {db} is in use by another arena run (pid {pid})") from None
        self.handle.seek(0)
        self.handle.truncate()
        self.handle.write(f"{os.getpid()}\n")
        self.handle.flush()

    def release(self) -> None:
        if self.handle is not None and not self.handle.closed:
            self.handle.close()  # closing the file releases the lock


class Store:
    lock: RunLock | None = None  # held by the arena run that writes this store

    def __init__(self, path: str | Path, readonly: bool = False):
        """Open (or create) the results database at ``path``; ``readonly``: only read it (``arena
        board``), which also works on a read-only medium, and never creates anything."""
        self.path = Path(path)
        if readonly:
            self.db = _open_readonly(self.path)
            self._check_tables(self._tables(), required=True)
            return
        try:
            if self.path.parent and not self.path.parent.exists():
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None)  # explicit transactions below
            self._check_tables(self._tables(), required=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")  # a committed match survives a power cut
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a usable results database ({exc})") from exc
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot create the results database: {exc.strerror}") from exc

    def _tables(self) -> set[str]:
        try:
            return {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a usable results database ({exc})") from exc

    def _check_tables(self, tables: set[str], required: bool) -> None:
        """A database that has some tables must have both of ours (one dropped is damage, not a new run)."""
        if not tables and not required:
            return
        missing = [name for name in ("tournament", "matches") if name not in tables]
        if missing:
            raise StoreError(f"{self.path}: not a complete results database: it has no {' and no '.join(missing)} "
                             "table; start afresh with --fresh or another --db")

    def close(self) -> None:
        self.db.close()
        if self.lock is not None:
            self.lock.release()

    # -- writing ------------------------------------------------------------------------------
    def begin_tournament(self, name: str, fingerprint: str, config: dict[str, Any], specs: list[dict[str, Any]],
                         deals: "Deals | None" = None) -> None:
        """Record the tournament, its schedule and where its deals come from (``deals``: its secret, kept
        so that a resumed run deals the same cards), or check that the database holds this same one."""
        row = self.db.execute("SELECT name, fingerprint FROM tournament").fetchone()
        if row is None and self.counts()[1]:
            raise StoreError(f"{self.path}: it holds matches but no tournament row (damaged); start afresh with --fresh")
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
            if deals is not None:
                self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('deals', ?)", (deals.to_json(),))

    def deals(self) -> "Deals | None":
        """Where this run's deals come from (its secret or public seed); None for a database made
        before runs kept it (their schedules are stored whole, or came from a public seed)."""
        from arena.deals import Deals

        rows = self._query("SELECT value FROM meta WHERE key = 'deals'")
        return Deals.from_json(rows[0][0], str(self.path)) if rows else None

    def add_matches(self, specs: list[dict[str, Any]]) -> None:
        """Add matches to the stored schedule, in one transaction (a series of ``arena match``
        schedules its deal sets as it goes). A match already stored under its index is kept as it is."""
        with self._transaction():
            self.db.executemany(
                "INSERT OR IGNORE INTO matches (idx, spec) VALUES (?, ?)",
                [(spec["index"], json.dumps(spec)) for spec in specs],
            )

    def save(self, index: int, result: dict[str, Any], record: dict[str, Any] | str) -> None:
        """Store one finished match in its own transaction. ``record`` may come already as JSON text."""
        text = records.dumps(record)
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
    # What is read back is checked: a damaged database is a StoreError naming the row, never a
    # traceback or a silently wrong board.
    def _query(self, sql: str, *args: Any) -> list[tuple]:
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot be read ({exc})") from None

    def tournament(self) -> dict[str, Any] | None:
        rows = self._query("SELECT name, fingerprint, config FROM tournament")
        if not rows:
            if self.counts()[1]:
                raise StoreError(f"{self.path}: it holds matches but no tournament row (damaged); start afresh with --fresh")
            return None
        name, fingerprint, text = rows[0]
        config = self._json(text, "the tournament's config")
        bots = config.get("bots") if isinstance(config, dict) else None
        if (not isinstance(config, dict) or not isinstance(config.get("game"), str) or not isinstance(bots, list)
                or not all(isinstance(bot, dict) and isinstance(bot.get("name"), str) for bot in bots)):
            raise StoreError(f"{self.path}: the tournament's config is not a tournament (no game or bots)")
        return {"name": str(name), "fingerprint": fingerprint, "config": config}

    def pending(self) -> list[dict[str, Any]]:
        rows = self._query("SELECT idx, spec FROM matches WHERE result IS NULL ORDER BY idx")
        return [_checked_spec(self._json(spec, f"match {idx}: its spec"), idx, self.path) for idx, spec in rows]

    def counts(self) -> tuple[int, int]:
        done, total = self._query("SELECT COUNT(result), COUNT(*) FROM matches")[0]
        return done, total

    def results(self) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        """(spec, result) of every finished match, in schedule order."""
        for spec, result, _ in self._finished():
            yield spec, result

    def rows(self) -> list[MatchRow]:
        """Every finished match as the results model's row (arena.results), in schedule order."""
        return [row_of(spec, result, finished) for spec, result, finished in self._finished()]

    def _finished(self) -> Iterator[tuple[dict[str, Any], dict[str, Any], float | None]]:
        rows = self._query("SELECT idx, spec, result, finished_at FROM matches WHERE result IS NOT NULL ORDER BY idx")
        for idx, spec, result, finished in rows:
            spec = _checked_spec(self._json(spec, f"match {idx}: its spec"), idx, self.path)
            yield spec, _checked_result(self._json(result, f"match {idx}: its result"), spec, idx, self.path), finished

    def results_from(self, index: int) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        """(spec, result) of every finished match from schedule index ``index`` on, in schedule order."""
        rows = self.db.execute("SELECT spec, result FROM matches WHERE result IS NOT NULL AND idx >= ? ORDER BY idx",
                               (index,))
        for spec, result in rows:
            yield json.loads(spec), json.loads(result)

    def record(self, index: int) -> dict[str, Any] | None:
        rows = self._query("SELECT record FROM matches WHERE idx = ?", index)
        return self._json(rows[0][0], f"match {index}: its record") if rows and rows[0][0] else None

    # -- facts about the runs (the board's settings) -------------------------------------------
    def created(self) -> float | None:
        """When the tournament was first started (seconds since the epoch), or None."""
        row = self.db.execute("SELECT created FROM tournament").fetchone()
        return row[0] if row else None

    def meta(self) -> dict[str, Any]:
        """Facts about the runs (the board shows them); never the deals' secret."""
        try:
            rows = self.db.execute("SELECT key, value FROM meta WHERE key != 'deals'").fetchall()
        except sqlite3.OperationalError:  # a database made before the table (opened read-only)
            return {}
        return {key: json.loads(value) for key, value in rows}

    def note_version(self, version: str) -> None:
        """Add ``version`` to the arena versions that have run this tournament (first one first)."""
        versions = self.meta().get("arena_versions", [])
        if version not in versions:
            with self._transaction():
                self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('arena_versions', ?)",
                                (json.dumps(versions + [version]),))


    def _json(self, text: Any, what: str) -> Any:
        try:
            return json.loads(text)
        except (TypeError, ValueError, RecursionError):
            raise StoreError(f"{self.path}: {what} is not valid JSON (damaged)") from None


def _open_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection; on a read-only medium, where SQLite cannot make the WAL's shared-memory
    file, the database is opened as immutable (nothing can be writing it there)."""
    if not path.is_file():
        raise StoreError(f"{path}: no such results database")
    from urllib.parse import quote

    uri = "file:" + quote(str(path.resolve()))
    last: Exception | None = None
    for mode in ("?mode=ro", "?mode=ro&immutable=1"):
        try:
            db = sqlite3.connect(uri + mode, uri=True, isolation_level=None)
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.DatabaseError as exc:
            last = exc
    raise StoreError(f"{path}: not a usable results database ({last})")


def _checked_spec(spec: Any, idx: int, path: Path) -> dict[str, Any]:
    lineup, seats = (spec.get("lineup"), spec.get("seats")) if isinstance(spec, dict) else (None, None)
    if (not isinstance(lineup, list) or not lineup or not isinstance(seats, list) or not seats
            or not all(isinstance(name, str) for name in lineup + seats)
            or not isinstance(spec.get("rotation"), int) or not isinstance(spec.get("deal_set"), int)):
        raise StoreError(f"{path}: match {idx}: its spec is not a match specification (damaged)")
    return spec


def _checked_result(result: Any, spec: dict[str, Any], idx: int, path: Path) -> dict[str, Any]:
    """A result as the board needs it: a ranking and scores of each side, faults and times of each seat."""
    def bad(why: str) -> StoreError:
        return StoreError(f"{path}: match {idx}: its result {why} (damaged)")

    if not isinstance(result, dict):
        raise bad("is not an object")
    sides, seats = len(spec["lineup"]), len(spec["seats"])
    for key, length in (("ranking", sides), ("scores", sides)):
        value = result.get(key)
        if not isinstance(value, list) or len(value) != length or not all(
                isinstance(item, (int, float)) and not isinstance(item, bool) for item in value):
            raise bad(f"has no {key} of its {length} sides (found {str(value)[:60]})")
    faults = result.get("faults")
    if not isinstance(faults, list) or not all(
            isinstance(f, dict) and isinstance(f.get("seat"), int) and 0 <= f["seat"] < seats
            and isinstance(f.get("kind"), str) for f in faults):
        raise bad("has no list of faults of its seats")
    times = result.get("think_times")
    if not isinstance(times, list) or len(times) != seats or not all(
            isinstance(t, dict) and isinstance(t.get("total"), (int, float)) and isinstance(t.get("decisions"), int)
            for t in times):
        raise bad(f"has no thinking times of its {seats} seats")
    return result
