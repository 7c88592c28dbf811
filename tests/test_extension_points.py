"""Every extension axis is a registry a plugin adds to (docs/plugins.md): a seat kind, an executor,
a command and a rating system are each one file (tests/plugins/toy_seat.py, toy_executor.py,
toy_command.py, toy_rating.py) and one plugin name, and a tournament runs with them through the
real command line."""

from __future__ import annotations

import json
import os
import sqlite3
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.errors import ArenaError, PluginError
from arena.players.seats import Isolation, SeatKind
from arena.plugins.manager import Registry, get_plugin_manager
from arena.plugins import hookimpl

ROOT = Path(__file__).resolve().parents[1]
TOYS = ("tests.plugins.toy_game,tests.plugins.toy_seat,tests.plugins.toy_executor,tests.plugins.toy_command,"
        "tests.plugins.toy_rating")

TOURNAMENT = """
[tournament]
name = "toys"
game = "toy"
deal_sets = 2
seed = 3
isolation = "inprocess"

[options]
target = 3

[[bots]]
name = "first"
bot = "first:one"

[[bots]]
name = "random"
bot = "random"
"""


def _arena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, TRICK_ARENA_PLUGINS=TOYS, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def test_a_toy_seat_kind_and_a_toy_executor_run_a_tournament(tmp_path):
    (tmp_path / "toys.toml").write_text(TOURNAMENT)
    order = tmp_path / "order.txt"
    done = _arena("run", "toys.toml", "--db", "toys.db", "--quiet", "--order-file", str(order), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # --order-file, the toy executor's own option, chose it (no --executor): it played last first
    played = [int(line) for line in order.read_text().split()]
    assert played == sorted(played, reverse=True) and len(played) == 4
    with sqlite3.connect(tmp_path / "toys.db") as db:
        rows = db.execute("SELECT spec, record FROM matches ORDER BY idx").fetchall()
    assert len(rows) == 4
    for spec, record in rows:
        spec, record = json.loads(spec), json.loads(record)
        first = [seat for seat, bot in enumerate(spec["bots"]) if bot == "first:one"]
        assert first and record["termination"]["how"] == "normal"
        # the toy seat really played: its every action is the first legal one (replayed below)
        from arena.games.base import FixedDecks
        from arena.plugins import get_registry

        game = get_registry().game("toy", record["options"])
        state = game.new_match(decks=FixedDecks([h["deck"] for h in record["hands"]], record["hands"][0]["dealer"]))
        for hand in record["hands"]:
            for seat, action in hand["actions"]:
                if seat in first:
                    assert action == state.legal_actions()[0]
                state.apply(action)
    assert "first" in done.stdout and "random" in done.stdout  # the board


def test_a_toy_rating_system_rates_the_board(tmp_path):
    """``--rating wins`` shows the toy's ratings, computed from the stored matches' rows, on the
    terminal board, in --json and on the HTML page; an unknown name lists the registered ones."""
    (tmp_path / "toys.toml").write_text(TOURNAMENT)
    ran = _arena("run", "toys.toml", "--db", "toys.db", "--quiet", "--rating", "wins", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    with sqlite3.connect(tmp_path / "toys.db") as db:
        stored = [(json.loads(s), json.loads(r)) for s, r in db.execute("SELECT spec, result FROM matches")]
    wins = dict.fromkeys(("first", "random"), 0)
    for spec, result in stored:
        firsts = [side for side, rank in enumerate(result["ranking"]) if rank == 0]
        if len(firsts) == 1:
            wins[spec["lineup"][(firsts[0] + spec["rotation"]) % 2]] += 1
    order = sorted(wins, key=lambda bot: (-wins[bot], bot))
    assert "rating wins (wins): matches won outright" in ran.stdout
    section = ran.stdout.split("rating wins (wins)")[1].splitlines()
    assert [line.split()[:2] for line in section[2:4]] == [[bot, f"{wins[bot]:.2f}"] for bot in order]
    shown = _arena("board", "--db", "toys.db", "--json", "--rating", "wins", "--rating", "trueskill",
                   "--html", "board.html", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    rows = {row["bot"]: row for row in json.loads(shown.stdout)}
    assert {bot: row["ratings"]["wins"]["rating"] for bot, row in rows.items()} == wins
    assert all(row["ratings"]["trueskill"]["rating"] == row["mu"] for row in rows.values())
    page = (tmp_path / "board.html").read_text()
    assert 'id="rating-wins"' in page and 'id="rating-trueskill"' in page
    plain = _arena("board", "--db", "toys.db", cwd=tmp_path)
    assert "rating wins" not in plain.stdout and "ratings" not in json.loads(
        _arena("board", "--db", "toys.db", "--json", cwd=tmp_path).stdout)[0]  # only when asked for
    unknown = _arena("board", "--db", "toys.db", "--rating", "elo", cwd=tmp_path)
    assert unknown.returncode == 2
    assert unknown.stderr.strip().endswith("unknown rating system 'elo'; rating systems: trueskill, bradley-terry, wins")


def test_a_toy_command_is_on_the_arena_command_line(tmp_path):
    done = _arena("extensions", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    assert "first" in lines["seat_kinds"].split(", ") and "grpc" in lines["seat_kinds"]
    assert "backwards" in lines["executors"] and {"local", "inline", "ray"} <= set(lines["executors"].split(", "))
    assert {"extensions", "play", "run", "bench", "serve-bot"} <= set(lines["commands"].split(", "))
    assert {"inprocess", "process"} <= set(lines["isolations"].split(", "))
    assert lines["rating_systems"] == "bradley-terry, trueskill, wins"
    helped = _arena("--help", cwd=tmp_path)
    assert "extensions" in helped.stdout and "list the registered extensions" in helped.stdout


def test_the_toy_seat_kind_checks_its_name_before_any_match(tmp_path):
    (tmp_path / "toys.toml").write_text(TOURNAMENT.replace('bot = "first:one"', 'bot = "first:"'))
    done = _arena("run", "toys.toml", "--db", "toys.db", "--quiet", cwd=tmp_path)
    assert done.returncode == 2 and "bots[0].bot" in done.stderr and "write first:NAME" in done.stderr
    assert not (tmp_path / "toys.db").exists() or sqlite3.connect(tmp_path / "toys.db").execute(
        "SELECT COUNT(result) FROM matches").fetchone()[0] == 0


def test_options_of_one_executor_refuse_another(tmp_path):
    (tmp_path / "toys.toml").write_text(TOURNAMENT)
    done = _arena("run", "toys.toml", "--executor", "inline", "--order-file", "x", cwd=tmp_path)
    assert done.returncode == 2 and "--order-file is for --executor backwards, not --executor inline" in done.stderr


class _Clash:
    @hookimpl
    def arena_register_seat_kinds(self):
        return [SeatKind("other-grpc", ("grpc://",), "clashes with the bundled grpc:// kind", lambda r: None)]


class _Twice:
    @hookimpl
    def arena_register_isolations(self):
        return [Isolation("process", "a second 'process' level", lambda spec, r: None)]


class _Wrong:
    @hookimpl
    def arena_register_executors(self):
        return ["not an executor"]


@pytest.mark.parametrize("plugin, message", [
    (_Clash(), "claims the prefix 'grpc://', already that of 'grpc'"),
    (_Twice(), "two plugins register the isolation level 'process'"),
    (_Wrong(), "as an executor, which is not an arena.kinds.ExecutorKind"),
])
def test_bad_registrations_name_what_is_wrong(plugin, message):
    with pytest.raises(PluginError) as caught:
        Registry(get_plugin_manager(plugins=[plugin]))
    assert message in str(caught.value)


def test_unknown_isolation_and_executor_say_what_is_registered(registry):
    with pytest.raises(ArenaError, match=r"unknown isolation level 'jail'; isolation levels: inprocess, process"):
        registry.isolation("jail")
    with pytest.raises(ArenaError, match=r"unknown executor 'slurm'; executors: .*local"):
        registry.executor("slurm")


def test_the_plugin_kinds_are_importable_from_their_older_homes():
    """The kinds live in arena.kinds; plugins written before it import them from where they were."""
    from arena import kinds
    from arena.commandline import Command
    from arena.players.seats import Isolation, SeatKind, SeatRequest
    from arena.plugins import hookimpl
    from arena.tournaments.executors import ExecutorKind

    assert (Command, Isolation, SeatKind, SeatRequest, ExecutorKind, hookimpl) == (
        kinds.Command, kinds.Isolation, kinds.SeatKind, kinds.SeatRequest, kinds.ExecutorKind, kinds.hookimpl)


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_a_toy_seat_kind_owns_its_trust_and_its_sandbox(tmp_path):
    """Not the arena's own, so a file without an isolation key runs sandboxed; at sandbox the seat
    kind hosts its player in a sandbox of its own, and the whole tournament plays."""
    script = (
        "from arena.plugins import get_registry\n"
        "from arena.players.seats import make_host\n"
        "from arena.players.trust import default_isolation\n"
        "registry = get_registry()\n"
        "print('DEFAULT', default_isolation(['first:one', 'random'], registry), "
        "default_isolation(['random'], registry))\n"
        "host = make_host(registry, 'first:one', game='toy', seed=0, isolation='sandbox')\n"
        "print('HOST', type(host).__name__, host.sandbox is not None, host.decide({'legal_actions': ['a', 'b']}, 10)[0])\n"
        "host.close()\n")
    env = dict(os.environ, TRICK_ARENA_PLUGINS=TOYS, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "DEFAULT sandbox process" in done.stdout and "HOST SandboxHost True a" in done.stdout, done.stdout
    (tmp_path / "toys.toml").write_text(TOURNAMENT.replace('isolation = "inprocess"\n', ""))
    ran = _arena("run", "toys.toml", "--db", "toys.db", "--quiet", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    with sqlite3.connect(tmp_path / "toys.db") as db:
        results = [json.loads(row[0]) for row in db.execute("SELECT result FROM matches")]
    assert len(results) == 4 and all(r["isolation"] == "sandbox" and not r["faults"] for r in results)
