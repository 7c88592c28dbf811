"""The human seat: its clock runs only while a browser is connected (no forfeit while the person
is away), its answers are checked before they are taken, and outside `arena serve` the seat kind
says where a person plays."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from arena.players.hosts import BotTimeout
from arena.web.human import Channel, TableStopped


def asking(channel: Channel, timeout: float) -> tuple[threading.Thread, dict]:
    outcome: dict = {}

    def ask() -> None:
        try:
            outcome["answer"] = channel.ask({"legal_actions": ["pass", "bid 6S"]}, timeout)
        except (BotTimeout, TableStopped) as exc:
            outcome["error"] = exc

    asked = threading.Event()
    channel.on_turn = lambda observation, decision: asked.set()
    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    assert asked.wait(10)
    return thread, outcome


def test_the_clock_stops_while_no_browser_is_connected():
    channel = Channel("t", lambda o, d: None, lambda e, p: None)
    thread, outcome = asking(channel, timeout=0.05)
    thread.join(0.5)  # ten times the limit, with nobody connected: still waiting
    assert thread.is_alive() and not outcome
    channel.connect()  # a browser arrives and does not answer: now the time runs out
    thread.join(10)
    assert isinstance(outcome["error"], BotTimeout)


def test_answers_are_checked_then_taken_once():
    channel = Channel("t", lambda o, d: None, lambda e, p: None)
    channel.decision = 7
    assert channel.submit("pass", 7) == "it is not your turn"
    thread, outcome = asking(channel, timeout=60)
    assert "not a legal action" in channel.submit("bid 7S", 7)
    assert "is stale" in channel.submit("pass", 6)
    assert channel.submit("bid 6S", 7) is None
    assert channel.submit("pass", 7) == "it is not your turn"  # the second of a double click
    thread.join(10)
    assert outcome["answer"][0] == "bid 6S" and outcome["answer"][1] < 60


def test_closing_the_channel_stops_the_wait():
    channel = Channel("t", lambda o, d: None, lambda e, p: None)
    thread, outcome = asking(channel, timeout=60)
    channel.close()
    thread.join(10)
    assert isinstance(outcome["error"], TableStopped)


@pytest.mark.parametrize("seat,words", [
    ("human:abc", "no such table is open here; a person plays in the browser"),
    ("human:", "a human seat is human:TABLE"),
])
def test_a_human_seat_outside_arena_serve_is_a_clear_error(seat, words):
    result = subprocess.run([sys.executable, "-m", "arena.cli", "play", "all_fours", "--seats",
                             f"{seat},random,random,random"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and words in result.stderr, result.stderr


def test_at_a_table_the_clock_waits_while_away_and_a_connected_person_who_never_moves_loses_on_time(tmp_path):
    import json
    import time

    from starlette.testclient import TestClient

    from tests.web_support import make_app, new_table, next_turn

    with TestClient(make_app(tmp_path / "web.db", human_time=0.3)) as client:
        table = new_table(client, game="five_hundred", mode="daily")  # a deal of the daily set: one hand
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            first = next_turn(ws)
        time.sleep(1.0)  # away for three times the limit: nothing happens
        assert client.get(f"/api/tables/{table}").json()["finished"] is False
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            assert next_turn(ws) == first  # the same decision, still waiting
            last = next_turn(ws)  # connected and not moving: the limit runs out
        assert last["result"]["termination"]["how"] == "forfeit"
        assert last["result"]["termination"]["fault"]["kind"] == "timeout"
        assert client.get(f"/api/tables/{table}").json()["termination"] == "forfeit"
        record = client.get(f"/api/tables/{table}/record").json()
        assert record["termination"]["how"] == "forfeit" and json.dumps(record)
