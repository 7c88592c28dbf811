"""The web server's store (SQLite, WAL): players, tables (each one's spec and every action taken
so far), the server secret and the daily par. The only writer of the web database.

Every action is committed as it is taken, so a refresh, a dropped connection or a server restart
loses nothing: a table is rebuilt by replaying its stored actions (arena.web.table).
One connection, shared by the event loop and the tables' threads behind a lock (SQLite serialises
writers anyway; a table's writes are a few small rows).
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, Iterator

from arena import records
from arena.errors import ArenaError
from arena.results import MatchRow, record_row
from arena.sqlite_shared import SharedSQLite

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id        TEXT PRIMARY KEY,          -- the opaque id in the arena_player cookie
    nickname  TEXT,
    created   REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key       TEXT PRIMARY KEY,          -- 'secret': the daily deal's HMAC key (never sent out)
    value     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id          TEXT PRIMARY KEY,
    owner       TEXT NOT NULL REFERENCES players(id),
    spec        TEXT NOT NULL,           -- JSON: game, options, seats, bots, seeds, human seat, time control
    mode        TEXT NOT NULL,           -- 'daily' or 'new'
    date        TEXT NOT NULL,           -- UTC date of the deal (daily) or of creation (new)
    ranked      INTEGER NOT NULL,
    created     REAL NOT NULL,
    finished    REAL,                    -- NULL while the game goes on
    record      TEXT,                    -- the game record once finished
    margin      INTEGER,                 -- the person's side's final margin (docs/web.md)
    termination TEXT
);
CREATE INDEX IF NOT EXISTS tables_owner ON tables(owner, created);
CREATE INDEX IF NOT EXISTS tables_daily ON tables(mode, date, ranked);
CREATE TABLE IF NOT EXISTS actions (
    table_id  TEXT NOT NULL REFERENCES tables(id),
    n         INTEGER NOT NULL,          -- the action's index in the match (0, 1, ...)
    seat      INTEGER NOT NULL,
    action    TEXT NOT NULL,
    elapsed   REAL,                      -- the thinking time; NULL for a forced action (not asked)
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS par (
    game      TEXT NOT NULL,
    date      TEXT NOT NULL,
    margin    INTEGER NOT NULL,          -- the par bot's side's final margin
    scores    TEXT NOT NULL,             -- JSON: every side's final score
    record    TEXT NOT NULL,
    PRIMARY KEY (game, date)
);                                      -- the old whole-match daily deal's par (kept readable)
CREATE TABLE IF NOT EXISTS daily_sets (
    id        TEXT PRIMARY KEY,          -- a person's play of one day's daily set of one game
    owner     TEXT NOT NULL REFERENCES players(id),
    game      TEXT NOT NULL,
    date      TEXT NOT NULL,             -- UTC date
    instance  INTEGER NOT NULL,          -- which of the day's pool of deal sets (drawn at random, kept)
    deals     INTEGER NOT NULL,          -- the set's number of deals
    ranked    INTEGER NOT NULL,
    address   TEXT,                      -- HMAC of the client address (the ranked-per-address limit)
    created   REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS daily_sets_day ON daily_sets(game, date, owner);
CREATE TABLE IF NOT EXISTS daily_field (
    game      TEXT NOT NULL,
    date      TEXT NOT NULL,
    instance  INTEGER NOT NULL,
    deal      INTEGER NOT NULL,
    bot       TEXT NOT NULL,             -- a field bot, in the person's seat, heuristic in the others
    score     INTEGER NOT NULL,          -- the hand's margin of the bot's side
    record    TEXT NOT NULL,
    PRIMARY KEY (game, date, instance, deal, bot)
);
"""

# Added to an existing store's tables (a store made before the daily sets had none of them).
MIGRATIONS = [
    ("tables", "daily_set", "ALTER TABLE tables ADD COLUMN daily_set TEXT"),  # the daily set of a deal's table
    ("tables", "deal", "ALTER TABLE tables ADD COLUMN deal INTEGER"),  # its deal number in the set (0, 1, ...)
    ("tables", "score", "ALTER TABLE tables ADD COLUMN score INTEGER"),  # a daily deal's hand margin
]


