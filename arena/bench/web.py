"""Browser play under load: simultaneous browser-protocol games against one real `arena serve`.

The server runs in a subprocess (uvicorn on 127.0.0.1, any free port, a fresh store, ``--pace 0``);
this process plays ``GAMES`` games at once over real WebSockets (the ``websockets`` client), each
as a person of its own who answers the first legal action. Figures: the person's decisions per
second over all games, all actions per second (bots' included), and the median and 99th
percentile of a move's response time: from sending ``act`` to receiving the next ``state``.
Loopback only; the client and the server share the machine's cores.

Then the servers under abusive load (arena.bench.stall): the board's and a move's p99 with no load,
while ``SEARCH_TABLES`` tables of ``search`` bots are played, and while ``SLOW_CLIENTS`` slow
clients hold connections, with their ratios to the unloaded ones.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.bench.common import Figures, Settings

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

GAMES = 50
GAME = "five_hundred"
SEARCH_TABLES = 20
SLOW_CLIENTS = 300
PROBES = 150  # board requests and moves of the probe, per measurement
# Every client of the bench comes from loopback, one address: its limits per address are lifted.
ONE_ADDRESS = ("--new-tables", "100000/1", "--new-players", "100000/1", "--websockets-per-address", "512")


def _start(db: Path) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", "--port", "0", "--pace", "0",
                                "--db", str(db), *ONE_ADDRESS], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline() if process.stdout else ""
    found = re.search(r"http://([\d.]+:\d+)/", line)
    if found is None:
        process.kill()
        raise RuntimeError(f"arena serve did not start: {line!r}")
    return process, found.group(1)


def _post(address: str, path: str, body: dict[str, Any], cookie: str = "") -> tuple[dict[str, Any], str]:
    request = urllib.request.Request(f"http://{address}{path}", data=json.dumps(body).encode(),
                                     headers={"Cookie": cookie, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        cookie = (response.headers.get("set-cookie") or cookie).split(";")[0]
        return json.loads(response.read()), cookie


async def _game(address: str, options: dict[str, Any], waits: list[float]) -> tuple[int, int]:
    """One person's game to its end; (the person's decisions, all actions)."""
    from websockets.asyncio.client import connect

    _, cookie = await asyncio.to_thread(_post, address, "/api/me", {"nickname": "bench"})
    created, cookie = await asyncio.to_thread(_post, address, "/api/tables", {"game": GAME, "options": options}, cookie)
    decisions = 0
    sent: float | None = None
    async with connect(f"ws://{address}/ws/tables/{created['table']}", additional_headers={"Cookie": cookie},
                       open_timeout=120) as ws:
        while True:
            state = json.loads(await asyncio.wait_for(ws.recv(), 300))
            if sent is not None:
                waits.append(time.perf_counter() - sent)
                sent = None
            if state["type"] != "state":
                raise RuntimeError(f"the server refused a move: {state}")
            if state["result"] is not None:
                return decisions, state["decision"]
            if state["your_turn"]:
                await ws.send(json.dumps({"type": "act", "action": state["legal_actions"][0],
                                          "decision": state["decision"]}))
                sent = time.perf_counter()
                decisions += 1


async def _all(address: str, games: int, options: dict[str, Any], waits: list[float]) -> list[tuple[int, int]]:
    return list(await asyncio.gather(*(_game(address, options, waits) for _ in range(games))))


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    games = 10 if settings.quick else GAMES
    options = {"max_hands": 1 if settings.quick else 3}
    with tempfile.TemporaryDirectory(prefix="arena-bench-web-") as folder:
        process, address = _start(Path(folder) / "web.db")
        try:
            waits: list[float] = []
            start = time.perf_counter()
            played = asyncio.run(_all(address, games, options, waits))
            elapsed = time.perf_counter() - start
        finally:
            process.terminate()
            process.wait(30)
    what = f"{games} simultaneous {GAME} games {options} against one arena serve (loopback)"
    figures.add("web.person_decisions_per_s", sum(d for d, _ in played) / elapsed, "decisions/s",
                f"the person's answers per second, {what}")
    figures.add("web.actions_per_s", sum(n for _, n in played) / elapsed, "actions/s",
                f"every seat's actions per second, {what}")
    waits.sort()
    p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))]
    figures.add("web.move_response_p50_ms", statistics.median(waits) * 1000, "ms",
                f"a move's response time (act sent to the next state), median, {what}")
    figures.add("web.move_response_p99_ms", p99 * 1000, "ms",
                f"a move's response time (act sent to the next state), 99th percentile, {what}")
    _stall(settings, figures)


def _stall(settings: Settings, figures: Figures) -> None:
    from arena.bench import stall

    count = 30 if settings.quick else PROBES
    tables = 3 if settings.quick else SEARCH_TABLES
    clients = 30 if settings.quick else SLOW_CLIENTS
    board = "/api/leaderboard?game=five_hundred"
    with tempfile.TemporaryDirectory(prefix="arena-bench-web-") as folder:
        process, address = _start(Path(folder) / "web.db")
        url = f"http://{address}"
        try:
            def measure() -> list[tuple[float, float]]:
                return [stall.probe(url, board, count) for _ in range(settings.repeat)]

            unloaded = measure()
            stall.unloaded_figures(figures, "web", unloaded, "one arena serve, the probe alone")
            loaded = stall.under_apart(stall.search_tables(url, tables), measure)
            stall.compare(figures, "web", "search_tables", f"{tables} tables of three search bots are played "
                          f"({-(-tables // 4)} persons, 4 tables each)", unloaded, loaded)
            loaded = stall.under_apart(stall.slow_clients(url, clients), measure)
            stall.compare(figures, "web", "slow_clients", f"{clients} slow clients hold connections (headers "
                          "a byte a second, opened again when closed)", unloaded, loaded)
        finally:
            process.terminate()
            process.wait(30)
