"""A gRPC bot that misbehaves gets the fault a plugin bot gets, with the cause recorded, and the arena
carries on (loopback only). Issue: the gRPC player interface."""

from __future__ import annotations

import os
import signal
import socket
import time

import pytest

from arena.players.base import MatchInfo, Player
from arena.players.hosts import BotTimeout
from arena.players.remote import GrpcHost
from arena.referee import FaultPolicy
from tests.grpc_support import PYTHON, comparable, fault_rows, play, raw_bot, served

SUBSTITUTE = FaultPolicy.uniform("substitute", max_faults=3)
KINDS = {"illegal": "illegal", "garbage": "malformed", "sleepy": "timeout", "raising": "crash"}


def test_a_grpc_bot_plays_exactly_like_the_same_plugin_bot(registry):
    """Same observations, same seeds: the same game record, decision for decision."""
    plugin = play(registry, ["random", "random"])
    with served(registry.bot("random")) as server:
        remote = play(registry, [server.url, "random"])
        both = play(registry, [server.url, server.url])  # one server, two sessions at once
    assert remote.termination.how == both.termination.how == "normal"
    assert comparable(remote.record) == comparable(plugin.record) == comparable(both.record)
    assert remote.record["seats"] == [server.url, "random"]
    assert [t["decisions"] for t in remote.think_times] == [t["decisions"] for t in plugin.think_times]
    assert all(t is not None and t >= 0 for hand in remote.record["hands"] for t, (seat, _) in
               zip(hand["times"], hand["actions"]) if seat == 0 and t is not None)


@pytest.mark.parametrize("bad", sorted(KINDS))
def test_each_fault_is_the_one_a_plugin_bot_gets_and_the_match_goes_on(registry, bad):
    """Substitute policy, misbehaving from the second decision: three faults, then a forfeit,
    exactly where the plugin bot has them, with the same substituted actions."""
    settings = {0: {"after": 1}}
    plugin = play(registry, [f"bad-{bad}", "random"], policy=SUBSTITUTE, per_decision=0.25, settings=settings)
    with served(registry.bot(f"bad-{bad}")) as server:
        remote = play(registry, [server.url, "random"], policy=SUBSTITUTE, per_decision=0.25, settings=settings)
    assert [f.kind.value for f in remote.faults] == [KINDS[bad]] * 3
    assert fault_rows(remote) == fault_rows(plugin)
    assert remote.termination.how == "forfeit" and remote.winners == plugin.winners == [1]
    assert comparable(remote.record) == comparable(plugin.record)
    for mine, theirs in zip(remote.faults, plugin.faults):
        assert mine.message
        # a string arrives as it was; anything else cannot be sent, and arrives as no action
        assert mine.answer == theirs.answer or mine.answer == "<a Decision without an action>"
    if bad == "raising":
        assert "RuntimeError: this bot is broken" in remote.faults[0].message


def test_an_unreachable_bot_is_a_crash_at_the_start(registry):
    with socket.socket() as sock:  # a port that nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    start = time.perf_counter()
    result = play(registry, [f"grpc://127.0.0.1:{port}", "random"])
    assert time.perf_counter() - start < 5
    fault = result.termination.forfeit
    assert result.termination.how == "forfeit" and fault.seat == 0 and fault.kind.value == "crash"
    assert "unreachable" in fault.message and f"127.0.0.1:{port}" in fault.message
    assert result.record["termination"]["fault"]["kind"] == "crash" and result.winners == [1]


def test_a_server_that_never_answers_times_out_instead_of_hanging():
    with socket.socket() as sock:  # accepts connections, says nothing
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        host = GrpcHost(f"grpc://127.0.0.1:{sock.getsockname()[1]}")
        start = time.perf_counter()
        with pytest.raises(BotTimeout):
            host.start(MatchInfo("toy", {}, 0, ("a", "b")), 0.3)
        assert time.perf_counter() - start < 2
        host.close()


def test_a_bot_whose_server_dies_mid_match_crashes_and_the_arena_carries_on(registry):
    with served(registry.bot("random")) as server:
        def kill_after_ten(state, seat, action, elapsed):
            if sum(len(deal["actions"]) for deal in state.deals) == 10:
                server.stop(0)

        result = play(registry, [server.url, "random"], on_action=kill_after_ten)
    fault = result.termination.forfeit
    assert result.termination.how == "forfeit" and fault.seat == 0 and fault.kind.value == "crash"
    assert "disconnected" in fault.message
    assert result.winners == [1] and result.record["faults"][0]["kind"] == "crash"


