"""The ladder's board data (arena.ladder.board) on a store filled by hand: the ranks in order of
mu - 3 sigma with TrueSkill's known numbers, the interval, statuses with their reasons, retired
versions kept (unranked), faults with their causes, and head to head by summed duplicate margin."""

from __future__ import annotations

import pytest

from arena import rating
from arena.ladder import board
from arena.ladder.store import LadderStore

LADDER = "all_fours/2"


def _spec(lineup: list[dict], rotation: int) -> dict:
    """A two-seat All Fours match of the deal set ``lineup`` as a tournament lays it out: side s
    is held by lineup[(s + rotation) % 2] (arena.tournaments.schedule)."""
    names = [board.label(v) for v in lineup]
    by_side = [lineup[(side + rotation) % 2] for side in range(2)]
    return {"index": 0, "game": "all_fours", "options": {"players": 2}, "deal_seed": "x", "seats": [board.label(v) for v in by_side],
            "bots": [v["seat"] for v in by_side], "settings": [{}, {}], "bot_seeds": [1, 2], "lineup": names,
            "rotation": rotation, "isolation": "sandbox"}


def _result(scores: list[int], faults: list[dict] | None = None) -> dict:
    ranking = [0, 1] if scores[0] > scores[1] else [1, 0] if scores[0] < scores[1] else [0, 0]
    return {"scores": scores, "ranking": ranking, "faults": faults or [], "termination": {"how": "normal"}}


def fill(store: LadderStore, record: dict | None = None) -> tuple[dict, tuple[int, int, int, int]]:
    """ann's bot alpha (v1 retired, v2 active), bob's beta (active) and gamma (on probation), a
    new delta not yet rated and a refused epsilon; four played deal sets, rated. ``record``: what
    every match stores as its record. Returns the versions and the deal sets' ids."""
    store.add_author("ann", "h-ann")
    store.add_author("bob", "h-bob")
    for bot, author in (("alpha", "ann"), ("beta", "bob"), ("gamma", "bob"), ("delta", "ann"), ("epsilon", "ann")):
        store.add_bot(bot, author)
    a1 = store.add_version("alpha", "python", "pybot:/v/a1#m:make", ["all_fours"], "active")
    a2 = store.add_version("alpha", "python", "pybot:/v/a2#m:make", ["all_fours"], "validating")
    b = store.add_version("beta", "program", "cmd:./beta {socket}", ["all_fours"], "active")
    c = store.add_version("gamma", "grpc", "grpc://127.0.0.1:1", ["all_fours"], "active")
    d = store.add_version("delta", "python", "pybot:/v/d#m:make", ["all_fours"], "active")
    e = store.add_version("epsilon", "python", "pybot:/v/e#m:make", ["all_fours"], "refused",
                          "does not install: no module named 'x'")
    store.set_status(a2["id"], "active")  # retires v1: "replaced by version 2"
    versions = {k: store.version(v["id"]) for k, v in (("a1", a1), ("a2", a2), ("b", b), ("c", c), ("d", d), ("e", e))}

    def play(round_: int, lineup: list[dict], results: list[dict]) -> int:
        [deal_set] = store.schedule_round(round_, [(LADDER, [v["id"] for v in lineup], f"s/{round_}",
                                                    [_spec(lineup, r) for r in range(2)])])
        for match, result in zip(store.deal_sets(ladder=LADDER, limit=1)[0]["matches"], results):
            store.save_match(match["id"], result, record or {"game": "all_fours", "seats": ["x", "y"]})
        return deal_set

    fault = {"seat": 1, "kind": "timeout", "answer": None, "message": "no answer within 1.0 s", "hand": 0,
             "action_index": 3, "response": "substitute", "substituted": "pass"}
    # 1: alpha v2 (side 0 then 1) wins by 4 + 1 against beta; its second match has alpha's timeout.
    s1 = play(1, [versions["a2"], versions["b"]], [_result([7, 3]), _result([5, 6], [fault])])
    # 2: beta, alpha v2: level in both matches, a draw.
    s2 = play(2, [versions["b"], versions["a2"]], [_result([6, 6]), _result([4, 4])])
    # 3: alpha v2 loses by 6 twice to gamma.
    s3 = play(3, [versions["a2"], versions["c"]], [_result([1, 7]), _result([7, 1])])
    # 0: alpha v1's one deal set before it was replaced (against beta, a win), rated first.
    [s0] = store.schedule_round(4, [(LADDER, [versions["a1"]["id"], versions["b"]["id"]], "s/0",
                                     [_spec([versions["a1"], versions["b"]], r) for r in range(2)])])
    for match in store.deal_sets(ladder=LADDER, limit=1)[0]["matches"]:
        store.save_match(match["id"], _result([8, 2]) if match["rotation"] == 0 else _result([2, 8]), record or "{}")
    # Ratings as the scheduler would store them: TrueSkill's 1-v-1 win from the prior is the known
    # (29.396, 7.171) against (20.604, 7.171).
    store.rate(s0, {versions["a1"]["id"]: (29.396, 7.171, 2, 0), versions["b"]["id"]: (20.604, 7.171, 2, 0)})
    store.rate(s1, {versions["a2"]["id"]: (29.396, 7.171, 2, 1), versions["b"]["id"]: (20.604, 6.5, 2, 0)})
    store.rate(s2, {versions["a2"]["id"]: (28.0, 6.0, 2, 0), versions["b"]["id"]: (22.0, 6.0, 2, 0)})
    store.rate(s3, {versions["a2"]["id"]: (24.0, 5.5, 2, 0), versions["c"]["id"]: (31.0, 7.0, 2, 0)},
               {versions["c"]["id"]: ("probation", "faults in 1 of 2 matches (50%): crash: boom")})
    return {k: store.version(v["id"]) for k, v in versions.items()}, (s0, s1, s2, s3)


