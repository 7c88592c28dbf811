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


def _eventually(condition: Any, within: float = 10.0) -> bool:
    """Whether ``condition()`` holds within ``within`` seconds (a listener's thread may lag on a busy
    machine); never a timing threshold on what is measured, only patience."""
    end = time.monotonic() + within
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


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
def victim() -> Iterator[Any]:
    """A process of the arena's user for the attacker to kill (never the arena itself)."""
    import subprocess

    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    yield process
    process.kill()
    process.wait(10)


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
    """What a host's bot wrote to its log file, found by its path (read before the host is closed):
    the fallback for a host that does not keep its log in the match's log directory."""
    for path in (getattr(host, "log_path", None), getattr(getattr(host, "log", None), "path", None),
                 getattr(getattr(host, "capped", None), "path", None)):
        if isinstance(path, str) and os.path.exists(path):
            return Path(path).read_text(errors="replace")
    return ""


def play(registry: Registry, bot: str, settings: dict[str, Any], *, isolation: str, log_dir: Path, index: int = 0,
         limits: dict[str, Any] | None = None, partners: bool = True) -> Played:
    """One match: the attacker in seats 0 and 2 (partners), random bots in 1 and 3; or, without
    ``partners``, the toy game's two seats: the attacker and a random bot (half the processes to
    start, for the attacks that need no partner). Each bot's log is kept in ``log_dir``
    (``match-NNNN-seat-S.log``)."""
    if partners:
        game_name, options, bots, seat_settings = GAME, OPTIONS, [bot, "random", bot, "random"], [settings, {}, settings, {}]
    else:
        game_name, options, bots, seat_settings = "toy", {"target": 1}, [bot, "random"], [settings, {}]
    spec = MatchSpec.single(game_name, bots, seed="hostile", index=index, options=options, settings=seat_settings,
                            isolation=isolation, time_control=TimeControl(per_decision=30.0))
    spec = MatchSpec.from_dict({**spec.as_dict(), "log_dir": str(log_dir), "limits": dict(limits or {})})
    game = registry.game(spec.game, spec.options)
    with open_hosts(registry, spec, game) as hosts:
        result = referee_for(spec, game, hosts).play()
        early = [_log_of(host) for host in hosts]  # a host that keeps no log file of its own
    logs = []
    for seat, text in enumerate(early):
        path = log_dir / f"match-{index:04d}-seat-{seat}.log"
        logs.append(path.read_text(errors="replace") if path.exists() else text)
    return Played(result, logs)


def access_settings(tag: str, listener: Listener, db: Path, other: Path, victim: Any, **more: Any) -> dict[str, Any]:
    """The settings of the access attacks (1-5) and the file-system channels (9)."""
    return {
        "victim_pid": victim.pid,
        "attacks": ["peek", "kill", "db", "spy_db", "other_bot", "tcp", "leftover"],
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
        "leftover_delay": 0.3,
        **more,
    }


# -- under process isolation the attacks succeed: these tests can fail -------------------------------


@pytest.mark.parametrize("path", sorted(PATHS))
def test_process_isolation_lets_the_attacks_through(path, hostile_registry, tag, listener, results_db, other_bot,
                                                    victim, tmp_path):
    """The control: the same attacks under ``--isolation process`` reach the arena's memory and
    environment, a copy of the results database, a copy of another bot, the listener, leave a
    sleeper running and pass the hand to the partner and to the next match through /tmp."""
    db = tmp_path / "copy.db"
    shutil.copy(results_db, db)
    settings = access_settings(tag, listener, db, other_bot, victim, places=["/tmp"])
    before = other_bot.read_text()
    played = play(hostile_registry, PATHS[path], settings, isolation="process", log_dir=tmp_path / "logs")
    assert played.result.termination.how != "forfeit", played.faults()

    peek = played.report("peek")
    assert peek and all(ok for ok, _ in peek) and SECRET not in json.dumps(peek), played.logs
    assert any("the secret in /proc/" in detail for _, detail in peek)
    assert victim.wait(10) == -signal.SIGKILL  # killed by the attacker
    assert any(ok for ok, _ in played.report("spy_db"))  # read every record (and deck) before rewriting one
    assert any(ok for ok, _ in played.report("db")) and not _verifies(db)
    assert other_bot.read_text() != before and "sabotaged" in other_bot.read_text()
    assert _eventually(lambda: b"hostile bot was here" in listener.received), listener.received
    assert _processes_with(f"hostile-sleeper-{tag}"), "the sleeper should have outlived the match"
    assert any(ok for ok, _ in played.report("share")), played.logs
    assert any(ok for ok, _ in played.report("share_socket")), played.logs

    again = play(hostile_registry, PATHS[path], {**settings, "attacks": []}, isolation="process", index=1,
                 log_dir=tmp_path / "logs")
    assert any(ok for ok, _ in again.report("remember")), again.logs


