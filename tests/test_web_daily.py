"""The daily deal (one seed per game and UTC date, from the server's secret), the ranking rules
(a person's first daily game is ranked, later ones and new games are not), the par (the heuristic
bot in the person's seat on the same cards) and the leaderboards."""

from __future__ import annotations

import datetime
import json
import sqlite3

from starlette.testclient import TestClient

from arena import records
from arena.matches import seat_seed
from arena.web.daily import daily_seed
from tests.web_support import DAY, make_app, new_table, next_turn, play_out


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


def test_the_daily_seed_is_the_hmac_of_game_and_date_and_differs_by_day_game_and_secret():
    secret = bytes(range(32))
    seed = daily_seed(secret, "five_hundred", "2026-03-14")
    assert seed == daily_seed(secret, "five_hundred", "2026-03-14")
    assert len({seed, daily_seed(secret, "five_hundred", "2026-03-15"), daily_seed(secret, "all_fours", "2026-03-14"),
                daily_seed(bytes(32), "five_hundred", "2026-03-14")}) == 4
    import hashlib
    import hmac

    assert seed == int.from_bytes(hmac.new(secret, b"five_hundred|2026-03-14", hashlib.sha256).digest()[:8], "big")


def test_everyone_gets_the_same_daily_deal_and_the_secret_stays_in_the_store(tmp_path):
    db = tmp_path / "web.db"
    seen: list[str] = []
    with TestClient(make_app(db)) as client:
        become(client, "ann")
        a = new_table(client, game="five_hundred", mode="daily")
        state_a = first_state(client, a)
        seen += [json.dumps(state_a), client.get(f"/api/tables/{a}").text]
        become(client, "bob")
        b = new_table(client, game="five_hundred", mode="daily")
        state_b = first_state(client, b)
        seen += [json.dumps(state_b), client.get(f"/api/tables/{b}").text, client.get("/api/games").text]
        fresh = new_table(client, game="five_hundred", mode="new")
        state_new = first_state(client, fresh)
    assert state_a["observation"]["hand"] == state_b["observation"]["hand"]
    assert state_a["observation"]["history"] == state_b["observation"]["history"]  # the same bots in the same seats
    assert state_new["observation"]["hand"] != state_a["observation"]["hand"]
    con = sqlite3.connect(db)
    secret = con.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()[0]
    spec_a, spec_b = (json.loads(con.execute("SELECT spec FROM tables WHERE id = ?", (t,)).fetchone()[0]) for t in (a, b))
    assert spec_a["deal_seed"] == spec_b["deal_seed"] == daily_seed(bytes.fromhex(secret), "five_hundred", DAY.isoformat())
    assert spec_a["bot_seeds"] == spec_b["bot_seeds"] == [seat_seed(spec_a["deal_seed"], 0, s) for s in range(4)]
    for text in seen:  # neither the secret nor the seed it gives is ever sent to a browser
        assert secret not in text and str(spec_a["deal_seed"]) not in text
    # A restart keeps the secret, so the day's deal stays the same; another server's deal differs.
    with TestClient(make_app(db)) as client:
        become(client)
        assert first_state(client, new_table(client, game="five_hundred", mode="daily"))["observation"]["hand"] == \
            state_a["observation"]["hand"]
    with TestClient(make_app(tmp_path / "other.db")) as client:
        become(client)
        assert first_state(client, new_table(client, game="five_hundred", mode="daily"))["observation"]["hand"] != \
            state_a["observation"]["hand"]


def test_a_daily_game_takes_the_default_options_and_bots(tmp_path):
    with TestClient(make_app(tmp_path / "web.db")) as client:
        for body, words in [
            ({"players": 3}, "'players' is 3, the default 4"),
            ({"options": {"max_hands": 2}}, "'max_hands'"),
            ({"bots": ["random", "heuristic", "heuristic"]}, "against the 'heuristic' bot"),
        ]:
            response = client.post("/api/tables", json={"game": "five_hundred", "mode": "daily", **body})
            assert response.status_code == 400 and words in response.json()["error"], response.text


