"""What one client may take of the servers (issue 32, builds 2 and 3; docs/security.md, "Servers
under abusive clients"): requests without a cookie store no player; new players, new tables and
new authors are limited per client address (429 with Retry-After and the reason); one person's
tables running at once are bounded; an idle table is put aside and resumes; a ladder may make new
authors wait for the operator's approval; the tables' bots run in processes of their own at a
lower priority, within a budget per person. Loopback only, every loop bounded."""

from __future__ import annotations

import dataclasses
import os
import time

import pytest
from starlette.testclient import TestClient

from arena.ladder import api
from tests import ladder_support
from tests.ladder_bots import harness
from tests.test_ladder_submit import call, module_body
from tests.web_support import descendants_nice, make_app, new_table, next_turn, receive

CHEAP = {"game": "all_fours", "players": 2, "bots": ["random"]}


def _players(client: TestClient) -> int:
    return client.app.state.server.store._query("SELECT COUNT(*) FROM players")[0][0]


def test_requests_without_a_cookie_store_no_player(tmp_path):
    with TestClient(make_app(tmp_path / "web.db")) as client:
        for _ in range(30):  # as many visitors, none of them keeping the cookie
            client.cookies.clear()
            for path in ("/", "/api/me", "/api/tables", "/api/games"):
                assert client.get(path).status_code == 200
        assert _players(client) == 0
        assert client.post("/api/me", json={"nickname": "ann"}).status_code == 200  # a nickname stores one
        assert _players(client) == 1 and client.get("/api/me").json()["nickname"] == "ann"


def test_new_players_and_tables_are_limited_per_address(tmp_path):
    from arena.web.limits import Limit, ServeLimits

    limits = dataclasses.replace(ServeLimits(), new_players=Limit(3, 3600), new_tables=Limit(4, 3600))
    with TestClient(make_app(tmp_path / "web.db", limits=limits, bot_isolation="inprocess")) as client:
        answers = []
        for _ in range(4):  # four visitors from one address, each storing a nickname
            client.cookies.clear()
            answers.append(client.post("/api/me", json={"nickname": "x"}))
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert "too many new players from your address" in answers[3].json()["error"]
        assert int(answers[3].headers["retry-after"]) > 0
        assert _players(client) == 3
        client.cookies.clear()
        client.post("/api/me", json={"nickname": "y"})  # a fourth visitor from the address: no row
        assert _players(client) == 3
        client.cookies = {"arena_player": answers[0].cookies["arena_player"]}
        statuses = [client.post("/api/tables", json=CHEAP).status_code for _ in range(3)]
        client.cookies = {"arena_player": answers[1].cookies["arena_player"]}
        statuses += [client.post("/api/tables", json=CHEAP).status_code for _ in range(2)]
        assert statuses == [201, 201, 201, 201, 429], statuses  # four tables from the address, then 429


def test_one_persons_running_tables_are_bounded(tmp_path):
    with TestClient(make_app(tmp_path / "web.db")) as client:
        made = [client.post("/api/tables", json=CHEAP) for _ in range(5)]
        assert [r.status_code for r in made] == [201, 201, 201, 201, 429]
        assert "you have 4 tables open" in made[4].json()["error"] and made[4].headers["retry-after"]
        assert len(client.get("/api/tables").json()) == 4  # the refused one left nothing stored


def test_an_idle_table_is_put_aside_and_resumes_where_it_was(tmp_path):
    from arena.web.limits import ServeLimits

    limits = dataclasses.replace(ServeLimits(), idle_tables=0.3, tables_per_player=1)
    with TestClient(make_app(tmp_path / "web.db", limits=limits, bot_isolation="inprocess")) as client:
        table = new_table(client, **CHEAP)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            state = next_turn(ws)
            message = receive(ws)  # nothing is played: the table is put aside, and the browser told
            assert message["type"] == "error" and "put aside" in message["message"], message
            assert message["code"] == "set_aside" and message["minutes"], message  # for the page's own words
        server = client.app.state.server
        assert table not in server.tables
        other = client.post("/api/tables", json=CHEAP)  # it no longer counts as running
        assert other.status_code == 201, other.text
        with client.websocket_connect(f"/ws/tables/{table}") as ws:  # one running already: refused
            message = receive(ws)
            assert message["type"] == "error" and "you have 1 tables open" in message["message"]
        server.put_aside_idle()
        time.sleep(0.4)
        server.put_aside_idle()
        with client.websocket_connect(f"/ws/tables/{table}") as ws:  # resumed from the store, where it was
            again = next_turn(ws)
            assert again["decision"] == state["decision"] and again["legal_actions"] == state["legal_actions"]


def test_a_restart_starts_a_table_only_when_its_person_opens_it(tmp_path):
    db = tmp_path / "web.db"
    with TestClient(make_app(db)) as client:
        tables = [new_table(client, **CHEAP) for _ in range(3)]
        cookies = dict(client.cookies)
    restarted = TestClient(make_app(db))
    restarted.cookies.update(cookies)
    with restarted:
        server = restarted.app.state.server
        assert server.tables == {}  # three unfinished games in the store, none running (no bot process)
        with restarted.websocket_connect(f"/ws/tables/{tables[1]}") as ws:
            assert next_turn(ws)["your_turn"]
            assert list(server.tables) == [tables[1]]


def test_the_tables_bots_run_in_processes_of_their_own_at_a_lower_priority(tmp_path):
    before = set(descendants_nice())
    with TestClient(make_app(tmp_path / "web.db")) as client:
        table = new_table(client, game="five_hundred", bots=["random", "random", "random"])
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            next_turn(ws)
            niced = {pid: n for pid, n in descendants_nice().items() if pid not in before and n >= 10}
            policies = {pid: _policy(pid) for pid in niced}
        assert len(niced) >= 3, niced  # a process for each bot, at a lower priority than the server
        assert set(niced.values()) == {19}, niced  # the lowest niceness ...
        # ... in the normal class, not the idle one, which starves them behind any other busy process
        assert set(policies.values()) <= {os.SCHED_OTHER, None}, policies