# -- under the sandbox every attack is contained and recorded with its cause -------------------------


def _sandbox_missing() -> str:
    try:
        from arena.players.sandbox import check_available

        check_available()
    except Exception as exc:  # ImportError before the level exists, ArenaError without bubblewrap
        return f"{type(exc).__name__}: {exc}"
    return ""


needs_sandbox = pytest.mark.skipif(bool(_sandbox_missing()), reason=f"no sandbox here: {_sandbox_missing()}")
LIMITS = {"address_space": "1 GiB", "file_size": "16 MiB", "tmp_size": "64 MiB", "processes": 32}
# Each limit attack, what it asks for (past its limit, bounded by the attacker), the words its
# fault's cause must hold (the limit and its value) and the limits it runs under besides LIMITS.
LIMIT_ATTACKS = {
    "memory": ({"memory_mb": 3072}, ("address-space limit", "1 GiB"), {}),
    "cpu": ({"cpu_s": 20}, ("CPU-time limit", "1 s"), {"cpu_seconds": 1}),
    "disk": ({"disk_mb": 64}, ("file-size limit", "16 MiB"), {}),
    "forkbomb": ({"forks": 1000}, ("process limit", "32"), {}),
}


def _attacker_faults(played: Played) -> list[Any]:
    return [fault for fault in played.result.faults if fault.seat in (0, 2)]


@needs_sandbox
@pytest.mark.parametrize("path", sorted(PATHS))
def test_sandbox_contains_the_access_attacks(path, hostile_registry, tag, listener, results_db, other_bot, victim,
                                             tmp_path):
    """Memory and environment, the results database, another bot's files, the network, a leftover
    child, and cards passed to the partner and to the next match: all contained under ``sandbox``,
    each with the error it met in the bot's log."""
    real_bot = ROOT / "bots" / "random_bot.py"  # only opened for writing, never written (see the attacker)
    guarded = {p: _digest(p) for p in (results_db, other_bot, real_bot)}
    settings = access_settings(tag, listener, results_db, other_bot, victim, other_bot_probe=[str(real_bot)])
    played = play(hostile_registry, PATHS[path], settings, isolation="sandbox", log_dir=tmp_path / "logs")
    assert not _attacker_faults(played), played.faults()
    assert (tmp_path / "logs" / "match-0000-seat-0.log").is_file()  # the per-match log, where it is documented
    time.sleep(1.0)  # a sleeper that escaped would have written and connected back by now (delay 0.3 s)

    for attack in ("peek", "kill", "db", "spy_db", "other_bot", "tcp"):
        reports = played.report(attack)
        assert reports, (attack, played.logs)
        assert not any(ok for ok, _ in reports), (attack, reports)
    assert SECRET not in "".join(played.logs)
    assert any("is not visible" in detail for _, detail in played.report("peek")), played.report("peek")
    visible = [int(detail.split(" processes visible")[0].split()[-1]) for _, detail in played.report("peek")]
    assert max(visible) <= 3, visible  # its own PID namespace: its init and itself (no other bot, no arena)
    assert all("Error" in detail for attack in ("db", "spy_db", "other_bot", "tcp") for _, detail in played.report(attack))
    assert victim.poll() is None, "the attacker killed a process outside its sandbox"
    assert {p: _digest(p) for p in guarded} == guarded, "a guarded file changed"
    assert _verifies(results_db)
    assert listener.received == [], listener.received
    assert any("started" in detail for _, detail in played.report("leftover")), played.logs  # it did start one
    assert not _processes_with(f"hostile-sleeper-{tag}"), "a child outlived its sandbox"
    assert not Path(settings["leftover_file"]).exists()
    shares = played.report("share")
    assert shares and not any(ok for ok, _ in shares), shares
    assert any("wrote ['/tmp/" in detail for _, detail in shares), shares  # it did leave notes (in its own /tmp)
    assert not any(ok for ok, _ in played.report("remember"))
    sockets = played.report("share_socket")
    assert sockets and not any(ok for ok, _ in sockets), sockets

    again = play(hostile_registry, PATHS[path], {**settings, "attacks": []}, isolation="sandbox", index=1,
                 log_dir=tmp_path / "logs")
    remembered = again.report("remember")
    assert remembered and not any(ok for ok, _ in remembered), remembered
    assert not list(Path("/tmp").glob(f"hostile-{tag}-*")), "a note reached the real /tmp"


