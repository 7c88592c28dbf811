"""Servers under abusive load (issue 32): the board's and a person's move's 99th-percentile response
time, with no load and under each load, and their ratio (loaded p99 / unloaded p99; the target: a
move within 3 times its unloaded p99).

The probe is one person, in a thread of this process: it asks for the board, then plays one move at
a table of All Fours for two against ``random`` (a new table when one ends), over and over, and
times each: a board request from sending it to the whole answer, a move from sending ``act`` to the
next state. The loads run beside it: a ladder's slow installs queued (arena/bench/ladder.py, in a
thread: they are the server's own work, and its server runs in this process), tables of ``search``
bots played by their persons, and slow clients holding connections (arena/bench/web.py, in a
process of their own, as other people's clients are: in a thread they would hold the probe's
interpreter lock). Loopback only; the loads, the probe and the server share the machine's cores.
"""

from __future__ import annotations

import asyncio
import functools
import json
import multiprocessing
import socket
import threading
import time
import urllib.request
from typing import Any, Callable

from arena.bench.common import Figures

PROBE_TABLE = {"game": "all_fours", "players": 2, "bots": ["random"], "mode": "new"}


def request(url: str, path: str, body: dict[str, Any] | None = None, cookie: str = "",
            token: str | None = None) -> tuple[int, Any, str]:
    """(status, JSON answer, cookie) of one request."""
    headers = {"Cookie": cookie, "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=120) as answer:
            cookie = (answer.headers.get("set-cookie") or cookie).split(";")[0]
            return answer.status, json.loads(answer.read()), cookie
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null"), cookie


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def probe(url: str, board: str, count: int) -> tuple[float, float]:
    """``count`` board requests and ``count`` moves, one after the other; (board p99, move p99) in ms."""
    from websockets.sync.client import connect

    boards: list[float] = []
    moves: list[float] = []
    _, _, cookie = request(url, "/api/me", {"nickname": "probe"})
    with urllib.request.urlopen(url + board, timeout=300) as answer:  # not timed: the day's par is played first
        answer.read()
    ws_url = url.replace("http://", "ws://")
    while len(moves) < count:
        status, created, cookie = request(url, "/api/tables", PROBE_TABLE, cookie)
        if status != 201:
            raise RuntimeError(f"the probe's table was refused: {status} {created}")
        with connect(f"{ws_url}/ws/tables/{created['table']}", additional_headers={"Cookie": cookie},
                     open_timeout=120) as ws:
            sent: float | None = None
            while len(moves) < count:
                state = json.loads(ws.recv(timeout=300))
                if state["type"] != "state":
                    if state["type"] == "notice":
                        continue
                    raise RuntimeError(f"the probe's move was refused: {state}")
                if sent is not None:
                    moves.append(time.perf_counter() - sent)
                    sent = None
                if state["result"] is not None:
                    break
                if state["your_turn"]:
                    start = time.perf_counter()
                    with urllib.request.urlopen(url + board, timeout=120) as answer:
                        answer.read()
                    boards.append(time.perf_counter() - start)
                    ws.send(json.dumps({"type": "act", "action": state["legal_actions"][0],
                                        "decision": state["decision"]}))
                    sent = time.perf_counter()
    return p99(boards) * 1000, p99(moves) * 1000


Probed = list[tuple[float, float]]  # one (board p99, move p99) a repetition


def compare(figures: Figures, prefix: str, load: str, what: str, unloaded: Probed, loaded: Probed) -> None:
    """The figures of one load beside the unloaded ones (a ratio per repetition, as the bench's are)."""
    for name, index in (("board", 0), ("move", 1)):
        for before, after in zip(unloaded, loaded):
            figures.add(f"{prefix}.{load}.{name}_p99_ms", after[index], "ms",
                        f"the {name}'s response time, 99th percentile, while {what}")
            figures.add(f"{prefix}.{load}.{name}_p99_ratio", after[index] / max(before[index], 1e-6), "x",
                        f"the {name}'s p99 while {what}, over its p99 with no load (lower is better; the "
                        f"target for a move: at most 3)")


def unloaded_figures(figures: Figures, prefix: str, unloaded: Probed, what: str) -> None:
    for board, move in unloaded:
        figures.add(f"{prefix}.unloaded.board_p99_ms", board, "ms", f"the board's response time, 99th "
                    f"percentile, with no load ({what})")
        figures.add(f"{prefix}.unloaded.move_p99_ms", move, "ms", f"a person's move's response time (act "
                    f"to the next state), 99th percentile, with no load ({what})")


def under(load: Callable[[threading.Event, threading.Event], None], measure: Callable[[], Probed],
          warmup: float = 30.0) -> Probed:
    """``measure()`` while ``load(ready, stop)`` runs in a thread (measured once it sets ``ready``,
    or after ``warmup`` seconds)."""
    ready, stop = threading.Event(), threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        try:
            load(ready, stop)
        except BaseException as exc:  # told after the measurement
            failure.append(exc)
            ready.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(warmup)
    try:
        if failure:
            raise RuntimeError(f"the load failed: {failure[0]}")
        return measure()
    finally:
        stop.set()
        thread.join(60)


def under_apart(load: Callable[[Any, Any], None], measure: Callable[[], Probed], warmup: float = 30.0) -> Probed:
    """As :func:`under`, with the load in a process of its own (``load``: a picklable function of
    ``(ready, stop)``, as :func:`search_tables` and :func:`slow_clients` return)."""
    context = multiprocessing.get_context("spawn")
    ready, stop = context.Event(), context.Event()
    process = context.Process(target=_run_load, args=(load, ready, stop), daemon=True)
    process.start()
    ready.wait(warmup)
    try:
        if process.exitcode is not None:
            raise RuntimeError(f"the load failed (its process exited with code {process.exitcode}; its error above)")
        return measure()
    finally:
        stop.set()
        process.join(60)
        if process.is_alive():
            process.kill()


def _run_load(load: Callable[[Any, Any], None], ready: Any, stop: Any) -> None:
    load(ready, stop)  # an error is printed by multiprocessing, and the exit code is 1


# -- the loads ------------------------------------------------------------------------------------
def search_tables(url: str, tables: int, per_person: int = 4) -> Callable[[Any, Any], None]:
    """``tables`` tables of three ``search`` bots (Five Hundred), their persons answering at once."""
    return functools.partial(_search_tables, url, tables, per_person)


def _search_tables(url: str, tables: int, per_person: int, ready: Any, stop: Any) -> None:
    async def person(cookie: str, table: str) -> None:
        from websockets.asyncio.client import connect

        while not stop.is_set():
            async with connect(f"{url.replace('http://', 'ws://')}/ws/tables/{table}",
                               additional_headers={"Cookie": cookie}, open_timeout=120) as ws:
                while not stop.is_set():
                    try:
                        state = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                    except asyncio.TimeoutError:
                        continue
                    if state["type"] == "state" and state["result"] is not None:
                        break
                    if state["type"] == "state" and state["your_turn"]:
                        await ws.send(json.dumps({"type": "act", "action": state["legal_actions"][0],
                                                  "decision": state["decision"]}))
            if stop.is_set():
                return
            status, created, cookie = await asyncio.to_thread(request, url, "/api/tables", spec, cookie)
            if status != 201:
                return
            table = created["table"]

    spec = {"game": "five_hundred", "bots": ["search"] * 3, "mode": "new"}
    seats: list[tuple[str, str]] = []
    cookie = ""
    for n in range(tables):
        if n % per_person == 0:
            _, _, cookie = request(url, "/api/me", {"nickname": f"load{n}"}, "")
        status, created, cookie = request(url, "/api/tables", spec, cookie)
        if status != 201:
            raise RuntimeError(f"a loading table was refused: {status} {created}")
        seats.append((cookie, created["table"]))

    async def everyone() -> None:
        tasks = [asyncio.create_task(person(c, t)) for c, t in seats]
        await asyncio.sleep(5.0)  # the bots at work
        ready.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(everyone())


def slow_clients(url: str, clients: int) -> Callable[[Any, Any], None]:
    """``clients`` connections sending their request headers a byte a second (slowloris), each opened
    again when the server closes it."""
    return functools.partial(_slow_clients, url, clients)


def _slow_clients(url: str, clients: int, ready: Any, stop: Any) -> None:
    host, port = url.removeprefix("http://").split(":")
    head = b"GET /api/games HTTP/1.1\r\nHost: bench\r\nX-Slow: "
    open_: dict[socket.socket, int] = {}

    def connect() -> None:
        try:
            sock = socket.create_connection((host, int(port)), timeout=10)
            sock.setblocking(False)
            open_[sock] = 0
        except OSError:
            pass

    for _ in range(clients):
        connect()
    ready.set()
    while not stop.wait(1.0):
        for sock in list(open_):
            try:
                sock.send(head[open_[sock]:open_[sock] + 1] if open_[sock] < len(head) else b"x")
                open_[sock] += 1
            except OSError:  # closed by the server (its header deadline): open another
                sock.close()
                del open_[sock]
                connect()
    for sock in open_:
        sock.close()
