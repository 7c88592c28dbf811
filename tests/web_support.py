"""Helpers of the browser-play tests (tests/test_web_*.py): an application on a fresh store, with
no pace, and a client that answers the first legal action of every state until the game ends."""

from __future__ import annotations

import datetime
import functools
import random
import json
import os
from pathlib import Path
from typing import Any, Callable

from starlette.testclient import TestClient

from arena.web.app import create_app
from arena.web.daily import DailyConfig

DAY = datetime.date(2026, 3, 14)
# A small daily set for the tests: 3 deals, a pool of 2, a field of the two quick bots.
SMALL_DAILY = DailyConfig(deals=3, pool=2, field=("heuristic", "random"))


def make_app(db: Path, *, today: Callable[[], datetime.date] = lambda: DAY, **kwargs: Any):
    """The application on ``db`` with no pace, a fixed date and new games' seeds from a seeded
    sequence (so every test plays the same games each time)."""
    kwargs.setdefault("pace", 0.0)
    kwargs.setdefault("daily_config", SMALL_DAILY)
    kwargs.setdefault("new_seed", functools.partial(random.Random(f"web-tests/{Path(db).name}").getrandbits, 63))
    return create_app(db, today=today, **kwargs)


def receive(ws: Any) -> dict[str, Any]:
    return json.loads(ws.receive_text())


def next_turn(ws: Any) -> dict[str, Any]:
    """Read states until it is the person's turn or the game is over; return that state."""
    while True:
        message = receive(ws)
        assert message["type"] == "state", message
        if message["your_turn"] or message["result"] is not None:
            return message


def act(ws: Any, state: dict[str, Any], action: str | None = None) -> None:
    ws.send_text(json.dumps({"type": "act", "action": action or state["legal_actions"][0],
                             "decision": state["decision"]}))


def play_out(client: TestClient, table: str, moves: int | None = None) -> tuple[dict[str, Any], int]:
    """Answer the first legal action until the game ends (or ``moves`` answers); return the last
    state and the number of answers."""
    answered = 0
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        while True:
            state = next_turn(ws)
            if state["result"] is not None or (moves is not None and answered == moves):
                return state, answered
            act(ws, state)
            answered += 1


def new_table(client: TestClient, **body: Any) -> str:
    body.setdefault("mode", "new")
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()["table"]


def descendants_nice() -> dict[int, int]:
    """The processes under this one (pid -> niceness), read from /proc."""
    parents: dict[int, int] = {}
    nice: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)], nice[int(entry)] = int(fields[1]), int(fields[16])
    found = {}
    for pid in parents:
        ancestor = parents.get(pid)
        for _ in range(8):
            if ancestor == os.getpid():
                found[pid] = nice[pid]
                break
            ancestor = parents.get(ancestor) if ancestor else None
    return found
