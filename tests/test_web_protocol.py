"""Bad input from a browser is refused with a message to that browser and changes nothing: the
table's decision and stored actions stay as they were, a legal answer to the same state is still
taken, and other tables go on. HTTP errors are JSON with a status and say what, where and why."""

from __future__ import annotations

import json
import sqlite3

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web_support import act, make_app, new_table, next_turn, play_out, receive


@pytest.fixture()
def client(tmp_path):
    with TestClient(make_app(tmp_path / "web.db")) as client:
        client.db = tmp_path / "web.db"  # type: ignore[attr-defined]
        yield client


def stored(client, table: str) -> int:
    return sqlite3.connect(client.db).execute("SELECT count(*) FROM actions WHERE table_id = ?", (table,)).fetchone()[0]


def refused(ws) -> str:
    message = receive(ws)
    assert message["type"] == "error", message
    return message["message"]


BAD_FRAMES = [
    ("{not json", "malformed JSON"),
    ("[1, 2]", "a JSON object"),
    (json.dumps({"type": "hello"}), "unknown message type 'hello'"),
    (json.dumps({"action": "pass"}), "has no 'type'"),
    (json.dumps({"type": "act", "action": "pass", "decision": 0, "seat": 2}), "unknown field 'seat'"),
    (json.dumps({"type": "act", "action": "x" * 5000, "decision": 0}), "at most 4096 bytes"),
    (json.dumps({"type": "act", "action": "bid 11S", "decision": "@D"}), "is not a legal action now"),
    (json.dumps({"type": "act", "action": "play ZZ", "decision": "@D"}), "is not a legal action now"),
    (json.dumps({"type": "act", "action": ["pass"], "decision": "@D"}), "must be an action string"),
    (json.dumps({"type": "act", "action": "pass", "decision": "@D-1"}), "is stale"),
    (json.dumps({"type": "act", "action": "pass", "decision": "@D+7"}), "is stale"),
    (json.dumps({"type": "act", "action": "pass", "decision": "3"}), "must be the integer decision"),
    (json.dumps({"type": "act", "action": "pass"}), "must be the integer decision"),
]


def test_every_bad_frame_is_refused_and_changes_nothing(client):
    table = new_table(client, game="five_hundred")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        state = next_turn(ws)
        before = stored(client, table)
        for frame, words in BAD_FRAMES:
            decision = state["decision"]
            for token, value in (("\"@D-1\"", decision - 1), ("\"@D+7\"", decision + 7), ("\"@D\"", decision)):
                frame = frame.replace(token, str(value))
            ws.send_text(frame)
            assert words in refused(ws), frame
        ws.send_bytes(b'{"type": "act"}')
        assert "binary frames" in refused(ws)
        assert stored(client, table) == before
        act(ws, state)  # the same state is still there to answer
        after = next_turn(ws)
        assert after["decision"] > state["decision"] and stored(client, table) > before
        act(ws, after)
        act(ws, after)  # a double click: the second answer is refused, whatever happened in between
        messages = []
        while not any(m["type"] == "error" for m in messages):
            messages.append(receive(ws))
        error = next(m for m in messages if m["type"] == "error")["message"]
        assert "is stale" in error or "not your turn" in error


def test_acting_out_of_turn_is_refused(tmp_path):
    app = make_app(tmp_path / "web.db")
    with TestClient(app) as client:
        client.db = tmp_path / "web.db"  # type: ignore[attr-defined]
        table = new_table(client, game="five_hundred")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = next_turn(ws)
            app.state.server.tables[table].pace = 60.0  # slow bots: after this answer the table waits at a bot's turn
            act(ws, state)
            waiting = receive(ws)
            assert waiting["type"] == "state" and not waiting["your_turn"]
            ws.send_text(json.dumps({"type": "act", "action": "pass", "decision": waiting["decision"]}))
            assert refused(ws) == "it is not your turn"
            assert stored(client, table) == waiting["decision"]


def close_code(ws) -> tuple[str, int]:
    message = receive(ws)
    assert message["type"] == "error"
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()
    return message["message"], closed.value.code


def test_another_persons_table_and_unknown_tables_are_refused(client):
    table = new_table(client, game="all_fours")
    mine = dict(client.cookies)
    client.cookies.clear()
    client.get("/api/me")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        message, code = close_code(ws)
    assert code == 4403 and "another person's" in message
    for path in (f"/api/tables/{table}", f"/api/tables/{table}/record"):
        response = client.get(path)
        assert response.status_code == 403 and "another person's" in response.json()["error"], path
    page = client.get(f"/tables/{table}/replay")  # a link followed: a page that says why, in words
    assert page.status_code == 403 and "text/html" in page.headers["content-type"]
    assert "another person&#x27;s" in page.text and "<h1>" in page.text
    assert table not in {row["id"] for row in client.get("/api/tables").json()}
    for bad in ("nosuchtable", "x" * 300, "a.b;c"):
        with client.websocket_connect(f"/ws/tables/{bad}") as ws:
            message, code = close_code(ws)
        assert code == 4404 and "there is no table" in message
        assert client.get(f"/api/tables/{bad}").status_code == 404
    client.cookies.clear()
    with client.websocket_connect(f"/ws/tables/{table}") as ws:  # no cookie at all
        message, code = close_code(ws)
    assert code == 4401 and "cookie" in message
    client.cookies.update(mine)  # the owner still plays it, untouched
    state, _ = play_out(client, table, moves=1)
    assert state["decision"] > 0


