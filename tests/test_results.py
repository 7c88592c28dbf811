"""One results model (arena.results): the three stores yield the same row for the same match, and
each statistic on it has one definition."""

from __future__ import annotations

import json
from dataclasses import replace

from arena.matches import MatchSpec


def _played() -> tuple[dict, dict, str]:
    """One real match of two bots, as a tournament and the ladder store it: spec, result, record."""
    from arena.tournaments.executors import play_spec

    spec = MatchSpec.single("all_fours", ["random", "random"], seed=7, names=["a", "b"],
                             options={"players": 2, "max_hands": 2})
    spec = replace(spec, lineup=("a", "b"), rotation=0, deal_set=0)
    outcome = play_spec(spec)
    return spec.as_dict(), outcome["result"], outcome["record"]


def test_the_three_stores_yield_the_same_row_for_the_same_match(tmp_path):
    from arena.ladder.store import LadderStore
    from arena.store import Store
    from arena.web.store import WebStore

    spec, result, record = _played()
    tournament = Store(tmp_path / "t.db")
    tournament.begin_tournament("t", "fp", {"game": "all_fours", "bots": [{"name": "a"}, {"name": "b"}]}, [spec])
    tournament.save(0, result, record)
    ladder = LadderStore(tmp_path / "l.db")
    [deal_set] = ladder.schedule_round(1, [("all_fours/2", [1, 2], "s", [spec])])
    [match] = ladder.matches_of(deal_set)
    assert ladder.save_match(match["id"], result, record)
    web = WebStore(tmp_path / "w.db")
    owner = web.add_player()
    web.add_table("t1", owner, {"game": "all_fours", "seats": ["a", "b"]}, "new", "2026-01-01", False)
    web.finish("t1", json.loads(record), 0, "normal")

    [t_row], [l_row], [w_row] = tournament.rows(), ladder.rows("all_fours/2"), web.rows("all_fours")
    assert t_row.game == "all_fours" and t_row.seats == ("a", "b") and t_row.sides == ("a", "b")
    assert list(t_row.scores) == result["scores"] and list(t_row.ranking) == result["ranking"]
    assert t_row.termination == result["termination"]["how"] and t_row.finished is not None
    assert set(t_row.winners) == {spec["lineup"][s] for s, r in enumerate(result["ranking"]) if r == 0}
    # equal where the stores can say the same: ids and times are each store's own, the ladder numbers
    # its deal sets, and the web does not know which seat holds which side
    assert replace(l_row, match=t_row.match, finished=t_row.finished, deal_set=0) == t_row
    assert replace(w_row, match=t_row.match, finished=t_row.finished, deal_set=0, sides=t_row.sides) == t_row
    assert ladder.rows("other/2") == [] and web.rows("bid_euchre") == []


def test_one_writer_of_the_record(tmp_path):
    """The three stores keep the record as records.dumps writes it (the compact JSON they always
    kept: unchanged bytes), and a record file is its indented form."""
    import sqlite3

    from arena import records
    from arena.ladder.store import LadderStore
    from arena.store import Store
    from arena.web.store import WebStore

    spec, result, text = _played()
    record = json.loads(text)
    assert text == records.dumps(record) == json.dumps(record) and records.dumps(text) is text
    assert records.dumps(record, file=True) == json.dumps(record, indent=1) + "\n"
    tournament = Store(tmp_path / "t.db")
    tournament.begin_tournament("t", "fp", {"game": "all_fours", "bots": [{"name": "a"}, {"name": "b"}]}, [spec])
    tournament.save(0, result, record)
    ladder = LadderStore(tmp_path / "l.db")
    [deal_set] = ladder.schedule_round(1, [("all_fours/2", [1, 2], "s", [spec])])
    ladder.save_match(ladder.matches_of(deal_set)[0]["id"], result, record)
    web = WebStore(tmp_path / "w.db")
    web.add_table("t1", web.add_player(), {"game": "all_fours", "seats": ["a", "b"]}, "new", "2026-01-01", False)
    web.finish("t1", record, 0, "normal")
    stored = [sqlite3.connect(tmp_path / name).execute(sql).fetchone()[0] for name, sql in (
        ("t.db", "SELECT record FROM matches"), ("l.db", "SELECT record FROM ladder_matches"),
        ("w.db", "SELECT record FROM tables"))]
    assert stored == [text] * 3
    records.dump(record, tmp_path / "r.json")
    assert (tmp_path / "r.json").read_text() == records.dumps(record, file=True)


def test_the_margin_is_one_function():
    """The board's and the ladder's duplicate margin and the web's leaderboard margin are one
    definition (against the others' mean or their best); with two sides they are the same number."""
    from arena import rating, results
    from arena.web import daily, table

    spec = {"lineup": ["a", "b", "c"], "rotation": 0, "seats": ["a", "b", "c"], "index": 0, "deal_set": 0}
    three = {"scores": [10, 4, 7], "ranking": [0, 2, 1], "faults": []}
    assert rating.duplicate_margins(spec, three, 0.0) == [results.margin([10, 4, 7], s) for s in range(3)] == [4.5, -4.5, 0.0]
    assert results.margin([10, 4, 7], 0, max) == 3  # the web's: the person's score less the best other's
    two = {"scores": [12, 5], "ranking": [0, 1], "faults": []}
    spec2 = dict(spec, lineup=["a", "b"], seats=["a", "b"])
    assert rating.duplicate_margins(spec2, two, 0.0) == [7, -7] == [results.margin([12, 5], s, max) for s in (0, 1)]
    # one definition: the rating, the web's table and its daily par use the model's function, no copy of it
    assert rating.margin is table.margin is daily.margin is results.margin
    assert not hasattr(table, "margin_of")
    assert rating.match_places(spec, three) == results.row_of(spec, three).places == {"a": 0, "b": 2, "c": 1}


def test_one_hand_result_printer():
    """``arena play``'s account line and the replays' result sentence are one printer in two styles
    (their words as they were: the terse line keeps False values, the sentence names the sides)."""
    from arena import account
    from arena.plugins import get_registry
    from arena.replays import walk

    game = get_registry().game("bid_euchre", {})
    result = {"contract": {"bid": 5, "alone": False, "trump": "S"}, "end": "set", "tricks_won": [4, 2],
              "changes": [4, -5], "scores": [4, -5]}
    terse = "contract bid 5, alone False, trump S | set | tricks [4 2] | change [4 -5] | scores [4 -5]"
    named = ("contract bid 5, trump S; set; tricks won seats 0+2 4, seats 1+3 2; changes seats 0+2 4, "
             "seats 1+3 -5; scores seats 0+2 4, seats 1+3 -5")
    assert account.hand_line(0, 3, result) == "Hand  1 (dealer 3) | " + terse == "Hand  1 (dealer 3) | " + account.hand_result(result)
    assert walk.hand_summary(game, result) == named == account.hand_result(result, lambda v: walk.per_side(game, v))
    assert walk.compact({"a": False, "b": None, "c": [1, 2]}) == account.compact({"a": False, "c": [1, 2]}, drop_false=True) == "c [1 2]"
