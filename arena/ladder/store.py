"""The ladder's store (SQLite, WAL): authors, bots and their versions, the scheduled deal sets and
their matches, the ratings and their history. The only writer of the ``ladder_*`` tables.

It shares the database file with the web tables (arena.web.store), so one ``--db`` holds all an
``arena ladder`` serves. One connection behind a lock, used from the scheduler's thread, the web
server's event loop and validation threads; every write is one transaction, so a kill -9 leaves
either all of a write or none of it. What is idempotent on purpose (a restarted ladder may repeat
it): :meth:`save_match` (a stored result is never replaced), :meth:`rate` (a rated deal set is not
rated twice), :meth:`finish_deal_set_if_complete`.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from arena import records
from arena.errors import ArenaError
from arena.results import MatchRow, row_of
from arena.ladder.ratings import ARENA_ERROR, outcome_of, side_sums
from arena.sqlite_shared import SharedSQLite

SCHEMA = """
CREATE TABLE IF NOT EXISTS ladder_authors (
    name        TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL,          -- sha256 hex of the token (the token itself is never stored)
    created     REAL
);
CREATE TABLE IF NOT EXISTS ladder_pending (  -- authors awaiting the operator's approval (arena ladder --approve-authors)
    name        TEXT PRIMARY KEY REFERENCES ladder_authors(name),
    created     REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ladder_bots (
    name        TEXT PRIMARY KEY,
    author      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ladder_versions (
    id          INTEGER PRIMARY KEY,
    bot         TEXT NOT NULL,
    number      INTEGER NOT NULL,       -- 1, 2, ... per bot
    kind        TEXT NOT NULL,          -- 'python' | 'program' | 'grpc' | 'house'
    seat        TEXT NOT NULL,          -- what a MatchSpec's bots holds for it
    games       TEXT NOT NULL,          -- JSON list of game names
    status      TEXT NOT NULL,          -- 'validating' | 'refused' | 'active' | 'probation' | 'retired'
    reason      TEXT NOT NULL DEFAULT '',
    created     REAL NOT NULL,
    path        TEXT NOT NULL DEFAULT '',
    UNIQUE (bot, number)
);
CREATE INDEX IF NOT EXISTS ladder_versions_status ON ladder_versions(status);
CREATE TABLE IF NOT EXISTS ladder_deal_sets (
    id          INTEGER PRIMARY KEY,
    ladder      TEXT NOT NULL,          -- "GAME/PLAYERS"
    round       INTEGER NOT NULL,
    lineup      TEXT NOT NULL,          -- JSON list of version ids, one per side
    deal_seed   TEXT NOT NULL,
    scheduled   REAL NOT NULL,
    finished    REAL,
    rated       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS ladder_deal_sets_ladder ON ladder_deal_sets(ladder, id);
-- the few deal sets still to finish or to rate, found without reading the others (once per stored match)
CREATE INDEX IF NOT EXISTS ladder_deal_sets_unfinished ON ladder_deal_sets(id) WHERE finished IS NULL;
CREATE INDEX IF NOT EXISTS ladder_deal_sets_unrated ON ladder_deal_sets(id) WHERE rated = 0;
CREATE TABLE IF NOT EXISTS ladder_matches (
    id          INTEGER PRIMARY KEY,
    deal_set    INTEGER NOT NULL REFERENCES ladder_deal_sets(id),
    rotation    INTEGER NOT NULL,
    spec        TEXT NOT NULL,          -- JSON of MatchSpec.as_dict(), index = this id
    result      TEXT,
    record      TEXT,
    finished    REAL
);
CREATE INDEX IF NOT EXISTS ladder_matches_deal_set ON ladder_matches(deal_set);
CREATE INDEX IF NOT EXISTS ladder_matches_pending ON ladder_matches(id) WHERE result IS NULL;
CREATE TABLE IF NOT EXISTS ladder_ratings (
    version     INTEGER NOT NULL,
    ladder      TEXT NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    deal_sets   INTEGER NOT NULL,
    matches     INTEGER NOT NULL,
    faults      INTEGER NOT NULL,
    PRIMARY KEY (version, ladder)
);
CREATE TABLE IF NOT EXISTS ladder_history (
    version     INTEGER NOT NULL,
    ladder      TEXT NOT NULL,
    deal_set    INTEGER NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    at          REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS ladder_history_version ON ladder_history(version, deal_set);
-- head to head, kept up as deal sets are rated (a bot's page must not read every deal set it played):
-- per ladder and ordered pair of versions in one lineup, the first's deal sets won, drawn and lost
-- against the second by summed duplicate margin, and the sum of (its margin - the other's)
CREATE TABLE IF NOT EXISTS ladder_pairs (
    ladder      TEXT NOT NULL,
    version     INTEGER NOT NULL,
    opponent    INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    drawn       INTEGER NOT NULL,
    lost        INTEGER NOT NULL,
    margin      REAL NOT NULL,
    PRIMARY KEY (ladder, version, opponent)
);
-- the bots' logs kept in FILES/logs (one file per seat of a match the bot wrote to; empty ones are
-- not kept), per version, so that each version's logs stay within the ladder's log budget
CREATE TABLE IF NOT EXISTS ladder_logs (
    match       INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    size        INTEGER NOT NULL,
    PRIMARY KEY (match, seat)
);
CREATE INDEX IF NOT EXISTS ladder_logs_version ON ladder_logs(version, match);
CREATE TABLE IF NOT EXISTS ladder_meta (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL
);
"""

STATUSES = ("validating", "refused", "active", "probation", "retired")
KINDS = ("python", "program", "grpc", "house")
HOUSE = "house"  # the author of the house bots (no token ever matches its empty hash)

_VERSION_COLUMNS = "v.id, v.bot, v.number, v.kind, v.seat, v.games, v.status, v.reason, v.created, v.path, b.author"
_PAIR_COUNTS = {"won": (1, 0, 0), "drawn": (0, 1, 0), "lost": (0, 0, 1)}  # ladder_pairs(won, drawn, lost)


class LadderStoreError(ArenaError):
    """The ladder database cannot be opened or used, or a write breaks its rules."""


def _version(row: Sequence[Any]) -> dict[str, Any]:
    return {"id": row[0], "bot": row[1], "number": row[2], "kind": row[3], "seat": row[4],
            "games": json.loads(row[5]), "status": row[6], "reason": row[7], "created": row[8],
            "path": row[9], "author": row[10]}


def _loads(text: str | None) -> Any:
    return json.loads(text) if text else None


class LadderStore(SharedSQLite):
    SCHEMA = SCHEMA
    WHAT = "ladder database"
    Error = LadderStoreError
    TIMEOUT = 30.0

    def __init__(self, path: str | Path):
        super().__init__(path)
        self._backfill_pairs()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE: the writer lock is taken at once), which also
        bumps the ``changes`` counter the live board watches."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                self.db.execute("INSERT INTO ladder_meta(key, value) VALUES ('changes', '1') "
                                "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    # -- meta ----------------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM ladder_meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO ladder_meta(key, value) VALUES (?, ?) "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))

    def changes(self) -> int:
        """A counter bumped by every write: the board's SSE sends an event whenever it moves."""
        value = self.meta("changes")
        return int(value) if value else 0

    # -- authors and bots ------------------------------------------------------------------------
    def add_author(self, name: str, token_hash: str, pending: bool = False) -> None:
        """Raises LadderStoreError when the name is taken. ``pending``: the author may submit only
        once the operator approves them (:meth:`approve`)."""
        try:
            with self._transaction() as db:
                now = time.time()
                db.execute("INSERT INTO ladder_authors(name, token_hash, created) VALUES (?, ?, ?)",
                           (name, token_hash, now))
                if pending:
                    db.execute("INSERT INTO ladder_pending(name, created) VALUES (?, ?)", (name, now))
        except sqlite3.IntegrityError:
            raise LadderStoreError(f"the author name {name!r} is taken") from None

    def is_pending(self, name: str) -> bool:
        return bool(self._query("SELECT 1 FROM ladder_pending WHERE name = ?", (name,)))

    def pending_authors(self) -> list[tuple[str, float]]:
        """The authors awaiting approval, oldest first: (name, when they registered)."""
        return [(r[0], r[1]) for r in self._query("SELECT name, created FROM ladder_pending ORDER BY created, name")]

    def approve(self, name: str) -> bool:
        """Approve a pending author; False when ``name`` is not pending."""
        with self._transaction() as db:
            return db.execute("DELETE FROM ladder_pending WHERE name = ?", (name,)).rowcount > 0

    def author_by_token_hash(self, token_hash: str) -> str | None:
        if not token_hash:
            return None
        rows = self._query("SELECT name FROM ladder_authors WHERE token_hash = ?", (token_hash,))
        return rows[0][0] if rows else None

    def author_token_hash(self, name: str) -> str | None:
        rows = self._query("SELECT token_hash FROM ladder_authors WHERE name = ?", (name,))
        return rows[0][0] if rows else None

    def authors(self) -> list[str]:
        return [r[0] for r in self._query("SELECT name FROM ladder_authors ORDER BY name")]

    def add_bot(self, name: str, author: str) -> None:
        """Raises LadderStoreError when the name is taken (bot names are unique ladder-wide)."""
        try:
            with self._transaction() as db:
                db.execute("INSERT INTO ladder_bots(name, author) VALUES (?, ?)", (name, author))
        except sqlite3.IntegrityError:
            raise LadderStoreError(f"the bot name {name!r} is taken") from None

    def bot(self, name: str) -> dict[str, Any] | None:
        rows = self._query("SELECT name, author FROM ladder_bots WHERE name = ?", (name,))
        return {"name": rows[0][0], "author": rows[0][1]} if rows else None

    def bots(self, author: str | None = None) -> list[dict[str, Any]]:
        sql, args = "SELECT name, author FROM ladder_bots", ()  # type: tuple[str, tuple[str, ...]]
        if author is not None:
            sql, args = sql + " WHERE author = ?", (author,)
        return [{"name": r[0], "author": r[1]} for r in self._query(sql + " ORDER BY name", args)]

    # -- versions ------------------------------------------------------------------------------
    def add_version(self, bot: str, kind: str, seat: str, games: Sequence[str], status: str,
                    reason: str = "", path: str = "") -> dict[str, Any]:
        """A new version of ``bot`` (its number the bot's next). When it is added 'active' (house
        bots), the bot's earlier active or probation versions are retired, as by :meth:`set_status`."""
        if kind not in KINDS:
            raise LadderStoreError(f"unknown version kind {kind!r} (one of {', '.join(KINDS)})")
        if status not in STATUSES:
            raise LadderStoreError(f"unknown version status {status!r} (one of {', '.join(STATUSES)})")
        with self._transaction() as db:
            if not db.execute("SELECT 1 FROM ladder_bots WHERE name = ?", (bot,)).fetchall():
                raise LadderStoreError(f"no bot is named {bot!r}")
            number = db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM ladder_versions WHERE bot = ?",
                                (bot,)).fetchone()[0]
            cursor = db.execute(
                "INSERT INTO ladder_versions(bot, number, kind, seat, games, status, reason, created, path) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (bot, number, kind, seat, json.dumps(list(games)), status, reason, time.time(), path))
            version_id = int(cursor.lastrowid or 0)
            if status == "active":
                self._retire_others(db, version_id)
        found = self.version(version_id)
        assert found is not None
        return found

    def _retire_others(self, db: sqlite3.Connection, version_id: int) -> None:
        bot, number = db.execute("SELECT bot, number FROM ladder_versions WHERE id = ?", (version_id,)).fetchone()
        db.execute("UPDATE ladder_versions SET status = 'retired', reason = ? "
                   "WHERE bot = ? AND number < ? AND status IN ('active', 'probation')",
                   (f"replaced by version {number}", bot, number))

    def set_status(self, version_id: int, status: str, reason: str = "") -> None:
        """Set a version's status (and why). Making a version 'active' retires the bot's other
        earlier active or probation versions ("replaced by version N"): a bot has one version
        playing at a time, and a refused new version leaves the old one playing."""
        if status not in STATUSES:
            raise LadderStoreError(f"unknown version status {status!r} (one of {', '.join(STATUSES)})")
        with self._transaction() as db:
            cursor = db.execute("UPDATE ladder_versions SET status = ?, reason = ? WHERE id = ?",
                                (status, reason, version_id))
            if cursor.rowcount == 0:
                raise LadderStoreError(f"no ladder version has id {version_id}")
            if status == "active":
                self._retire_others(db, version_id)

    def set_installed(self, version_id: int, seat: str, path: str) -> None:
        """A queued version's seat and files, once installed (both '' when its files are removed)."""
        with self._transaction() as db:
            db.execute("UPDATE ladder_versions SET seat = ?, path = ? WHERE id = ?", (seat, path, version_id))

    def versions(self, bot: str | None = None, status: str | None = None,
                 author: str | None = None) -> list[dict[str, Any]]:
        where: list[str] = []
        args: list[Any] = []
        for column, value in (("v.bot", bot), ("v.status", status), ("b.author", author)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        sql = f"SELECT {_VERSION_COLUMNS} FROM ladder_versions v JOIN ladder_bots b ON b.name = v.bot"
        if where:
            sql += " WHERE " + " AND ".join(where)
        return [_version(r) for r in self._query(sql + " ORDER BY v.id", args)]

    def version(self, version_id: int) -> dict[str, Any] | None:
        rows = self._query(f"SELECT {_VERSION_COLUMNS} FROM ladder_versions v JOIN ladder_bots b ON b.name = v.bot "
                           "WHERE v.id = ?", (version_id,))
        return _version(rows[0]) if rows else None

    def active_versions(self, game: str) -> list[dict[str, Any]]:
        """The versions that play ``game`` now (status 'active'), in id order."""
        return [v for v in self.versions(status="active") if game in v["games"]]

    def versions_since(self, author: str, since: float) -> int:
        """How many versions ``author``'s bots got since ``since`` (the submissions' rate limit)."""
        rows = self._query("SELECT COUNT(*) FROM ladder_versions v JOIN ladder_bots b ON b.name = v.bot "
                           "WHERE b.author = ? AND v.created >= ?", (author, since))
        return int(rows[0][0])

    def ensure_house(self, name: str, games: Sequence[str]) -> dict[str, Any]:
        """The active house version of the installed bot ``name`` (made on first use; the same one
        on every restart, so a restarted ladder schedules the same lineups)."""
        owner = self.bot(name)
        if owner is not None and owner["author"] != HOUSE:
            raise LadderStoreError(f"the house bot {name!r} cannot be added: an author's bot has that name")
        if owner is None:
            with self._transaction() as db:
                db.execute("INSERT OR IGNORE INTO ladder_authors(name, token_hash, created) VALUES (?, '', ?)",
                           (HOUSE, time.time()))
                db.execute("INSERT OR IGNORE INTO ladder_bots(name, author) VALUES (?, ?)", (name, HOUSE))
        for version in reversed(self.versions(bot=name)):
            if version["status"] in ("active", "probation") and version["games"] == list(games):
                return version
        return self.add_version(name, "house", name, games, "active")

    # -- rounds, deal sets, matches ------------------------------------------------------------
    def last_round(self) -> int:
        """The number of the last scheduled round (0: none yet)."""
        value = self.meta("round")
        return int(value) if value else 0

    def schedule_round(self, round: int,
                       deal_sets: Sequence[tuple[str, Sequence[int], str, Sequence[Mapping[str, Any]]]]) -> list[int]:
        """Store round ``round``: each deal set ``(ladder, lineup, deal_seed, [spec dicts])`` and its
        matches (one per spec, in order: rotation = position), all in one transaction, and record
        ``round`` as the last scheduled. Each stored spec's ``index`` is its match's id and its
        ``deal_set`` the deal set's id. Returns the deal sets' ids."""
        ids: list[int] = []
        now = time.time()
        with self._transaction() as db:
            last = db.execute("SELECT value FROM ladder_meta WHERE key = 'round'").fetchall()
            if last and int(last[0][0]) >= round:
                raise LadderStoreError(f"round {round} is already scheduled (the last is {last[0][0]})")
            for ladder, lineup, deal_seed, specs in deal_sets:
                cursor = db.execute("INSERT INTO ladder_deal_sets(ladder, round, lineup, deal_seed, scheduled) "
                                    "VALUES (?, ?, ?, ?, ?)", (ladder, round, json.dumps(list(lineup)), str(deal_seed), now))
                deal_set = int(cursor.lastrowid or 0)
                ids.append(deal_set)
                for rotation, spec in enumerate(specs):
                    cursor = db.execute("INSERT INTO ladder_matches(deal_set, rotation, spec) VALUES (?, ?, '')",
                                        (deal_set, rotation))
                    match_id = int(cursor.lastrowid or 0)
                    stored = dict(spec, index=match_id, deal_set=deal_set, rotation=spec.get("rotation", rotation))
                    db.execute("UPDATE ladder_matches SET spec = ? WHERE id = ?", (json.dumps(stored), match_id))
            db.execute("INSERT INTO ladder_meta(key, value) VALUES ('round', ?) "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (str(round),))
        return ids

    def pending_matches(self) -> list[dict[str, Any]]:
        """The spec dicts of every scheduled match without a stored result, in id order."""
        return [json.loads(r[0]) for r in self._query("SELECT spec FROM ladder_matches WHERE result IS NULL ORDER BY id")]

    def save_match(self, match_id: int, result: Mapping[str, Any], record: Mapping[str, Any] | str) -> bool:
        """Store a match's (checked) result and its record, and finish its deal set when it was the
        last; False (and nothing written) when the match already has a result: never counted twice."""
        text = records.dumps(record)
        with self._transaction() as db:
            cursor = db.execute("UPDATE ladder_matches SET result = ?, record = ?, finished = ? "
                                "WHERE id = ? AND result IS NULL", (json.dumps(result), text, time.time(), match_id))
            if cursor.rowcount == 0:
                if not db.execute("SELECT 1 FROM ladder_matches WHERE id = ?", (match_id,)).fetchall():
                    raise LadderStoreError(f"no ladder match has id {match_id}")
                return False
            deal_set = db.execute("SELECT deal_set FROM ladder_matches WHERE id = ?", (match_id,)).fetchone()[0]
            self._finish_if_complete(db, deal_set)
        return True

    def _finish_if_complete(self, db: sqlite3.Connection, deal_set: int) -> bool:
        open_matches = db.execute("SELECT COUNT(*) FROM ladder_matches WHERE deal_set = ? AND result IS NULL",
                                  (deal_set,)).fetchone()[0]
        if open_matches:
            return False
        db.execute("UPDATE ladder_deal_sets SET finished = ? WHERE id = ? AND finished IS NULL", (time.time(), deal_set))
        return True

    def finish_deal_set_if_complete(self, deal_set: int) -> bool:
        """Mark ``deal_set`` finished when all its matches are stored (save_match does it already)."""
        with self._transaction() as db:
            return self._finish_if_complete(db, deal_set)

    def _deal_set(self, row: Sequence[Any], with_matches: bool = True, records: bool = False) -> dict[str, Any]:
        found = {"id": row[0], "ladder": row[1], "round": row[2], "lineup": json.loads(row[3]), "deal_seed": row[4],
                 "scheduled": row[5], "finished": row[6], "rated": bool(row[7])}
        if with_matches:
            found["matches"] = self.matches_of(row[0], records=records)
        return found

    _DEAL_SET_COLUMNS = "id, ladder, round, lineup, deal_seed, scheduled, finished, rated"

    def matches_of(self, deal_set: int, records: bool = False) -> list[dict[str, Any]]:
        """The matches of ``deal_set`` in rotation order: id, rotation, spec, result, finished (and
        record with ``records``)."""
        rows = self._query("SELECT id, rotation, spec, result, finished" + (", record" if records else "") +
                           " FROM ladder_matches WHERE deal_set = ? ORDER BY rotation, id", (deal_set,))
        matches = []
        for r in rows:
            match = {"id": r[0], "rotation": r[1], "spec": json.loads(r[2]), "result": _loads(r[3]), "finished": r[4]}
            if records:
                match["record"] = _loads(r[5])
            matches.append(match)
        return matches

    def deal_set(self, deal_set_id: int) -> dict[str, Any] | None:
        rows = self._query(f"SELECT {self._DEAL_SET_COLUMNS} FROM ladder_deal_sets WHERE id = ?", (deal_set_id,))
        return self._deal_set(rows[0]) if rows else None

    def unrated_finished_deal_sets(self) -> list[dict[str, Any]]:
        """The finished deal sets not yet rated, in id order (the order they are rated in), with matches."""
        rows = self._query(f"SELECT {self._DEAL_SET_COLUMNS} FROM ladder_deal_sets "
                           "WHERE finished IS NOT NULL AND rated = 0 ORDER BY id")
        return [self._deal_set(r) for r in rows]

    def unfinished_deal_sets(self) -> list[int]:
        """The ids of the deal sets with a match still to play, in id order."""
        return [r[0] for r in self._query("SELECT id FROM ladder_deal_sets WHERE finished IS NULL ORDER BY id")]

    def unrated_deal_sets(self) -> int:
        """How many deal sets (finished or not) await their rating."""
        return int(self._query("SELECT COUNT(*) FROM ladder_deal_sets WHERE rated = 0")[0][0])

    def deal_sets(self, version: int | None = None, ladder: str | None = None, limit: int = 50,
                  round: int | None = None) -> list[dict[str, Any]]:
        """The newest deal sets first (of ``version``, of ``ladder``, of ``round``), each with its
        matches' results (not their records)."""
        where: list[str] = []
        args: list[Any] = []
        if version is not None:
            where.append("EXISTS (SELECT 1 FROM json_each(lineup) WHERE value = ?)")
            args.append(version)
        if ladder is not None:
            where.append("ladder = ?")
            args.append(ladder)
        if round is not None:
            where.append("round = ?")
            args.append(round)
        sql = f"SELECT {self._DEAL_SET_COLUMNS} FROM ladder_deal_sets"
        if where:
            sql += " WHERE " + " AND ".join(where)
        rows = self._query(sql + " ORDER BY id DESC LIMIT ?", [*args, limit])
        return [self._deal_set(r) for r in rows]

    def recent_matches(self, version: int, ladder: str, since: float, limit: int,
                       upto: int | None = None) -> list[dict[str, Any]]:
        """The probation window: ``version``'s most recent finished matches in ``ladder`` (spec and
        result), newest first, at most ``limit``, none finished before ``since``, of deal sets up to
        id ``upto`` (the one being rated: those after it are not rated yet). Read from the newest
        deal sets only (``limit`` of them hold at least ``limit`` matches)."""
        where, args = "", [ladder, version, since]  # type: tuple[str, list[Any]]
        if upto is not None:
            where, args = " AND id <= ?", [*args, upto]
        ids = [r[0] for r in self._query(
            "SELECT id FROM ladder_deal_sets WHERE ladder = ? AND EXISTS (SELECT 1 FROM json_each(lineup) WHERE value = ?) "
            f"AND finished >= ?{where} ORDER BY id DESC LIMIT ?", [*args, limit])]
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        rows = self._query(f"SELECT spec, result FROM ladder_matches WHERE deal_set IN ({marks}) AND result IS NOT NULL "
                           "AND finished >= ? ORDER BY id DESC LIMIT ?", [*ids, since, limit])
        return [{"spec": json.loads(r[0]), "result": json.loads(r[1])} for r in rows]

    def match(self, match_id: int) -> dict[str, Any] | None:
        """One match: id, deal_set, rotation, spec, result, record (parsed), finished."""
        rows = self._query("SELECT id, deal_set, rotation, spec, result, record, finished FROM ladder_matches "
                           "WHERE id = ?", (match_id,))
        if not rows:
            return None
        r = rows[0]
        return {"id": r[0], "deal_set": r[1], "rotation": r[2], "spec": json.loads(r[3]), "result": _loads(r[4]),
                "record": _loads(r[5]), "finished": r[6]}

    def rows(self, ladder: str | None = None) -> list[MatchRow]:
        """Every finished match (of ``ladder``) as the results model's row (arena.results), in id order."""
        where, args = ("", ()) if ladder is None else (" AND d.ladder = ?", (ladder,))
        found = self._query("SELECT m.spec, m.result, m.finished FROM ladder_matches m JOIN ladder_deal_sets d "
                            f"ON d.id = m.deal_set WHERE m.result IS NOT NULL{where} ORDER BY m.id", args)
        return [row_of(json.loads(spec), json.loads(result), finished) for spec, result, finished in found]

    # -- the bots' logs ------------------------------------------------------------------------
    def add_logs(self, logs: Sequence[tuple[int, int, int, int]]) -> None:
        """Note kept logs: (match, seat, version, size) each (a match stored again is noted once)."""
        if logs:
            with self._transaction() as db:
                db.executemany("INSERT OR REPLACE INTO ladder_logs(match, seat, version, size) VALUES (?, ?, ?, ?)",
                               list(logs))

    def logs_over_budget(self, version: int, budget: int) -> list[tuple[int, int]]:
        """The oldest of ``version``'s logs to drop so that the rest fit ``budget`` bytes:
        (match, seat) each, oldest first; their rows are deleted (the caller deletes the files). The
        logs of its newest match are always kept (so the budget is passed by at most that match's)."""
        rows = self._query("SELECT match, seat, size FROM ladder_logs WHERE version = ? ORDER BY match, seat", (version,))
        total = sum(r[2] for r in rows)
        newest = rows[-1][0] if rows else None
        dropped: list[tuple[int, int]] = []
        for match, seat, size in rows:
            if total <= budget or match == newest:
                break
            dropped.append((match, seat))
            total -= size
        if dropped:
            with self._transaction() as db:
                db.executemany("DELETE FROM ladder_logs WHERE match = ? AND seat = ?", dropped)
        return dropped

    def logs_of(self, match: int) -> dict[int, dict[str, int]]:
        """The kept logs of ``match``: seat -> {"version", "size"}."""
        return {r[0]: {"version": r[1], "size": r[2]}
                for r in self._query("SELECT seat, version, size FROM ladder_logs WHERE match = ?", (match,))}

    def log_bytes(self, version: int) -> int:
        return int(self._query("SELECT COALESCE(SUM(size), 0) FROM ladder_logs WHERE version = ?", (version,))[0][0])

    # -- ratings -------------------------------------------------------------------------------
    def rate(self, deal_set_id: int, updates: Mapping[int, tuple[float, float, int, int]],
             statuses: Mapping[int, tuple[str, str]] | None = None) -> bool:
        """Rate a finished deal set, in one transaction: each version's new (mu, sigma), its matches
        and faults added, its deal sets counted, a history row, and ``statuses`` (version -> (status,
        reason): probation) set; the deal set marked rated. False (nothing written) when it already
        was rated; LadderStoreError when it is not finished."""
        now = time.time()
        with self._transaction() as db:
            row = db.execute("SELECT ladder, finished, rated FROM ladder_deal_sets WHERE id = ?", (deal_set_id,)).fetchall()
            if not row:
                raise LadderStoreError(f"no ladder deal set has id {deal_set_id}")
            ladder, finished, rated = row[0]
            if rated:
                return False
            if finished is None:
                raise LadderStoreError(f"deal set {deal_set_id} is not finished: it cannot be rated")
            for version, (mu, sigma, matches, faults) in updates.items():
                db.execute("INSERT INTO ladder_ratings(version, ladder, mu, sigma, deal_sets, matches, faults) "
                           "VALUES (?, ?, ?, ?, 1, ?, ?) ON CONFLICT(version, ladder) DO UPDATE SET "
                           "mu = excluded.mu, sigma = excluded.sigma, deal_sets = deal_sets + 1, "
                           "matches = matches + excluded.matches, faults = faults + excluded.faults",
                           (version, ladder, mu, sigma, matches, faults))
                db.execute("INSERT INTO ladder_history(version, ladder, deal_set, mu, sigma, at) VALUES (?, ?, ?, ?, ?, ?)",
                           (version, ladder, deal_set_id, mu, sigma, now))
            for version, (status, reason) in (statuses or {}).items():
                db.execute("UPDATE ladder_versions SET status = ?, reason = ? WHERE id = ?", (status, reason, version))
            self._add_pairs(db, deal_set_id)
            db.execute("UPDATE ladder_deal_sets SET rated = 1 WHERE id = ?", (deal_set_id,))
        return True

    @staticmethod
    def _add_pairs(db: sqlite3.Connection, deal_set_id: int) -> None:
        """Add a finished deal set to head to head (``ladder_pairs``), inside the caller's transaction."""
        ladder, lineup_text = db.execute("SELECT ladder, lineup FROM ladder_deal_sets WHERE id = ?",
                                         (deal_set_id,)).fetchone()
        lineup = [int(v) for v in json.loads(lineup_text)]
        played = [{"spec": json.loads(spec), "result": json.loads(result)} for spec, result in db.execute(
            "SELECT spec, result FROM ladder_matches WHERE deal_set = ? AND result IS NOT NULL ORDER BY rotation",
            (deal_set_id,))]
        if not played or any((m["result"].get("termination") or {}).get("how") == ARENA_ERROR for m in played):
            return  # a deal set the arena could not play is nobody's win or loss
        sums = side_sums(played, len(lineup))
        for i, version in enumerate(lineup):
            for j, opponent in enumerate(lineup):
                if i == j:
                    continue
                counts = _PAIR_COUNTS[outcome_of(sums[i], sums[j])]
                db.execute("INSERT INTO ladder_pairs(ladder, version, opponent, won, drawn, lost, margin) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(ladder, version, opponent) DO UPDATE SET "
                           "won = won + excluded.won, drawn = drawn + excluded.drawn, lost = lost + excluded.lost, "
                           "margin = margin + excluded.margin", (ladder, version, opponent, *counts, sums[i] - sums[j]))

    def _backfill_pairs(self) -> None:
        """Head to head for the rated deal sets of a store made before ``ladder_pairs`` existed:
        once, when it is opened (a new store only marks itself done)."""
        if self.meta("pairs") is not None:
            return
        rated = [r[0] for r in self._query("SELECT id FROM ladder_deal_sets WHERE rated = 1 ORDER BY id")]
        if rated:
            with self._transaction() as db:
                if db.execute("SELECT 1 FROM ladder_meta WHERE key = 'pairs'").fetchone() is None:
                    for deal_set_id in rated:
                        self._add_pairs(db, deal_set_id)
                    db.execute("INSERT INTO ladder_meta(key, value) VALUES ('pairs', '1')")
        else:
            self._query("INSERT OR IGNORE INTO ladder_meta(key, value) VALUES ('pairs', '1')")

    def pairs(self, versions: Sequence[int]) -> list[dict[str, Any]]:
        """Head to head of ``versions``: per ladder and opponent version, deal sets won, drawn and
        lost, and the summed difference of margins."""
        if not versions:
            return []
        marks = ", ".join("?" * len(versions))
        rows = self._query(f"SELECT ladder, version, opponent, won, drawn, lost, margin FROM ladder_pairs "
                           f"WHERE version IN ({marks}) ORDER BY ladder, opponent", list(versions))
        return [{"ladder": r[0], "version": r[1], "opponent": r[2], "won": r[3], "drawn": r[4], "lost": r[5],
                 "margin": r[6]} for r in rows]

    def rating(self, version: int, ladder: str) -> dict[str, Any] | None:
        rows = self._query("SELECT mu, sigma, deal_sets, matches, faults FROM ladder_ratings WHERE version = ? AND ladder = ?",
                           (version, ladder))
        if not rows:
            return None
        mu, sigma, deal_sets, matches, faults = rows[0]
        return {"version": version, "ladder": ladder, "mu": mu, "sigma": sigma, "deal_sets": deal_sets,
                "matches": matches, "faults": faults}

    def ratings(self, ladder: str) -> list[dict[str, Any]]:
        """Every rated version of ``ladder`` (whatever its status), best first by mu - 3 sigma:
        version, bot, number, kind, status, reason, author, mu, sigma, score, deal_sets, matches, faults."""
        rows = self._query(
            "SELECT r.version, v.bot, v.number, v.kind, v.status, v.reason, b.author, r.mu, r.sigma, "
            "r.deal_sets, r.matches, r.faults FROM ladder_ratings r JOIN ladder_versions v ON v.id = r.version "
            "JOIN ladder_bots b ON b.name = v.bot WHERE r.ladder = ?", (ladder,))
        found = [{"version": r[0], "bot": r[1], "number": r[2], "kind": r[3], "status": r[4], "reason": r[5],
                  "author": r[6], "mu": r[7], "sigma": r[8], "score": r[7] - 3 * r[8], "deal_sets": r[9],
                  "matches": r[10], "faults": r[11]} for r in rows]
        return sorted(found, key=lambda r: (-r["score"], r["version"]))

    def history(self, version: int) -> list[dict[str, Any]]:
        """A version's rating after each deal set it was rated in (every ladder), oldest first."""
        rows = self._query("SELECT ladder, deal_set, mu, sigma, at FROM ladder_history WHERE version = ? "
                           "ORDER BY deal_set", (version,))
        return [{"ladder": r[0], "deal_set": r[1], "mu": r[2], "sigma": r[3], "score": r[2] - 3 * r[3], "at": r[4]}
                for r in rows]

    def ladders(self) -> list[str]:
        """The ladders: the configured ones (meta 'ladders', in the config's order), then any other
        that has deal sets or ratings."""
        configured = json.loads(self.meta("ladders") or "[]")
        seen = [r[0] for r in self._query("SELECT ladder FROM ladder_deal_sets UNION SELECT ladder FROM ladder_ratings")]
        return list(dict.fromkeys([*configured, *sorted(seen)]))

    def counts(self) -> dict[str, int]:
        def one(sql: str) -> int:
            return int(self._query(sql)[0][0])

        return {
            "authors": one("SELECT COUNT(*) FROM ladder_authors WHERE name != 'house'"),
            "bots": one("SELECT COUNT(*) FROM ladder_bots"),
            "versions": one("SELECT COUNT(*) FROM ladder_versions"),
            "active": one("SELECT COUNT(*) FROM ladder_versions WHERE status = 'active'"),
            "rounds": self.last_round(),
            "deal_sets": one("SELECT COUNT(*) FROM ladder_deal_sets"),
            "deal_sets_rated": one("SELECT COUNT(*) FROM ladder_deal_sets WHERE rated = 1"),
            "matches": one("SELECT COUNT(*) FROM ladder_matches"),
            "matches_finished": one("SELECT COUNT(*) FROM ladder_matches WHERE result IS NOT NULL"),
        }