class WebStoreError(ArenaError):
    """The web database cannot be opened or used."""


@dataclass
class TableRow:
    id: str
    owner: str
    spec: dict[str, Any]
    mode: str
    date: str
    ranked: bool
    created: float
    finished: float | None
    margin: int | None
    termination: str | None

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.spec["game"], "mode": self.mode, "date": self.date,
                "ranked": self.ranked, "finished": self.finished is not None, "created": self.created}


@dataclass
class DailySet:
    id: str
    owner: str
    game: str
    date: str
    instance: int
    deals: int
    ranked: bool
    created: float


class WebStore(SharedSQLite):
    SCHEMA = SCHEMA
    WHAT = "web database"
    Error = WebStoreError

    def __init__(self, path: Any):
        super().__init__(path)
        with self._lock:
            for table, column, sql in MIGRATIONS:
                if column not in {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}:
                    self.db.execute(sql)
            self.db.execute("CREATE INDEX IF NOT EXISTS tables_set ON tables(daily_set, deal)")

    def _write(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        with self._lock:
            self.db.execute(sql, args)

    # -- the secret ----------------------------------------------------------------------------
    def secret(self) -> bytes:
        """The server's daily-deal key: made on first use, then kept (a restart keeps the deals)."""
        with self._lock:
            rows = self._query("SELECT value FROM meta WHERE key = 'secret'")
            if not rows:
                self._write("INSERT INTO meta(key, value) VALUES ('secret', ?)", (secrets.token_hex(32),))
                rows = self._query("SELECT value FROM meta WHERE key = 'secret'")
            return bytes.fromhex(rows[0][0])

    # -- players -------------------------------------------------------------------------------
    def add_player(self, player: str | None = None) -> str:
        """Store a player (``player``: the id its cookie already carries; None: a new id)."""
        player = player or secrets.token_urlsafe(18)
        self._write("INSERT OR IGNORE INTO players(id, nickname, created) VALUES (?, NULL, ?)", (player, time.time()))
        return player

    def player_exists(self, player: str) -> bool:
        return bool(self._query("SELECT 1 FROM players WHERE id = ?", (player,)))

    def nickname(self, player: str) -> str | None:
        rows = self._query("SELECT nickname FROM players WHERE id = ?", (player,))
        return rows[0][0] if rows else None

    def set_nickname(self, player: str, nickname: str) -> None:
        self._write("UPDATE players SET nickname = ? WHERE id = ?", (nickname, player))

    # -- tables --------------------------------------------------------------------------------
    def add_table(self, table_id: str, owner: str, spec: dict[str, Any], mode: str, date: str,
                  ranked: bool, daily_set: str | None = None, deal: int | None = None) -> None:
        self._write("INSERT INTO tables(id, owner, spec, mode, date, ranked, created, daily_set, deal) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (table_id, owner, json.dumps(spec), mode, date, int(ranked), time.time(), daily_set, deal))

    def _row(self, row: tuple[Any, ...]) -> TableRow:
        return TableRow(row[0], row[1], json.loads(row[2]), row[3], row[4], bool(row[5]), row[6], row[7],
                        row[8], row[9])

    _COLUMNS = "id, owner, spec, mode, date, ranked, created, finished, margin, termination"

    def delete_table(self, table_id: str) -> None:
        """Remove a table and its moves: one refused after it was stored, or an unfinished new game
        its person abandons."""
        self._write("DELETE FROM actions WHERE table_id = ?", (table_id,))
        self._write("DELETE FROM tables WHERE id = ?", (table_id,))

    def table(self, table_id: str) -> TableRow | None:
        rows = self._query(f"SELECT {self._COLUMNS} FROM tables WHERE id = ?", (table_id,))
        return self._row(rows[0]) if rows else None

    def tables_of(self, owner: str) -> list[TableRow]:
        rows = self._query(f"SELECT {self._COLUMNS} FROM tables WHERE owner = ? ORDER BY created", (owner,))
        return [self._row(r) for r in rows]

    def unfinished(self) -> list[TableRow]:
        rows = self._query(f"SELECT {self._COLUMNS} FROM tables WHERE finished IS NULL ORDER BY created")
        return [self._row(r) for r in rows]

    def add_action(self, table_id: str, n: int, seat: int, action: str, elapsed: float | None) -> None:
        self._write("INSERT INTO actions(table_id, n, seat, action, elapsed) VALUES (?, ?, ?, ?, ?)",
                    (table_id, n, seat, action, elapsed))

    def actions(self, table_id: str) -> list[tuple[int, str, float | None]]:
        rows = self._query("SELECT seat, action, elapsed FROM actions WHERE table_id = ? ORDER BY n", (table_id,))
        return [(r[0], r[1], r[2]) for r in rows]

    def finish(self, table_id: str, record: dict[str, Any], margin: int, termination: str,
               score: int | None = None) -> None:
        self._write("UPDATE tables SET finished = ?, record = ?, margin = ?, termination = ?, score = ? WHERE id = ?",
                    (time.time(), records.dumps(record), margin, termination, score, table_id))

    def record(self, table_id: str) -> dict[str, Any] | None:
        rows = self._query("SELECT record FROM tables WHERE id = ?", (table_id,))
        return json.loads(rows[0][0]) if rows and rows[0][0] else None

    def ranked_rows(self, game: str, date: str | None) -> Iterator[tuple[TableRow, str | None]]:
        """The finished ranked daily tables of ``game`` (on ``date``; None: every date), with each
        owner's nickname."""
        sql = (f"SELECT {', '.join('t.' + c.strip() for c in self._COLUMNS.split(','))}, p.nickname "
               "FROM tables t JOIN players p ON p.id = t.owner "
               "WHERE t.mode = 'daily' AND t.ranked = 1 AND t.finished IS NOT NULL")
        args: tuple[Any, ...] = ()
        if date is not None:
            sql += " AND t.date = ?"
            args = (date,)
        for row in self._query(sql + " ORDER BY t.finished", args):
            table = self._row(row[:10])
            if table.spec["game"] == game:
                yield table, row[10]

    def rows(self, game: str | None = None) -> list[MatchRow]:
        """Every finished table (of ``game``) as the results model's row (arena.results), oldest
        first. Its sides are not known here (the game's rules say which seat holds which)."""
        found = self._query("SELECT id, record, finished FROM tables WHERE finished IS NOT NULL ORDER BY finished, id")
        rows = [record_row(table, json.loads(record), finished=finished) for table, record, finished in found]
        return [row for row in rows if game is None or row.game == game]

    # -- par -----------------------------------------------------------------------------------
    def par(self, game: str, date: str) -> dict[str, Any] | None:
        rows = self._query("SELECT margin, scores FROM par WHERE game = ? AND date = ?", (game, date))
        return {"margin": rows[0][0], "scores": json.loads(rows[0][1])} if rows else None

    def par_record(self, game: str, date: str) -> dict[str, Any] | None:
        rows = self._query("SELECT record FROM par WHERE game = ? AND date = ?", (game, date))
        return json.loads(rows[0][0]) if rows else None

    def set_par(self, game: str, date: str, margin: int, scores: list[int], record: dict[str, Any]) -> None:
        self._write("INSERT OR IGNORE INTO par(game, date, margin, scores, record) VALUES (?, ?, ?, ?, ?)",
                    (game, date, margin, json.dumps(scores), records.dumps(record)))

    # -- the daily sets ------------------------------------------------------------------------
    _SET_COLUMNS = "id, owner, game, date, instance, deals, ranked, created"

    def _set(self, row: tuple[Any, ...]) -> DailySet:
        return DailySet(row[0], row[1], row[2], row[3], int(row[4]), int(row[5]), bool(row[6]), row[7])

    def add_daily_set(self, set_id: str, owner: str, game: str, date: str, instance: int, deals: int,
                      ranked: bool, address: str | None) -> None:
        self._write("INSERT INTO daily_sets(id, owner, game, date, instance, deals, ranked, address, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (set_id, owner, game, date, instance, deals, int(ranked), address, time.time()))

    def daily_set(self, set_id: str) -> DailySet | None:
        rows = self._query(f"SELECT {self._SET_COLUMNS} FROM daily_sets WHERE id = ?", (set_id,))
        return self._set(rows[0]) if rows else None

    def daily_sets(self, game: str, date: str | None, owner: str | None = None) -> list[DailySet]:
        """The daily sets of ``game`` (on ``date``, None: every date; of ``owner``), oldest first."""
        sql, args = f"SELECT {self._SET_COLUMNS} FROM daily_sets WHERE game = ?", [game]
        if date is not None:
            sql, args = sql + " AND date = ?", args + [date]
        if owner is not None:
            sql, args = sql + " AND owner = ?", args + [owner]
        return [self._set(r) for r in self._query(sql + " ORDER BY created, id", args)]

    def ranked_sets_from(self, address: str, game: str, date: str) -> int:
        return self._query("SELECT COUNT(*) FROM daily_sets WHERE address = ? AND game = ? AND date = ? AND ranked = 1",
                           (address, game, date))[0][0]

    def set_tables(self, set_id: str) -> list[TableRow]:
        """The tables of a daily set, by deal."""
        rows = self._query(f"SELECT {self._COLUMNS} FROM tables WHERE daily_set = ? ORDER BY deal, created", (set_id,))
        return [self._row(r) for r in rows]

    def deal_scores(self, game: str, date: str, instance: int, deal: int) -> list[tuple[str, str, int, bool, str]]:
        """The finished ranked people's entries of one deal: (set id, owner, score, ranked, table id)."""
        rows = self._query(
            "SELECT s.id, s.owner, t.score, s.ranked, t.id FROM tables t JOIN daily_sets s ON s.id = t.daily_set "
            "WHERE s.game = ? AND s.date = ? AND s.instance = ? AND t.deal = ? AND t.finished IS NOT NULL "
            "AND t.score IS NOT NULL", (game, date, instance, deal))
        return [(r[0], r[1], int(r[2]), bool(r[3]), r[4]) for r in rows]

    def played_deal(self, owner: str, game: str, date: str, instance: int, deal: int) -> bool:
        """Whether ``owner`` finished deal ``deal`` of the pool instance (in any of their sets)."""
        return bool(self._query(
            "SELECT 1 FROM tables t JOIN daily_sets s ON s.id = t.daily_set WHERE s.owner = ? AND s.game = ? "
            "AND s.date = ? AND s.instance = ? AND t.deal = ? AND t.finished IS NOT NULL LIMIT 1",
            (owner, game, date, instance, deal)))

    # -- the daily field -----------------------------------------------------------------------
    def field(self, game: str, date: str, instance: int) -> dict[tuple[int, str], int]:
        """The stored field entries of a pool instance: (deal, bot) -> score."""
        rows = self._query("SELECT deal, bot, score FROM daily_field WHERE game = ? AND date = ? AND instance = ?",
                           (game, date, instance))
        return {(r[0], r[1]): r[2] for r in rows}

    def field_record(self, game: str, date: str, instance: int, deal: int, bot: str) -> dict[str, Any] | None:
        rows = self._query("SELECT record FROM daily_field WHERE game = ? AND date = ? AND instance = ? AND deal = ? "
                           "AND bot = ?", (game, date, instance, deal, bot))
        return json.loads(rows[0][0]) if rows else None

    def add_field(self, game: str, date: str, instance: int, deal: int, bot: str, score: int,
                  record: dict[str, Any]) -> None:
        self._write("INSERT OR IGNORE INTO daily_field(game, date, instance, deal, bot, score, record) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", (game, date, instance, deal, bot, score, records.dumps(record)))
