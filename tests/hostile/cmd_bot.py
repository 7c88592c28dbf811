"""The hostile bot as a program the arena launches (``cmd:python cmd_bot.py``): it serves the same
player as the plugin (``attacker.py``, beside it) over gRPC, on the Unix socket ``$ARENA_BOT_SOCKET``
when the arena gives one (the sandbox: no network at all), else on ``127.0.0.1:$ARENA_BOT_PORT``.

It builds its server from the arena's ``PlayerService`` and the standard health check, as
``arena serve-bot`` does, so nothing of the test suite is imported: only its own directory.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from concurrent import futures

# The attacks fork (a double-forked sleeper, a fork bomb): without this, gRPC's fork handlers
# start threads in every child, and a fork takes most of a second.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "0")

import grpc  # noqa: E402
from grpc_health.v1 import health, health_pb2, health_pb2_grpc  # noqa: E402

from arena import wire  # noqa: E402
from arena.players.serve import PlayerService  # noqa: E402
from arena.v1 import player_pb2_grpc  # noqa: E402

import attacker  # noqa: E402  (beside this file: the script's directory is first on sys.path)


def main() -> int:
    socket_path = os.environ.get("ARENA_BOT_SOCKET")
    address = f"unix:{socket_path}" if socket_path else f"127.0.0.1:{int(os.environ['ARENA_BOT_PORT'])}"
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), options=[
        ("grpc.max_receive_message_length", wire.MAX_REQUEST_BYTES),
        ("grpc.max_send_message_length", wire.MAX_ANSWER_BYTES),
    ])
    player_pb2_grpc.add_PlayerServicer_to_server(
        PlayerService(attacker.make, name="sandbox-attacker", ignores=()), server)
    checks = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(checks, server)
    if not server.add_insecure_port(address):
        print(f"cmd_bot: cannot listen on {address}", file=sys.stderr)
        return 1
    server.start()
    checks.set("", health_pb2.HealthCheckResponse.SERVING)
    print(f"cmd_bot: serving on {address}", file=sys.stderr, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    server.stop(0.5).wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