def test_a_launched_bot_killed_mid_match_is_restarted_like_an_isolated_one(registry):
    hosts: list = []
    killed: list = []

    def kill_once(state, seat, action, elapsed):
        if not killed and sum(len(deal["actions"]) for deal in state.deals) >= 6:
            killed.append(hosts[0].process.pid)
            os.kill(hosts[0].process.pid, signal.SIGKILL)

    command = f"cmd:{PYTHON} -m arena.players.serve random --port {{port}}"
    result = play(registry, [command, "random"], policy=SUBSTITUTE, on_action=kill_once, hosts_out=hosts,
                  per_decision=5.0)
    assert killed and hosts[0].restarts == 1
    assert [f.kind.value for f in result.faults] == ["crash"]
    assert "exited with code -9" in result.faults[0].message
    assert result.termination.how == "normal"  # the substitute was played, the new process played on


class HugeAnswer(Player):
    def act(self, observation):
        return "play " + "A" * 100_000


@pytest.mark.parametrize("bot_send_limit", [None, 16 * 1024 * 1024])
def test_an_oversized_answer_is_malformed(registry, bot_send_limit):
    """Refused by the bot's own server (its send limit) or by the arena (its receive limit)."""
    kwargs = {"max_send": bot_send_limit} if bot_send_limit else {}
    with served(lambda settings, seed: HugeAnswer(), **kwargs) as server:
        result = play(registry, [server.url, "random"])
    fault = result.termination.forfeit
    assert fault.kind.value == "malformed" and "oversized Decision" in fault.answer
    assert "larger than max" in fault.message


def test_bytes_that_are_no_decision_are_malformed(registry):
    with raw_bot(lambda request: b"\x0a\x03\xff\xfe\xfd") as address:  # field 1: not UTF-8
        result = play(registry, [address, "random"])
    fault = result.termination.forfeit
    assert fault.kind.value == "malformed" and "unparseable Decision" in fault.answer


def test_a_decision_without_an_action_is_malformed(registry):
    with raw_bot(lambda request: b"") as address:
        result = play(registry, [address, "random"])
    fault = result.termination.forfeit
    assert fault.kind.value == "malformed" and "without an action" in fault.answer


def test_a_bot_of_another_protocol_version_or_game_crashes_at_the_start(registry):
    with served(registry.bot("random")) as server:
        server.service.description.protocol_version = 2
        result = play(registry, [server.url, "random"])
    assert result.termination.forfeit.kind.value == "crash"
    assert "protocol version 2" in result.termination.forfeit.message
    with served(registry.bot("random"), games=["five_hundred"]) as server:
        result = play(registry, [server.url, "random"])
    assert "does not play 'toy'" in result.termination.forfeit.message


def test_a_bank_is_shared_across_the_wire(registry):
    seen = []

    class Watcher(Player):
        def act(self, observation):
            seen.append((observation["time_left"], observation["bank_left"]))
            return observation["legal_actions"][0]

    with served(lambda settings, seed: Watcher()) as server:
        from arena.players.seats import make_host
        from arena.referee import Referee, TimeControl

        game = registry.game("toy", {"target": 3})
        hosts = [make_host(registry, server.url, game="toy", seed=0), make_host(registry, "random", game="toy", seed=1)]
        try:
            Referee(game, hosts, [server.url, "random"], time_control=TimeControl(2.0, bank=3.0, increment=0.5)).play()
        finally:
            for host in hosts:
                host.close()
    assert seen[0] == (2.0, 3.0)
    assert all(bank is not None and time_left <= 2.0 for time_left, bank in seen)


def test_a_bot_that_refuses_the_arena_s_request_as_too_large_crashes(registry):
    """The bot's own receive limit is too small for an observation: its fault, but not a malformed answer."""
    with served(registry.bot("random"), max_receive=300) as server:
        result = play(registry, [server.url, "random"])
    fault = result.termination.forfeit
    assert fault.kind.value == "crash" and "refused a request of" in fault.message, fault.message
