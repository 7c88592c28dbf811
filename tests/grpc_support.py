"""Helpers of the gRPC tests (tests/test_grpc_*.py): play a match, serve bots, a misbehaving server.

Everything listens on 127.0.0.1 only, on ports the OS picks.
"""

from __future__ import annotations

import contextlib
import shlex
import shutil
import subprocess
import sys
from concurrent import futures
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import grpc
import pytest

from arena.matches import MatchSpec, open_hosts, referee_for
from arena.players.serve import BotServer, serve_player
from arena.referee import FaultPolicy, TimeControl
from arena.v1 import player_pb2 as pb

ROOT = Path(__file__).resolve().parents[1]
JS_BOT = ROOT / "bots" / "js_random"
PYTHON = sys.executable


def play(
    registry: Any,
    names: Sequence[str],
    *,
    game: Any = None,
    policy: FaultPolicy | None = None,
    per_decision: float = 1.0,
    settings: dict[int, dict[str, Any]] | None = None,
    seed: int = 1,
    on_action: Callable[..., None] | None = None,
    hosts_out: list | None = None,
):
    """Play one match among the seats ``names`` (bot names, grpc:// addresses, cmd: commands)."""
    game = game or registry.game("toy", {"target": 6})
    spec = MatchSpec.single(game.name, list(names), seed=seed, options=game.options,
                            settings=[(settings or {}).get(seat) or {} for seat in range(len(names))],
                            time_control=TimeControl(per_decision), policy=policy, bot_seeds=range(len(names)))
    with open_hosts(registry, spec, game) as hosts:
        if hosts_out is not None:
            hosts_out.extend(hosts)
        return referee_for(spec, game, hosts, on_action=on_action).play()


@contextlib.contextmanager
def served(bot: Any, **kwargs: Any) -> Iterator[BotServer]:
    """A bot served over gRPC in this process (on a free loopback port) for the ``with`` block."""
    server = serve_player(bot, **kwargs)
    try:
        yield server
    finally:
        server.stop(0)


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A game record without what differs between two hostings of the same bots (names, times)."""
    record = {key: value for key, value in record.items() if key not in ("seats", "faults", "termination")}
    record["hands"] = [{key: value for key, value in hand.items() if key != "times"} for hand in record["hands"]]
    return record


def fault_rows(result: Any) -> list[tuple]:
    """What a fault is, apart from how it is worded: (seat, kind, response, hand, action, substituted)."""
    return [(f.seat, f.kind.value, f.response.value, f.hand, f.action_index, f.substituted) for f in result.faults]


# -- a bot server that misbehaves below the level of the generated code ------------------------------


@contextlib.contextmanager
def raw_bot(decide: Callable[[bytes], bytes]) -> Iterator[str]:
    """A server of ``arena.v1.Player`` whose Decide answers whatever bytes ``decide`` returns
    (e.g. bytes that are no Decision). Describe and the notifications behave. Yields its address."""

    def describe(request: bytes, context: Any) -> bytes:
        return pb.BotDescription(name="raw", protocol_version=pb.PROTOCOL_VERSION_1).SerializeToString()

    def ack(request: bytes, context: Any) -> bytes:
        return b""

    handler = grpc.method_handlers_generic_handler("arena.v1.Player", {
        "Describe": grpc.unary_unary_rpc_method_handler(describe),
        "StartMatch": grpc.unary_unary_rpc_method_handler(ack),
        "Decide": grpc.unary_unary_rpc_method_handler(lambda request, context: decide(request)),
        "EndHand": grpc.unary_unary_rpc_method_handler(ack),
        "EndMatch": grpc.unary_unary_rpc_method_handler(ack),
    })
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2), handlers=[handler],
                         options=[("grpc.max_send_message_length", 16 * 1024 * 1024)])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"grpc://127.0.0.1:{port}"
    finally:
        server.stop(0)


# -- the JavaScript bot ------------------------------------------------------------------------------


def install_js_bot() -> str:
    """``npm ci`` in bots/js_random; return the seat that launches it. Skips only when node is missing."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None:
        pytest.skip("node is not installed: the JavaScript bot cannot run")
    if npm is None:
        pytest.skip("npm is not installed: the JavaScript bot's packages cannot be installed")
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=JS_BOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, f"npm ci failed in {JS_BOT}:\n{done.stdout}\n{done.stderr}"
    return "cmd:" + shlex.join([node, str(JS_BOT / "bot.js")])
