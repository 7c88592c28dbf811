"""arena.wire (the one converter to and from protobuf), addresses, and seat names in make_host."""

from __future__ import annotations

import json

import pytest

from arena import wire
from arena.players.hosts import Garbage
from arena.errors import ArenaError
from arena.players.base import MatchInfo
from arena.players.seats import make_host, seat_kind_of
from arena.players.command import CommandHost
from arena.players.remote import GrpcHost, command_argv, parse_address
from arena.plugins import get_registry
from arena.v1 import player_pb2 as pb

OBSERVATION = {
    "game": "toy", "seat": 1, "side": 1, "players": 2, "phase": "play", "hand_index": 0, "dealer": 0,
    "hand": ["9S", "QH"], "legal_actions": ["play 9S", "play QH"], "to_act": 1,
    "history": [[0, "play AS"]], "scores": [0, 0], "contract": None, "trick": [[0, "AS"]],
    "tricks_won": [0, 0], "time_left": 0.75, "bank_left": None, "note": "ünïcode ♠",
}


def test_an_observation_arrives_exactly_as_it_was_sent():
    request = wire.observation_to_proto(OBSERVATION, "s1", 3)
    again = pb.DecisionRequest.FromString(request.SerializeToString())
    assert wire.observation_from_proto(again) == OBSERVATION
    assert list(again.legal_actions) == OBSERVATION["legal_actions"]
    assert (again.time_left, again.seat, again.phase, again.session_id, again.decision) == (0.75, 1, "play", "s1", 3)
    assert not again.HasField("bank_left")
    with_bank = wire.observation_to_proto({**OBSERVATION, "bank_left": 12.5}, "s1", 4)
    assert with_bank.bank_left == 12.5 and wire.observation_from_proto(with_bank)["bank_left"] == 12.5


def _same(a, b):
    """Equal, with the same key order and the same types all the way down (1 == 1.0 is not enough)."""
    return json.dumps(a) == json.dumps(b) and a == b and list(a) == list(b)


def test_the_bot_s_lazy_observation_is_the_eager_one():
    message = pb.DecisionRequest.FromString(wire.observation_to_proto(OBSERVATION, "s1", 3).SerializeToString())
    lazy = wire.lazy_observation_from_proto(message)
    assert lazy["legal_actions"] == OBSERVATION["legal_actions"] and not lazy.built  # no JSON parsed yet
    assert _same(lazy, OBSERVATION) and lazy.built
    typed_only = pb.DecisionRequest(legal_actions=["pass"], time_left=2.0, seat=3, phase="bidding")
    assert _same(wire.lazy_observation_from_proto(typed_only), wire.observation_from_proto(typed_only))


@pytest.mark.parametrize("game_name", sorted(get_registry().games))
def test_every_observation_of_a_match_reaches_a_served_bot_unchanged(registry, game_name):
    """What a bot behind the wire reads, lazily or all at once, is the observation a plugin bot gets."""
    from arena.players.seats import make_host
    from arena.referee import Referee, TimeControl

    game = registry.game(game_name)
    checked = []

    class Wire:
        def __init__(self, inner):
            self.inner = inner

        def start(self, info, timeout):
            self.inner.start(info, timeout)

        def decide(self, observation, timeout):
            sent = pb.DecisionRequest.FromString(
                wire.observation_to_proto(observation, "s", 1).SerializeToString())
            plain = dict(observation)
            lazy = wire.lazy_observation_from_proto(sent)
            assert _same(wire.observation_from_proto(sent), plain)
            assert lazy.get("legal_actions") == plain["legal_actions"] and _same(lazy, plain)
            checked.append(1)
            return self.inner.decide(observation, timeout)

        def notify(self, event, payload, timeout):
            self.inner.notify(event, payload, timeout)

        def close(self):
            self.inner.close()

    hosts = [Wire(make_host(registry, "random", game=game.name, seed=seat)) for seat in range(game.players)]
    Referee(game, hosts, ["random"] * game.players, seed=7, time_control=TimeControl(5.0)).play()
    assert checked


def test_typed_fields_fill_in_an_observation_without_json():
    request = pb.DecisionRequest(legal_actions=["pass", "bid 6S"], time_left=2.0, seat=3, phase="bidding")
    assert wire.observation_from_proto(request) == {
        "legal_actions": ["pass", "bid 6S"], "time_left": 2.0, "bank_left": None, "seat": 3, "phase": "bidding"}


