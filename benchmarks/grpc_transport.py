"""Unary calls or one bidirectional stream per match? Round trips per second on loopback, in Python.

The two transports the player protocol could use, measured with raw bytes (generic handlers, no
generated code) so that only the transport differs:

* ``unary``: one call per decision, each with its own deadline (``timeout=``);
* ``stream``: one bidirectional stream, requests fed from a queue, answers read with ``next()``
  (no per-decision deadline: the fastest a stream can be);
* ``stream+deadline``: the same stream with the per-decision deadline the arena needs (a reader
  thread hands each answer over through a queue, waited on with a timeout).

Run: ``python benchmarks/grpc_transport.py [--seconds 3] [--size 1500] [--repeat 3]``.
Loopback only (127.0.0.1); every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import queue
import statistics
import threading
import time
from concurrent import futures

import grpc

_UNARY = "/bench.Echo/Unary"
_STREAM = "/bench.Echo/Stream"
_ANSWER = b"play 10H" + b" " * 8  # an answer's size: a short action string


def _unary(request: bytes, context: grpc.ServicerContext) -> bytes:
    return _ANSWER


def _stream(requests, context: grpc.ServicerContext):
    for _ in requests:
        yield _ANSWER


def start_server() -> tuple[grpc.Server, int]:
    handler = grpc.method_handlers_generic_handler("bench.Echo", {
        "Unary": grpc.unary_unary_rpc_method_handler(_unary),
        "Stream": grpc.stream_stream_rpc_method_handler(_stream),
    })
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), handlers=[handler])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def run_unary(channel: grpc.Channel, payload: bytes, seconds: float) -> float:
    call = channel.unary_unary(_UNARY)
    count, start = 0, time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        call(payload, timeout=5.0)
        count += 1
    return count / (time.perf_counter() - start)


def run_stream(channel: grpc.Channel, payload: bytes, seconds: float, deadline: bool) -> float:
    outbox: queue.Queue = queue.Queue()

    def requests():
        while True:
            item = outbox.get()
            if item is None:
                return
            yield item

    responses = channel.stream_stream(_STREAM)(requests(), timeout=seconds + 30)
    inbox: queue.Queue = queue.Queue()
    if deadline:
        def reader():
            try:
                for answer in responses:
                    inbox.put(answer)
            except grpc.RpcError:
                pass
            inbox.put(None)

        threading.Thread(target=reader, daemon=True).start()
    count, start = 0, time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        outbox.put(payload)
        if deadline:
            inbox.get(timeout=5.0)
        else:
            next(responses)
        count += 1
    elapsed = time.perf_counter() - start
    outbox.put(None)
    responses.cancel()
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each run (default 3)")
    parser.add_argument("--size", type=int, default=1500, help="request size in bytes (default 1500)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each transport (default 3)")
    args = parser.parse_args()
    server, port = start_server()
    payload = b"x" * args.size
    rates: dict[str, list[float]] = {"unary": [], "stream": [], "stream+deadline": []}
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            run_unary(channel, payload, 0.5)  # warm up the connection
            for _ in range(args.repeat):  # interleaved, so load on the machine hits every transport alike
                rates["unary"].append(run_unary(channel, payload, args.seconds))
                rates["stream"].append(run_stream(channel, payload, args.seconds, deadline=False))
                rates["stream+deadline"].append(run_stream(channel, payload, args.seconds, deadline=True))
    finally:
        server.stop(0)
    base = statistics.median(rates["unary"])
    print(f"grpcio {grpc.__version__}, request {args.size} B, answer {len(_ANSWER)} B, {args.repeat} x {args.seconds:.1f} s each")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"  {name:<16} {median:8.0f} round trips/s  ({1e6 / median:6.0f} us each; {median / base:4.2f} x unary)"
              f"  runs: {', '.join(f'{v:.0f}' for v in values)}")


if __name__ == "__main__":
    main()
