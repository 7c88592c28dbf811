"""The Ray executor: the board of a Ray run is the board of a local run; a worker killed mid-match
has its match played again; an interrupted run resumes; a cluster is joined with its token, and
what goes wrong on the way is said clearly.

Every Ray instance here is on loopback: a local one the executor starts (two CPUs), or a head that a
test starts with `ray start` in a session of its own, and kills by its process group at the end."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the Ray executor needs Ray: pip install -e '.[ray]'")

from arena import board  # noqa: E402
from arena.errors import ArenaError  # noqa: E402
from arena.players.ports import free_port  # noqa: E402  (below the ephemeral range: no outgoing connection takes it first)
from arena.plugins import get_registry  # noqa: E402
from arena.store import Store  # noqa: E402
from arena.tournaments import config as tconfig  # noqa: E402
from arena.tournaments import runner  # noqa: E402
from arena.tournaments import ray_executor  # noqa: E402
from arena.tournaments.ray_executor import RayClusterError, RayExecutor  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# Bots in processes of their own and a long target: a match lasts a few tenths of a second, long
# enough to be caught running.
TOY = """
[tournament]
name = "toy-ray"
game = "toy"
deal_sets = 3
seed = 5
parallel = 2
isolation = "process"

[options]
target = 40

[time_control]
per_decision = 5

[[bots]]
bot = "random"

[[bots]]
name = "random-b"
bot = "random"

[[bots]]
name = "random-c"
bot = "random"
"""
MATCHES = 3 * 3 * 2  # deal sets x pairs x rotations


def _env() -> dict[str, str]:
    env = os.environ.copy()
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def _arena(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "arena.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT, start_new_session=True)


def _board(db: Path) -> dict:
    store = Store(db)
    try:
        data = board.board_data(store)
    finally:
        store.close()
    for row in data["bots"]:  # measured thinking times are wall-clock figures
        assert row.pop("mean_think_ms") is not None
    assert data["settings"].pop("date")  # when the database was started: a fact of the run, not a result
    return data


def _results(db: Path) -> dict[int, dict]:
    """Each finished match's result, but for its measured thinking times."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT idx, result FROM matches WHERE result IS NOT NULL").fetchall()
    results = {}
    for index, text in rows:
        result = json.loads(text)
        for times in result.pop("think_times"):
            assert times["decisions"] > 0
        results[index] = result
    return results


def _done(db: Path) -> int:
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT COUNT(result) FROM matches").fetchone()[0]
    except sqlite3.Error:
        return 0


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rpartition(")")[2].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _title(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _listening(pids: set[int]) -> list[str]:
    """The TCP addresses that processes in ``pids`` listen on (from /proc)."""
    inodes: dict[str, int] = {}
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes[target[8:-1]] = pid
        except OSError:
            continue
    addresses = []
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] != "0A" or fields[9] not in inodes:  # 0A: LISTEN
                continue
            host = fields[1].split(":")[0]
            raw = bytes.fromhex(host)
            if width == 8:
                addresses.append(socket.inet_ntop(socket.AF_INET, raw[::-1]))
            else:
                words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
                addresses.append(socket.inet_ntop(socket.AF_INET6, words))
    return addresses


def _is_loopback(address: str) -> bool:
    return address.startswith("127.") or address in ("::1", "::ffff:127.0.0.1") or address.startswith("::ffff:127.")


@pytest.fixture(scope="module")
def toy_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("ray") / "toy.toml"
    path.write_text(TOY)
    return path


@pytest.fixture(scope="module")
def local_board(toy_file, registry) -> tuple[dict, dict[int, str]]:
    """The board (and results) of the same file on the local process pool: what Ray must give."""
    db = toy_file.parent / "local.db"
    config = tconfig.load(toy_file, registry)
    runner.run(config, registry, db, executor="local", workers=2, progress=False).close()
    return _board(db), _results(db)