@pytest.fixture
def filled(tmp_path):
    store = LadderStore(tmp_path / "ladder.db")
    versions, deal_sets = fill(store)
    yield store, versions, deal_sets
    store.close()


def test_the_known_trueskill_numbers_of_a_first_win():
    env = rating.environment()
    won, lost = env.rate([(env.create_rating(),), (env.create_rating(),)], ranks=[0, 1])
    assert (round(won[0].mu, 3), round(won[0].sigma, 3)) == (29.396, 7.171)
    assert (round(lost[0].mu, 3), round(lost[0].sigma, 3)) == (20.604, 7.171)


def test_the_board_ranks_by_mu_minus_three_sigma_with_the_interval(filled):
    store, v, _ = filled
    data = board.board(store, LADDER)
    assert data["ladder"] == LADDER and data["ladders"] == [LADDER] and data["changes"] == store.changes()
    assert data["counts"]["matches_finished"] == 8 and data["counts"]["deal_sets_rated"] == 4
    rows = {row["label"]: row for row in data["rows"]}
    # gamma 31 - 21 = 10, alpha v2 24 - 16.5 = 7.5, beta 22 - 18 = 4: ranked in that order
    ranked = [row["label"] for row in data["rows"] if row["rank"] is not None]
    assert ranked == ["gamma v1", "alpha v2", "beta v1"]
    assert [rows[name]["rank"] for name in ranked] == [1, 2, 3]
    assert rows["gamma v1"]["rating"] == pytest.approx(10.0) and rows["gamma v1"]["interval"] == [17.0, 45.0]
    assert rows["alpha v2"]["rating"] == pytest.approx(7.5) and rows["alpha v2"]["interval"] == [13.0, 35.0]
    assert rows["beta v1"]["rating"] == pytest.approx(4.0)
    assert (rows["alpha v2"]["deal_sets"], rows["alpha v2"]["matches"], rows["alpha v2"]["faults"]) == (3, 6, 1)
    assert rows["alpha v2"]["fault_rate"] == pytest.approx(1 / 6, abs=1e-4)
    assert (rows["beta v1"]["deal_sets"], rows["beta v1"]["matches"]) == (3, 6)
    assert rows["alpha v2"]["author"] == "ann" and rows["beta v1"]["author"] == "bob"
    assert rows["beta v1"]["kind"] == "program" and rows["gamma v1"]["kind"] == "grpc"
    assert rows["gamma v1"]["status"] == "probation" and rows["gamma v1"]["reason"].startswith("faults in 1 of 2")
    # alpha v1 is retired: listed with its rating (29.396 - 3 x 7.171 = 7.883), unranked, after the ranked
    assert rows["alpha v1"]["rank"] is None and rows["alpha v1"]["status"] == "retired"
    assert rows["alpha v1"]["reason"] == "replaced by version 2"
    assert rows["alpha v1"]["rating"] == pytest.approx(29.396 - 3 * 7.171)
    # delta is active and not yet rated: listed without a rating; the refused epsilon is not on the board
    assert rows["delta v1"]["rank"] is None and rows["delta v1"]["rating"] is None and rows["delta v1"]["matches"] == 0
    assert "epsilon v1" not in rows
    labels = [row["label"] for row in data["rows"]]
    assert labels.index("delta v1") < labels.index("alpha v1")  # playing before retired
    assert board.board(store, "five_hundred/4")["rows"] == []  # nobody declared five_hundred


