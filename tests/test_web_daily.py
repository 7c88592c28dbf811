"""The daily set (docs/web.md, "The daily set"): a fixed set of one-hand deals per game and UTC
date from a pool of instances (one drawn per person, stored), the dealer rotating, every deal
scored by matchpoints against the people and the field bots; results hidden until you have played
a deal, other seats' cards hidden until the day is over, ranked play limited per client address;
the boards; and an old store's whole-match daily tables kept readable."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import hmac
import json
import sqlite3
import time

from starlette.testclient import TestClient

from arena.games.base import SeededDecks
from arena.plugins import get_registry
from arena.web import daily
from arena.web.daily import DailyConfig, daily_seed, deal_seed
from arena.web.limits import ServeLimits
from arena.web.store import WebStore
from tests.web_support import DAY, SMALL_DAILY, descendants_nice, make_app, new_table, next_turn, play_out

ONE_POOL = dataclasses.replace(SMALL_DAILY, pool=1)


def become(client: TestClient, nickname: str | None = None) -> str:
    """Forget the cookie: the next request makes a new player (with ``nickname``)."""
    client.cookies.clear()
    me = client.get("/api/me").json()
    if nickname is not None:
        assert client.post("/api/me", json={"nickname": nickname}).json()["nickname"] == nickname
    return me["id"]


def first_state(client: TestClient, table: str) -> dict:
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        return next_turn(ws)


def play_deal(client: TestClient, game: str = "five_hundred", last: bool = False) -> tuple[dict, dict]:
    """Start (or go on with) the person's daily set and play its next deal out (the first legal
    action each time, or the last with ``last``); the POST answer and the final state."""
    answer = client.post("/api/tables", json={"game": game, "mode": "daily"})
    assert answer.status_code == 201, answer.text
    data = answer.json()
    with client.websocket_connect(f"/ws/tables/{data['table']}") as ws:
        while True:
            state = next_turn(ws)
            if state["result"] is not None:
                return data, state
            action = state["legal_actions"][-1 if last else 0]
            ws.send_text(json.dumps({"type": "act", "action": action, "decision": state["decision"]}))


def test_the_old_daily_seed_is_the_hmac_of_game_and_date():
    secret = bytes(range(32))
    seed = daily_seed(secret, "five_hundred", "2026-03-14")
    assert seed == int.from_bytes(hmac.new(secret, b"five_hundred|2026-03-14", hashlib.sha256).digest()[:8], "big")


def test_a_deal_seed_is_the_hmac_of_game_date_instance_and_deal_with_the_dealer_rotating():
    secret = bytes(range(32))
    registry = get_registry()
    for game in ("five_hundred", "all_fours", "bid_euchre", "fifty_six"):
        players = registry.game(game, {}).players
        seeds = [deal_seed(secret, game, "2026-03-14", 0, k, players) for k in range(6)]
        assert len(set(seeds)) == 6
        for k, seed in enumerate(seeds):  # the game's own first dealer: seat k mod players
            state = registry.game(game, {"max_hands": 1}).new_match(seed=seed, decks=SeededDecks(seed))
            assert state.observation(0)["dealer"] == k % players, (game, k)
    assert deal_seed(secret, "five_hundred", "2026-03-14", 1, 0, 4) != deal_seed(secret, "five_hundred", "2026-03-14", 0, 0, 4)
    assert deal_seed(bytes(32), "five_hundred", "2026-03-14", 0, 0, 4) != deal_seed(secret, "five_hundred", "2026-03-14", 0, 0, 4)
    first = int.from_bytes(hmac.new(secret, b"five_hundred|2026-03-14|0|0", hashlib.sha256).digest()[:8], "big")
    if SeededDecks(first).first_dealer(4) == 0:
        assert deal_seed(secret, "five_hundred", "2026-03-14", 0, 0, 4) == first


def test_the_daily_set_is_n_one_hand_deals_the_same_cards_for_two_people_on_one_instance(tmp_path):
    db = tmp_path / "web.db"
    with TestClient(make_app(db, daily_config=ONE_POOL)) as client:
        seen = {}
        for name, last in (("ann", False), ("bob", True)):  # different play, the same deals
            become(client, name)
            hands, dealers = [], []
            for k in range(ONE_POOL.deals):
                answer = client.post("/api/tables", json={"game": "five_hundred", "mode": "daily"}).json()
                assert answer["deal"] == k and answer["deals"] == 3 and answer["ranked"] is True
                state = first_state(client, answer["table"])
                hands.append(state["observation"]["hand"])
                dealers.append(state["observation"]["dealer"])
                assert state["table"]["daily"] == {"set": answer["set"], "deal": k, "deals": 3}
                with client.websocket_connect(f"/ws/tables/{answer['table']}") as ws:
                    while (final := next_turn(ws))["result"] is None:
                        ws.send_text(json.dumps({"type": "act", "action": final["legal_actions"][-1 if last else 0],
                                                 "decision": final["decision"]}))
                assert len(final["hands"]) == 1  # one hand, however it is played
            seen[name] = hands
            assert dealers == [0, 1, 2]  # the dealer rotates while the person keeps seat 0
            status = client.get("/api/daily", params={"game": "five_hundred"}).json()
            assert status["state"] == "finished" and status["played"] == 3
            again = client.post("/api/tables", json={"game": "five_hundred", "mode": "daily"}).json()
            assert again["ranked"] is False and again["deal"] == 0  # a second play of the day: unranked
        assert seen["ann"] == seen["bob"] and len({json.dumps(h) for h in seen["ann"]}) == 3
        con = sqlite3.connect(db)
        assert con.execute("SELECT COUNT(*) FROM daily_sets WHERE ranked = 1").fetchone()[0] == 2
        assert con.execute("SELECT COUNT(DISTINCT daily_set) FROM tables WHERE deal = 2").fetchone()[0] == 2


def test_the_pool_gives_each_person_a_stored_instance_that_survives_a_restart(tmp_path, monkeypatch):
    import secrets as secrets_module

    db = tmp_path / "web.db"
    draws = iter([1, 0])
    monkeypatch.setattr(secrets_module, "randbelow", lambda n: next(draws) % n)
    with TestClient(make_app(db)) as client:
        become(client, "ann")
        a0 = client.post("/api/tables", json={"game": "five_hundred", "mode": "daily"}).json()
        hand_a = first_state(client, a0["table"])["observation"]["hand"]
        play_out(client, a0["table"])
        become(client, "bob")
        b0 = client.post("/api/tables", json={"game": "five_hundred", "mode": "daily"}).json()
        hand_b = first_state(client, b0["table"])["observation"]["hand"]
        ann_cookie = None
    assert hand_a != hand_b  # two instances of the same day deal different cards
    store = WebStore(db)
    one = store.daily_set(a0["set"])
    assert one is not None and one.instance == 1 and store.daily_set(b0["set"]).instance == 0
    spec = store.set_tables(a0["set"])[0].spec
    assert spec["deal_seed"] == deal_seed(store.secret(), "five_hundred", DAY.isoformat(), 1, 0, 4)
    owner = one.owner
    store.close()
    # after a restart, ann's next deal is deal 1 of her stored instance
    with TestClient(make_app(db)) as client:
        client.cookies.set("arena_player", owner)
        a1 = client.post("/api/tables", json={"game": "five_hundred", "mode": "daily"}).json()
        assert (a1["set"], a1["deal"]) == (a0["set"], 1)
    store = WebStore(db)
    assert store.set_tables(a0["set"])[1].spec["deal_seed"] == deal_seed(store.secret(), "five_hundred",
                                                                         DAY.isoformat(), 1, 1, 4)
    store.close()
    del ann_cookie


def test_results_stay_hidden_until_you_played_the_deal_and_cards_until_the_day_is_over(tmp_path):
    today = [DAY]
    with TestClient(make_app(tmp_path / "web.db", today=lambda: today[0], daily_config=ONE_POOL)) as client:
        become(client, "ann")
        ann0, _ = play_deal(client)
        ann1, _ = play_deal(client)
        wanted = {("person", "ann"), ("bot", "heuristic"), ("bot", "random")}
        for _ in range(120):  # the field plays in the background, each bot in a process of its own
            own = client.get(f"/api/daily/sets/{ann0['set']}/deals/0")
            assert own.status_code == 200
            mine = own.json()
            if {(e["kind"], e["who"]) for e in mine["field"]} >= wanted and mine["par"] is not None:
                break
            time.sleep(0.25)
        assert mine["play"] is not None and mine["par"] is not None and mine["par"]["seats"][0] == "field (heuristic)"
        assert {(e["kind"], e["who"]) for e in mine["field"]} >= {("person", "ann"), ("bot", "heuristic"), ("bot", "random")}
        assert [e["par"] for e in mine["field"]].count(True) == 1
        # before the day is over no one gets the cards: not the record, the replay, nor the API
        record = client.get(f"/api/tables/{ann0['table']}/record").json()
        assert "hidden" in record and all("deck" not in hand for hand in record["hands"])
        replay = client.get(f"/tables/{ann0['table']}/replay")
        assert replay.status_code == 403 and "text/html" in replay.headers["content-type"]
        assert "when the day is over" in replay.text
        assert "deck" not in own.text and len(mine["hand"]) == 10  # the person's own cards only

        become(client, "bob")
        refused = client.get(f"/api/daily/sets/{ann0['set']}/deals/0")
        assert refused.status_code == 403 and "play that deal yourself first" in refused.json()["error"]
        page = client.get(f"/tables/{ann0['table']}/replay")
        assert page.status_code == 403 and "<h1>" in page.text and "another person" in page.text
        play_deal(client)  # bob plays deal 0: ann's deal 0 opens to him, her deal 1 does not
        seen = client.get(f"/api/daily/sets/{ann0['set']}/deals/0")
        assert seen.status_code == 200 and not seen.json()["mine"]
        assert {e["who"] for e in seen.json()["field"]} >= {"ann", "bob"}
        assert client.get(f"/api/daily/sets/{ann1['set']}/deals/1").status_code == 403

        today[0] = DAY + datetime.timedelta(days=1)  # the day is over: everything is public
        full = client.get(f"/api/tables/{ann0['table']}/record").json()
        assert "hidden" not in full and all("deck" in hand for hand in full["hands"])
        assert client.get(f"/tables/{ann0['table']}/replay").status_code == 200
        assert client.get(f"/api/daily/sets/{ann1['set']}/deals/1").status_code == 200


def test_ranked_daily_play_is_limited_per_client_address(tmp_path):
    limits = dataclasses.replace(ServeLimits(), ranked_daily_per_address=2)
    with TestClient(make_app(tmp_path / "web.db", limits=limits)) as client:
        for name in ("ann", "bob"):
            become(client, name)
            assert client.post("/api/tables", json={"game": "all_fours", "mode": "daily"}).status_code == 201
        become(client, "throwaway")
        refused = client.post("/api/tables", json={"game": "all_fours", "mode": "daily"})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert "ranked daily" in refused.json()["error"] and "\n" not in refused.json()["error"]
        # and a code the page says in its own language (i18n.serverText)
        assert refused.json()["code"] == "limit" and refused.json()["retry_after"] == int(refused.headers["Retry-After"])
        assert client.post("/api/tables", json={"game": "five_hundred", "mode": "daily"}).status_code == 201  # per game
        new_table(client, game="all_fours", mode="new")  # a new game stays open to them


def test_a_daily_game_takes_the_default_options_and_bots(tmp_path):
    with TestClient(make_app(tmp_path / "web.db")) as client:
        for body, words in [
            ({"players": 3}, "'players' is 3, the default 4"),
            ({"options": {"max_hands": 2}}, "'max_hands'"),
            ({"bots": ["random", "heuristic", "heuristic"]}, "against the 'heuristic' bot"),
        ]:
            response = client.post("/api/tables", json={"game": "five_hundred", "mode": "daily", **body})
            assert response.status_code == 400 and words in response.json()["error"], response.text


def test_the_status_the_end_screen_and_the_boards(tmp_path):
    with TestClient(make_app(tmp_path / "web.db", daily_config=ONE_POOL)) as client:
        become(client, "ann")
        status = client.get("/api/daily", params={"game": "five_hundred"}).json()
        assert status["state"] == "not played" and status["day_ends"] == "2026-03-15T00:00:00Z"
        first, _ = play_deal(client)
        status = client.get("/api/daily", params={"game": "five_hundred"}).json()
        assert status["state"] == "in progress" and status["played"] == 1 and status["deals"] == 3
        assert client.get("/api/leaderboard", params={"game": "five_hundred"}).json()["rows"][0]["rank"] is None
        play_deal(client)
        play_deal(client)
        status = client.get("/api/daily", params={"game": "five_hundred"}).json()
        assert status["state"] == "finished" and status["rank"] == 1 and status["ranked_sets"] == 1
        assert 0 <= status["total"] <= 100
        assert status["total"] == round(sum(d["matchpoints"] for d in status["results"]) / 3, 2)
        hands = [first_state(client, d["table"])["observation"]["hand"] for d in status["results"]]
        assert "rank 1 of 1" in status["share"] and f"{status['total']:.1f}%" in status["share"]
        assert not any(card in status["share"].split() for hand in hands for card in hand)  # no cards in it
        assert {b["bot"] for b in status["bots"]} == {"heuristic", "random"}
        become(client, "bob")
        for _ in range(3):
            play_deal(client, last=True)
        board = client.get("/api/leaderboard", params={"game": "five_hundred", "date": "today"}).json()
        assert board["kind"] == "matchpoints" and [r["nickname"] for r in board["rows"]] == \
            sorted(["ann", "bob"], key=lambda n: -next(r["total"] for r in board["rows"] if r["nickname"] == n))
        assert board["rows"][0]["rank"] == 1 and board["rows"][1]["mine"] in (True, False)
        assert {b["bot"] for b in board["bots"]} == {"heuristic", "random"}
        assert [b for b in board["bots"] if b["par"]][0]["bot"] == "heuristic"
        total = client.get("/api/leaderboard", params={"game": "five_hundred", "date": "all"}).json()
        assert {(r["nickname"], r["days"]) for r in total["rows"]} == {("ann", 1), ("bob", 1)}
        for date in ("2026-02-30", "tomorrow", "2030-01-01"):
            response = client.get("/api/leaderboard", params={"game": "five_hundred", "date": date})
            assert response.status_code == 400 and "'date'" in response.json()["error"]


OLD_TABLES = """
CREATE TABLE players (id TEXT PRIMARY KEY, nickname TEXT, created REAL NOT NULL);
CREATE TABLE tables (id TEXT PRIMARY KEY, owner TEXT NOT NULL, spec TEXT NOT NULL, mode TEXT NOT NULL,
    date TEXT NOT NULL, ranked INTEGER NOT NULL, created REAL NOT NULL, finished REAL, record TEXT,
    margin INTEGER, termination TEXT);