def test_one_tables_bad_input_leaves_another_table_alone(client):
    first = new_table(client, game="bid_euchre")
    second = new_table(client, game="bid_euchre")
    with client.websocket_connect(f"/ws/tables/{first}") as one, client.websocket_connect(f"/ws/tables/{second}") as two:
        a, b = next_turn(one), next_turn(two)
        for frame in ("garbage", json.dumps({"type": "act", "action": "nonsense", "decision": a["decision"]})):
            one.send_text(frame)
            refused(one)
        act(two, b)
        assert next_turn(two)["decision"] > b["decision"]
        act(one, a)
        assert next_turn(one)["decision"] > a["decision"]


@pytest.mark.parametrize("body,status,words", [
    ("{bad json", 400, "not JSON"),
    ("[]", 400, "JSON object"),
    (json.dumps({"game": "chess"}), 400, "unknown game 'chess'"),
    (json.dumps({"game": "five_hundred", "mode": "weekly"}), 400, "'mode'"),
    (json.dumps({"game": "five_hundred", "players": 9}), 400, "option 'players': 9 is not valid"),
    (json.dumps({"game": "five_hundred", "options": {"trumps": "on"}}), 400, "unknown option 'trumps'"),
    (json.dumps({"game": "all_fours", "options": {"target_score": 0}}), 400, "option 'target_score': 0 is not valid"),
    (json.dumps({"game": "all_fours", "options": {"kick_values": "x"}}), 400, "one of trinidad, tobago"),
    (json.dumps({"game": "all_fours", "options": []}), 400, "'options' must be an object"),
    (json.dumps({"game": "all_fours", "bots": ["heuristic"]}), 400, "the 3 bots of the other seats"),
    (json.dumps({"game": "all_fours", "bots": ["heuristic", "nobody", "random"]}), 400, "seat 2: 'nobody' is not an installed bot"),
    (json.dumps({"game": "all_fours", "bots": ["heuristic", "grpc://x:1", "random"]}), 400, "is not an installed bot"),
    (json.dumps({"game": "all_fours", "seed": 7}), 400, "unknown field 'seed'"),
    ("x" * 20000, 413, "over the limit"),  # refused before the route reads it (arena.web.guard)
])
def test_bad_new_table_requests_say_what_is_wrong(client, body, status, words):
    response = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status and words in response.json()["error"], response.text
    assert client.get("/api/tables").json() == []


def test_new_games_take_any_player_count_options_and_bots(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["five_hundred"]["players"] == [2, 3, 4, 5, 6] and games["five_hundred"]["default_players"] == 4
    assert {"heuristic", "random"} <= set(games["fifty_six"]["bots"])
    options = {o["name"]: o for o in games["all_fours"]["options"]}
    assert options["kick_values"]["choices"] == ["trinidad", "tobago"] and options["target_score"]["minimum"] == 1
    table = new_table(client, game="five_hundred", players=3, bots=["random", "heuristic"], options={"max_hands": 1})
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["players"] == 3 and summary["seating"][1:] == ["random", "heuristic"]
    assert summary["options"]["max_hands"] == 1 and summary["ranked"] is False
    state, _ = play_out(client, table)
    # One hand (a new game's deals are random: that hand may also end the match, e.g. at -500).
    assert state["result"]["termination"]["how"] in ("unfinished", "normal") and len(state["hands"]) == 1


def test_nicknames(client):
    assert client.get("/api/me").json()["nickname"] is None
    for bad in ("", "x" * 25, "a\nb", 7):
        response = client.post("/api/me", json={"nickname": bad})
        assert response.status_code == 400 and "1 to 24 printable" in response.json()["error"]
    assert client.post("/api/me", json={"nickname": "Ann Q."}).json()["nickname"] == "Ann Q."
    table = new_table(client, game="all_fours")
    assert client.get(f"/api/tables/{table}").json()["seating"][0] == "you (Ann Q.)"
    assert client.get(f"/api/tables/{table}/record").status_code == 409


def test_a_page_of_another_site_may_not_open_the_socket(client):
    table = new_table(client, game="all_fours")
    with client.websocket_connect(f"/ws/tables/{table}", headers={"origin": "http://evil.example"}) as ws:
        message, code = close_code(ws)
    assert code == 4403 and "another site" in message
    with client.websocket_connect(f"/ws/tables/{table}", headers={"origin": "http://testserver"}) as ws:
        assert next_turn(ws)["your_turn"]


def test_an_unfinished_new_game_is_abandoned_by_its_person_alone(client):
    """Issue #33 point 12: unfinished games no longer pile up. DELETE stops a running new game and
    removes it with its moves; another person's, a daily deal and a finished game are refused."""
    table = new_table(client, game="all_fours")
    play_out(client, table, moves=2)  # running, with moves stored
    assert stored(client, table) > 0
    mine = dict(client.cookies)
    client.cookies.clear()
    client.get("/api/me")
    refused_other = client.delete(f"/api/tables/{table}")
    assert refused_other.status_code == 403 and "another person's" in refused_other.json()["error"]
    client.cookies.clear()
    client.cookies.update(mine)
    gone = client.delete(f"/api/tables/{table}")
    assert gone.status_code == 200 and gone.json() == {"abandoned": table}
    assert table not in {row["id"] for row in client.get("/api/tables").json()}
    assert stored(client, table) == 0 and client.get(f"/api/tables/{table}").status_code == 404
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        message, code = close_code(ws)
    assert code == 4404
    daily = client.post("/api/tables", json={"game": "all_fours", "mode": "daily"}).json()["table"]
    refused_daily = client.delete(f"/api/tables/{daily}")
    assert refused_daily.status_code == 409 and "daily set" in refused_daily.json()["error"]
    finished = new_table(client, game="all_fours", options={"target_score": 1})
    play_out(client, finished)
    refused_done = client.delete(f"/api/tables/{finished}")
    assert refused_done.status_code == 409 and "finished" in refused_done.json()["error"]