@pytest.mark.parametrize("bank", [None, 60.0])
def test_the_start_of_a_match_round_trips(bank):
    info = MatchInfo("toy", {"target": 6, "max_hands": None}, 1, ("grpc://127.0.0.1:1", "random"),
                     {"per_decision": 0.5, "bank": bank, "increment": 0.1}, "m-7")
    request = pb.StartMatchRequest.FromString(wire.start_to_proto(info, "s9", 1234, {"depth": 2}).SerializeToString())
    assert wire.start_from_proto(request) == (info, 1234, {"depth": 2})
    assert request.session_id == "s9" and request.time_control.HasField("bank") is (bank is not None)


def test_answers_and_what_is_not_an_answer():
    assert wire.decision_from_proto(wire.decision_to_proto("play 10H")) == "play 10H"
    assert wire.decision_from_proto(wire.decision_to_proto("")) == ""  # present but empty: the referee judges
    for answer in (None, 42, ["play AS"], b"play AS", "\ud800"):
        garbage = wire.decision_from_proto(wire.decision_to_proto(answer))
        assert isinstance(garbage, Garbage) and "without an action" in repr(garbage)


def test_results_and_descriptions_round_trip():
    result = {"hand_index": 2, "scores": [10, -20], "changes": [10, 0]}
    assert wire.end_hand_from_proto(wire.end_hand_to_proto(result, "s")) == result
    end = {"scores": [1, 2], "winners": [1], "termination": {"how": "normal"}, "seat": 0}
    assert wire.end_match_from_proto(wire.end_match_to_proto(end, "s")) == end
    described = wire.description_from_proto(wire.description_to_proto("b", "1.2", None, "x"))
    assert described == {"name": "b", "version": "1.2", "protocol_version": 1, "games": None, "summary": "x",
                         "ignores": frozenset(), "owner_key": ""}
    assert wire.description_from_proto(wire.description_to_proto("b", games=("toy",)))["games"] == ["toy"]
    assert wire.description_from_proto(wire.description_to_proto("b", owner_key="ek_x"))["owner_key"] == "ek_x"


def test_a_description_s_ignores_keep_only_what_the_arena_can_skip():
    message = pb.BotDescription.FromString(
        wire.description_to_proto("b", ignores=["end_match", "end_hand"]).SerializeToString())
    assert list(message.ignores) == ["end_hand", "end_match"]
    assert wire.description_from_proto(message)["ignores"] == {"end_hand", "end_match"}
    # StartMatch opens the session, and names the arena does not know are harmless: they are dropped
    odd = pb.BotDescription(ignores=["start_match", "close", "decide", "EndHand", "end_hand"])
    assert wire.description_from_proto(odd)["ignores"] == {"end_hand"}


def test_bad_json_is_refused_with_the_field_named():
    with pytest.raises(ValueError, match="observation_json"):
        wire.observation_from_proto(pb.DecisionRequest(observation_json="[1, 2]"))


@pytest.mark.parametrize("text, target, tls", [
    ("grpc://127.0.0.1:50051", "127.0.0.1:50051", False),
    ("grpcs://bots.example.org:443", "bots.example.org:443", True),
    ("grpc://[::1]:7000", "[::1]:7000", False),
])
def test_addresses(text, target, tls):
    address = parse_address(text)
    assert (address.target, address.tls, str(address)) == (target, tls, text)


@pytest.mark.parametrize("text", ["grpc://127.0.0.1", "grpc://:5000", "grpc://h:99999", "grpc://h:1/x", "http://h:1"])
def test_bad_addresses_are_configuration_errors(text):
    with pytest.raises(ArenaError, match="gRPC address"):
        parse_address(text)


def test_commands_are_split_like_a_shell_without_one():
    assert command_argv("node 'my bots/bot.js' --port {port}", 5001) == ["node", "my bots/bot.js", "--port", "5001"]
    with pytest.raises(ArenaError):
        command_argv("node 'unclosed", 1)


def test_make_host_knows_the_three_kinds_of_seat(registry):
    assert seat_kind_of(registry, "random") is None
    assert seat_kind_of(registry, "grpc://h:1").name == seat_kind_of(registry, " grpcs://h:1").name == "grpc"
    assert seat_kind_of(registry, "cmd:node x.js").name == "cmd"
    host = make_host(registry, "grpc://127.0.0.1:9", game="toy", seed=5, settings={"a": 1})
    assert isinstance(host, GrpcHost) and host.seed == 5 and host.settings == {"a": 1}
    host.close()
    with pytest.raises(ArenaError):
        make_host(registry, "grpc://nowhere", game="toy", seed=0)
    host = make_host(registry, "cmd:definitely-not-a-command-xyz", game="toy", seed=0)
    assert isinstance(host, CommandHost)
    host.close()
