"""`arena serve` as a user starts it: a real uvicorn server in a subprocess, a real WebSocket
client (the websockets library) playing a Five Hundred game to its end; the one-line errors for a
taken port and an unusable store."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ARENA = [sys.executable, "-m", "arena.cli"]


def serve(*args: str, prefix: list[str] | None = None) -> tuple[subprocess.Popen, str]:
    """``arena serve --port 0 --pace 0 ARGS`` (after ``prefix``, e.g. prlimit); (process, "host:port")."""
    process = subprocess.Popen([*(prefix or []), *ARENA, "serve", "--port", "0", "--pace", "0", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline()  # type: ignore[union-attr]
    match = re.search(r"http://([\d.]+):(\d+)/", line)
    if match is None:
        process.kill()
        raise AssertionError(f"no address in {line!r}; stderr: {process.stderr.read()}")  # type: ignore[union-attr]
    return process, f"{match.group(1)}:{match.group(2)}"


def request(address: str, path: str, body: dict | None = None, cookie: str = "") -> tuple[dict, str]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://{address}{path}", data=data, headers={"Cookie": cookie,
                                 "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as response:
        set_cookie = response.headers.get("set-cookie") or ""
        return json.loads(response.read()), set_cookie.split(";")[0] or cookie


def test_arena_serve_plays_a_game_over_a_real_websocket(tmp_path):
    process, address = serve("--db", str(tmp_path / "web.db"))
    try:
        me, cookie = request(address, "/api/me")
        assert cookie.startswith("arena_player=")
        created, cookie = request(address, "/api/tables", {"game": "five_hundred", "mode": "new"}, cookie)
        table = created["table"]
        answered = 0
        with connect(f"ws://{address}/ws/tables/{table}", additional_headers={"Cookie": cookie},
                     open_timeout=30) as ws:
            while True:
                state = json.loads(ws.recv(timeout=60))
                assert state["type"] == "state"
                if state["result"] is not None:
                    break
                if state["your_turn"]:
                    ws.send(json.dumps({"type": "act", "action": state["legal_actions"][0],
                                        "decision": state["decision"]}))
                    answered += 1
        assert answered > 0 and state["result"]["termination"]["how"] == "normal"
        # (a daily deal's record hides the cards until its day is over: tests/test_web_daily.py)
        record, _ = request(address, f"/api/tables/{table}/record", cookie=cookie)
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        verified = subprocess.run([*ARENA, "verify", str(path)], capture_output=True, text=True)
        assert verified.returncode == 0 and "ok: the record replays" in verified.stdout
        # A frame past uvicorn's limit (64 KiB) closes the connection with 1009 (message too big).
        with connect(f"ws://{address}/ws/tables/{table}", additional_headers={"Cookie": cookie},
                     max_size=None) as ws:
            json.loads(ws.recv(timeout=30))
            ws.send("x" * 70000)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_taken_port_and_an_unusable_store_are_one_line_errors(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run([*ARENA, "serve", "--port", str(port), "--db", str(tmp_path / "web.db")],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == f"arena: error: port {port} on 127.0.0.1 is taken (another server " \
                                    "listens there); choose another with --port"
    folder = tmp_path / "a-folder"
    folder.mkdir()
    result = subprocess.run([*ARENA, "serve", "--port", "0", "--db", str(folder)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(f"arena: error: the web database {folder} cannot be used: ")
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 100)
    result = subprocess.run([*ARENA, "serve", "--port", "0", "--db", str(garbage)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and "cannot be used: file is not a database" in result.stderr
