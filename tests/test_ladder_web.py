"""The ladder's pages, JSON and event stream (arena.ladder.web) through a real server (uvicorn on a
loopback port, the routes in ``create_app`` before the web tables' own): the JSON shapes, 404s for
an unknown bot, match or ladder, the author's own view behind their token, a replay of a real
record, and the event stream announcing a write to the store."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.parse
from types import SimpleNamespace

import pytest

from arena.ladder import web
from arena.ladder.accounts import token_hash
from arena.ladder.store import LadderStore
from arena.matches import MatchSpec, play_match
from arena.web.app import create_app
from tests.ladder_support import get, serving
from tests.test_ladder_board import LADDER, fill


@pytest.fixture(scope="module")
def record(registry):
    """A real All Fours record (two random bots, one hand): what a replay walks."""
    spec = MatchSpec.single("all_fours", ["random", "random"], seed=3, options={"players": 2, "max_hands": 1},
                            names=["alpha v2", "beta v1"])
    return play_match(spec, registry).record


@pytest.fixture
def server(tmp_path, registry, record):
    db = tmp_path / "ladder.db"
    store = LadderStore(db)
    versions, deal_sets = fill(store, record)
    store.add_author("carol", token_hash("carol-token"))
    store.add_bot("zeta", "carol")
    store.add_version("zeta", "program", "", ["all_fours"], "refused", "crash at start: exit status 1: no such file 'bot'")
    ladder = SimpleNamespace(store=store, registry=registry, stopping=threading.Event())
    app = create_app(db, registry=registry, extra_routes=web.routes(ladder))
    with serving(app) as url:
        yield SimpleNamespace(url=url, store=store, versions=versions, deal_sets=deal_sets, ladder=ladder)
    ladder.stopping.set()
    store.close()


def test_the_board_json_and_its_ladders(server):
    status, data = get(f"{server.url}/api/ladder/board")
    assert status == 200 and data["ladder"] == LADDER and data["ladders"] == [LADDER]
    assert data["changes"] == server.store.changes()
    ranked = [(row["rank"], row["bot"], row["version"]) for row in data["rows"] if row["rank"] is not None]
    assert ranked == [(1, "gamma", 1), (2, "alpha", 2), (3, "beta", 1)]
    row = data["rows"][1]
    assert set(row) >= {"rank", "bot", "version", "version_id", "author", "kind", "rating", "mu", "sigma", "interval",
                        "deal_sets", "matches", "faults", "fault_rate", "status", "reason", "url"}
    assert row["url"] == "/ladder/bots/alpha" and row["interval"] == [13.0, 35.0]
    assert get(f"{server.url}/api/ladder/board?ladder={urllib.parse.quote(LADDER)}")[1] == data
    status, error = get(f"{server.url}/api/ladder/board?ladder=nope/9")
    assert status == 404 and error == {"error": f"there is no ladder 'nope/9'; ladders: {LADDER}"}


def test_a_bot_and_a_match_as_json_and_404s(server):
    status, page = get(f"{server.url}/api/ladder/bots/alpha")
    assert status == 200 and page["bot"] == "alpha" and page["author"] == "ann"
    assert [v["version"] for v in page["versions"]] == [1, 2] and LADDER in page["history"]
    assert {h["opponent"] for h in page["head_to_head"]} == {"beta", "gamma"} and page["fault_count"] == 1
    match_id = page["recent"][0]["matches"][0]["id"]
    status, match = get(f"{server.url}/api/ladder/matches/{match_id}")
    assert status == 200 and match["id"] == match_id and match["record"]["game"] == "all_fours"
    assert match["spec"]["index"] == match_id and match["result"]["scores"] and match["replay"].endswith("/replay")
    for path, message in (("/api/ladder/bots/nobody", "there is no bot named 'nobody'"),
                          ("/api/ladder/bots/NOT%20A%20NAME", "there is no bot named 'NOT A NAME'"),
                          ("/api/ladder/matches/999999", "there is no ladder match 999999"),
                          ("/api/ladder/matches/abc", "there is no ladder match 'abc'")):
        assert get(server.url + path) == (404, {"error": message}), path


def test_the_pages_the_replay_and_the_static_files(server):
    status, html = get(f"{server.url}/ladder")
    assert status == 200 and 'id="board"' in html and "/ladder/static/board.js" in html
    assert get(f"{server.url}/ladder/bots/alpha")[0] == 200
    status, html = get(f"{server.url}/ladder/bots/nobody")
    assert status == 404 and "There is no bot named &#x27;nobody&#x27;" in html
    assert 'id="submit-form"' in get(f"{server.url}/ladder/submit")[1]
    match_id = server.store.deal_set(server.deal_sets[1])["matches"][0]["id"]
    status, html = get(f"{server.url}/ladder/matches/{match_id}/replay")
    assert status == 200 and "Trick Arena replay" in html and 'href="/ladder"' in html
    assert get(f"{server.url}/ladder/matches/999999/replay")[0] == 404
    for name in ("board.js", "bot.js", "submit.js", "common.js", "chart.js", "ladder.css"):
        status, text = get(f"{server.url}/ladder/static/{name}")
        assert status == 200 and len(text) > 200, name
    assert get(f"{server.url}/api/games")[0] == 200  # the web tables' own routes are there too


def test_the_authors_own_view_needs_their_token(server):
    status, error = get(f"{server.url}/api/ladder/me")
    assert status == 401 and "no token" in error["error"]
    assert get(f"{server.url}/api/ladder/me", "wrong")[0] == 401
    status, me = get(f"{server.url}/api/ladder/me", "carol-token")
    assert status == 200 and me["author"] == "carol"
    [version] = me["versions"]
    assert (version["bot"], version["status"]) == ("zeta", "refused")
    assert version["reason"] == "crash at start: exit status 1: no such file 'bot'"


def _events(url: str):
    """An open event stream: (connection, a function reading the next event as (name, data))."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request("GET", "/api/ladder/events")
    response = connection.getresponse()
    assert response.status == 200 and response.headers["content-type"].startswith("text/event-stream")

    def next_event() -> tuple[str, dict]:
        name, data = "", ""
        while True:
            line = response.readline().decode()
            assert line, "the stream ended"
            line = line.rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
            elif line == "" and name:
                return name, json.loads(data)

    return connection, next_event


