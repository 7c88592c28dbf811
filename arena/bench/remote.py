"""gRPC bots on loopback against the raw round trip of a bare gRPC call.

* ``grpc.decisions_per_s``: whole matches with every seat ``grpc://127.0.0.1:PORT``, a bot server
  (``python -m arena.players.serve random``) running in a process of its own, as a real bot does.
  The clock runs over host creation (a channel per seat, as ``make_host`` makes them) and
  ``Referee.play()``: Describe, StartMatch and every Decide (the random bot declares that it
  ignores EndHand and EndMatch, so the arena does not send them).
* ``grpc.raw_round_trips_per_s``: one unary call after another on one channel to a bare server
  in a process of its own (generic handler, raw bytes: no generated code, no JSON, no engine),
  carrying as many bytes as the average serialized DecisionRequest of those matches and answered
  at once with a few bytes: the ceiling of any gRPC bot here.

Run on its own: ``python -m arena.bench.remote echo PORT`` serves the bare server.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

from arena.bench.common import Figures, Settings, interleave

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

TARGET = 0.7
HANDS_PER_MATCH = 20
_METHOD = "/bench.Echo/Unary"
_ANSWER = b"\n\x08play 10H"  # about the size of a Decision


def serve_echo(port: int) -> Any:
    """A bare gRPC server that answers every unary call at once (raw bytes)."""
    from concurrent import futures

    import grpc

    handler = grpc.method_handlers_generic_handler(
        "bench.Echo", {"Unary": grpc.unary_unary_rpc_method_handler(lambda request, context: _ANSWER)})
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8), handlers=[handler],
                         options=[("grpc.so_reuseport", 0)])
    server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    return server


def _start(argv: list[str], port: int) -> subprocess.Popen:
    import grpc

    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stdin=subprocess.PIPE, env={**os.environ})
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
    except Exception:
        _stop(process)
        raise
    return process


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def raw_rate(channel: Any, payload: bytes, seconds: float) -> float:
    call = channel.unary_unary(_METHOD)
    count = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        call(payload, timeout=5.0)
        count += 1
        if count % 16 == 0 and time.perf_counter() >= end:
            return count / (time.perf_counter() - start)


def request_size(registry: "Registry", game: Any) -> int:
    """The mean serialized size of a DecisionRequest in a match of random bots (played in-process)."""
    from arena import wire
    from arena.bench.isolated import _Sizes, sized_match

    class Sizes(_Sizes):
        def decide(self, observation: Any, timeout: float) -> tuple[Any, float]:
            self.total += wire.observation_to_proto(observation, "0" * 32, self.count + 1).ByteSize()
            self.count += 1
            return self.inner.decide(observation, timeout)

    return sized_match(registry, game, Sizes)


def match_rate(registry: "Registry", game: Any, url: str, seconds: float, seed: int) -> tuple[int, float]:
    from arena.matches import MatchSpec, play_match

    decisions = matches = 0
    elapsed = 0.0
    while matches == 0 or elapsed < seconds:
        begin = time.perf_counter()  # the clock runs over host creation too (a channel per seat)
        spec = MatchSpec.single(game.name, [url] * game.players, seed=f"bench/{seed}/{matches}", index=matches,
                                options=game.options, names=["random"] * game.players)
        result = play_match(spec, registry)
        elapsed += time.perf_counter() - begin
        assert result.termination.how != "forfeit", result.termination
        matches += 1
        decisions += int(sum(times["decisions"] for times in result.think_times))  # counts, in a dict[str, float]
    return decisions, elapsed


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    import grpc

    from arena.players.ports import free_port

    game = registry.game(settings.game, {"max_hands": HANDS_PER_MATCH})
    size = request_size(registry, game)
    payload = b"x" * size
    bot_port, echo_port = free_port(), free_port()
    bot = _start([sys.executable, "-m", "arena.players.serve", "random", "--port", str(bot_port)], bot_port)
    echo = None
    rates: dict[tuple[int, str], float] = {}
    try:
        echo = _start([sys.executable, "-m", "arena.bench.remote", "echo", str(echo_port)], echo_port)
        url = f"grpc://127.0.0.1:{bot_port}"
        with grpc.insecure_channel(f"127.0.0.1:{echo_port}") as channel:
            raw_rate(channel, payload, 0.05)  # warm up
            match_rate(registry, game, url, 0.05, 99)

            def raw(run: int) -> None:
                rate = raw_rate(channel, payload, settings.seconds)
                rates[run, "raw"] = rate
                figures.add("grpc.raw_round_trips_per_s", rate, "round trips/s",
                            f"bare unary calls on loopback to a server process, {size} B out, {len(_ANSWER)} B back")

            def bots(run: int) -> None:
                decisions, elapsed = match_rate(registry, game, url, settings.seconds, run)
                rates[run, "grpc"] = decisions / elapsed
                figures.add("grpc.decisions_per_s", decisions / elapsed, "decisions/s",
                            f"{game.title}: whole matches of random gRPC bots (a server process on loopback)")

            interleave(settings.repeat, raw, bots)
    finally:
        _stop(bot)
        if echo is not None:
            _stop(echo)
    figures.add("grpc.request_bytes", size, "bytes", "mean serialized DecisionRequest of those matches")
    for run in range(settings.repeat):
        figures.ratio("grpc.ratio", rates[run, "grpc"], rates[run, "raw"],
                      "gRPC bot decisions/s over raw gRPC round trips/s", TARGET)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "echo":
        print("usage: python -m arena.bench.remote echo PORT", file=sys.stderr)
        return 2
    server = serve_echo(int(argv[1]))
    try:
        server.wait_for_termination()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
