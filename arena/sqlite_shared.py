"""A SQLite file shared by a server's threads: one connection behind a lock, WAL, autocommit.

The web tables' store and the ladder's (often the same file) open it the same way; each keeps its
own schema and its own error class.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any, Sequence

from arena.errors import ArenaError


class SharedSQLite:
    """Base of :class:`arena.web.store.WebStore` and :class:`arena.ladder.store.LadderStore`."""

    SCHEMA = ""  # the subclass's tables (CREATE ... IF NOT EXISTS)
    WHAT = "database"  # named in the error when the file cannot be used
    Error: type[ArenaError] = ArenaError
    TIMEOUT = 10.0  # seconds a write waits for another writer of the same file

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.RLock()  # one connection, used by the server's threads in turn
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=self.TIMEOUT)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(self.SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            raise self.Error(f"the {self.WHAT} {self.path} cannot be used: {exc}") from None

    def close(self) -> None:
        with self._lock:
            self.db.close()

    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self.db.execute(sql, tuple(args)).fetchall()
