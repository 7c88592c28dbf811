"""The board for comparing (settings, the per-lineup breakdown, margins head to head, fault details,
the rating band, head to head in --json, the match list) and `arena matches`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from arena import board, rating
from arena.cli import _show_board
from arena.store import Store
from tests.board_support import play


@pytest.fixture(scope="module")
def db(tmp_path_factory, registry):
    folder = tmp_path_factory.mktemp("compare")
    play(folder, registry).close()
    return folder / "r.db"


def _data(db):
    store = Store(db)
    try:
        return board.board_data(store)
    finally:
        store.close()


def test_the_settings_name_the_game_options_clock_seed_deal_sets_date_and_version(db):
    from arena import __version__

    settings = _data(db)["settings"]
    assert settings["game"] == "toy" and settings["seed"] == 5 and settings["deal_sets"] == 3
    assert settings["options"]["target"] == 3 and settings["time_control"]["per_decision"] == 5.0
    assert settings["arena_versions"] == [__version__] and settings["date"].endswith("UTC")
    assert settings["bots"]["misfit"] == {"bot": "bad-illegal", "settings": {"after": 3}}


def test_the_breakdown_and_the_pair_margins_agree_with_the_scores(db):
    data = _data(db)
    store = Store(db)
    matches = list(store.results())
    store.close()
    # by hand: in each (lineup, deal set), a's score minus b's averaged over the two rotations
    expected: dict[str, list[float]] = {}
    for lineup in {tuple(s["lineup"]) for s, _ in matches}:
        for deal_set in range(3):
            games = [(s, r) for s, r in matches if tuple(s["lineup"]) == lineup and s["deal_set"] == deal_set]
            diffs = []
            for s, r in games:
                a_side = [i for i in range(2) if lineup[(i + s["rotation"]) % 2] == lineup[0]][0]  # lineup[0]'s side
                diffs.append(r["scores"][a_side] - r["scores"][1 - a_side])
            expected.setdefault(f"{lineup[0]} vs {lineup[1]}", []).append(sum(diffs) / len(diffs))
            expected.setdefault(f"{lineup[1]} vs {lineup[0]}", []).append(-sum(diffs) / len(diffs))
    for pair, values in expected.items():
        mean, low, high = rating.mean_interval(values)
        got = data["pair_margins"][pair]
        assert got["margin"] == round(mean, 2) and got["margin_ci"] == [round(low, 2), round(high, 2)]
        assert got["deal_sets"] == 3
    assert len(data["lineups"]) == 3
    for entry in data["lineups"]:
        a, b = entry["lineup"]
        assert entry["deal_sets"] == 3 and entry["matches"] == 6
        # two sides: a side's margin over the mean of the others is its margin over the other one
        assert entry["bots"][a]["margin"] == data["pair_margins"][f"{a} vs {b}"]["margin"]
        assert entry["bots"][a]["wins"] == entry["bots"][b]["losses"]


def test_faults_are_listed_one_by_one_with_match_seat_kind_and_message(db):
    data = _data(db)
    store = Store(db)
    stored = [(s, f) for s, r in store.results() for f in r["faults"]]
    store.close()
    assert stored and len(data["fault_details"]) == len(stored)
    for detail, (spec, fault) in zip(data["fault_details"], stored):
        assert detail["match"] == spec["index"] and detail["seat"] == fault["seat"] and detail["bot"] == "misfit"
        assert detail["kind"] == fault["kind"] == "illegal" and detail["message"] == fault["message"].splitlines()[0]
    printed = board.text(data)
    assert "faults" in printed.split("margins head to head")[1]


def test_json_rows_carry_head_to_head_and_the_plot_a_band(db):
    data = _data(db)
    rows = board.json_rows(data)
    for row in rows:
        others = {r["bot"] for r in rows} - {row["bot"]}
        assert set(row["head_to_head"]) == others
        for other, h in row["head_to_head"].items():
            assert [h["wins"], h["draws"], h["losses"]] == data["head_to_head"][f"{row['bot']} vs {other}"]
            assert h["margin"] == data["pair_margins"][f"{row['bot']} vs {other}"]["margin"]
    assert len(data["sigma_history"]) == len(data["history"]) == 18
    assert data["sigma_history"][-1]["misfit"] == pytest.approx(next(r["sigma"] for r in rows if r["bot"] == "misfit"), abs=1e-3)
    svg = board.rating_plot_svg(data)
    assert all(f'id="band-{bot}"' in svg for bot in ("random", "random-2", "misfit"))


def test_the_html_board_links_every_match_to_its_replay_and_record(db, tmp_path):
    store = Store(db)
    page = tmp_path / "out" / "board.html"
    try:
        _show_board(store, as_json=False, html_path=str(page))
    finally:
        store.close()
    text = page.read_text()
    for index in range(18):
        assert f'href="board_files/match-{index:04d}.html"' in text and f'href="board_files/match-{index:04d}.json"' in text
        assert (page.parent / "board_files" / f"match-{index:04d}.html").is_file()
    record = json.loads((page.parent / "board_files" / "match-0003.json").read_text())
    store = Store(db)
    assert record == store.record(3)
    store.close()
    assert 'id="settings"' in text and 'id="lineups"' in text and 'id="pair-margins"' in text and 'id="faults"' in text


def _arena(*args):
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], capture_output=True, text=True, timeout=300)


def test_arena_matches_lists_exports_and_prints_one(db, tmp_path):
    listed = _arena("matches", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == "board-check (toy): 18 of 18 matches finished"
    assert lines[1].split()[:3] == ["match", "deal", "set"] and len(lines) == 2 + 18
    rows = json.loads(_arena("matches", "--db", str(db), "--json").stdout)
    assert [r["index"] for r in rows] == list(range(18))
    assert {"index", "deal_set", "sides", "seats", "scores", "winner", "faults"} <= set(rows[0])
    out = _arena("matches", "--db", str(db), "--export", str(tmp_path / "games"))
    assert out.returncode == 0 and "18 records written" in out.stdout
    one = json.loads(_arena("matches", "--db", str(db), "--index", "5").stdout)
    assert one == json.loads((tmp_path / "games" / "match-0005.json").read_text())
    assert one["game"] == "toy" and one["seats"] == rows[5]["seats"]
    missing = _arena("matches", "--db", str(db), "--index", "99")
    assert missing.returncode == 2 and "match 99 has no record (the matches are 0 to 17)" in missing.stderr
    shown = _arena("show", str(tmp_path / "games" / "match-0005.json"))
    assert shown.returncode == 0 and "Tricks (* the winner)" in shown.stdout
