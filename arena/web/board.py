"""The old whole-match daily deal's leaderboard (kept for the days before the daily sets: docs/web.md,
"Days before the daily sets") and the last state of a finished table.

A ranked game's score is the person's side's final margin: its score less the best other side's.
Its versus-par is that margin less the par's margin (the ``heuristic`` bot in the person's seat,
on the same cards with the same bots). A day's board ranks the finished ranked daily games by
versus-par; the all-time board ranks each player by the sum of their versus-par over every day.
A game the person forfeited (their time ran out) is listed below the others, without versus-par.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena import records
from arena.web import daily
from arena.web.store import TableRow, WebStore

if TYPE_CHECKING:
    from arena.plugins.manager import Registry


def _ranked(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """Sorted by ``key`` (highest first, None last); equal values share a rank."""
    rows.sort(key=lambda r: (r[key] is None, -(r[key] or 0)))
    previous, rank = object(), 0
    for position, row in enumerate(rows, start=1):
        if row[key] != previous:
            rank, previous = position, row[key]
        row["rank"] = rank
    return rows


def board(store: WebStore, registry: "Registry", game: str, date: str | None, today: str) -> dict[str, Any]:
    """The board of ``game`` on ``date`` (YYYY-MM-DD), or the all-time board (``date`` None).
    The par of a day is played at first need: today's, or a day with ranked games (a request for
    an empty day long past plays nothing, and its par is null)."""
    if date is not None:
        ranked = list(store.ranked_rows(game, date))
        if not ranked and date != today:
            return {"game": game, "date": date, "par": store.par(game, date), "rows": []}
        par = daily.par(store, registry, game, date)
        rows = []
        for table, nickname in ranked:
            normal = table.termination == "normal"
            rows.append({"nickname": nickname, "score": table.margin, "par": par["margin"],
                         "versus_par": table.margin - par["margin"] if normal and table.margin is not None else None,
                         "table": table.id, "finished": table.finished, "termination": table.termination,
                         "date": table.date, "owner": table.owner})
        return {"game": game, "date": date, "par": par, "rows": _ranked(rows, "versus_par")}
    players: dict[str, dict[str, Any]] = {}
    for table, nickname in store.ranked_rows(game, None):
        if table.termination != "normal" or table.margin is None:
            continue
        par = daily.par(store, registry, game, table.date)
        versus = table.margin - par["margin"]
        row = players.setdefault(table.owner, {"nickname": nickname, "score": 0, "par": 0,
                                               "versus_par": 0, "games": 0, "table": table.id,
                                               "best": versus, "finished": table.finished, "date": table.date,
                                               "owner": table.owner})
        row["score"] += table.margin
        row["par"] += par["margin"]
        row["versus_par"] += versus
        row["games"] += 1
        row["finished"] = max(row["finished"], table.finished)
        if versus > row["best"]:  # the row links to the player's best game
            row["best"], row["table"], row["date"] = versus, table.id, table.date
    rows = list(players.values())
    for row in rows:
        del row["best"]
    return {"game": game, "date": "all", "par": None, "rows": _ranked(rows, "versus_par")}


def final_state(server: Any, row: TableRow) -> dict[str, Any]:
    """The ``state`` message of a finished table, rebuilt from its record (after a restart)."""
    from arena.web.table import Table

    record = server.store.record(row.id)
    replayed = records.replay(record, server.registry.game)
    seat = row.spec["human_seat"]
    hands = [{**hand["result"], "hand_index": index} for index, hand in enumerate(record["hands"]) if "result" in hand]
    result = {key: record["result"].get(key) for key in ("scores", "ranking", "winners", "winner")}
    result.update(game=record["game"], seats=record["seats"], termination=record.get("termination"),
                  faults=record.get("faults", []), seat=seat)
    n = sum(len(hand["actions"]) for hand in record["hands"])
    observation = replayed.state.observation(seat)
    return {"type": "state", "table": Table(row, server.store, server.registry,
                                                nickname=server.store.nickname(row.owner)).summary,
            "observation": observation, "lines": replayed.state.game.page_lines(observation), "your_turn": False,
            "legal_actions": [],
            "decision": n, "hands": hands, "result": result}
