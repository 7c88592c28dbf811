"""Side doors between sandboxes (issue 31, attacks 2 and 3), each tried for real by a hostile
program in a real sandbox (tests/hostile/side_doors.py), with a control that shows the same code
works where nothing contains it: the kernel keyring, inotify on a shared read-only file, a nested
user namespace with a tmpfs past ``tmp_size``, a child widening its CPUs, a ``cmd:`` program
filling its socket folder or making ``bot.sock`` a link to a socket of the arena's, and the
socket folders of a killed arena."""

from __future__ import annotations

import ctypes
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.players.base import MatchInfo
from arena.players.hosts import BotCrash
from arena.players.limits import MIB, Limits

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "hostile" / "side_doors.py"
INSIDE = "/hostile/side_doors.py"
PYTHON = sys.executable  # the arena's (its venv's: grpc is there)
REAL_PYTHON = os.path.realpath(sys.executable)  # what a sandbox sees of it
ARENA = str(Path(sys.executable).with_name("arena"))
INFO = MatchInfo("five_hundred", {}, 0, ("a", "b", "c", "d"))
pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


class Running:
    """A hostile program in a sandbox of its own, its output read line by line."""

    def __init__(self, *args: str, binds: tuple[str, ...] = (), limits: Limits | None = None):
        from arena.players.sandbox import Sandbox, _python_binds

        self.sandbox = Sandbox(limits or Limits(), [REAL_PYTHON, "-S", INSIDE, *args],
                               binds=[*_python_binds(), "--ro-bind", str(HOSTILE), INSIDE, *binds])
        self.read, write = os.pipe()
        self.sandbox.start(stdout=write)
        os.close(write)
        self.text = ""

    def wait_for(self, word: str, seconds: float = 30) -> str:
        deadline = time.monotonic() + seconds
        while word not in self.text and time.monotonic() < deadline:
            ready, _, _ = select.select([self.read], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(self.read, 65536) if ready else b""
            if not chunk:
                break
            self.text += chunk.decode(errors="replace")
        return self.text

    def finish(self) -> str:
        self.wait_for("\0")  # to its end
        self.sandbox.kill()
        os.close(self.read)
        return self.text


def sandboxed(*args: str, **kwargs) -> str:
    return Running(*args, **kwargs).finish()


def outside(*args: str) -> str:
    return subprocess.run([PYTHON, str(HOSTILE), *args], capture_output=True, text=True, timeout=60).stdout


def test_a_key_in_the_kernel_keyring_is_neither_added_nor_read_by_a_sandbox():
    added = sandboxed("key-add", "partner holds 10H JH")
    assert "HOSTILE key-add blocked: add_key: EPERM" in added, added
    control = outside("key-add", "a key of the arena's user")  # the arena's user: keys work there
    assert "HOSTILE key-add succeeded" in control, control
    number = control.split("KEY ")[1].split()[0]
    try:
        read = sandboxed("key-read", number)  # a key left by someone else, readable to anyone who knows it
        assert "HOSTILE key-read blocked: keyctl(READ" in read and "EPERM" in read, read
        assert "succeeded" in outside("key-read", number)  # the control: outside, the number is enough
    finally:
        ctypes.CDLL(None).syscall(250, 3, int(number))  # KEYCTL_REVOKE


def test_an_inotify_watch_on_a_shared_read_only_file_is_refused(tmp_path):
    card = tmp_path / "card-JH"
    card.write_text("JH")
    shared = ("--ro-bind", str(card), "/cards/JH")
    watcher = Running("watch", "/cards/JH", "5", binds=shared)
    if "WATCHING" in watcher.wait_for("WATCHING", 30):  # the watch was made (no filter): the partner's look is seen
        sandboxed("touch", "/cards/JH", binds=shared)
    text = watcher.finish()
    assert "HOSTILE watch blocked: inotify_init1: EPERM" in text, text
    # the control: a watch made outside sees the sandboxed program open the same file
    control = subprocess.Popen([PYTHON, str(HOSTILE), "watch", str(card), "20"], stdout=subprocess.PIPE, text=True)
    assert control.stdout is not None and control.stdout.readline().strip() == "WATCHING"
    assert "HOSTILE touch succeeded" in sandboxed("touch", "/cards/JH", binds=shared)
    assert "HOSTILE watch succeeded" in control.communicate(timeout=30)[0]


def test_a_nested_user_namespace_and_its_tmpfs_past_tmp_size_are_refused():
    text = sandboxed("nested-tmpfs", "24", limits=Limits(tmp_size=16 * MIB))
    assert "HOSTILE nested-tmpfs blocked: unshare(CLONE_NEWUSER|CLONE_NEWNS): EPERM" in text, text
    assert "HOSTILE nested-tmpfs succeeded: 25165824 bytes" in outside("nested-tmpfs", "24")  # the control


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_the_bots_of_a_match_share_one_cpu_and_a_child_cannot_widen_it():
    first, second = sandboxed("widen"), sandboxed("widen")
    assert "HOSTILE widen blocked" in first and "error EPERM" in first, first
    cpus = [text.split("CPUs ")[1].split(";")[0] for text in (first, second)]
    assert cpus[0] == cpus[1] and len(eval(cpus[0])) == 1, cpus  # one CPU, the same for both
    # the control: kept to one CPU the same way (the launcher), but with no filter, a child widens it
    from arena.players.launch import launcher

    control = subprocess.run(launcher([PYTHON, str(HOSTILE), "widen"], cpu=0), capture_output=True, text=True,
                             timeout=60).stdout
    assert "HOSTILE widen succeeded: CPUs [0]" in control, control


def _command_host(*args: str, **kwargs):
    from arena.players.sandboxed import SandboxCommandHost

    return SandboxCommandHost(f"{PYTHON} {HOSTILE} {' '.join(args)}", **kwargs)


def test_a_command_cannot_fill_the_hosts_disk_through_its_socket_folder(tmp_path):
    limits = Limits(tmp_size=16 * MIB, memory=256 * MIB)
    log = tmp_path / "fill.log"
    host = _command_host("fill-socket-folder", "24", limits=limits, log_path=str(log), startup_timeout=30)
    try:
        host.start(INFO, 5)  # it still serves: its socket folder had room for the socket
    finally:
        host.close()
    line = next(line for line in log.read_text().splitlines() if line.startswith("HOSTILE fill-socket-folder"))
    written = int(line.split(": ")[1].split()[0])
    assert "blocked" in line and written < 1 * MIB, line
    # the control: the same code fills a folder that is not capped
    folder = tmp_path / "uncapped"
    folder.mkdir()
    control = subprocess.Popen([PYTHON, str(HOSTILE), "fill-socket-folder", "4"], stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "ARENA_BOT_SOCKET": str(folder / "bot.sock")})
    try:
        assert control.stdout is not None
        assert control.stdout.readline().startswith("HOSTILE fill-socket-folder succeeded: 4194304 bytes")
    finally:
        control.kill()
        control.wait()


