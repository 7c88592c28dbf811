"""BotDescription.ignores: a bot that says it does not need EndHand (or EndMatch) is not sent it; a bot
that says nothing (an older bot) gets every call as before. Loopback only."""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from concurrent import futures
from typing import Iterator

import grpc

from arena.players.base import Player
from arena.players.serve import ignorable
from bots.random_bot import RandomBot
from tests.grpc_support import comparable, play, served
from arena.v1 import player_pb2 as pb


@contextlib.contextmanager
def counting_bot(ignores: list[str]) -> Iterator[tuple[str, Counter]]:
    """A bare ``arena.v1.Player`` server that describes itself with ``ignores``, answers the first
    legal action and counts the calls it gets by method. Yields (its address, the counts)."""
    calls: Counter = Counter()

    def method(name, answer):
        def handle(request: bytes, context) -> bytes:
            calls[name] += 1
            return answer(request)
        return grpc.unary_unary_rpc_method_handler(handle)

    describe = pb.BotDescription(name="counting", protocol_version=pb.PROTOCOL_VERSION_1, ignores=ignores)
    decide = lambda request: pb.Decision(action=pb.DecisionRequest.FromString(request).legal_actions[0])
    handler = grpc.method_handlers_generic_handler("arena.v1.Player", {
        "Describe": method("Describe", lambda request: describe.SerializeToString()),
        "StartMatch": method("StartMatch", lambda request: b""),
        "Decide": method("Decide", lambda request: decide(request).SerializeToString()),
        "EndHand": method("EndHand", lambda request: b""),
        "EndMatch": method("EndMatch", lambda request: b""),
    })
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2), handlers=[handler])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"grpc://127.0.0.1:{port}", calls
    finally:
        server.stop(0)


def test_a_bot_that_ignores_end_hand_gets_none_and_an_old_bot_gets_every_one(registry):
    with counting_bot([]) as (old, old_calls), counting_bot(["end_hand"]) as (new, new_calls):
        result = play(registry, [old, new])
    hands = len(result.record["hands"])
    assert result.termination.how == "normal" and hands > 1
    assert old_calls == Counter(Describe=1, StartMatch=1, EndMatch=1, EndHand=hands, Decide=old_calls["Decide"])
    assert new_calls == Counter(Describe=1, StartMatch=1, EndMatch=1, Decide=new_calls["Decide"])


def test_end_match_can_be_ignored_and_unknown_names_are_harmless(registry):
    ignores = ["end_match", "end_hand", "start_match", "close", "something_new"]
    hosts: list = []
    with counting_bot(ignores) as (address, calls):
        result = play(registry, [address, "random"], hosts_out=hosts)
    assert result.termination.how == "normal"
    assert hosts[0].ignored == {"end_hand", "end_match"}
    assert calls == Counter(Describe=1, StartMatch=1, Decide=calls["Decide"])  # StartMatch is always sent


class Listener(Player):
    """Implements end_hand: it must be told every hand."""

    def __init__(self, seed: int, log: list):
        self.random = RandomBot(seed)
        self.log = log

    def act(self, observation):
        return self.random.act(observation)

    def end_hand(self, result):
        self.log.append(result["hand_index"])


def test_a_served_bot_declares_what_its_player_does_not_implement(registry):
    assert ignorable(RandomBot()) == {"end_hand", "end_match"}
    assert ignorable(Listener(0, [])) == {"end_match"}

    class Closer(RandomBot):
        def close(self):
            pass

    assert ignorable(Closer()) == {"end_hand"}  # EndMatch is what closes a served player
    with served(registry.bot("random")) as server:
        assert list(server.service.description.ignores) == ["end_hand", "end_match"]
        hosts: list = []
        remote = play(registry, [server.url, "random"], hosts_out=hosts)
    assert hosts[0].ignored == {"end_hand", "end_match"}
    assert comparable(remote.record) == comparable(play(registry, ["random", "random"]).record)
    with served(registry.bot("random"), ignores=()) as server:
        assert list(server.service.description.ignores) == []


def test_a_served_player_that_implements_end_hand_is_told_every_hand(registry):
    told: list = []
    with served(lambda settings, seed: Listener(seed, told)) as server:
        assert list(server.service.description.ignores) == ["end_match"]
        result = play(registry, [server.url, "random"])
    assert told == list(range(len(result.record["hands"])))


def test_a_player_of_another_kind_than_the_probe_narrows_the_description(registry, caplog):
    """The server probes a player made with no settings; a match whose settings make a player that
    needs end_hand is logged, and from the next match on the arena sends EndHand."""
    told: list = []
    factory = lambda settings, seed: Listener(seed, told) if settings.get("listen") else RandomBot(seed)
    with served(factory) as server:
        assert list(server.service.description.ignores) == ["end_hand", "end_match"]
        with caplog.at_level(logging.WARNING, logger="arena.players.serve"):
            play(registry, [server.url, "random"], settings={0: {"listen": True}})
        assert "implements end_hand" in caplog.text
        assert list(server.service.description.ignores) == ["end_match"]
        result = play(registry, [server.url, "random"], settings={0: {"listen": True}})
    assert told == list(range(len(result.record["hands"])))
