"""Helpers of the ladder tests: a real ``arena ladder`` in a subprocess on a free port (a temporary
store, the arguments given), an application on uvicorn in a thread (the routes through a real
server), and authors who register, submit and retire with the real ``arena register``,
``arena submit`` and ``arena retire`` commands in subprocesses."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

ARENA = [sys.executable, "-m", "arena.cli"]
ROOT = Path(__file__).resolve().parents[1]
# The tests' environment (their plugins from $TRICK_ARENA_PLUGINS, importable from any directory) ...
ENV = {**os.environ, "PYTHONUNBUFFERED": "1",
       "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
# ... and a fresh install's: the installed plugins only, as a user has them.
FRESH_ENV = {key: value for key, value in ENV.items() if key not in ("TRICK_ARENA_PLUGINS", "PYTHONPATH")}
URL_LINE = re.compile(r"(https?://[\w.\[\]:-]+:\d+)/")


@dataclass
class LadderProcess:
    """A running ``arena ladder``: its URL, its store, and what it printed on stderr so far."""

    process: subprocess.Popen
    url: str
    db: Path
    stderr_lines: list[str] = field(default_factory=list)

    def stderr(self) -> str:
        return "".join(self.stderr_lines)

    def stop(self, timeout: float = 60) -> int:
        """SIGTERM and wait (kill after ``timeout``); its exit status."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        return self.process.returncode


def start_ladder(tmp_path: Path, *args: str, db: Path | None = None, timeout: float = 120,
                 env: dict[str, str] | None = None) -> LadderProcess:
    """``arena ladder --port 0 --db DB ARGS`` in a subprocess (in ``tmp_path``, with ``env``:
    default the tests' :data:`ENV`); returns once it printed its URL."""
    db = db or tmp_path / "ladder.db"
    process = subprocess.Popen([*ARENA, "ladder", "--port", "0", "--db", str(db), *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env or ENV, cwd=tmp_path)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(process.stderr.readline, "")), daemon=True).start()  # type: ignore[union-attr]
    found: list[str] = []

    def read_stdout() -> None:
        for line in iter(process.stdout.readline, ""):  # type: ignore[union-attr]
            match = URL_LINE.search(line)
            if match and not found:
                found.append(match.group(1))

    threading.Thread(target=read_stdout, daemon=True).start()
    deadline = time.monotonic() + timeout
    while not found:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait(timeout=30)
            raise AssertionError(f"arena ladder printed no URL (exit {process.returncode}); stderr: {''.join(lines)[-3000:]}")
        time.sleep(0.05)
    return LadderProcess(process, found[0], db, lines)


@contextlib.contextmanager
def ladder_running(tmp_path: Path, *args: str, **kwargs: Any) -> Iterator[LadderProcess]:
    ladder = start_ladder(tmp_path, *args, **kwargs)
    try:
        yield ladder
    finally:
        ladder.stop()


# -- an application on a real server, in this process ---------------------------------------------
@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` on uvicorn in a thread on a free loopback port; yields its base URL."""
    import uvicorn

    from arena.web.command import _listen
    from arena.web.guard import uvicorn_config

    sock = _listen("127.0.0.1", 0)
    host, port = sock.getsockname()[:2]
    server = uvicorn.Server(uvicorn_config(app, timeout_graceful_shutdown=2))  # guarded as the commands' servers are
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise AssertionError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def get(url: str, token: str | None = None) -> tuple[int, Any]:
    """GET ``url``: (status, JSON body or text)."""
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, body, kind = response.status, response.read().decode(), response.headers.get("content-type", "")
    except urllib.error.HTTPError as exc:
        status, body, kind = exc.code, exc.read().decode(), exc.headers.get("content-type", "")
    return status, json.loads(body) if kind.startswith("application/json") else body


# -- authors, with the real commands ----------------------------------------------------------------
def arena(*args: str, cwd: Path | None = None, timeout: float = 300,
          env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``arena ARGS`` run to its end (with ``env``, default :data:`ENV`)."""
    return subprocess.run([*ARENA, *args], capture_output=True, text=True, env=env or ENV, cwd=cwd, timeout=timeout)


def register(url: str, name: str, token_file: Path, env: dict[str, str] | None = None) -> str:
    """``arena register NAME --server URL --token-file FILE``; the token."""
    done = arena("register", name, "--server", url, "--token-file", str(token_file), env=env)
    assert done.returncode == 0, f"arena register {name}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout.splitlines()[0].strip()


def submit(url: str, token_file: Path, name: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``arena submit NAME --server URL --token-file FILE ARGS`` (its completed process)."""
    return arena("submit", name, "--server", url, "--token-file", str(token_file), *args, env=env)


def retire(url: str, token_file: Path, name: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return arena("retire", name, "--server", url, "--token-file", str(token_file), env=env)


def wait_for(predicate: Any, timeout: float, what: str, interval: float = 0.5) -> Any:
    """Poll ``predicate()`` until it returns something true; AssertionError naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)
