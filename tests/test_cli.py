"""The command line: play → record → verify gives the same scores; errors are clear, never tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from arena.plugins import get_registry


def arena(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "arena.cli", *args], capture_output=True, text=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def record_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "game.json"
    arena("play", "five_hundred", "--seats", "heuristic,random,heuristic,random", "--seed", "7",
          "--record", str(path), "--option", "defence_cap=490")
    return path


def test_games_and_bots_are_listed():
    games = json.loads(arena("games", "--json").stdout)
    registry = get_registry()  # every registered game is listed, with its player counts
    assert {g["name"]: g["players"] for g in games} == {
        name: cls().describe()["players"] for name, cls in registry.games.items()}
    five = next(g for g in games if g["name"] == "five_hundred")
    assert five["players"] == [2, 3, 4, 5, 6]
    assert {"auction", "defence_cap", "allow_blind_misere"} <= {o["name"] for o in five["options"]}
    bots = {b["name"] for b in json.loads(arena("bots", "--json").stdout)}
    assert {"random", "heuristic"} <= bots


def test_play_prints_the_account_and_the_result(tmp_path):
    out = arena("play", "five_hundred", "--seats", "random,random,random,random", "--seed", "3").stdout
    assert "Hand  1 (dealer" in out and "Result:" in out and "Winner:" in out
    assert "ms)" in out  # each decision's time


def test_play_then_verify_gives_the_same_scores(record_path):
    record = json.loads(record_path.read_text())
    assert record["options"]["defence_cap"] == 490 and record["seats"][0] == "heuristic"
    summary = json.loads(arena("verify", str(record_path), "--json").stdout)
    assert summary["ok"] is True
    assert summary["scores"] == record["result"]["scores"]
    assert [h["scores"] for h in summary["hands"]] == [h["result"]["scores"] for h in record["hands"]]
    assert summary["winner"] == record["result"]["winner"]
    assert "ok: the record replays" in arena("verify", str(record_path)).stdout


def test_verify_rejects_an_illegal_action_at_exactly_its_index(record_path, tmp_path):
    record = json.loads(record_path.read_text())
    hand = record["hands"][0]
    first_discard = next(i for i, (_, a) in enumerate(hand["actions"]) if a.startswith("discard"))
    position = first_discard + 4  # in the play: a bid there is illegal
    seat, action = hand["actions"][position]
    hand["actions"][position] = [seat, "bid 6S"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    done = arena("verify", str(bad), "--json", check=False)
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert (error["hand"], error["action_index"], error["seat"], error["action"]) == (0, position, seat, "bid 6S")
    assert action in error["legal"] or error["legal"]
    plain = arena("verify", str(bad), check=False)
    assert plain.returncode == 1 and f"hand 0, action {position}" in plain.stderr


@pytest.mark.parametrize(
    "content, words",
    [
        ("{oops", "not valid JSON"),
        (json.dumps({"game": "chess", "hands": []}), "unknown game 'chess'"),
        (json.dumps({"game": "five_hundred", "options": {"players": 7}, "hands": []}), "'players'"),
        (json.dumps({"game": "five_hundred", "hands": [{"dealer": 0, "deck": ["AS"] * 43, "actions": []}]}),
         "not the game's pack"),
        (json.dumps([1, 2]), "a record is a JSON object"),
    ],
)
def test_verify_explains_a_malformed_record(tmp_path, content, words):
    path = tmp_path / "r.json"
    path.write_text(content)
    done = arena("verify", str(path), "--json", check=False)
    assert done.returncode == 1
    assert words in json.loads(done.stdout)["error"]["message"]


def test_bad_options_and_seats_are_refused_before_playing():
    done = arena("play", "five_hundred", "--seats", "random,random,random,random", "--option", "defence_cap=500", check=False)
    assert done.returncode == 2 and "option 'defence_cap'" in done.stderr and "490" in done.stderr
    done = arena("play", "bid_euchre", "--seats", "random,random", check=False)  # Bid Euchre is for four
    assert done.returncode == 2 and "is played by 4 players" in done.stderr
    done = arena("play", "five_hundred", "--seats", "random,random,random,nobody", check=False)
    assert done.returncode == 2 and "unknown bot 'nobody'" in done.stderr


def test_isolated_play_shows_decision_times(tmp_path):
    path = tmp_path / "g.json"
    out = arena("play", "five_hundred", "--seats", "heuristic,random,heuristic,random", "--isolation", "process",
                "--seed", "4", "--record", str(path)).stdout
    assert "(seed 4, process)" in out
    record = json.loads(path.read_text())
    times = [t for hand in record["hands"] for t in hand["times"]]
    assert any(t is not None and t > 0 for t in times)


# -- the first ten minutes: version, suggestions, seats ------------------------------------------


def test_version_comes_from_the_installed_package():
    from importlib import metadata

    done = arena("--version")
    assert done.stdout.strip() == f"arena {metadata.version('trick-arena')}"


def test_a_misspelt_subcommand_is_answered_with_a_suggestion():
    done = arena("plya", "five_hundred", check=False)
    assert done.returncode == 2
    assert "did you mean 'play'?" in done.stderr


def test_a_misspelt_option_is_reported_by_its_subcommand_with_a_suggestion():
    done = arena("play", "five_hundred", "--seats", "random,random,random,random", "--isolaton", "process", check=False)
    assert done.returncode == 2
    assert "usage: arena play" in done.stderr  # the subcommand's usage, not only the top level's
    assert "unrecognized arguments: --isolaton process" in done.stderr
    assert "did you mean --isolation?" in done.stderr


def test_a_misspelt_choice_is_answered_with_a_suggestion():
    done = arena("play", "five_hundred", "--seats", "random,random,random,random", "--isolation", "proces", check=False)
    assert done.returncode == 2 and "did you mean 'process'?" in done.stderr


def test_a_seed_that_is_not_an_integer_is_refused():
    done = arena("play", "five_hundred", "--seats", "random,random,random,random", "--seed", "abc", check=False)
    assert done.returncode == 2
    assert "argument --seed: 'abc' is not an integer" in done.stderr


def test_the_seats_help_names_every_kind_of_seat():
    out = " ".join(arena("play", "--help").stdout.split())
    assert "grpc://HOST:PORT" in out and "cmd:COMMAND" in out and "installed bot" in out


def test_the_top_level_help_lists_the_exit_codes():
    out = arena("--help").stdout
    assert "exit codes:" in out and "130" in out


def test_the_number_of_seats_chooses_a_player_count_the_game_supports():
    result = json.loads(arena("play", "five_hundred", "--seats", "random,random,random", "--json").stdout)
    assert len(result["seats"]) == 3 and len(result["scores"]) == 3


def test_a_player_count_the_game_does_not_support_is_refused_with_the_counts():
    done = arena("play", "five_hundred", "--seats", ",".join(["random"] * 7), check=False)
    assert done.returncode == 2
    assert "--seats names 7 seats, but Five Hundred is played by 2, 3, 4, 5 or 6 players" in done.stderr
    done = arena("play", "five_hundred", "--seats", "random,random,random", "--option", "players=4", check=False)
    assert done.returncode == 2 and "with --option players=4 needs 4" in done.stderr


def test_seat_names_reach_the_account_and_the_record(tmp_path):
    path = tmp_path / "named.json"
    out = arena("play", "five_hundred", "--seats", "random,random,random,random", "--name", "0=alice",
                "--name", "3=bob", "--record", str(path)).stdout
    assert "0:alice" in out and "3:bob" in out
    assert json.loads(path.read_text())["seats"] == ["alice", "random", "random", "bob"]


def test_bot_settings_reach_the_bot():
    def first_fault(*extra):
        result = json.loads(arena("play", "five_hundred", "--seats", "bad-illegal,random,random,random",
                                  "--on-fault", "substitute", "--max-faults", "99", "--json", *extra).stdout)
        return result["faults"][0]["action_index"]

    at_once = first_fault()
    later = first_fault("--setting", "0.after=3")  # the bot's own setting: 3 good decisions first (an int)
    assert later > at_once


@pytest.mark.parametrize("flag, value, message", [
    ("--name", "4=carol", "'4' is not a seat (the seats are 0 to 3)"),
    ("--name", "0", "is not of the form SEAT=NAME"),
    ("--setting", "x.after=1", "'x' is not a seat"),
    ("--setting", "0=1", "is not of the form SEAT.KEY=VALUE"),
])
def test_bad_seat_names_and_settings_say_what_is_wrong(flag, value, message):
    done = arena("play", "five_hundred", "--seats", "random,random,random,random", flag, value, check=False)
    assert done.returncode == 2 and message in done.stderr


def test_a_setting_s_value_is_a_toml_value_or_else_text():
    from arena.cli import _seat_settings

    settings = _seat_settings(2, ["0.depth=3", "0.greedy=true", "0.style=cautious play", '1.name="x"',
                                  "1.weights=[1, 2]", "1.sneaky=1\nother=2", "0.rate=0.5"])
    assert settings == [{"depth": 3, "greedy": True, "style": "cautious play", "rate": 0.5},
                        {"name": "x", "weights": [1, 2], "sneaky": "1\nother=2"}]  # one value, never more keys