def test_the_event_stream_announces_a_write(server):
    connection, next_event = _events(server.url)
    try:
        name, data = next_event()
        assert name == "change" and data == {"changes": server.store.changes()}
        before = data["changes"]
        time.sleep(1.2)  # a few polls without a write: no event is sent for them
        server.store.set_status(server.versions["b"]["id"], "probation", "faults in 2 of 6 matches (33%)")
        name, data = next_event()
        assert name == "change" and data["changes"] == before + 1 == server.store.changes()
        status, board = get(f"{server.url}/api/ladder/board")
        assert next(r for r in board["rows"] if r["bot"] == "beta")["status"] == "probation"
    finally:
        connection.close()


def test_the_event_stream_ends_when_the_ladder_stops(server):
    connection, next_event = _events(server.url)
    try:
        assert next_event()[0] == "change"
        server.ladder.stopping.set()
        with pytest.raises(AssertionError, match="the stream ended"):
            next_event()
    finally:
        connection.close()


def test_streams_end_when_the_server_is_told_to_exit():
    """uvicorn's signal handler is its server's handle_exit: once it set should_exit, open streams
    end (a stopping server waits for open responses)."""
    import signal

    class Server:
        should_exit = False

        def handle_exit(self, sig, frame):
            self.should_exit = True

    server = Server()
    previous = signal.signal(signal.SIGINT, server.handle_exit)
    try:
        ladder = SimpleNamespace(stopping=threading.Event())
        assert not web._stopping(ladder)
        server.should_exit = True
        assert web._stopping(ladder)
        server.should_exit = False
        ladder.stopping.set()
        assert web._stopping(ladder)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert not web._stopping(SimpleNamespace())  # pytest's own handler: not a server's
