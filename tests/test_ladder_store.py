"""The ladder's store: versions and their statuses, rounds stored whole, results stored once,
ratings applied once, and everything there again after reopening the file."""

from __future__ import annotations

import hashlib
import threading

import pytest

from arena.ladder.store import LadderStore, LadderStoreError


def _spec(rotation: int) -> dict:
    return {"index": 0, "game": "all_fours", "options": {}, "deal_seed": "s/1", "seats": ["a", "b"],
            "bots": ["random", "heuristic"], "settings": [{}, {}], "bot_seeds": [1, 2], "rotation": rotation}


@pytest.fixture
def store(tmp_path):
    s = LadderStore(tmp_path / "ladder.db")
    yield s
    s.close()


def test_authors_bots_and_versions(store):
    h = hashlib.sha256(b"token").hexdigest()
    store.add_author("ann", h)
    assert store.author_by_token_hash(h) == "ann"
    assert store.author_by_token_hash(hashlib.sha256(b"other").hexdigest()) is None
    assert store.author_by_token_hash("") is None
    with pytest.raises(LadderStoreError, match="taken"):
        store.add_author("ann", h)
    store.add_bot("alpha", "ann")
    with pytest.raises(LadderStoreError, match="taken"):
        store.add_bot("alpha", "bob")
    assert store.bot("alpha") == {"name": "alpha", "author": "ann"}
    v1 = store.add_version("alpha", "python", "pybot:/x#m:make", ["all_fours"], "validating")
    assert v1["number"] == 1 and v1["games"] == ["all_fours"] and v1["author"] == "ann"
    store.set_status(v1["id"], "active")
    v2 = store.add_version("alpha", "python", "pybot:/y#m:make", ["all_fours"], "validating")
    assert v2["number"] == 2
    store.set_status(v2["id"], "refused", "does not install: no")
    assert store.version(v1["id"])["status"] == "active"  # a refused new version leaves the old one playing
    v3 = store.add_version("alpha", "python", "pybot:/z#m:make", ["all_fours", "five_hundred"], "validating")
    store.set_status(v3["id"], "active")
    assert store.version(v1["id"])["status"] == "retired"
    assert store.version(v1["id"])["reason"] == "replaced by version 3"
    assert [v["id"] for v in store.active_versions("five_hundred")] == [v3["id"]]
    assert [v["id"] for v in store.versions(bot="alpha")] == [v1["id"], v2["id"], v3["id"]]
    assert [v["id"] for v in store.versions(author="ann", status="refused")] == [v2["id"]]
    assert store.versions_since("ann", 0) == 3
    with pytest.raises(LadderStoreError, match="status"):
        store.set_status(v3["id"], "bogus")
    with pytest.raises(LadderStoreError, match="no bot"):
        store.add_version("nobody", "python", "x", [], "active")


def test_house_versions_are_idempotent(store):
    a = store.ensure_house("random", ["all_fours"])
    assert a["kind"] == "house" and a["status"] == "active" and a["author"] == "house"
    assert store.ensure_house("random", ["all_fours"])["id"] == a["id"]
    store.add_author("bob", "h")
    store.add_bot("mine", "bob")
    with pytest.raises(LadderStoreError, match="author"):
        store.ensure_house("mine", ["all_fours"])


def test_round_results_and_ratings(tmp_path):
    path = tmp_path / "ladder.db"
    store = LadderStore(path)
    a = store.ensure_house("random", ["all_fours"])["id"]
    b = store.ensure_house("heuristic", ["all_fours"])["id"]
    before = store.changes()
    ids = store.schedule_round(1, [("all_fours/2", [a, b], "s/1", [_spec(0), _spec(1)]),
                                   ("all_fours/2", [b, a], "s/2", [_spec(0), _spec(1)])])
    assert store.changes() > before and store.last_round() == 1
    with pytest.raises(LadderStoreError, match="already scheduled"):
        store.schedule_round(1, [])
    pending = store.pending_matches()
    assert [p["deal_set"] for p in pending] == [ids[0], ids[0], ids[1], ids[1]]
    assert [p["rotation"] for p in pending] == [0, 1, 0, 1]
    assert len({p["index"] for p in pending}) == 4
    first, second = pending[0]["index"], pending[1]["index"]
    result = {"scores": [7, 3], "ranking": [0, 1], "faults": []}
    assert store.save_match(first, result, {"hands": []})
    assert not store.save_match(first, {"scores": [0, 0]}, "{}")  # never stored twice
    assert store.unrated_finished_deal_sets() == []
    with pytest.raises(LadderStoreError, match="not finished"):
        store.rate(ids[0], {})
    store.save_match(second, result, "{}")
    unrated = store.unrated_finished_deal_sets()
    assert [d["id"] for d in unrated] == [ids[0]] and len(unrated[0]["matches"]) == 2
    assert unrated[0]["matches"][0]["result"]["scores"] == [7, 3]
    assert store.rate(ids[0], {a: (26.0, 7.0, 2, 1), b: (24.0, 7.0, 2, 0)}, {a: ("probation", "faults")})
    assert not store.rate(ids[0], {a: (99.0, 1.0, 2, 1)})  # rated once
    store.close()

    store = LadderStore(path)  # all of it is there after reopening
    ratings = store.ratings("all_fours/2")
    assert [r["version"] for r in ratings] == [a, b]
    assert ratings[0]["score"] == pytest.approx(26.0 - 21.0)
    assert (ratings[0]["matches"], ratings[0]["faults"], ratings[0]["deal_sets"]) == (2, 1, 1)
    assert store.version(a)["status"] == "probation"
    assert [h["deal_set"] for h in store.history(a)] == [ids[0]]
    assert len(store.pending_matches()) == 2
    assert [d["id"] for d in store.deal_sets(version=a)] == [ids[1], ids[0]]
    assert store.deal_sets(ladder="other/4") == []
    match = store.match(first)
    assert match["record"] == {"hands": []} and match["result"]["scores"] == [7, 3] and match["spec"]["index"] == first
    assert store.ladders() == ["all_fours/2"]
    store.set_meta("ladders", '["five_hundred/4", "all_fours/2"]')
    assert store.ladders() == ["five_hundred/4", "all_fours/2"]
    counts = store.counts()
    assert counts["deal_sets"] == 2 and counts["matches"] == 4 and counts["matches_finished"] == 2
    assert counts["deal_sets_rated"] == 1 and counts["rounds"] == 1
    store.close()


def test_a_failed_round_stores_nothing(store):
    a = store.ensure_house("random", ["all_fours"])["id"]
    bad = _spec(0)
    bad["options"] = {"x": object()}  # not JSON: the transaction is rolled back
    with pytest.raises(TypeError):
        store.schedule_round(1, [("all_fours/2", [a, a], "s", [_spec(0)]), ("all_fours/2", [a, a], "t", [bad])])
    assert store.counts()["deal_sets"] == 0 and store.counts()["matches"] == 0 and store.last_round() == 0


def test_threads_share_the_store(store):
    a = store.ensure_house("random", ["all_fours"])["id"]
    store.schedule_round(1, [("all_fours/2", [a, a], f"s/{i}", [_spec(0)]) for i in range(40)])
    pending = store.pending_matches()

    def save(part):
        for spec in part:
            store.save_match(spec["index"], {"scores": [1, 0]}, "{}")

    threads = [threading.Thread(target=save, args=(pending[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.pending_matches() == [] and len(store.unrated_finished_deal_sets()) == 40
