"""How fast does the arena play against gRPC bots on loopback? Decisions per second of whole matches.

Four figures, all with the same seeded random bot in every seat:

* ``plugin``: the bot in the arena's process (no wire): the referee and the engine alone;
* ``grpc, server in-process``: every seat is ``grpc://`` to a bot server on threads of this process;
* ``grpc, server process``: every seat is ``grpc://`` to ``python -m arena.players.serve random``
  running in a process of its own (what a real bot looks like);
* ``bare unary call``: one gRPC call carrying as many bytes as the average DecisionRequest of
  those matches, answered at once (no referee, no engine, no JSON): the transport's ceiling.

A decision is one question to a bot (forced moves are not asked). Five Hundred when installed,
else the toy game of the tests. Run: ``python benchmarks/grpc_match_rate.py [--seconds 5]``.
Loopback only; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
os.environ.setdefault("TRICK_ARENA_PLUGINS", "tests.plugins.toy_game")

import grpc  # noqa: E402

from arena import wire  # noqa: E402
from arena.players.seats import make_host  # noqa: E402
from arena.players.ports import free_port  # noqa: E402
from arena.players.remote import GrpcHost  # noqa: E402
from arena.players.serve import serve_player  # noqa: E402
from arena.plugins import Registry, get_plugin_manager, get_registry  # noqa: E402
from arena.referee import Referee, TimeControl  # noqa: E402


def registry_and_game(name: str | None):
    registry = get_registry()
    if name is None:
        name = "five_hundred" if "five_hundred" in registry.games else "toy"
    if name == "five_hundred" and name not in registry.games:  # written but not registered yet
        from arena.games.five_hundred import plugin

        registry = Registry(get_plugin_manager(plugins=[plugin]))
    return registry, registry.game(name)


class Sizes:
    """Wraps a host to record the size of each DecisionRequest it sends."""

    def __init__(self):
        self.total = 0
        self.count = 0

    def watch(self, host):
        original = host.decide

        def decide(observation, timeout):
            self.total += wire.observation_to_proto(observation, host.session_id, 1).ByteSize()
            self.count += 1
            return original(observation, timeout)

        host.decide = decide
        return host


def match_rate(registry, game, seats, seconds, sizes=None):
    """(decisions per second, matches played, mean seconds of one decision as the referee timed it,
    calls per decision) over ``seconds`` of whole matches."""
    decisions, elapsed, matches, thinking, calls = 0, 0.0, 0, 0.0, 0
    while elapsed < seconds:
        hosts = [make_host(registry, name, game=game.name, seed=seat + 10 * matches) for seat, name in enumerate(seats)]
        if sizes is not None:
            hosts = [sizes.watch(h) if isinstance(h, GrpcHost) else h for h in hosts]
        start = time.perf_counter()
        result = Referee(game, hosts, seats, seed=matches, time_control=TimeControl(5.0)).play()
        elapsed += time.perf_counter() - start
        for host in hosts:
            host.close()
        assert result.termination.how != "forfeit", result.termination
        decisions += sum(times["decisions"] for times in result.think_times)
        thinking += sum(times["total"] for times in result.think_times)
        calls += players_calls(result, hosts)
        matches += 1
    return decisions / elapsed, matches, thinking / decisions, calls / decisions


def players_calls(result, hosts) -> int:
    """Calls the seats get in this match: Describe, StartMatch, their decisions, and EndHand per hand
    and EndMatch unless the bot's description says it ignores them (the served random bot does)."""
    calls = 0
    for host, times in zip(hosts, result.think_times):
        ignored = getattr(host, "ignored", frozenset())
        calls += 2 + times["decisions"] + ("end_hand" not in ignored) * len(result.hands) + ("end_match" not in ignored)
    return calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per figure (default 5)")
    parser.add_argument("--game", default=None, help="the game (default five_hundred if installed, else toy)")
    args = parser.parse_args()
    registry, game = registry_and_game(args.game)
    players = game.players
    rows = []

    rate, matches, _, _ = match_rate(registry, game, ["random"] * players, args.seconds)
    rows.append(("plugin (no wire)", rate, matches))

    sizes = Sizes()
    with serve_player(registry.bot("random")) as server:
        rate, matches, decide, calls = match_rate(registry, game, [server.url] * players, args.seconds, sizes)
    rows.append(("grpc, server in-process", rate, matches))
    notes = [f"grpc, server in-process: one Decide as the referee times it {decide * 1e6:.0f} us; "
             f"{calls:.2f} calls per decision (Describe, StartMatch and the notifications it does not ignore included)"]

    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "arena.players.serve", "random", "--port", str(port)],
                               cwd=ROOT, stdout=subprocess.DEVNULL, env={**os.environ})
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
        rate, matches, decide, calls = match_rate(registry, game, [f"grpc://127.0.0.1:{port}"] * players, args.seconds)
        rows.append(("grpc, server process", rate, matches))
        notes.append(f"grpc, server process: one Decide as the referee times it {decide * 1e6:.0f} us")
    finally:
        process.terminate()
        process.wait(10)

    import grpc_transport

    size = round(sizes.total / max(sizes.count, 1))
    server, port = grpc_transport.start_server()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc_transport.run_unary(channel, b"x" * size, 0.5)
            rate = grpc_transport.run_unary(channel, b"x" * size, args.seconds)
    finally:
        server.stop(0)
    rows.append((f"bare unary call ({size} B)", rate, None))

    print(f"{game.title}, {players} seats, random bots; grpcio {grpc.__version__}; "
          f"mean DecisionRequest {size} B; {args.seconds:.0f} s per figure")
    base = rows[0][1]
    for name, rate, matches in rows:
        extra = "" if name.startswith("plugin") or name.startswith("bare") else f"  (+{(1 / rate - 1 / base) * 1e6:.0f} us per decision over plugin)"
        played = f", {matches} matches" if matches else ""
        print(f"  {name:<28} {rate:8.0f} decisions/s  ({1e6 / rate:5.0f} us each{played}){extra}")
    for note in notes:
        print(f"  {note}")


if __name__ == "__main__":
    main()
