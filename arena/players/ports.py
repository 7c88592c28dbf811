"""Ports for the bots the arena launches (``cmd:`` under ``process`` isolation).

The arena picks a port, and the bot binds it a moment later, when its program has started. In that
moment the port must stay free. A port the OS hands out for ``bind(0)`` is in its ephemeral range,
the range every outgoing connection also takes its local port from: under load (a tournament's
gRPC channels, a ladder's) a new connection took the port first now and then, and the bot failed
to start with "Address already in use", a crash charged to the bot. So:

* ports come from below the ephemeral range (``/proc/sys/net/ipv4/ip_local_port_range``), which
  outgoing connections never use;
* a port handed out is reserved for :data:`RESERVE_SECONDS` in a file every arena process of this
  user shares (tournament workers, a ladder's), so no two launches get the same port while their
  bots start;
* a port something listens on (or is bound to) now is skipped.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import random
import socket
import tempfile
import time
from typing import Iterator

RESERVE_SECONDS = 60.0  # longer than any bot's startup: once it listens, the bind check skips it
LOWEST = 20000  # below the usual ephemeral ranges (Linux 32768, BSD and macOS 49152), above most services
EPHEMERAL_FILE = "/proc/sys/net/ipv4/ip_local_port_range"
DEFAULT_EPHEMERAL = (32768, 60999)  # Linux's default, where the file cannot be read
TRIES = 200
_random = random.SystemRandom()  # not the global generator, which a process may have seeded


def ephemeral_range(path: str = EPHEMERAL_FILE) -> tuple[int, int]:
    """The OS's range for outgoing connections' local ports (both ends included)."""
    try:
        with open(path) as handle:
            low, high = (int(word) for word in handle.read().split())
        return low, high
    except (OSError, ValueError):
        return DEFAULT_EPHEMERAL


def candidate_ports(ephemeral: tuple[int, int]) -> range:
    """The ports to choose from: below the ephemeral range, or above it if that leaves more room."""
    low, high = ephemeral
    below, above = range(LOWEST, low), range(max(high + 1, LOWEST), 65536)
    return below if len(below) >= len(above) else above


def reservation_file() -> str:
    return os.path.join(tempfile.gettempdir(), f"arena-ports-{os.getuid()}.json")


@contextlib.contextmanager
def _reservations(path: str) -> Iterator[dict[int, float]]:
    """The ports reserved now (port to expiry), under an exclusive lock; saved on the way out."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)  # never write through a planted link
    with os.fdopen(fd, "r+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        now = time.time()
        try:
            saved = json.loads(handle.read() or "{}")
            reserved = {int(port): float(until) for port, until in saved.items() if float(until) > now}
        except (ValueError, TypeError, AttributeError):  # a torn or foreign file: start afresh, never fail a launch
            reserved = {}
        yield reserved
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps(reserved))


def _bindable(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def _any_port(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def free_port(host: str = "127.0.0.1", *, path: str | None = None) -> int:
    """A TCP port on ``host`` that nothing uses now, outside the ephemeral range, and that no arena
    process of this user has handed out in the last :data:`RESERVE_SECONDS` (see the module)."""
    ports = candidate_ports(ephemeral_range())
    if not ports:  # an ephemeral range that covers everything: the OS's choice is all there is
        return _any_port(host)
    try:
        with _reservations(path or reservation_file()) as reserved:
            for _ in range(TRIES):
                port = _random.choice(ports)
                if port not in reserved and _bindable(host, port):
                    reserved[port] = time.time() + RESERVE_SECONDS
                    return port
    except OSError:  # no usable reservation file (a link, another's, a full disk): the OS's choice
        pass
    return _any_port(host)