@needs_sandbox
@pytest.mark.parametrize("attack", sorted(LIMIT_ATTACKS))
@pytest.mark.parametrize("path", sorted(PATHS))
def test_sandbox_limits_stop_the_attack_and_name_the_limit(path, attack, hostile_registry, tag, tmp_path):
    """Past the address-space, CPU-time, file-size and process limits: a recorded crash of the
    attacker whose cause names the limit; the other bots and the arena carry on (the match ends by
    the policy)."""
    more, cause, limits = LIMIT_ATTACKS[attack]
    settings = {"attacks": [attack], "tag": tag, **more}
    played = play(hostile_registry, PATHS[path], settings, isolation="sandbox", log_dir=tmp_path / "logs",
                  limits={**LIMITS, **limits}, partners=False)
    faults = _attacker_faults(played)
    assert faults, (played.faults(), played.logs)
    assert faults[0].kind.value == "crash" and all(words in faults[0].message for words in cause), played.faults()
    assert not any(fault.seat in (1, 3) for fault in played.result.faults), played.faults()
    blocked = played.report(attack)
    if attack == "cpu":  # killed by SIGXCPU: it had no chance to say anything, nor to say it succeeded
        assert not blocked, blocked
        return
    assert blocked and not any(ok for ok, _ in blocked), (blocked, played.logs)
    if attack == "forkbomb":  # it was stopped near the limit, far from its own bound
        forked = int(blocked[0][1].split("after ")[1].split()[0])
        assert forked < 32, blocked


def _cgroup_memory() -> bool:
    """Whether this machine gives a sandbox a cgroup memory limit (root, a writable memory controller)."""
    try:
        from arena.players.limits import Cgroup, Limits

        probe = Cgroup(f"hostile-probe-{os.getpid()}", Limits())
    except Exception:
        return False
    try:
        return any(key.startswith("memory") for key in probe.applied)
    finally:
        probe.close()


@needs_sandbox
@pytest.mark.skipif(not _cgroup_memory(), reason="no cgroup memory controller the arena may use here")
@pytest.mark.parametrize("path", sorted(PATHS))
def test_sandbox_cgroup_memory_limit_kills_a_bot_that_touches_too_much(path, hostile_registry, tag, tmp_path):
    """Under a large address space but a 256 MiB cgroup, touching 1 GiB of pages gets the bot
    killed; the fault names the cgroup's memory limit."""
    settings = {"attacks": ["memory"], "tag": tag, "memory_mb": 1024}
    played = play(hostile_registry, PATHS[path], settings, isolation="sandbox", log_dir=tmp_path / "logs",
                  limits={**LIMITS, "address_space": "8 GiB", "memory": "256 MiB"}, partners=False)
    faults = _attacker_faults(played)
    assert faults and faults[0].kind.value == "crash", played.faults()
    assert "memory limit of 256 MiB" in faults[0].message, played.faults()
    assert not any(ok for ok, _ in played.report("memory")), played.logs


# A program that reads the results database named as its first file argument, without a script:
# the first file argument is then the database itself.
SPY_INLINE = ("import sqlite3, sys\n"
              "try:\n"
              "    db = sqlite3.connect(f'file:{sys.argv[1]}?mode=ro&immutable=1', uri=True)\n"
              "    n = len(db.execute('SELECT record FROM matches WHERE record IS NOT NULL').fetchall())\n"
              "    print(f'HOSTILE spy_db succeeded: read {n} records', file=sys.stderr)\n"
              "except Exception as exc:\n"
              "    print(f'HOSTILE spy_db blocked: {type(exc).__name__}: {exc}', file=sys.stderr)\n")