"""


def test_an_old_store_is_migrated_and_its_whole_match_daily_tables_stay_readable(tmp_path, registry):
    from arena.matches import play_match
    from arena.web.table import match_spec

    db = tmp_path / "web.db"
    con = sqlite3.connect(db)
    con.executescript(OLD_TABLES)
    game = registry.game("all_fours", {})
    spec = daily.table_spec(game, table_id="old", bots=["heuristic"] * 3, deal_seed=7, nickname="old", human_time=60)
    spec["bots"][0] = "heuristic"
    result = play_match(match_spec(spec), registry)
    con.execute("INSERT INTO players VALUES ('p', 'olga', 0)")
    con.execute("INSERT INTO tables VALUES ('old', 'p', ?, 'daily', '2026-03-01', 1, 0, 1, ?, 5, 'normal')",
                (json.dumps(spec), json.dumps(result.record)))
    con.commit()
    con.close()
    with TestClient(make_app(db)) as client:
        client.cookies.set("arena_player", "p")
        assert client.get("/api/tables/old/record").json()["hands"][0]["deck"]  # the day is long over
        board = client.get("/api/leaderboard", params={"game": "all_fours", "date": "2026-03-01"}).json()
        assert [row["table"] for row in board["rows"]] == ["old"] and board["par"] is not None
    columns = {row[1] for row in sqlite3.connect(db).execute("PRAGMA table_info(tables)")}
    assert {"daily_set", "deal", "score"} <= columns


def test_extra_field_bots_such_as_a_co_served_ladders_versions_join_every_deal(tmp_path):
    from arena.web.daily import FieldBot

    asked: list[str] = []

    def extra(game: str) -> list[FieldBot]:
        asked.append(game)
        return [FieldBot("ladder: lucky v1", "random")]

    config = dataclasses.replace(ONE_POOL, field=("heuristic",), extra=extra)
    with TestClient(make_app(tmp_path / "web.db", daily_config=config)) as client:
        become(client, "ann")
        first, _ = play_deal(client)
        want = {("person", "ann"), ("bot", "heuristic"), ("bot", "ladder: lucky v1")}
        deadline = time.monotonic() + 120  # the field plays in a background thread, each bot in a process
        while True:  # of its own: under load the extra bot's entry can come after the person's deal ends
            deal = client.get(f"/api/daily/sets/{first['set']}/deals/0").json()
            seen = {(e["kind"], e["who"]) for e in deal["field"]}
            if seen == want or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert seen == want
        assert "five_hundred" in asked


def test_a_field_bot_that_hangs_forfeits_its_deal_in_a_process_of_its_own(tmp_path):
    """The field's bots are hosted as the tables' are (process isolation): a bot that never answers
    (the test plugins' ``endless``, installed, so in the default field) loses its deal on its clock
    and the rest of the field is played; in the server's own threads it spun for ever."""
    import threading

    store = WebStore(tmp_path / "web.db")
    config = DailyConfig(deals=1, pool=1, field=("heuristic", "bad-endless"), field_seconds=0.5)
    registry = get_registry()
    assert "bad-endless" in config.field_bots(registry, "five_hundred")
    done: dict[str, object] = {}
    worker = threading.Thread(target=lambda: done.update(field=daily.play_field(
        store, registry, config, "five_hundred", DAY.isoformat(), 0)), daemon=True)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), "the field is still being played: a hanging bot holds it"
    assert (0, "heuristic") in done["field"]  # type: ignore[operator]
    store.close()


