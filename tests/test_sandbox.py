"""The sandbox isolation level: bots play in it on both paths (a Python plugin bot, a `cmd:`
program), its limits are parsed with clear errors and enforced with the limit named in the fault,
a bot's log is capped, the default level follows who wrote the bots, the level is recorded, and a
missing bubblewrap is refused before any match. (The hostile bots: tests/test_sandbox_hostile.py.)"""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from pathlib import Path

import pytest

from arena.errors import ArenaError
from arena.matches import MatchSpec, play_match
from arena.players.base import MatchInfo
from arena.players.limits import MIB, Limits, parse_limits
from arena.players.logs import CappedLog

ROOT = Path(__file__).resolve().parents[1]
ARENA = str(Path(sys.executable).with_name("arena"))
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
INFO = MatchInfo("five_hundred", {}, 0, ("a", "b", "c", "d"))


def _registry():
    from arena.plugins import get_registry

    return get_registry()


@needs_bwrap
def test_a_python_bot_and_a_command_play_a_match_in_sandboxes(tmp_path):
    command = f"cmd:{ARENA} serve-bot random"
    spec = MatchSpec.single("five_hundred", ["heuristic", command, "random", "heuristic"], seed=3,
                            isolation="sandbox")
    spec = MatchSpec.from_dict({**spec.as_dict(), "log_dir": str(tmp_path / "logs")})
    result = play_match(spec, _registry())
    assert result.faults == [], [f.as_dict() for f in result.faults]
    assert result.as_dict()["isolation"] == "sandbox" and result.record["isolation"] == "sandbox"
    assert result.record["limits"] == Limits().as_dict()
    assert {"address_space", "cpu_seconds", "processes", "tmp_size"} <= set(result.record["limits_applied"])
    logs = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert logs == ["match-0000-seat-1.log"]  # the only seat that printed: empty logs are not kept
    assert "serving bot random on unix:" in (tmp_path / "logs" / "match-0000-seat-1.log").read_text()


@needs_bwrap
def test_a_sandboxed_bot_sees_its_own_code_and_no_arena_file(tmp_path):
    from arena.players.sandboxed import SandboxHost

    log = tmp_path / "look.log"
    host = SandboxHost("tests.sandbox_bots:make", {"do": "look"}, 0, log_path=str(log))
    try:
        host.start(INFO, 5)
        assert host.decide({"legal_actions": ["x"]}, 10)[0] == "x"
    finally:
        host.close()
    text = log.read_text()
    site = text.split("SITE ")[1]
    assert "'arena'" in site and "'tests'" in site and "'bots'" not in site  # never the other bots
    assert "'results'" not in text and "'work'" not in text.split("ROOT ")[1]
    env = text.split("ENV ")[1].split(" ROOT")[0]
    assert "ARENA_SANDBOX" in env and "VIRTUAL_ENV" not in env and "PYTEST_CURRENT_TEST" not in env
    if os.geteuid() == 0:  # its own unprivileged uid
        assert int(text.split("UID ")[1].split()[0]) >= 200_000


@needs_bwrap
@pytest.mark.parametrize("do, limits, cause", [
    ("spin", {"cpu_seconds": 1}, "SIGXCPU: the CPU-time limit of 1 s"),
    ("allocate", {"address_space": "512 MiB"}, "MemoryError under the 512 MiB address-space limit"),
    ("write", {"file_size": "1 MiB"}, "SIGXFSZ: the file-size limit of 1 MiB"),
])
def test_a_bot_past_a_limit_is_a_crash_that_names_the_limit(do, limits, cause):
    from arena.players.hosts import BotCrash
    from arena.players.sandboxed import SandboxHost

    host = SandboxHost("tests.sandbox_bots:make", {"do": do}, 0, limits=parse_limits(limits))
    try:
        host.start(INFO, 5)
        with pytest.raises(BotCrash, match=cause.replace("(", r"\(")):
            host.decide({"legal_actions": ["x"]}, 30)
        assert host.restarts == (1 if do == "spin" else 0)  # a dead one is replaced by a fresh sandbox
    finally:
        host.close()


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0 or not os.path.isdir("/sys/fs/cgroup/memory"),
                    reason="the arena makes cgroups only as root, here cgroup v1's memory controller")
