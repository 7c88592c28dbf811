"""Nothing is lost: a dropped connection reconnects to the running table, and a server restart
resumes every unfinished table from the store (its stored actions replayed) to the very same state."""

from __future__ import annotations

import json
import sqlite3

from starlette.testclient import TestClient

from arena import records
from tests.web_support import act, make_app, new_table, next_turn, play_out


def test_a_dropped_connection_reconnects_to_the_same_state(tmp_path):
    with TestClient(make_app(tmp_path / "web.db")) as client:
        table = new_table(client, game="five_hundred")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = next_turn(ws)
            act(ws, state)
            before = next_turn(ws)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            again = next_turn(ws)
        assert again == before and again["decision"] > state["decision"]


def test_a_restart_resumes_the_table_exactly_and_it_finishes(tmp_path, registry):
    db = tmp_path / "web.db"
    client = TestClient(make_app(db))
    with client:
        table = new_table(client, game="five_hundred")
        before, answered = play_out(client, table, moves=15)
        assert answered == 15 and before["your_turn"] and len(before["hands"]) >= 1
        cookies = dict(client.cookies)
    stored = sqlite3.connect(db).execute("SELECT count(*) FROM actions WHERE table_id = ?", (table,)).fetchone()[0]
    assert stored == before["decision"]  # every action so far, bots' and forced ones too

    restarted = TestClient(make_app(db))
    restarted.cookies.update(cookies)
    with restarted:
        with restarted.websocket_connect(f"/ws/tables/{table}") as ws:
            after = next_turn(ws)
        assert after == before  # the same observation, decision, legal actions and hand results
        last, _ = play_out(restarted, table)
        assert last["result"]["termination"]["how"] == "normal"
        record = restarted.get(f"/api/tables/{table}/record").json()
    replayed = records.replay(record, registry.game)
    assert replayed.state.is_over() and replayed.state.scores() == last["result"]["scores"]
    times = [t for hand in record["hands"] for t in hand["times"]]
    assert sum(t is not None for t in times) > 15  # the resumed thinking times are in the record too
    assert json.loads(json.dumps(record)) == record


def test_a_restart_while_the_table_waits_for_the_person_keeps_other_tables_apart(tmp_path):
    db = tmp_path / "web.db"
    with TestClient(make_app(db)) as client:
        first = new_table(client, game="all_fours")
        second = new_table(client, game="bid_euchre")
        one, _ = play_out(client, first, moves=3)
        two, _ = play_out(client, second, moves=2)
        cookies = dict(client.cookies)
    restarted = TestClient(make_app(db))
    restarted.cookies.update(cookies)
    with restarted:
        for table, before in ((second, two), (first, one)):
            with restarted.websocket_connect(f"/ws/tables/{table}") as ws:
                assert next_turn(ws) == before
        listed = {row["id"]: row for row in restarted.get("/api/tables").json()}
        assert set(listed) == {first, second} and not any(row["finished"] for row in listed.values())


def test_a_finished_table_after_a_restart_shows_its_last_state_from_the_record(tmp_path):
    db = tmp_path / "web.db"
    with TestClient(make_app(db)) as client:
        table = new_table(client, game="all_fours")
        last, _ = play_out(client, table)
        cookies = dict(client.cookies)
    restarted = TestClient(make_app(db))
    restarted.cookies.update(cookies)
    with restarted:
        with restarted.websocket_connect(f"/ws/tables/{table}") as ws:
            again = next_turn(ws)
            ws.send_text(json.dumps({"type": "act", "action": "stand", "decision": again["decision"]}))
            assert "the game is over" in json.loads(ws.receive_text())["message"]
    assert again["observation"] == last["observation"] and again["hands"] == last["hands"]
    assert again["decision"] == last["decision"] and again["result"]["scores"] == last["result"]["scores"]
    assert again["table"] == last["table"]


def _seat0_actions(db, table: str) -> list[tuple[str, float | None]]:
    return sqlite3.connect(db).execute("SELECT action, elapsed FROM actions WHERE table_id = ? AND seat = 0 ORDER BY n",
                                       (table,)).fetchall()


def test_a_forced_move_played_for_the_person_is_in_the_state(tmp_path):
    with TestClient(make_app(tmp_path / "web.db")) as client:
        table = new_table(client, game="five_hundred")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            for _ in range(60):
                state = next_turn(ws)
                assert len(state["legal_actions"]) > 1  # a forced move is not asked by default
                if state["forced"] is not None:
                    break
                act(ws, state)
            else:
                raise AssertionError("no forced move in 60 decisions")
        action, elapsed = _seat0_actions(tmp_path / "web.db", table)[-1]
        assert state["forced"]["action"] == action and elapsed is None  # the person's latest move, not asked


def test_a_person_who_confirms_forced_moves_is_asked_them_and_a_restart_replays_them(tmp_path, registry):
    db = tmp_path / "web.db"
    client = TestClient(make_app(db))
    with client:
        table = new_table(client, game="five_hundred")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_text(json.dumps({"type": "settings", "confirm_forced": True}))
            confirmed = 0
            while confirmed < 2:
                state = next_turn(ws)
                assert state["forced"] is None  # nothing was played for the person
                confirmed += len(state["legal_actions"]) == 1
                act(ws, state)
            before = next_turn(ws)
        cookies = dict(client.cookies)
    assert all(elapsed is not None for _, elapsed in _seat0_actions(db, table))  # every move of theirs was asked
    restarted = TestClient(make_app(db))  # and replays: the stored log says which forced moves were asked
    restarted.cookies.update(cookies)
    with restarted:
        with restarted.websocket_connect(f"/ws/tables/{table}") as ws:
            assert next_turn(ws) == before
        last, _ = play_out(restarted, table)  # the setting is off on this connection: forced moves are played
        assert last["result"]["termination"]["how"] == "normal"
        record = restarted.get(f"/api/tables/{table}/record").json()
    assert records.replay(record, registry.game).state.is_over()
    assert any(elapsed is None for _, elapsed in _seat0_actions(db, table))