def test_the_fields_bots_run_at_the_lowest_priority_as_the_tables_do(tmp_path):
    """The field is the server's background work: its bot processes are at niceness 19, as the
    tables' bots are, so neither the server's answers nor people's games wait behind it. The
    spinning ``bad-endless`` is seen at its niceness while it uses up its clock."""
    import threading

    store = WebStore(tmp_path / "web.db")
    config = DailyConfig(deals=1, pool=1, field=("heuristic", "bad-endless"), field_seconds=1.0)
    before = set(descendants_nice())
    worker = threading.Thread(target=daily.play_field, args=(store, get_registry(), config, "five_hundred",
                                                             DAY.isoformat(), 0), daemon=True)
    worker.start()
    seen: dict[int, int] = {}
    while worker.is_alive():
        seen.update((pid, nice) for pid, nice in descendants_nice().items() if pid not in before)
        time.sleep(0.02)
    store.close()
    assert 19 in seen.values(), seen


def test_a_sandboxed_field_bot_runs_at_the_lowest_priority_inside_its_sandbox(tmp_path):
    """A co-served ladder's versions play in the field sandboxed: the process that computes is the
    bot's, inside bubblewrap, not bwrap itself, and it too runs at niceness 19 (renicing the
    sandbox's launcher once it had forked left the bot at 0). The spinning ``bad-endless``, the
    process that used the most CPU, is last seen at niceness 19."""
    import threading

    import pytest

    from arena.players.sandbox import bwrap
    from arena.web.daily import FieldBot

    if bwrap() is None:
        pytest.skip("the sandbox needs bubblewrap (bwrap)")
    store = WebStore(tmp_path / "web.db")
    config = DailyConfig(deals=1, pool=1, field=("random",), field_seconds=1.0,
                         extra=lambda game: [FieldBot("ladder: endless v1", "bad-endless", "sandbox")])
    before = set(descendants_nice())
    worker = threading.Thread(target=daily.play_field, args=(store, get_registry(), config, "five_hundred",
                                                             DAY.isoformat(), 0), daemon=True)
    worker.start()
    nice: dict[int, int] = {}
    cpu: dict[int, int] = {}
    while worker.is_alive():
        for pid, value in descendants_nice().items():
            if pid not in before:
                nice[pid], cpu[pid] = value, max(cpu.get(pid, 0), cpu_ticks(pid))
        time.sleep(0.02)
    store.close()
    spinner = max(cpu, key=lambda pid: cpu[pid])
    assert cpu[spinner] > 0 and nice[spinner] == 19, (spinner, nice, cpu)