def test_the_cgroup_memory_limit_kills_a_bot_and_is_named():
    from arena.players.hosts import BotCrash
    from arena.players.sandboxed import SandboxHost

    host = SandboxHost("tests.sandbox_bots:make", {"do": "touch"}, 0, limits=parse_limits({"memory": "128 MiB"}))
    try:
        assert "cgroup:memory.limit_in_bytes" in host.sandbox.applied and "cgroup:pids.max" in host.sandbox.applied
        host.start(INFO, 5)
        with pytest.raises(BotCrash, match=r"killed under the memory limit of 128 MiB \(cgroup\)"):
            host.decide({"legal_actions": ["x"]}, 30)
    finally:
        host.close()


def _live_processes_naming(marker: str) -> list[int]:
    """The pids of live (not zombie) processes whose command line holds ``marker``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(pid))
    return found


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0, reason="the arena makes a sandbox's cgroup only as root")
@pytest.mark.parametrize("by", ["init and cgroup", "init alone"])
def test_a_sandbox_killed_while_it_starts_leaves_no_process_and_no_cgroup(by, monkeypatch):
    """Killed at random moments of its first 30 ms, a sandbox leaves nothing behind: bwrap's PID
    namespace init, forked before it sets its own death signal, used to survive about 1 kill in 36
    here, reparented to pid 1, when Sandbox.kill killed the outer bwrap alone. It now kills the
    init too, then what is left in the cgroup; "init alone" is a machine without cgroups, where
    killing the init read from bwrap's children still left 6 in 1,500 (forked just after the
    reading) until bwrap was stopped before it."""
    import random
    import subprocess
    import time

    from arena.players.limits import Cgroup
    from arena.players.sandbox import Sandbox

    if by == "init alone":
        monkeypatch.setattr(Cgroup, "kill", lambda self: None)
    rng = random.Random(3)
    boxes = []
    for _ in range(120):
        box = Sandbox(Limits(), [sys.executable, "-c", "import time; time.sleep(60)"], name="start-kill")
        if box.cgroup is None or not box.cgroup.dirs:
            pytest.skip("the arena cannot make cgroups here, and killing a sandbox whole needs one")
        box.start(stdout=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, 0.03))
        box.kill()
        boxes.append(box)
    time.sleep(0.2)
    left = {box.uid: _live_processes_naming(f"--reuid={box.uid} ") for box in boxes}
    try:
        assert not any(left.values()), f"sandboxes left running: {left}"
        assert not [box.cgroup.dirs for box in boxes if box.cgroup and box.cgroup.dirs]
    finally:
        for pid in (pid for pids in left.values() for pid in pids):
            os.kill(pid, 9)


def test_the_stale_cgroups_of_a_dead_arena_are_swept_and_no_other(tmp_path):
    from arena.players.limits import sweep_stale

    dead = subprocess_pid_that_exited()
    for name in (f"bot-{dead}-1", f"bot-{dead}-2", f"bot-{os.getpid()}-1", "not-a-sandbox"):
        (tmp_path / name).mkdir()
    (tmp_path / f"bot-{dead}-2" / "busy").mkdir()  # a cgroup that still holds something stays
    assert sweep_stale([str(tmp_path)]) == [str(tmp_path / f"bot-{dead}-1")]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"bot-{dead}-2", f"bot-{os.getpid()}-1", "not-a-sandbox"])


def subprocess_pid_that_exited() -> int:
    import subprocess

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@needs_bwrap
def test_a_bots_log_is_capped_whatever_it_writes(tmp_path):
    from arena.players.sandboxed import SandboxHost

    log = tmp_path / "bot.log"
    host = SandboxHost("tests.sandbox_bots:make", {"do": "print"}, 0, limits=parse_limits({"log_size": "256 KiB"}),
                       log_path=str(log))
    try:
        host.start(INFO, 5)
        host.decide({"legal_actions": ["x"]}, 30)
    finally:
        host.close()
    data = log.read_bytes()
    assert 256 * 1024 < len(data) < 256 * 1024 + 200 and data.endswith(b"output was dropped]\n")


def test_the_capped_log_of_any_process(tmp_path):
    import subprocess

    log = CappedLog(str(tmp_path / "x.log"), limit=1000)
    fd = log.pipe()
    process = subprocess.Popen([sys.executable, "-c", "import os; os.write(1, b'a' * 100000)"], stdout=fd)
    CappedLog.started(fd)
    process.wait()
    log.close()
    text = (tmp_path / "x.log").read_text()
    assert text.startswith("a" * 1000) and text[1000:].startswith("\n[arena: the log was cut here at 1000 bytes")


def test_limits_are_parsed_with_clear_errors():
    limits = parse_limits({"address_space": "1 GiB", "cpu_seconds": 30, "tmp_size": 16 * MIB})
    assert limits.address_space == 1024 * MIB and limits.cpu_seconds == 30 and limits.tmp_size == 16 * MIB
    assert limits.processes == Limits().processes
    for table, words in [({"cpu": 3}, ["cpu", "unknown key", "cpu_seconds"]),
                         ({"cpu_seconds": "lots"}, ["cpu_seconds", "whole number", "'lots'"]),
                         ({"address_space": "1 parsec"}, ["address_space", "1 GiB", "'1 parsec'"]),
                         ({"processes": 0}, ["processes", "too small"])]:
        with pytest.raises(ArenaError) as caught:
            parse_limits(table)
        assert all(word in str(caught.value) for word in words), str(caught.value)


def _file(isolation: str | None, bots: list[str], limits: dict | None = None) -> dict:
    head = {"game": "five_hundred", "deal_sets": 1}
    if isolation:
        head["isolation"] = isolation
    data = {"tournament": head, "bots": [{"name": f"b{i}", "bot": b} for i, b in enumerate(bots)]}
    if limits is not None:
        data["limits"] = limits
    return data


def test_the_tournament_file_limits_table():
    from arena.tournaments.config import TournamentFileError, parse

    config = parse(_file("process", ["random", "heuristic"], {"cpu_seconds": 20, "memory": "1 GiB"}))
    assert config.limits == {"cpu_seconds": 20, "memory": 1024 * MIB} and config.as_dict()["limits"] == config.limits
    assert "limits" not in parse(_file("process", ["random", "heuristic"])).as_dict()  # old fingerprints stay
    with pytest.raises(TournamentFileError, match=r"\[limits\] open_file: unknown key"):
        parse(_file("process", ["random", "heuristic"], {"open_file": 3}))


def test_the_default_isolation_follows_who_wrote_the_bots():
    from arena.tournaments.config import parse

    assert parse(_file(None, ["random", "heuristic"])).isolation == "process"
    assert parse(_file(None, ["random", f"cmd:{ARENA} serve-bot heuristic"])).isolation == "process"
    assert parse(_file(None, ["random", "cmd:python3 my_bot.py"])).isolation == "sandbox"
    assert parse(_file("inprocess", ["random", "cmd:python3 my_bot.py"])).isolation == "inprocess"  # explicit wins
    assert parse(_file(None, ["random", "cmd:./arena serve-bot random"])).isolation == "sandbox"  # not the arena's


def test_a_bot_registered_from_outside_the_arena_is_not_bundled(registry):
    from types import SimpleNamespace

    from arena.players.base import BotSpec
    from arena.players.trust import bundled, default_isolation
    from tests.sandbox_bots import make

    outside = SimpleNamespace(bot=lambda name: BotSpec(name, make), seat_kinds={})
    assert not bundled("limited", outside) and default_isolation(["limited"], outside) == "sandbox"
    assert bundled("random", registry) and bundled("grpc://127.0.0.1:5", registry)  # a remote seat is not launched here


def test_without_bubblewrap_the_sandbox_refuses_before_any_match(monkeypatch, tmp_path):
    from arena.players.seats import check_seat

    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on it
    for seat in ("random", "cmd:/bin/true"):
        with pytest.raises(ArenaError, match="install the Debian package `bubblewrap`"):
            check_seat(_registry(), seat, "five_hundred", "sandbox")


def test_a_sandboxed_command_may_not_ask_for_a_port():
    from arena.players.sandboxed import SandboxCommandHost

    with pytest.raises(ArenaError, match=r"no network.*\{socket\}"):
        SandboxCommandHost(f"{ARENA} serve-bot random --port {{port}}")


READY = sorted((ROOT / "tournaments").glob("*.toml"))
# the sandbox runs every file of the bundled bots, and the search bot's smallest (its 56 files have
# up to 48 matches a deal set, a sandbox per seat each)
SANDBOXED = [p for p in READY if not p.stem.startswith("search_") or p.stem == "search_all_fours_2"]


@needs_bwrap
@pytest.mark.parametrize("path", READY, ids=[p.stem for p in READY])
def test_every_ready_tournament_file_passes_its_check_under_the_sandbox(path):
    from arena.tournaments.config import parse

    data = tomllib.loads(path.read_text())
    data["tournament"]["isolation"] = "sandbox"
    assert parse(data, str(path), _registry()).isolation == "sandbox"


@pytest.mark.slow  # a sandbox per seat per match: about two minutes in all, one of them Five Hundred for 5's five deal sets
@needs_bwrap
@pytest.mark.parametrize("path", SANDBOXED, ids=[p.stem for p in SANDBOXED])
def test_every_ready_tournament_runs_under_the_sandbox_and_says_so(path, tmp_path):
    """Issue #21's promise: every ready file also runs under `sandbox` (its brief form's deal sets, the
    same bots and options; the board has no fault, every match says it was sandboxed)."""
    from arena import board
    from arena.store import Store
    from arena.tournaments import config as tconfig
    from arena.tournaments import runner

    registry = _registry()
    from tests import ready_support

    data = ready_support.brief(tomllib.loads(path.read_text()), seed=ready_support.ready_seed(path),
                                deal_sets=ready_support.deal_sets(path))
    config = tconfig.with_isolation(tconfig.parse(data, str(path), registry), "sandbox", registry)
    store = runner.run(config, registry, tmp_path / "r.db", executor="local", workers=2, progress=False)
    rows = board.board_data(store)["bots"]
    store.close()
    assert all(not row["faults"] for row in rows), rows
    order = [row["bot"] for row in rows]
    assert order.index("heuristic") < order.index("random"), rows
    from arena.replays.listing import match_rows

    stored = Store(tmp_path / "r.db")
    try:
        assert {row["isolation"] for row in match_rows(stored)} == {"sandbox"}
    finally:
        stored.close()
    logs = tmp_path / "r_logs"  # each seat's log went there; the empty ones (the bundled bots print nothing) not kept
    assert logs.is_dir() and all(entry.stat().st_size > 0 for entry in logs.iterdir())


@pytest.mark.slow  # npm ci
@needs_bwrap
def test_the_javascript_bot_serves_on_its_socket_in_a_sandbox():
    from tests.grpc_support import install_js_bot

    seat = install_js_bot()  # skips where node or npm is missing
    spec = MatchSpec.single("five_hundred", [seat, "random", "random", "random"], seed=5, isolation="sandbox")
    result = play_match(spec, _registry())
    assert result.faults == [], [f.as_dict() for f in result.faults]
    assert result.think_times[0]  # it was asked, over the socket


def test_a_launched_commands_log_is_capped_at_every_level(tmp_path):
    import shlex

    from arena.players.hosts import BotCrash
    from arena.players.command import CommandHost

    log = tmp_path / "cmd.log"
    script = "import os; os.write(1, b'q' * 3000000); os.write(2, b'w' * 3000000)"
    host = CommandHost(shlex.join([sys.executable, "-c", script]), log_path=str(log), log_limit=4096,
                       startup_timeout=20)
    try:
        with pytest.raises(BotCrash, match="exited with code 0 before serving"):
            host.start(INFO, 5)
    finally:
        host.close()
    data = log.read_bytes()
    assert len(data) < 4096 + 200 and data.startswith(b"q" * 4096) and b"the log was cut here" in data


def test_arena_run_isolation_overrides_the_file(tmp_path, capsys):
    import json
    import sqlite3

    from arena.commandline import main

    path = tmp_path / "t.toml"
    path.write_text('[tournament]\ngame = "all_fours"\ndeal_sets = 1\nisolation = "process"\n'
                    '[[bots]]\nbot = "random"\n[[bots]]\nbot = "heuristic"\n')
    db = tmp_path / "t.db"
    assert main(["run", str(path), "--db", str(db), "--isolation", "inprocess", "--quiet", "--executor", "inline"]) == 0
    with sqlite3.connect(db) as connection:
        config = json.loads(connection.execute("SELECT config FROM tournament").fetchone()[0])
        specs = [json.loads(row[0]) for row in connection.execute("SELECT spec FROM matches")]
    assert config["isolation"] == "inprocess" and {spec["isolation"] for spec in specs} == {"inprocess"}
    assert main(["run", str(path), "--db", str(tmp_path / "u.db"), "--isolation", "sandbox", "--quiet",
                 "--executor", "inline"]) == (0 if shutil.which("bwrap") else 2)


def test_a_sandboxed_command_asking_for_a_port_is_refused_with_the_file():
    from arena.tournaments.config import TournamentFileError, parse

    with pytest.raises(TournamentFileError, match=r"bots\[1\]\.bot: .*no network, so no \{port\}"):
        parse(_file("sandbox", ["random", f"cmd:{ARENA} serve-bot random --port {{port}}"]), registry=_registry())


def _system_python() -> str | None:
    """The system's Python when it is this one's minor version (it can then import this venv's packages)."""
    import subprocess

    python = "/usr/bin/python3"
    if not os.path.exists(python):
        return None
    done = subprocess.run([python, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True, text=True)
    return python if done.stdout.strip() == str(tuple(sys.version_info[:2])) else None


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None or _system_python() is None,
                    reason="needs root (to become another user) and a system Python of this version")
def test_an_arena_that_is_not_root_sandboxes_in_a_user_namespace():
    """The arena run as `nobody` (with the system's Python, as this one sits under /root): the
    sandbox is made in a user namespace of its own and the bot plays."""
    import subprocess
    import sysconfig

    script = (
        "import os\n"
        "from arena.players.sandboxed import SandboxHost\n"
        "from arena.players.base import MatchInfo\n"
        "host = SandboxHost('tests.sandbox_bots:make', {'do': 'look'}, 0)\n"
        "host.start(MatchInfo('five_hundred', {}, 0, ('a', 'b', 'c', 'd')), 5)\n"
        "print('ANSWER', host.decide({'legal_actions': ['x']}, 10)[0], '--unshare-all' in host.sandbox.argv,\n"
        "      host.sandbox.cgroup is None, os.getuid())\n"
        "host.close()\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp",
           "PYTHONPATH": f"{ROOT}:{sysconfig.get_paths()['purelib']}:{sysconfig.get_paths()['platlib']}"}
    done = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", _system_python(),
                           "-c", script], capture_output=True, text=True, env=env, cwd="/tmp", timeout=120)
    assert "ANSWER x True True 65534" in done.stdout, done.stdout + done.stderr


