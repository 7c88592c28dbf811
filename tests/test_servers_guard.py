"""Abusive clients against the real servers, on loopback (docs/security.md, "Servers under abusive
clients"): a huge body is refused before it is read (also chunked), slow headers and slow bodies
are dropped, a client that goes away mid-body is one line on the server's stderr and no traceback,
WebSockets and event streams are bounded per address with a message saying so, and the server's
soft limit of open files is raised to the hard limit. Every loop is bounded in count and time."""

from __future__ import annotations

import contextlib
import json
import resource
import socket
import threading
import time
from types import SimpleNamespace

import pytest
from websockets.sync.client import connect

from arena.ladder import web as ladder_web
from arena.ladder.store import LadderStore
from arena.web.app import create_app
from tests.ladder_support import serving
from tests.test_web_serve import request, serve

WAIT = 40.0  # seconds any one abusive connection is watched at most (the guard's deadlines are 10 s)


@pytest.fixture
def served(tmp_path):
    """A real `arena serve` (subprocess); yields (process, "host:port"); its stderr is read after."""
    process, address = serve("--db", str(tmp_path / "web.db"))
    try:
        yield process, address
    finally:
        process.terminate()
        process.wait(30)


def _open(address: str) -> socket.socket:
    host, port = address.split(":")
    return socket.create_connection((host, int(port)), timeout=WAIT)


def _status_and_close(sock: socket.socket) -> tuple[bytes, bool]:
    """The response's status line, and whether the server then closed the connection."""
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, socket.timeout):
            return data.split(b"\r\n", 1)[0], False
        if not chunk:
            return data.split(b"\r\n", 1)[0], True
        data += chunk


def test_a_64_mib_body_is_refused_before_it_is_read_also_chunked(served):
    process, address = served
    for head, sent in ((b"Content-Length: 67108864\r\n", b"{" * 65536),
                       (b"Transfer-Encoding: chunked\r\n", b"10000\r\n" + b"{" * 65536 + b"\r\n")):
        sock = _open(address)
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + head + b"\r\n")
        total = 0
        try:  # at most 4 MiB of the 64 MiB: the server must answer (and close) long before
            while total < 4 * 1024 * 1024:
                sock.sendall(sent)
                total += len(sent)
        except (BrokenPipeError, ConnectionResetError):
            pass
        status, closed = _status_and_close(sock)
        sock.close()
        assert status.startswith(b"HTTP/1.1 413"), (head, status, total)
        assert closed, head


def test_slow_headers_and_slow_bodies_are_dropped(served):
    process, address = served
    slow_headers = [_open(address) for _ in range(20)]
    for sock in slow_headers:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # ... and never the blank line
    slow_bodies = [_open(address) for _ in range(5)]
    for sock in slow_bodies:
        sock.sendall(b"POST /api/me HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
    results: dict[int, tuple[bytes, bool]] = {}

    def watch(index: int, sock: socket.socket, dribble: bytes) -> None:
        deadline = time.monotonic() + WAIT
        sock.settimeout(1.0)
        while time.monotonic() < deadline:
            try:
                sock.sendall(dribble)  # headers: one byte a second (slowloris); bodies: nothing more
                chunk = sock.recv(65536)
            except socket.timeout:
                continue
            except (BrokenPipeError, ConnectionResetError):
                results[index] = (b"", True)
                return
            results[index] = (chunk.split(b"\r\n", 1)[0], True)
            return
        results[index] = (b"", False)

    threads = [threading.Thread(target=watch, args=(i, sock, b"X" if i < 20 else b""))
               for i, sock in enumerate(slow_headers + slow_bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT + 10)
    for sock in slow_headers + slow_bodies:
        sock.close()
    assert all(results[i][1] for i in range(20)), f"slow headers still open after {WAIT:.0f} s: {results}"
    assert all(results[i][0].startswith(b"HTTP/1.1 408") for i in range(20, 25)), results
    # the server still serves everyone else
    assert len(request(address, "/api/games")[0]) >= 4


def test_a_client_gone_mid_body_is_one_line_not_a_traceback(served):
    process, address = served
    for _ in range(5):
        sock = _open(address)
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 4000\r\n\r\n{\"game\": ")
        time.sleep(0.2)
        sock.close()
    assert len(request(address, "/api/games")[0]) >= 4  # served after them (and so after their lines)
    process.terminate()
    stderr = process.communicate(timeout=30)[1]
    assert "Traceback" not in stderr, stderr[-3000:]
    lines = [line for line in stderr.splitlines() if "disconnected" in line]
    assert len(lines) == 5, stderr[-3000:]


def test_websockets_of_one_address_are_bounded_with_a_message(served):
    process, address = served
    _, cookie = request(address, "/api/me")
    created, cookie = request(address, "/api/tables", {"game": "five_hundred", "mode": "new"}, cookie)
    url = f"ws://{address}/ws/tables/{created['table']}"
    with contextlib.ExitStack() as held:
        for _ in range(32):  # the limit per address
            ws = held.enter_context(connect(url, additional_headers={"Cookie": cookie}, open_timeout=30))
            assert json.loads(ws.recv(timeout=30))["type"] == "state"
        with connect(url, additional_headers={"Cookie": cookie}, open_timeout=30) as ws:
            refused = json.loads(ws.recv(timeout=30))
        assert refused["type"] == "error" and "32 WebSockets open" in refused["message"], refused


def test_event_streams_of_one_address_are_bounded_with_a_503(tmp_path, registry):
    db = tmp_path / "ladder.db"
    store = LadderStore(db)
    ladder = SimpleNamespace(store=store, registry=registry, stopping=threading.Event())
    app = create_app(db, registry=registry, extra_routes=ladder_web.routes(ladder))
    held = []
    with serving(app) as url:
        address = url.removeprefix("http://")
        try:
            for _ in range(17):  # 16 the limit per address, and one more
                sock = _open(address)
                sock.sendall(b"GET /api/ladder/events HTTP/1.1\r\nHost: x\r\n\r\n")
                held.append(sock)
            statuses = [sock.recv(4096).split(b"\r\n", 1)[0] for sock in held]
            assert statuses[:16] == [b"HTTP/1.1 200 OK"] * 16, statuses
            assert statuses[16].startswith(b"HTTP/1.1 503"), statuses
        finally:
            ladder.stopping.set()
            for sock in held:
                sock.close()
    store.close()


def test_the_servers_file_limit_is_raised_to_the_hard_limit(tmp_path):
    import shutil

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if shutil.which("prlimit") is None or hard != resource.RLIM_INFINITY and hard <= 1024:
        pytest.skip("needs prlimit and a hard limit of open files over 1,024")
    process, _ = serve("--db", str(tmp_path / "web.db"), prefix=["prlimit", "--nofile=1024:" + (
        "unlimited" if hard == resource.RLIM_INFINITY else str(hard))])
    try:
        limits = open(f"/proc/{process.pid}/limits").read()
    finally:
        process.terminate()
        process.wait(30)
    line = next(line for line in limits.splitlines() if line.startswith("Max open files"))
    soft = line.split()[3]
    assert soft == ("unlimited" if hard == resource.RLIM_INFINITY else str(hard)), line
