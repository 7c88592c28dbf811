"""Hostile bots against the isolation levels (issue 21).

The attacker (``tests/hostile/attacker.py``) plays legal moves and, once per match, attacks: it
reads the arena's memory and environment, rewrites a finished result in a results database, edits
another bot's source, connects to a TCP listener on 127.0.0.1, leaves a sleeper behind, allocates
past the memory limit, fills the disk past the file-size limit, forks a (bounded) bomb, and passes
its hand to its partner and to its next match through the file system. Each attack is run in both
paths: the plugin bot (``sandbox-attacker``) and the same player served by a launched program
(``cmd:python tests/hostile/cmd_bot.py``).

Under ``sandbox`` every attack must be contained and recorded with its cause (the limit named in
the fault, the error it met in the bot's log). Under ``process`` the same attacks succeed, which
shows these tests can fail: a sandbox that let one through would be caught.

Nothing here can hurt the machine: the database and the "other bot" are throwaway copies in
``tmp_path``, real files of the checkout are only opened (never written), every sleeper exits by
itself and is killed by a finalizer, every allocation and fork bomb is bounded by the attacker.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import socket
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

from arena.matches import MatchSpec, open_hosts, referee_for
from arena.plugins.manager import Registry, get_plugin_manager
from arena.referee import TimeControl
from tests.hostile import attacker, plugin

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "hostile"
CMD_BOT = f"cmd:{sys.executable} {HOSTILE / 'cmd_bot.py'}"
PATHS = {"plugin": plugin.NAME, "cmd": CMD_BOT}
GAME, OPTIONS = "bid_euchre", {"max_hands": 1}  # four seats, partners 0 and 2, one short hand
SECRET = f"arena-secret-{uuid.uuid4().hex}"  # in the arena's environment and memory
_SECRET_IN_MEMORY = (SECRET * 4).encode()  # kept alive: what a memory reader looks for


# -- fixtures: the registry, the arena's secret, a listener, throwaway files ------------------------


@pytest.fixture(scope="module")
def hostile_registry() -> Registry:
    """The installed plugins and the attacker (a bot process imports only its factory)."""
    return Registry(get_plugin_manager(plugins=[plugin]))


@pytest.fixture(autouse=True)
def arena_secret(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("ARENA_TEST_SECRET", SECRET)
    return SECRET


class Listener:
    """A TCP listener on 127.0.0.1 that records what connects to it."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    self.received.append(conn.recv(1024) or b"<connected>")
                except OSError:
                    self.received.append(b"<connected>")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    server = Listener()
    yield server
    server.close()


def _processes_with(marker: str) -> list[int]:
    """Pids whose command line holds ``marker`` (a scan of /proc, as ps does)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
        except OSError:
            continue
        if marker.encode() in argv:
            found.append(int(name))
    return found


@pytest.fixture
def tag(request: pytest.FixtureRequest) -> Iterator[str]:
    """A name for this test's notes and sleepers; everything left under it is removed afterwards."""
    name = f"t{uuid.uuid4().hex[:10]}"
    yield name
    for pid in _processes_with(f"hostile-sleeper-{name}"):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    for place in ("/tmp", "/dev/shm", os.path.expanduser("~"), str(HOSTILE), os.getcwd(), str(ROOT)):
        for path in Path(place).glob(f"hostile-{name}-*"):
            path.unlink(missing_ok=True)


@pytest.fixture(scope="module")
def results_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tournament's results database (two matches of bundled bots)."""
    from arena.plugins import get_registry
    from arena.tournaments import runner
    from arena.tournaments.config import parse

    registry = get_registry()
    config = parse({"tournament": {"name": "victim", "game": GAME, "deal_sets": 1, "seed": 1, "isolation": "inprocess"},
                    "options": OPTIONS, "bots": [{"bot": "random"}, {"bot": "heuristic"}]}, registry=registry)
    db = tmp_path_factory.mktemp("victim") / "victim.db"
    runner.run(config, registry, db, executor="inline", progress=False).close()
    assert _verifies(db)
    return db


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _verifies(db: Path) -> bool:
    """Every finished result of ``db`` agrees with the replay of its record."""
    from arena.plugins import get_registry
    from arena.store import Store
    from arena.tournaments import integrity

    registry = get_registry()
    store = Store(db, readonly=True)
    try:
        results = list(store.results())
        assert results
        for spec_data, result in results:
            spec = MatchSpec.from_dict(spec_data)
            record = store.record(spec.index)
            try:
                integrity.check(spec, result, record, registry.game(spec.game, spec.options))
            except integrity.IntegrityError:
                return False
    finally:
        store.close()
    return True