def _policy(pid: int) -> int | None:
    try:
        return os.sched_getscheduler(pid)
    except OSError:
        return None


def test_a_persons_bots_over_their_budget_wait_and_nobody_elses_do():
    from arena.web.botpool import BotPool

    now = [0.0]
    pool = BotPool(workers=1, seconds_per_minute=30.0, clock=lambda: now[0])

    def thinking(seconds):
        def decision():
            now[0] += seconds
            return "card"
        return decision

    import threading

    stopping = threading.Event()
    assert pool.decide("ann", thinking(40.0), stopping) == "card"  # 40 s of a 30 s budget
    assert pool.over_budget("ann") == pytest.approx(20.0, abs=0.01)  # 10 s over: 20 s to pay it back
    assert pool.over_budget("bob") == 0.0
    waited = []
    stopping.set()  # the table stopping ends the wait at once
    pool.decide("ann", thinking(0.1), stopping, on_wait=waited.append)
    assert waited and waited[0] == pytest.approx(20.0, abs=0.01) and pool.waits == 1
    now[0] += 60.0
    assert pool.over_budget("ann") == 0.0  # a minute later the budget is back


# -- the ladder ---------------------------------------------------------------------------------
@pytest.fixture
def ladder_served(tmp_path, registry):
    from arena.ladder import web as ladder_web
    from arena.web.app import create_app

    ladder = harness.make_ladder(tmp_path, registry, per_decision=1.0, max_upload=64 * 1024)
    yield ladder, lambda: ladder_support.serving(create_app(
        tmp_path / "ladder.db", registry=registry, extra_routes=api.routes(ladder) + ladder_web.routes(ladder)))
    ladder.store.close()


def test_registrations_are_limited_per_address(ladder_served):
    ladder, serving = ladder_served
    with serving() as url:
        answers = [call(url, "POST", "/api/ladder/authors", {"name": f"name{i}"}) for i in range(6)]
        assert [status for status, _ in answers] == [201] * 5 + [429], answers
        assert "too many registrations from your address" in answers[5][1]["error"]
        assert call(url, "POST", "/api/ladder/authors", {"name": "Not A Name"})[0] == 400  # told before the limit
    assert len(ladder.store.authors()) == 5


def test_a_ladder_that_approves_authors_lets_them_submit_once_approved(ladder_served, tmp_path):
    from arena.ladder import validation

    ladder, serving = ladder_served
    ladder.approve_authors = True
    with serving() as url:
        status, ann = call(url, "POST", "/api/ladder/authors", {"name": "ann"})
        assert status == 201 and ann["approved"] is False
        status, refused = call(url, "POST", "/api/ladder/bots", module_body("anns-bot"), ann["token"])
        assert status == 403 and "awaits the operator's approval" in refused["error"], refused
        assert ladder_support.get(url + "/api/ladder/me", ann["token"])[1]["approved"] is False
        listed = ladder_support.arena("ladder-approve", "--db", str(tmp_path / "ladder.db"))
        assert listed.returncode == 0 and listed.stdout.startswith("ann\tregistered"), listed
        wrong = ladder_support.arena("ladder-approve", "bob", "--db", str(tmp_path / "ladder.db"))
        assert wrong.returncode == 2 and "'bob' is not an author of this ladder" in wrong.stderr
        done = ladder_support.arena("ladder-approve", "ann", "--db", str(tmp_path / "ladder.db"))
        assert done.returncode == 0 and "approved ann" in done.stdout, done
        status, version = call(url, "POST", "/api/ladder/bots", module_body("anns-bot"), ann["token"])
        assert status == 201 and version["status"] == "validating", version
        assert ladder_support.get(url + "/api/ladder/me", ann["token"])[1]["approved"] is True
    assert validation.idle(120)


def test_a_light_persons_bot_never_queues_behind_heavy_ones():
    import threading

    from arena.web.botpool import BotPool

    pool = BotPool(workers=1, seconds_per_minute=30.0)
    pool._levels.update({"heavy1": (1.0, pool.clock()), "heavy2": (1.0, pool.clock())})  # past half their budget
    release, started = threading.Event(), threading.Event()
    stopping = threading.Event()

    def long_decision():
        started.set()
        release.wait(30)
        return "heavy"

    first = threading.Thread(target=pool.decide, args=("heavy1", long_decision, stopping))
    first.start()
    assert started.wait(30)
    second_ran = threading.Event()
    second = threading.Thread(target=pool.decide, args=("heavy2", lambda: second_ran.set(), stopping))
    second.start()
    try:
        assert pool.decide("light", lambda: "at once", stopping) == "at once"  # the one slot is taken: no wait
        assert not second_ran.is_set()  # the other heavy user waits for the slot
    finally:
        release.set()
        first.join(30)
        second.join(30)
    assert second_ran.is_set()


def test_an_endpoint_with_an_unclosed_ipv6_address_is_a_400_not_a_500(ladder_served):
    ladder, serving = ladder_served  # found by tests/test_servers_fuzz.py
    with serving() as url:
        token = call(url, "POST", "/api/ladder/authors", {"name": "ann"})[1]["token"]
        status, answer = call(url, "POST", "/api/ladder/bots", {"name": "anns-bot", "kind": "grpc", "games": [
            "five_hundred"], "endpoint": "grpc://[::1"}, token)
        assert status == 400 and "Invalid IPv6 URL" in answer["error"], answer