@pytest.mark.slow
def test_an_interrupted_ray_run_resumes_to_the_board_of_the_local_pool(toy_file, local_board, registry, tmp_path,
                                                                       monkeypatch):
    db = tmp_path / "ray.db"
    process = _arena("run", str(toy_file), "--db", str(db), "--quiet", "--executor", "ray", "--workers", "2")
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline and _done(db) < 4 and process.poll() is None:
            time.sleep(0.05)
        stale = list(ray_executor.temp_root().glob(f"{ray_executor.TEMP_PREFIX}{process.pid}-*"))
        process.kill()  # the arena alone, mid-run, as `kill -9 PID` does: two Ray agents outlive it
        process.wait()
        done = _done(db)
        assert 4 <= done < MATCHES, f"the kill should land mid-run ({done} of {MATCHES} done)"
        assert len(stale) == 1
        _resume_and_check(toy_file, local_board, registry, db, tmp_path, monkeypatch)
        # the killed run's folder and the Ray processes it left were swept away by the new run
        assert not stale[0].exists()
        marker = f"RAY_TMPDIR={stale[0]}".encode()
        assert not [pid for pid in _pids() if marker in _environ(pid)]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def _pids() -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def _environ(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return b""


def _resume_and_check(toy_file, local_board, registry, db, tmp_path, monkeypatch) -> None:
    """Resume in this process, with a home folder of its own (Ray must write nothing there)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    seen: dict = {}
    real_kind = registry.executor("ray")

    def make_and_look(workers, options):
        executor = real_kind.make(workers, options)
        seen["executor"] = executor
        seen["temp_dir"] = executor.temp_dir
        seen["nodes"] = [node["NodeManagerAddress"] for node in ray.nodes()]
        seen["cpus"] = ray.cluster_resources().get("CPU")
        seen["listening"] = _listening({os.getpid(), *_descendants(os.getpid())})
        return executor

    monkeypatch.setitem(registry.executors, "ray", dataclasses.replace(real_kind, make=make_and_look))
    config = tconfig.load(toy_file, registry)
    runner.run(config, registry, db, executor="ray", workers=2, progress=False).close()

    assert _board(db) == local_board[0]
    assert _results(db) == local_board[1]
    # the practicalities: loopback only, CPUs = workers, a short folder of the run's own, gone at
    # the end, nothing in the home folder, the environment restored
    assert seen["nodes"] == ["127.0.0.1"]
    assert seen["cpus"] == 2
    assert seen["listening"] and all(_is_loopback(a) for a in seen["listening"]), seen["listening"]
    temp_dir = seen["temp_dir"]
    assert temp_dir is not None and len(str(temp_dir)) < 40
    assert not temp_dir.exists()
    assert list(home.iterdir()) == []
    assert "RAY_AUTH_TOKEN" not in os.environ and not ray.is_initialized()


@pytest.mark.slow
def test_a_worker_killed_mid_match_has_its_match_played_again(toy_file, local_board, tmp_path):
    db = tmp_path / "ray.db"
    process = _arena("run", str(toy_file), "--db", str(db), "--quiet", "--executor", "ray", "--workers", "2")
    killed = None
    deadline = time.monotonic() + 90
    try:
        while killed is None and time.monotonic() < deadline and process.poll() is None:
            if _done(db) >= 2:  # the workers are warm: kill one that is playing a match
                for pid in _descendants(process.pid):
                    title = _title(pid)
                    if title.startswith("ray::match-"):
                        os.kill(pid, signal.SIGKILL)
                        killed = (pid, int(title.split("-")[1].split()[0]), _done(db))
                        break
            time.sleep(0.02)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    print("killed worker (pid, match, done at kill):", killed)
    assert killed is not None, "no worker was caught playing a match"
    assert killed[2] < MATCHES
    assert process.returncode == 0, err
    results = _results(db)
    assert len(results) == MATCHES  # nothing lost
    assert results[killed[1]] == local_board[1][killed[1]]  # the killed match, played again, the same
    assert _board(db) == local_board[0]


@pytest.fixture
def token_cluster(tmp_path):
    """A one-node Ray cluster on loopback with token authentication: (address, token)."""
    token = secrets.token_hex(16)
    port, client_port = free_port("127.0.0.1"), free_port("127.0.0.1")
    temp_dir = tempfile.mkdtemp(prefix="arena-head-", dir="/tmp" if os.path.isdir("/tmp") else None)
    env = _env()
    env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0",
               RAY_USAGE_STATS_ENABLED="0")
    ray_cli = Path(sys.executable).parent / "ray"
    head = subprocess.Popen(
        [str(ray_cli), "start", "--head", "--block", f"--port={port}", f"--ray-client-server-port={client_port}",
         "--node-ip-address=127.0.0.1", f"--temp-dir={temp_dir}", "--num-cpus=2", "--include-dashboard=false",
         "--disable-usage-stats"],
        stdout=open(tmp_path / "head.log", "w"), stderr=subprocess.STDOUT, env=env, cwd=ROOT,
        start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while ray_executor._probe("127.0.0.1", port, ray_executor.GCS_PROBE, token) != "ok":
            assert head.poll() is None, (tmp_path / "head.log").read_text()
            assert time.monotonic() < deadline, "the head did not start"
            time.sleep(0.3)
        yield f"127.0.0.1:{port}", token
    finally:
        os.killpg(head.pid, signal.SIGKILL)  # never `ray stop`: it stops every Ray on the machine
        head.wait()
        import shutil

        shutil.rmtree(temp_dir, ignore_errors=True)


@pytest.mark.slow
def test_joining_a_cluster_needs_its_token_and_gives_the_same_board(token_cluster, toy_file, local_board, registry,
                                                                     tmp_path, monkeypatch):
    address, token = token_cluster
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.ray/auth_token to find
    for name in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_AUTH_MODE", "RAY_ADDRESS"):
        monkeypatch.delenv(name, raising=False)
    config = tconfig.load(toy_file, registry)
    db = tmp_path / "cluster.db"

    started = time.monotonic()
    with pytest.raises(RayClusterError, match="requires its authentication token") as missing:
        runner.run(config, registry, db, executor="ray", executor_options={"ray_address": address}, progress=False)
    assert "RAY_AUTH_TOKEN" in str(missing.value) and "ray get-auth-token" in str(missing.value)
    monkeypatch.setenv("RAY_AUTH_TOKEN", "not-" + token)
    with pytest.raises(RayClusterError, match="refuses the authentication token"):
        runner.run(config, registry, db, executor="ray", executor_options={"ray_address": address}, progress=False)
    assert time.monotonic() - started < 15  # said at once, not after Ray's own timeouts
    assert not ray.is_initialized()

    token_file = tmp_path / "token"
    token_file.write_text(token + "\n")
    monkeypatch.delenv("RAY_AUTH_TOKEN")
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", str(token_file))
    runner.run(config, registry, db, executor="ray", executor_options={"ray_address": address}, progress=False).close()
    assert _board(db) == local_board[0]
    assert "RAY_AUTH_MODE" not in os.environ and not ray.is_initialized()


def test_an_address_where_nothing_answers_is_refused_at_once(tmp_path, monkeypatch):
    port = free_port("127.0.0.1")
    for address, words in [
        (f"127.0.0.1:{port}", ["cannot reach a Ray cluster", "ray start --head"]),
        (f"ray://127.0.0.1:{port}", ["cannot reach the Ray cluster", "Ray Client"]),
        ("http://127.0.0.1:80", ["expected HOST:PORT"]),
        ("127.0.0.1", ["expected HOST:PORT"]),
    ]:
        started = time.monotonic()
        with pytest.raises(RayClusterError) as caught:
            RayExecutor(2, address)
        assert time.monotonic() - started < 10
        for word in words:
            assert word in str(caught.value)
        assert not ray.is_initialized()
        assert "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER" not in os.environ


def test_auto_with_a_stale_cluster_file_is_refused_naming_it(tmp_path, monkeypatch):
    """`ray stop` can leave ray_current_cluster behind; `auto` must not hang on it."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    record = tmp_path / "ray" / "ray_current_cluster"
    record.parent.mkdir()
    record.write_text(f"127.0.0.1:{free_port('127.0.0.1')}")
    with pytest.raises(RayClusterError, match="ray stop") as caught:
        RayExecutor(2, "auto")
    assert str(record) in str(caught.value)
    record.unlink()
    with pytest.raises(RayClusterError, match="no Ray cluster was started"):
        RayExecutor(2, "auto")


def test_without_ray_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(ArenaError, match=r"pip install -e '\.\[ray\]' in the arena's checkout"):
        get_registry().executor("ray").make(2, {})


def test_the_cli_takes_a_ray_address_only_for_the_ray_executor(toy_file, tmp_path):
    process = _arena("run", str(toy_file), "--db", str(tmp_path / "x.db"), "--executor", "local",
                     "--ray-address", "127.0.0.1:1")
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert "--ray-address is for --executor ray" in err
    assert not (tmp_path / "x.db").exists()