def test_ranking_rules_par_and_the_leaderboards(tmp_path, registry):
    today = [DAY]
    app = make_app(tmp_path / "web.db", today=lambda: today[0])
    with TestClient(app) as client:
        become(client, "ann")
        ranked = new_table(client, game="all_fours", mode="daily")
        assert client.get(f"/api/tables/{ranked}").json()["ranked"] is True
        last, _ = play_out(client, ranked)
        again = client.post("/api/tables", json={"game": "all_fours", "mode": "daily"}).json()
        assert again["ranked"] is False  # a second play of the day's deal is not ranked
        play_out(client, again["table"])
        fresh = client.post("/api/tables", json={"game": "all_fours", "mode": "new"}).json()
        assert fresh["ranked"] is False
        play_out(client, fresh["table"])
        other_game = client.post("/api/tables", json={"game": "bid_euchre", "mode": "daily"}).json()
        assert other_game["ranked"] is True  # ranked per game and date
        become(client, "bob")
        bobs = new_table(client, game="all_fours", mode="daily")
        bob_last, _ = play_out(client, bobs)
        unfinished = client.post("/api/tables", json={"game": "all_fours", "mode": "daily"})
        assert unfinished.json()["ranked"] is False

        board = client.get("/api/leaderboard", params={"game": "all_fours", "date": "today"}).json()
        assert board["date"] == DAY.isoformat()
        par = board["par"]
        assert [row["nickname"] for row in sorted(board["rows"], key=lambda r: r["table"])] == \
            [n for _, n in sorted([(ranked, "ann"), (bobs, "bob")])]
        by_table = {row["table"]: row for row in board["rows"]}
        for table, state in ((ranked, last), (bobs, bob_last)):
            scores = state["result"]["scores"]
            row = by_table[table]
            assert row["score"] == scores[0] - scores[1]
            assert row["par"] == par["margin"] and row["versus_par"] == row["score"] - par["margin"]
        assert board["rows"][0]["versus_par"] >= board["rows"][1]["versus_par"] and board["rows"][0]["rank"] == 1
        assert by_table[bobs]["mine"] and not by_table[ranked]["mine"] and not by_table[ranked]["public"]

        # The par: the heuristic bot in seat 0, the same deals and bots, stored once.
        con = sqlite3.connect(tmp_path / "web.db")
        par_record = json.loads(con.execute("SELECT record FROM par WHERE game = 'all_fours'").fetchone()[0])
        own = client.get(f"/api/tables/{bobs}/record").json()
        assert par_record["hands"][0]["deck"] == own["hands"][0]["deck"]
        assert par_record["seats"] == ["par (heuristic)", "heuristic", "heuristic", "heuristic"]
        assert records.replay(par_record, registry.game).state.scores() == par["scores"]
        assert par["margin"] == par["scores"][0] - par["scores"][1]

        # Today's records of others are not public yet (they would show the day's cards); tomorrow they are.
        assert client.get(f"/api/tables/{ranked}/record").status_code == 403
        today[0] = DAY + datetime.timedelta(days=1)
        assert client.get(f"/api/tables/{ranked}/record").status_code == 200
        assert client.get(f"/tables/{ranked}/replay").status_code == 200
        assert client.get(f"/api/tables/{fresh['table']}/record").status_code == 403  # not ranked: never public
        yesterday = client.get("/api/leaderboard", params={"game": "all_fours", "date": "yesterday"}).json()
        assert yesterday["rows"] == [dict(row, public=True) for row in board["rows"]]
        assert client.get("/api/leaderboard", params={"game": "all_fours"}).json()["rows"] == []
        total = client.get("/api/leaderboard", params={"game": "all_fours", "date": "all"}).json()
        assert {(row["nickname"], row["games"], row["versus_par"]) for row in total["rows"]} == \
            {(row["nickname"], 1, row["versus_par"]) for row in board["rows"]}
        for date in ("2026-02-30", "tomorrow", "2030-01-01"):
            response = client.get("/api/leaderboard", params={"game": "all_fours", "date": date})
            assert response.status_code == 400 and "'date'" in response.json()["error"]
        assert client.get("/api/leaderboard", params={"game": "chess"}).status_code == 400