@pytest.fixture
def other_bot(tmp_path: Path) -> Path:
    """A throwaway copy of an installed bot's source, which the attacker tries to sabotage."""
    copy = tmp_path / "installed_bot" / "random_bot.py"
    copy.parent.mkdir()
    shutil.copy(ROOT / "bots" / "random_bot.py", copy)
    return copy


# -- playing one match -------------------------------------------------------------------------------


@dataclass
class Played:
    result: Any
    logs: list[str] = field(default_factory=list)  # per seat: what the bot wrote to its log

    def reports(self, seat: int) -> dict[str, list[tuple[bool, str]]]:
        return attacker.parse_reports(self.logs[seat])

    def report(self, attack: str) -> list[tuple[bool, str]]:
        """Every seat's report of ``attack``."""
        return [entry for seat in range(len(self.logs)) for entry in self.reports(seat).get(attack, [])]

    def faults(self) -> list[str]:
        return [f"{f.kind.value if hasattr(f.kind, 'value') else f.kind}: {f.message}" for f in self.result.faults]


def _log_of(host: Any) -> str:
    """What a host's bot wrote to its log (read before the host is closed)."""
    path = getattr(host, "log_path", None)
    if path:
        try:
            return Path(path).read_text(errors="replace")
        except OSError:
            return ""
    log = getattr(host, "log", None)
    if log is not None:
        try:
            log.seek(0)
            return log.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
    return ""


def play(registry: Registry, bot: str, settings: dict[str, Any], *, isolation: str, index: int = 0,
         extra: dict[str, Any] | None = None) -> Played:
    """One match: the attacker in seats 0 and 2 (partners), random bots in 1 and 3."""
    spec = MatchSpec.single(GAME, [bot, "random", bot, "random"], seed="hostile", index=index, options=OPTIONS,
                            settings=[settings, {}, settings, {}], isolation=isolation,
                            time_control=TimeControl(per_decision=30.0))
    if extra:
        spec = MatchSpec.from_dict({**spec.as_dict(), **extra})
    game = registry.game(spec.game, spec.options)
    with open_hosts(registry, spec, game) as hosts:
        result = referee_for(spec, game, hosts).play()
        logs = [_log_of(host) for host in hosts]
    return Played(result, logs)


def access_settings(tag: str, listener: Listener, db: Path, other: Path, **more: Any) -> dict[str, Any]:
    """The settings of the access attacks (1-5) and the file-system channels (9)."""
    return {
        "attacks": ["peek", "db", "other_bot", "tcp", "leftover"],
        "channels": True,
        "tag": tag,
        "secret": SECRET,
        "target_pid": os.getpid(),
        "db": str(db),
        "other_bot_files": [str(other)],
        "tcp_port": listener.port,
        "leftover_marker": f"hostile-sleeper-{tag}",
        "leftover_file": f"/tmp/hostile-{tag}-sleeper-alive",
        "leftover_port": listener.port,
        "leftover_lifetime": 20,
        **more,
    }


# -- under process isolation the attacks succeed: these tests can fail -------------------------------


@pytest.mark.parametrize("path", sorted(PATHS))
def test_process_isolation_lets_the_attacks_through(path, hostile_registry, tag, listener, results_db, other_bot,
                                                    tmp_path):
    """The control: the same attacks under ``--isolation process`` reach the arena's memory and
    environment, a copy of the results database, a copy of another bot, the listener, leave a
    sleeper running and pass the hand to the partner and to the next match through /tmp."""
    db = tmp_path / "copy.db"
    shutil.copy(results_db, db)
    settings = access_settings(tag, listener, db, other_bot, places=["/tmp"])
    before = other_bot.read_text()
    played = play(hostile_registry, PATHS[path], settings, isolation="process")
    assert played.result.termination.how != "forfeit", played.faults()

    peek = played.report("peek")
    assert peek and all(ok for ok, _ in peek) and SECRET not in json.dumps(peek), played.logs
    assert any("the secret in /proc/" in detail for _, detail in peek)
    assert any(ok for ok, _ in played.report("db")) and not _verifies(db)
    assert other_bot.read_text() != before and "sabotaged" in other_bot.read_text()
    assert b"hostile bot was here" in listener.received
    assert _processes_with(f"hostile-sleeper-{tag}"), "the sleeper should have outlived the match"
    assert any(ok for ok, _ in played.report("share")), played.logs

    again = play(hostile_registry, PATHS[path], {**settings, "attacks": []}, isolation="process", index=1)
    assert any(ok for ok, _ in again.report("remember")), again.logs