@needs_sandbox
@pytest.mark.parametrize("shape", ["script-then-db", "db-first"])
def test_sandbox_a_command_cannot_read_the_results_its_command_line_names(shape, hostile_registry, results_db,
                                                                           tmp_path):
    """A submitted command line may name any file: ``cmd:python cmd_bot.py results/x.db`` or
    ``cmd:python -c CODE results/x.db``. Reading the results database (writing it is refused
    anyway) would give every finished match's record, so every deck of the other rotations of the
    bot's deal set."""
    results = tmp_path / "results"
    results.mkdir()
    db = results / "league.db"
    shutil.copy(results_db, db)
    import shlex

    if shape == "script-then-db":
        command = f"{CMD_BOT} {db}"
        settings: dict[str, Any] = {"attacks": ["db", "spy_db"], "db": str(db)}
    else:
        command = f"cmd:{sys.executable} -c {shlex.quote(SPY_INLINE)} {db}"
        settings = {}
    played = play(hostile_registry, command, settings, isolation="sandbox", log_dir=tmp_path / "logs", partners=False)
    if shape == "script-then-db":
        assert played.report("db") and not any(ok for ok, _ in played.report("db"))
    spied = played.report("spy_db")
    assert spied and not any(ok for ok, _ in spied), spied


# -- a whole tournament: the attacker rewrites the finished results of its own tournament -------------

LEAGUE = """
[tournament]
name = "league"
game = "toy"
deal_sets = 1
seed = 3
parallel = 1
{isolation}

[options]
target = 1

[time_control]
per_decision = 30

[[bots]]
name = "attacker"
bot = "sandbox-attacker"
settings = {{ attacks = ["spy_db", "db"], db = "{db}" }}

[[bots]]
bot = "random"
"""


def _league(tmp_path: Path, isolation: str | None) -> tuple[Path, Any]:
    """``arena run`` of a two-match toy tournament (one deal set, two rotations, one match at a
    time) whose attacker rewrites the finished match's result in the tournament's own database
    (``results/league.db``, the path an attacker guesses from the tournament's name)."""
    import subprocess

    db = tmp_path / "results" / "league.db"
    line = f'isolation = "{isolation}"' if isolation else "# no isolation key: the default rule decides"
    (tmp_path / "league.toml").write_text(LEAGUE.format(isolation=line, db=db))
    env = {**os.environ, "TRICK_ARENA_PLUGINS": "tests.plugins.toy_game,tests.hostile.plugin", "PYTHONPATH": str(ROOT)}
    arena = os.path.join(os.path.dirname(sys.executable), "arena")
    run = subprocess.run([arena, "run", "league.toml", "--workers", "1",
                          "--quiet", "--executor", "inline"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    return db, run


@needs_sandbox
def test_a_tournament_seating_a_foreign_bot_is_sandboxed_and_its_results_stay_true(tmp_path):
    """No isolation key and a bot that is not the arena's: the default rule sandboxes it, and its
    attempt on the tournament's own results database fails (the log says why)."""
    db, run = _league(tmp_path, None)
    assert run.returncode == 0, run.stderr[-3000:]
    assert _verifies(db)
    from arena.store import Store

    store = Store(db, readonly=True)
    try:
        assert [spec["isolation"] for spec, _ in store.results()] == ["sandbox", "sandbox"]
    finally:
        store.close()
    logs = "".join(path.read_text() for path in sorted((tmp_path / "results").rglob("*.log")))
    reports = attacker.parse_reports(logs)
    assert reports.get("db") and not any(ok for ok, _ in reports["db"]), logs[-2000:]
    assert reports.get("spy_db") and not any(ok for ok, _ in reports["spy_db"]), logs[-2000:]


def test_under_process_isolation_the_attacker_forges_its_tournaments_results(tmp_path):
    """The control: the same tournament under ``process`` ends with a forged result in its
    database, which no longer replays to what it says."""
    db, run = _league(tmp_path, "process")
    assert run.returncode == 0, run.stderr[-3000:]
    assert not _verifies(db)