def test_a_sandboxed_command_sees_its_scripts_directory_and_no_other_file_it_names(tmp_path, monkeypatch):
    from arena.players.sandboxed import command_view

    bot, data, results = tmp_path / "bot", tmp_path / "data", tmp_path / "results"
    for folder in (bot, data, results):
        folder.mkdir()
    (bot / "bot.js").write_text("")
    (data / "weights").write_text("")
    (results / "league.db").write_text("")
    (results / "helper.js").write_text("")
    monkeypatch.chdir(tmp_path)
    binds, _, chdir, _ = command_view(["node", "bot/bot.js", str(data / "weights"), "results/league.db"], None)
    shown = [binds[i + 2] for i, word in enumerate(binds) if word == "--ro-bind"]
    assert str(bot) in shown and chdir == str(tmp_path.resolve())
    assert not any(path.startswith((str(data), str(results))) for path in shown), shown
    for words in (["node", "results/helper.js"], ["node", "-e", "0", "results/league.db"]):
        binds, _, _, _ = command_view(words, None)  # a script beside a results database, the database
        shown = [binds[i + 2] for i, word in enumerate(binds) if word == "--ro-bind"]
        assert not any(path.startswith(str(results)) for path in shown), shown


def test_a_bot_of_its_own_distribution_gets_that_distribution_and_its_requirements(tmp_path, monkeypatch):
    import importlib

    from arena.players.sandbox import bot_entries

    site = tmp_path / "site"
    package = site / "mybot"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(  # it imports its requirement; it cannot see tests/ (not its code)
        "import six\nfrom arena.players.base import Player\n\n"
        "class First(Player):\n    def act(self, observation):\n        return observation['legal_actions'][0]\n\n"
        "def make(settings, seed):\n    return First()\n")
    (site / "other_bot").mkdir()  # installed beside it, not its own
    info = site / "mybot-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mybot\nVersion: 1.0\nRequires-Dist: six\n"
                                   "Requires-Dist: pytest ; extra == 'test'\n")
    (info / "RECORD").write_text("mybot/__init__.py,,\nmybot-1.0.dist-info/METADATA,,\nmybot-1.0.dist-info/RECORD,,\n")
    (info / "top_level.txt").write_text("mybot\n")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    entries = bot_entries("mybot")
    assert entries["mybot"] == str(package) and entries["mybot-1.0.dist-info"] == str(info)
    assert "six.py" in entries  # its declared requirement
    assert "other_bot" not in entries and "pytest" not in entries and "_pytest" not in entries  # nor an extra's
    if shutil.which("bwrap"):
        from arena.players.sandboxed import SandboxHost

        host = SandboxHost("mybot:make", {}, 0)
        try:
            host.start(INFO, 5)
            assert host.decide({"legal_actions": ["x"]}, 10)[0] == "x"
        finally:
            host.close()


