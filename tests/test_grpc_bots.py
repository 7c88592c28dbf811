"""End to end: launched bots (`cmd:`), the `serve-bot` command, and the JavaScript bot facing Python
bots over gRPC. Five Hundred when it is installed, the toy game until then."""

from __future__ import annotations

import argparse
import shlex

import pytest

from arena.commandline import add_command
from arena.players.serve_command import SERVE_BOT as SERVE_BOT_COMMAND, cmd_serve_bot
from arena.records import replay
from tests.grpc_support import PYTHON, ROOT, install_js_bot, play, served

# The serve-bot subcommand exactly as `arena` wires it: the registered command, its `run` called.
SERVE_BOT = """
import sys
from arena.commandline import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture(scope="module")
def js_bot():
    return install_js_bot()


def _game(registry):
    """Five Hundred once it is registered; the two-player toy game until then."""
    if "five_hundred" in registry.games:
        return registry.game("five_hundred")
    return registry.game("toy", {"target": 6})


def _check_normal(registry, result, names):
    assert result.termination.how == "normal", result.termination
    assert not result.faults, [f.message for f in result.faults]
    assert result.record["seats"] == list(names)
    assert all(times["decisions"] > 0 for times in result.think_times)
    replayed = replay(result.record, make_game=registry.game)
    assert replayed.state.scores() == result.scores


def test_the_serve_bot_parser(registry):
    assert registry.commands["serve-bot"] is SERVE_BOT_COMMAND  # registered through its entry point
    parser = argparse.ArgumentParser(prog="arena")
    add_command(parser.add_subparsers(dest="command"), SERVE_BOT_COMMAND, registry)
    args = parser.parse_args(["serve-bot", "random", "--port", "5123"])
    assert (args.bot, args.port, args.host, args.tls_cert) == ("random", 5123, "127.0.0.1", None)
    assert args.run is cmd_serve_bot


def test_serve_bot_launched_as_a_command_plays_and_stops_cleanly(registry):
    processes = []
    command = "cmd:" + shlex.join([PYTHON, "-c", SERVE_BOT, "serve-bot", "random"])  # the port: $ARENA_BOT_PORT
    hosts: list = []
    result = play(registry, [command, "random"], per_decision=5.0, hosts_out=hosts,
                  on_action=lambda *_: processes.append(hosts[0].process))
    _check_normal(registry, result, [command, "random"])
    assert hosts[0].description["name"] == "random"
    assert hosts[0].ignored == {"end_hand", "end_match"}  # the random player implements neither
    assert processes[-1].returncode == 0  # it was asked to stop (SIGTERM) and did so by itself


def test_a_misbehaving_launched_bot_from_a_plugin_module(registry):
    # bad-illegal is a test plugin: the launched process finds it through $TRICK_ARENA_PLUGINS (conftest)
    command = f"cmd:{PYTHON} -m arena.players.serve bad-illegal --port {{port}}"
    result = play(registry, [command, "random"], per_decision=5.0)
    fault = result.termination.forfeit
    assert fault.kind.value == "illegal", fault.message
    assert fault.seat == 0 and fault.answer.startswith("play ")


def test_a_command_that_never_serves_is_a_crash(registry):
    from arena.players.command import CommandHost

    host = CommandHost(f"{PYTHON} -c 'import time; time.sleep(30)'", startup_timeout=0.5)
    from arena.players.base import MatchInfo
    from arena.players.hosts import BotCrash

    try:
        with pytest.raises(BotCrash, match="health check"):
            host.start(MatchInfo("toy", {}, 0, ("a", "b")), 1.0)
    finally:
        host.close()
    assert host.process is None


def test_four_grpc_bots_among_them_javascript(registry, js_bot):
    game = _game(registry)
    with served(registry.bot("random")) as server:
        names = [js_bot, server.url] * (game.players // 2)
        hosts: list = []
        result = play(registry, names, game=game, per_decision=5.0, hosts_out=hosts)
    _check_normal(registry, result, names)
    assert hosts[0].ignored == frozenset()  # the JavaScript bot declares nothing: it is sent every call
    assert hosts[1].ignored == {"end_hand", "end_match"}


def test_plugin_bots_and_grpc_bots_together(registry, js_bot):
    game = _game(registry)
    with served(registry.bot("random")) as server:
        names = ["random", js_bot, "random", server.url][: game.players] if game.players == 4 else [js_bot, "random"]
        result = play(registry, names, game=game, per_decision=5.0)
    _check_normal(registry, result, names)


def test_the_javascript_bot_is_reproducible_from_its_seed(registry, js_bot):
    game = registry.game("toy", {"target": 6})
    first = play(registry, [js_bot, "random"], game=game, per_decision=5.0)
    again = play(registry, [js_bot, "random"], game=game, per_decision=5.0)
    assert first.record["hands"][0]["actions"] == again.record["hands"][0]["actions"]
    assert [h["actions"] for h in first.record["hands"]] == [h["actions"] for h in again.record["hands"]]
    assert ROOT.joinpath("bots/js_random/package-lock.json").is_file()