def test_a_bots_page_has_every_version_history_deal_sets_faults_and_head_to_head(filled):
    store, v, (s0, s1, s2, s3) = filled
    page = board.bot_page(store, "alpha")
    assert page is not None and page["author"] == "ann"
    assert [(x["version"], x["status"]) for x in page["versions"]] == [(1, "retired"), (2, "active")]
    assert page["versions"][1]["ratings"][0]["rating"] == pytest.approx(7.5)
    series = {s["label"]: s for s in page["history"][LADDER]}
    assert [p["deal_set"] for p in series["alpha v2"]["points"]] == [s1, s2, s3]
    assert [p["mu"] for p in series["alpha v2"]["points"]] == [29.396, 28.0, 24.0]
    assert series["alpha v1"]["status"] == "retired" and [p["deal_set"] for p in series["alpha v1"]["points"]] == [s0]
    # recent deal sets, newest first, each with its outcome for this bot, margins, matches, replays
    recent = {d["id"]: d for d in page["recent"]}
    assert [d["id"] for d in page["recent"]] == sorted([s0, s1, s2, s3], reverse=True)
    assert recent[s1]["outcome"] == "won" and [e["margin"] for e in recent[s1]["lineup"]] == [5.0, -5.0]
    assert recent[s2]["outcome"] == "drawn" and recent[s3]["outcome"] == "lost"
    assert [e["margin"] for e in recent[s3]["lineup"]] == [-12.0, 12.0]
    assert recent[s0]["outcome"] == "won" and recent[s0]["lineup"][0]["label"] == "alpha v1"
    assert recent[s1]["matches"][1]["faults"] == 1 and recent[s1]["matches"][1]["replay"].endswith("/replay")
    assert recent[s1]["matches"][0]["scores"] == [7, 3]
    # the one fault is alpha v2's timeout (seat 1 of the second match), with its cause
    assert page["fault_count"] == 1
    [fault] = page["faults"]
    assert (fault["label"], fault["kind"], fault["message"], fault["deal_set"]) == ("alpha v2", "timeout",
                                                                                    "no answer within 1.0 s", s1)
    assert fault["replay"] == f"/ladder/matches/{fault['match']}/replay"
    # head to head: against beta won 2 (v1's and v2's), drawn 1; against gamma lost 1
    head = {row["opponent"]: row for row in page["head_to_head"]}
    assert (head["beta"]["won"], head["beta"]["drawn"], head["beta"]["lost"]) == (2, 1, 0)
    assert head["beta"]["margin"] == pytest.approx((10 + 0 + 24) / 3, abs=0.01)  # mean of (mine - theirs)
    assert (head["gamma"]["won"], head["gamma"]["drawn"], head["gamma"]["lost"]) == (0, 0, 1)
    assert head["gamma"]["margin"] == -24.0
    # the other side of it, on beta's page; beta has no fault
    beta = board.bot_page(store, "beta")
    assert beta is not None and beta["fault_count"] == 0
    [row] = beta["head_to_head"]
    assert (row["opponent"], row["won"], row["drawn"], row["lost"]) == ("alpha", 0, 1, 2)
    assert board.bot_page(store, "nobody") is None


def test_head_to_head_is_kept_up_as_deal_sets_are_rated_and_rebuilt_for_an_older_store(filled, tmp_path):
    """A bot's page reads head to head from running totals (ladder_pairs), not from every deal set;
    a store made before the totals existed gets them once when it is opened."""
    store, v, _ = filled
    before = board.bot_page(store, "alpha")["head_to_head"]
    pairs = store.pairs([v["a2"]["id"]])
    beta = [p for p in pairs if p["opponent"] == v["b"]["id"]]
    assert [(p["won"], p["drawn"], p["lost"], p["margin"]) for p in beta] == [(1, 1, 0, 10.0)]
    with store._transaction() as db:  # as a store of the earlier schema: no totals, no mark
        db.execute("DELETE FROM ladder_pairs")
        db.execute("DELETE FROM ladder_meta WHERE key = 'pairs'")
    assert board.bot_page(store, "alpha")["head_to_head"] == []
    store.close()
    reopened = LadderStore(tmp_path / "ladder.db")
    try:
        assert board.bot_page(reopened, "alpha")["head_to_head"] == before
        again = LadderStore(tmp_path / "ladder.db")  # opened again: counted once, not twice
        assert board.bot_page(again, "alpha")["head_to_head"] == before
        again.close()
    finally:
        reopened.close()


def test_a_long_history_is_thinned_for_the_chart_keeping_both_ends():
    points = [{"deal_set": k} for k in range(1200)]
    thin = board.thinned(points, 500)
    assert len(thin) == 500 and thin[0] == points[0] and thin[-1] == points[-1]
    assert [p["deal_set"] for p in thin] == sorted({p["deal_set"] for p in thin})  # in order, none twice
    assert board.thinned(points[:10], 500) == points[:10]


def test_a_fault_is_the_version_in_its_seat(filled):
    store, v, (s0, s1, s2, s3) = filled
    deal_set = store.deal_set(s1)
    rows = board.fault_rows(deal_set, board._Versions(store))
    assert [r["version"] for r in rows] == [v["a2"]["id"]]  # seat 1 of rotation 1 is alpha's side
    spec = deal_set["matches"][1]["spec"]
    lineup = [store.version(i) for i in deal_set["lineup"]]
    assert board.version_of_seat(spec, 0, lineup) == v["b"]["id"]
    assert board.version_of_seat(spec, 5, lineup) is None


def test_a_match_view_and_an_unknown_match(filled):
    store, v, (s0, s1, s2, s3) = filled
    match = store.deal_set(s1)["matches"][0]
    view = board.match_view(store, match["id"])
    assert view is not None and view["result"]["scores"] == [7, 3] and view["record"]["game"] == "all_fours"
    assert view["replay"] == f"/ladder/matches/{match['id']}/replay" and view["deal_set"] == s1
    assert board.match_view(store, 10**6) is None