def test_bot_sock_as_a_link_to_a_socket_of_the_arenas_is_never_followed(tmp_path):
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    victim = socket.socket(socket.AF_UNIX)
    victim.bind(str(private / "victim.sock"))
    victim.listen(64)
    victim.settimeout(0.5)
    host = _command_host("link-socket", str(private / "victim.sock"), startup_timeout=5)
    try:
        with pytest.raises(BotCrash, match="bot.sock a symbolic link owned by uid .*, not a socket of the bot's"):
            host.start(INFO, 5)
    finally:
        host.close()
    with pytest.raises(socket.timeout):
        victim.accept()[0].close()  # nobody connected
    # the control: a plain connect through such a link reaches the arena's socket
    (tmp_path / "bot.sock").symlink_to(private / "victim.sock")
    client = socket.socket(socket.AF_UNIX)
    client.connect(str(tmp_path / "bot.sock"))
    victim.accept()[0].close()
    client.close()
    victim.close()


_ARENA_WITH_A_COMMAND = f"""
import sys, time
from arena.players.sandboxed import SandboxCommandHost
host = SandboxCommandHost({f"{ARENA} serve-bot random"!r}, startup_timeout=60)
host._wait_ready()
print(host.socket_dir, flush=True)
if sys.argv[1] == "stay":
    time.sleep(120)
host.close()
"""


def test_the_socket_folders_of_a_killed_arena_are_swept_by_the_next_and_a_live_ones_kept():
    killed = subprocess.Popen([PYTHON, "-c", _ARENA_WITH_A_COMMAND, "stay"], stdout=subprocess.PIPE, text=True,
                              cwd=ROOT)
    assert killed.stdout is not None
    folder = killed.stdout.readline().strip()
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    assert folder and os.path.isdir(folder), folder  # left behind: nobody could remove it
    live = os.path.join(os.path.dirname(folder), f"{os.getpid()}-999")  # this live process's
    os.makedirs(live, exist_ok=True)
    try:
        done = subprocess.run([PYTHON, "-c", _ARENA_WITH_A_COMMAND, "go"], capture_output=True, text=True, cwd=ROOT,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        assert not os.path.lexists(folder), f"{folder} was not swept"
        assert os.path.isdir(live)
    finally:
        shutil.rmtree(live, ignore_errors=True)