@needs_bwrap
def test_a_sandboxed_bot_that_dies_before_its_first_message_is_a_crash_not_a_broken_pipe(monkeypatch):
    """A house seat's sandbox that died before reading its init message raised BrokenPipeError out
    of the arena (a start-up fault of the issue "the first run works"); it is the bot's crash, with
    its exit code."""
    from arena.players import sandboxed
    from arena.players.hosts import BotCrash
    from arena.players.sandbox import Sandbox

    monkeypatch.setattr(sandboxed, "python_command", lambda module, site=None, others=(): (["/bin/false"], [], {}))
    start = Sandbox.start

    def start_and_die(self, **kwargs):
        process = start(self, **kwargs)
        process.wait(30)  # dead before the arena writes a word
        return process

    monkeypatch.setattr(Sandbox, "start", start_and_die)
    with pytest.raises(BotCrash, match=r"the sandboxed bot process died \(exit code 1\)"):
        sandboxed.SandboxHost("tests.sandbox_bots:make", {}, 0)


def test_a_package_of_two_bots_shows_each_its_own_module_alone(tmp_path, monkeypatch):
    """The other registered bots' modules come in the seat request (filled in from the registry by
    make_host), so a sandbox narrows a package holding two bots to the bot's own file."""
    import importlib

    from arena.kinds import SeatRequest
    from arena.players.sandbox import bot_entries
    from arena.players.seats import _bot_modules

    package = tmp_path / "twobots"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in ("first", "second"):
        (package / f"{name}.py").write_text("def make(settings, seed):\n    return None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    for name in ("first", "second"):
        importlib.import_module(f"twobots.{name}")
    assert bot_entries("twobots.first") == {"twobots": str(package)}  # alone in its package: the package
    narrowed = bot_entries("twobots.first", ["twobots.second", "bots.random_bot"])
    assert narrowed == {"twobots/first.py": str(package / "first.py"), "twobots/__init__.py": str(package / "__init__.py")}

    class Registry:  # the two bots of that package, registered
        bots = {name: type("Spec", (), {"factory": importlib.import_module(f"twobots.{name}").make})()
                for name in ("first", "second")}

    assert _bot_modules(Registry(), "first") == ("twobots.second",)
    assert "other_bot_modules" in SeatRequest.__dataclass_fields__
