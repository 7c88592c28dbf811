"""``arena show`` and the replay walk: a record as a card player reads it, in every registered game
and player count (the list comes from the registry, so a new game is tested too)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter

import pytest

from arena import records
from arena.errors import RecordError
from arena.matches import MatchSpec, play_match
from arena.plugins import get_registry
from arena.referee import FaultPolicy
from arena.replays import text as show_text
from arena.replays import viewer
from arena.replays.walk import hand_summary, walk


def _cases():
    registry = get_registry()
    for name in sorted(registry.games):
        for players in registry.game(name).describe()["players"]:
            yield pytest.param(name, players, id=f"{name}-{players}")


def _record(name: str, players: int, seed: int = 11) -> dict:
    registry = get_registry()
    options = {"players": players}
    if any(o.name == "max_hands" for o in registry.game(name).option_table):
        options["max_hands"] = 3
    game = registry.game(name, options)
    bots = ["heuristic" if registry.bots["heuristic"].games is None or name in registry.bots["heuristic"].games
            else "random", "random"] * players
    spec = MatchSpec.single(name, bots[:players], seed=seed, options=game.options)
    return play_match(spec, registry).record


@pytest.mark.parametrize("name,players", list(_cases()))
def test_every_game_reads_as_a_card_player_reads_it(name, players):
    record = _record(name, players)
    walked = walk(record)
    game = walked.game
    assert len(walked.hands) == len(record["hands"])
    printed = show_text.text(walked)
    for view, entry in zip(walked.hands, record["hands"]):
        # the dealt hands and the undealt cards (kitty, stock) are the whole deck
        dealt = Counter()
        for seat in view.active:
            assert view.dealt[seat], f"seat {seat} was dealt no card in hand {view.index}"
            dealt.update(view.dealt[seat])
        assert dealt + Counter(view.undealt) == Counter(entry["deck"])
        # each trick: cards by seat, from cards the seat could have held, the winner among the players
        pool = {seat: Counter(view.dealt[seat]) + Counter(view.undealt) for seat in range(players)}
        listed = view.result is None or isinstance(view.result.get("tricks"), list) and all(
            isinstance(t, dict) for t in view.result["tricks"])  # the shared key (a toy game may lack it)
        for trick in view.tricks:
            assert trick.cards and (trick.winner in {seat for seat, _ in trick.cards} or not listed and trick.winner is None)
            for seat, card in trick.cards:
                assert pool[seat][card] > 0, (view.index, seat, card)
        played = sum(len(t.cards) for t in view.tricks) + len(view.trick_in_progress)
        assert played + len(view.bidding) + len(view.others) == len(entry["actions"])
        assert f"Hand {view.index + 1} — dealer: seat {view.dealer}" in printed
        if view.result is not None:
            assert "Result: " + hand_summary(game, view.result) in printed
            tricks = view.result.get("tricks")
            if isinstance(tricks, list) and all(isinstance(t, dict) for t in tricks):
                assert [t.as_dict() for t in view.tricks] == [
                    {"leader": t["leader"], "cards": t["cards"], "winner": t["winner"]} for t in tricks]
    winners_marked = sum(1 for v in walked.hands for t in v.tricks if t.winner is not None)
    trick_lines = re.findall(r"^    \d+ +\d+ .*$", printed, flags=re.M)
    assert sum(line.count("*") for line in trick_lines) == winners_marked
    assert printed.splitlines()[-1].startswith("Match: scores ")
    # one frame for each deal and each action, and the page embeds them
    assert len(walked.frames) == sum(len(e["actions"]) + 1 for e in record["hands"])
    page = viewer.html_page(walked)
    embedded = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S).group(1)
    data = json.loads(embedded)
    assert data["frames"] == json.loads(json.dumps(walked.frames)) and data["record"] == record
    assert "http://" not in page and "https://" not in page  # self-contained


def test_five_hundred_shows_its_kitty_and_the_auction_as_a_table():
    record = _record("five_hundred", 4, seed=4)
    walked = walk(record)
    printed = show_text.text(walked)
    first = walked.hands[0]
    assert first.undealt_name == "kitty" and len(first.undealt) == 3
    assert f"kitty (3): {' '.join(first.undealt)}" in printed
    lines = printed.splitlines()
    header = next(i for i, line in enumerate(lines) if line.strip().startswith("auction "))
    first_caller = first.bidding[0][1]
    assert lines[header].split()[1:3] == ["seat", str(first_caller)]  # columns from the first caller on
    assert lines[header + 1].split()[0] == "1"  # rows are rounds


def test_all_fours_shows_its_stock_and_turn_up():
    walked = walk(_record("all_fours", 4))
    first = walked.hands[0]
    assert first.undealt_name == "stock" and first.seen["turn_up"] == first.undealt[0]
    assert f"turned up: {first.seen['turn_up']}" in show_text.text(walked)


def test_a_record_that_does_not_replay_is_refused_where_it_breaks():
    record = _record("bid_euchre", 4)
    seat, action = record["hands"][0]["actions"][0]
    record["hands"][0]["actions"][0] = [(seat + 1) % 4, action]
    with pytest.raises(RecordError, match="hand 0, action 0"):
        walk(record)


def test_arena_show_prints_and_writes_the_viewer(tmp_path):
    path = tmp_path / "game.json"
    records.dump(_record("fifty_six", 4), path)
    page = tmp_path / "replay.html"
    out = subprocess.run([sys.executable, "-m", "arena.cli", "show", str(path), "--html", str(page)],
                         capture_output=True, text=True, check=True).stdout
    assert "56 (fifty_six), 4 players" in out and "Tricks (* the winner)" in out
    assert f"replay written to {page}" in out
    assert page.read_text().startswith("<!DOCTYPE html>")
    as_json = subprocess.run([sys.executable, "-m", "arena.cli", "show", str(path), "--json"],
                             capture_output=True, text=True, check=True).stdout
    assert json.loads(as_json)["hands"][0]["dealt"]
    bad = subprocess.run([sys.executable, "-m", "arena.cli", "show", str(tmp_path / "none.json")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "cannot read record" in bad.stderr


def test_a_forfeited_match_shows_its_unfinished_hand_and_the_forfeit():
    registry = get_registry()
    spec = MatchSpec.single("five_hundred", ["random", "bad-illegal", "random", "random"], seed=2,
                            settings=[{}, {"after": 6}, {}, {}], policy=FaultPolicy.uniform("forfeit"))
    record = play_match(spec, registry).record
    assert record["termination"]["how"] == "forfeit"
    walked = walk(record)
    last = walked.hands[-1]
    assert last.result is None
    played = sum(len(t.cards) for t in last.tricks) + len(last.trick_in_progress)
    assert played + len(last.bidding) + len(last.others) == len(record["hands"][-1]["actions"])
    printed = show_text.text(walked)
    assert "  Result: the hand was not finished" in printed
    assert last.trick_in_progress  # seat 1 faulted with a card led before it
    assert f"{len(last.tricks) + 1} (in play)" in printed
    assert "; forfeit by seat 1 for an illegal fault: " in printed.splitlines()[-1]