def cpu_ticks(pid: int) -> int:
    """The user and system CPU time of a process so far, in clock ticks (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def test_a_deal_compared_shows_another_players_hidden_discards_to_no_one_but_them():
    """Seat 0 contracts and discards from the kitty: its owner sees those discards in the deal
    compared, another person who played the deal (and may never have seen that kitty) does not,
    and neither does anyone in the par's play."""
    from arena.web.dailyboard import play_of

    registry = get_registry()
    state = registry.game("five_hundred", {"max_hands": 1}).new_match(seed="leak")
    while state.phase != "play":
        legal = state.legal_actions()
        if state.current_player() == 0:
            state.apply(next((a for a in legal if a.startswith("bid")), legal[0]))
        else:
            state.apply("pass" if "pass" in legal else legal[0])
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    record = state.record()
    discards = [[0, a] for who, a in ([w, a] for w, a in state.observation(0)["history"]) if a.startswith("discard")]
    assert len(discards) == 3
    own = play_of(record, registry, daily.HUMAN_SEAT)["auction"]
    public = play_of(record, registry, daily.HUMAN_SEAT, public=True)["auction"]
    assert all(d in own for d in discards)
    assert not any(d in public for d in discards)
    assert public == [item for item in own if item not in discards]  # the bids, in order, stay
