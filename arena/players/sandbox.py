"""The ``sandbox`` isolation level: each bot in a bubblewrap sandbox of its own, a fresh one per match.

A sandbox is ``bwrap`` (Debian's ``bubblewrap``) with new PID, IPC, UTS, network, mount and cgroup
namespaces (a user namespace too when the arena is not root), a new session, killed with everything
in it when the match ends or the arena dies (``--die-with-parent``; killing bwrap kills its PID
namespace's init, and with it every process in the namespace). Inside it sees, read-only, the
system's ``/usr``, the Python installation and, of the Python packages, only the arena's runtime and
the bot's own code (never other bots' code, never the arena's results, records or tournament
files); a private writable ``/tmp`` (a size-capped tmpfs that disappears with it); no environment
but a few variables; no network at all (only a loopback interface of its own).

When the arena runs as root, the bot runs as an unprivileged uid of its own (from
:data:`UID_BASE`, no passwd entry), without capabilities and with ``no_new_privs``, so that its
process limit is its own and the arena's files (owned by root) are not writable to it even where
a path is bound. bwrap does the binds as root first (the Python installation may sit under
``/root``, mode 700, which the bot's uid could not traverse) and ``setpriv`` then drops to the
bot's uid inside the sandbox. Not as root, the user namespace maps the bot to the arena's own uid.

Python plugin bots speak the pipe wire of :mod:`arena.players.isolated` (the socket's fd passes
through bwrap); ``cmd:`` programs are reached over gRPC on a Unix socket in a per-match directory,
the only writable place they share with the arena (``$ARENA_BOT_SOCKET``, ``{socket}``).
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from arena.errors import ArenaError
from arena.players import syscalls
from arena.players.hosts import ArenaFailure
from arena.players.launch import Report, launcher
from arena.players.limits import Cgroup, Limits, explain, rlimits
from arena.players.trust import ARENA_DISTRIBUTION

PACKAGE = "bubblewrap"
SITE = "/sandbox/site"  # where the bot's Python packages appear inside (its PYTHONPATH)
SOCKET_DIR = "/run/arena"  # where a sandboxed command's socket directory appears inside
SOCKET_NAME = "bot.sock"
UID_BASE = 200_000  # the first outside uid a sandboxed bot runs as when the arena is root
UID_SPAN = 100_000
_serial = itertools.count()


# -- can this machine run sandboxes? --------------------------------------------------------------

def bwrap() -> str | None:
    return shutil.which("bwrap")


@functools.lru_cache(maxsize=1)
def _works(path: str) -> str:
    """"" when a trivial sandbox runs, else bwrap's complaint (no user namespaces, a seccomp policy...)."""
    try:
        done = subprocess.run([path, *_system_binds(), *_namespace_args(), "--dev", "/dev", "--proc", "/proc",
                               "/bin/true"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    return "" if done.returncode == 0 else (done.stderr.strip() or f"exit code {done.returncode}")


def _setpriv() -> str:
    """setpriv's path inside the sandbox (it sees /usr, and /bin only as a link to it)."""
    found = os.path.realpath(shutil.which("setpriv") or "/usr/bin/setpriv")
    return found if found.startswith("/usr/") else "/usr/bin/setpriv"


def check_available() -> str:
    """bwrap's path; ArenaError naming the package when it is missing or cannot make a sandbox here."""
    path = bwrap()
    if path is None:
        raise ArenaError(f"the sandbox isolation level needs bubblewrap (the `bwrap` program), which is not "
                         f"installed: install the Debian package `{PACKAGE}` (apt-get install {PACKAGE}), or "
                         "choose another isolation level (`process` for trusted bots)")
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        raise ArenaError("the sandbox isolation level, run as root, drops each bot to a uid of its own with "
                         "`setpriv`, which is not installed: install the Debian package `util-linux`")
    try:
        syscalls.program()
    except syscalls.FilterUnavailable as exc:
        raise ArenaError(str(exc)) from None
    problem = _works(path)
    if problem:
        raise ArenaError(f"bubblewrap ({path}) cannot make a sandbox on this machine: {problem} (it needs "
                         "namespaces: run as root, or allow unprivileged user namespaces)")
    return path


# -- the view --------------------------------------------------------------------------------------

def _system_binds() -> list[str]:
    """The system, read-only: /usr, the merged-/usr links, the dynamic linker's cache."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("lib", "lib64", "lib32", "bin", "sbin"):
        path = f"/{name}"
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/alternatives"):
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    return args


def _namespace_args() -> list[str]:
    if os.geteuid() == 0:  # a uid of its own instead (see the module's docstring): no user namespace
        return ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--unshare-cgroup-try"]
    return ["--unshare-all"]  # user (to the arena's uid), PID, IPC, UTS, network, cgroup


def _python_binds() -> list[str]:
    """The Python installation, read-only, where it is (its executable's path works inside)."""
    prefix = os.path.realpath(sys.base_prefix)
    args = ["--ro-bind", prefix, prefix]
    executable = os.path.realpath(sys.executable)
    if not executable.startswith(prefix + os.sep):
        args += ["--ro-bind", executable, executable]
    return args


def _requirements(dist: importlib.metadata.Distribution) -> list[str]:
    """The names of a distribution's requirements that apply here (extras left out)."""
    names = []
    for text in dist.requires or ():
        try:
            from packaging.requirements import Requirement

            requirement = Requirement(text)
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
            names.append(requirement.name)
        except Exception:  # packaging missing or an odd line: keep the name, drop the marker
            if "extra ==" not in text:
                names.append(text.split(";")[0].split("[")[0].strip().split(" ")[0].rstrip("<>=!~"))
    return names


def _distribution_entries(name: str, seen: set[str]) -> dict[str, str]:
    """{name inside SITE: path outside} of a distribution's top-level files and directories (its
    packages, modules and metadata) and of its requirements', transitively."""
    key = name.lower().replace("_", "-")
    if key in seen:
        return {}
    seen.add(key)
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return {}
    entries: dict[str, str] = {}
    base = Path(str(dist.locate_file("")))
    own = key == ARENA_DISTRIBUTION  # its packages are found by import below (an editable install's are in the checkout)
    for file in () if own or not base.is_absolute() else dist.files or ():
        parts = Path(str(file)).parts
        if not parts or parts[0] in ("..", "__pycache__") or parts[0].endswith(".pth") or \
                parts[0].startswith("__editable__"):
            continue
        path = base / parts[0]
        if path.exists():
            entries[parts[0]] = str(path)
    for requirement in _requirements(dist):
        entries.update(_distribution_entries(requirement, seen))
    return entries


@functools.lru_cache(maxsize=1)
def runtime_entries() -> dict[str, str]:
    """The arena's own runtime: the ``arena`` package, its distribution's metadata and its
    requirements (an editable install's packages live in the checkout: ``arena`` is found by import)."""
    entries = _distribution_entries(ARENA_DISTRIBUTION, set())
    import arena

    entries["arena"] = str(Path(arena.__file__).parent)
    for directory in sys.path:  # its metadata (entry points: `arena serve-bot` finds the bundled plugins)
        if os.path.isabs(directory):
            for info in sorted(Path(directory).glob("trick_arena-*.dist-info"))[:1]:
                entries[info.name] = str(info)
    entries.pop("bots", None)  # the bundled bots are bots: each gets its own code only
    entries.pop("tests", None)
    return entries


def _module_files(modules: Sequence[str]) -> list[str]:
    """The files of ``modules`` (those imported: a registered bot's module is)."""
    files = []
    for name in modules:
        path = getattr(sys.modules.get(name), "__file__", None)
        if path:
            files.append(os.path.realpath(path))
    return files


def bot_entries(module_name: str, other_bot_modules: Sequence[str] = ()) -> dict[str, str]:
    """{path inside SITE: path outside} of a bot's own code, found from its factory's module.

    A bot from a distribution of its own gets that distribution (and its requirements); any other
    bot (the bundled ones, a plugin named in $TRICK_ARENA_PLUGINS) gets its module's package
    (its package's ``__init__`` files above it), narrowed to the module file alone where that
    package also holds another registered bot (``other_bot_modules``: the other registered bots'
    modules, which the caller has from the registry).
    """
    top = module_name.split(".")[0]
    owners = importlib.metadata.packages_distributions().get(top, [])
    entries: dict[str, str] = {}
    for owner in owners:
        if owner.lower().replace("_", "-") != ARENA_DISTRIBUTION:
            entries.update(_distribution_entries(owner, {ARENA_DISTRIBUTION}))
    if entries:
        return entries
    module = sys.modules.get(module_name)
    if module is None:
        try:
            spec = importlib.util.find_spec(module_name)
        except ImportError:
            spec = None
        file = spec.origin if spec is not None else None
    else:
        file = getattr(module, "__file__", None)
    if not file:
        raise ArenaError(f"cannot find the code of the bot module {module_name!r} to show it in its sandbox")
    file = os.path.realpath(file)
    parts = module_name.split(".")
    if os.path.basename(file) == "__init__.py":
        own_dir, own_parts = os.path.dirname(file), parts  # the bot is a package
    elif len(parts) > 1:
        own_dir, own_parts = os.path.dirname(file), parts[:-1]  # the package the module is in
    else:
        own_dir, own_parts = "", parts  # a top-level module: its file alone
    shared = len(own_parts) == 1 and bool(owners)  # e.g. the arena's `bots`, which holds every bundled bot
    if own_dir and (shared or any(other.startswith(own_dir + os.sep) for other in _module_files(
            [m for m in other_bot_modules if m != module_name]))):
        own_dir, own_parts = "", parts
    if own_dir:
        entries["/".join(own_parts)] = own_dir
    else:
        entries["/".join(parts[:-1] + [os.path.basename(file)])] = file
    ancestors = own_parts[:-1] if own_dir else parts[:-1]
    for depth in range(1, len(ancestors) + 1):  # the __init__ files of the packages above
        found = importlib.util.find_spec(".".join(ancestors[:depth]))
        origin = found.origin if found is not None else None
        if origin and origin.endswith("__init__.py"):
            entries["/".join(ancestors[:depth]) + "/__init__.py"] = os.path.realpath(origin)
    for shared_name in _bundled_uses(module_name, top, owners):
        entries.update(bot_entries(shared_name, [*other_bot_modules, module_name]))
    return entries


def _bundled_uses(module_name: str, top: str, owners: list[str]) -> tuple[str, ...]:
    """The other bundled bot packages a bundled bot plays with (its module's ``SANDBOX_USES``: the
    ``search`` bot rolls out with the ``heuristic``'s strategies); only the arena's own ``bots``
    may name them, and only packages of ``bots``, so no plugin sees another bot's code this way."""
    if top != "bots" or not any(o.lower().replace("_", "-") == ARENA_DISTRIBUTION for o in owners):
        return ()
    uses = getattr(sys.modules.get(module_name), "SANDBOX_USES", ())
    return tuple(name for name in uses if isinstance(name, str) and name.split(".")[0] == "bots" and name != module_name)


def python_site(entries: Mapping[str, str]) -> tuple[list[str], dict[str, str]]:
    """(binds, env) that show a Python program in a sandbox the Python installation and ``entries``
    ({name inside SITE: path outside}) as its site, ``PYTHONPATH`` pointing there: the public way
    to build a bot's (or a tool's) site."""
    return _python_binds() + _site_binds(entries), {"PYTHONPATH": SITE, "PYTHONDONTWRITEBYTECODE": "1"}


def _site_binds(entries: Mapping[str, str]) -> list[str]:
    args = []
    for inside, outside in sorted(entries.items()):
        args += ["--ro-bind", outside, f"{SITE}/{inside}"]
    return args


# -- the sandbox's process ---------------------------------------------------------------------------

_PATH_OPTIONS = {"--ro-bind": 2, "--bind": 2, "--dir": 1, "--symlink": 2, "--tmpfs": 1, "--dev": 1, "--proc": 1}


def _with_parents(args: list[str]) -> list[str]:
    """``args`` with a world-searchable ``--dir`` (0755) made first for every directory above a
    mount point: bwrap makes missing parents 0700 (root's), which the bot's uid could not enter."""
    parents: set[str] = set()
    index = 1
    while index < len(args):
        option = args[index]
        if option in _PATH_OPTIONS:
            destination = args[index + _PATH_OPTIONS[option]]
            parent = os.path.dirname(destination)
            while parent not in ("/", ""):
                parents.add(parent)
                parent = os.path.dirname(parent)
            index += _PATH_OPTIONS[option] + 1
        elif option in ("--perms", "--size"):
            index += 2
        else:
            index += 1
    made: list[str] = []
    in_tmp: list[str] = []  # made after the /tmp tmpfs is mounted (else it would hide them)
    for directory in sorted(parents, key=lambda p: (p.count("/"), p)):
        if directory not in ("/usr", "/tmp", "/proc", "/dev") and not directory.startswith(("/usr/", "/proc/", "/dev/")):
            (in_tmp if directory.startswith("/tmp/") else made).extend(["--perms", "0755", "--dir", directory])
    args = args[:1] + made + args[1:]
    if in_tmp and "/tmp" in args:
        at = args.index("/tmp", args.index("--tmpfs")) + 1
        args = args[:at] + in_tmp + args[at:]
    return args


def match_cpu() -> int | None:
    """The one CPU every sandbox this process starts runs on: the first it may use itself. A
    process of the arena plays one match at a time (a tournament's workers, each kept to a CPU of
    its own, run one each), so the bots of a match share one CPU, and with the filter denying
    ``sched_setaffinity`` none of their processes can take another."""
    getaffinity = getattr(os, "sched_getaffinity", None)
    cpus = getaffinity(0) if getaffinity is not None else None
    return min(cpus) if cpus else None


def sandbox_uid() -> int:
    """An outside uid for one sandbox (the arena being root): its own, as far as the range allows."""
    return UID_BASE + (os.getpid() * 64 + next(_serial)) % UID_SPAN


class Sandbox:
    """One sandboxed process: its bwrap argv, its limits, its cgroup, its uid, its kill."""

    def __init__(self, limits: Limits, command: list[str], *, binds: Iterable[str] = (), env: Mapping[str, str] | None = None,
                 chdir: str = "/tmp", writable: Iterable[str] = (), name: str = "bot", uid: int | None = None):
        path = check_available()
        self.limits = limits
        self.root = os.geteuid() == 0
        self.uid = (uid or sandbox_uid()) if self.root else os.getuid()
        self.gid = self.uid if self.root else os.getgid()
        self.cgroup = Cgroup(f"{name}-{os.getpid()}-{next(_serial)}", limits) if self.root else None
        self.process: subprocess.Popen | None = None
        self._bwrap: set[int] | None = None  # bwrap's own processes (outer and PID-namespace init)
        self._paused: set[int] = set()  # what pause() stopped and resume() continues
        environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8",
                       "ARENA_SANDBOX": "1", **(env or {})}
        args = [path, *_system_binds(), *_namespace_args(), "--die-with-parent", "--new-session",
                "--dev", "/dev", "--proc", "/proc", "--perms", "1777", "--size", str(limits.tmp_size), "--tmpfs", "/tmp",
                *binds]
        for directory in writable:
            args += ["--bind", directory, directory]
        if chdir != "/tmp":
            args += ["--dir", chdir]
        args = _with_parents(args)
        args += ["--remount-ro", "/", "--chdir", chdir, "--clearenv"]
        for key, value in environment.items():
            args += ["--setenv", key, value]
        if self.root:
            args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--", _setpriv(),
                     f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups", "--inh-caps=-all",
                     "--bounding-set=-all", "--no-new-privs"]
        else:
            args += ["--"]
        self.argv = args + command

    @property
    def applied(self) -> list[str]:
        """Which limits were set: the rlimits always, the cgroup's where the machine offers them."""
        return ["address_space", "cpu_seconds", "processes", "open_files", "file_size", "tmp_size"] + \
            [f"cgroup:{key}" for key in (self.cgroup.applied if self.cgroup else [])]

    def start(self, *, stdout: int, pass_fds: tuple[int, ...] = (), new_session: bool = False) -> subprocess.Popen:
        """Start bwrap through the launcher, which joins the sandbox's cgroup, sets its rlimits,
        its CPU and its death signal before it becomes bwrap (no preexec_fn: see
        :mod:`arena.players.launch`); bwrap loads the system-call filter (:mod:`arena.players.syscalls`)
        from a descriptor passed to it, just before it runs the bot.
        An OSError or an :class:`ArenaFailure` (the launcher failed before bwrap ran, or bwrap could
        not be run: :class:`arena.players.launch.Report`) is the arena's failure, not the bot's."""
        procs = [os.path.join(path, "cgroup.procs") for path in (self.cgroup.dirs if self.cgroup else [])]
        seccomp = syscalls.filter_fd()
        report = Report()
        try:
            argv = launcher([self.argv[0], "--seccomp", str(seccomp), *self.argv[1:]], cgroups=procs,
                            rlimits=rlimits(self.limits), cpu=match_cpu(), status=report.write)
            self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stdout,
                                            pass_fds=(*pass_fds, seccomp, report.write), start_new_session=new_session)
        finally:
            os.close(seccomp)  # bwrap has its own copy
            report.started()
        how, why = report.outcome(self.process)
        if how != "ok":  # bwrap is the arena's program: failing to run it is the arena's failure too
            self.kill()
            raise ArenaFailure(f"cannot start the sandbox: {why}")
        return self.process

    def exit_code(self, wait: float = 0.0) -> int | None:
        if self.process is None:
            return None
        try:
            return self.process.wait(wait) if wait else self.process.poll()
        except subprocess.TimeoutExpired:
            return None

    def explain(self, text: str, code: int | None = None) -> str:
        return explain(text, code, self.limits, self.cgroup.events() if self.cgroup else "")

    def members(self) -> list[int]:
        """The sandbox's processes: its cgroup's, or else bwrap's tree as /proc lists it now."""
        if self.cgroup is not None and self.cgroup.dirs:
            try:
                with open(os.path.join(self.cgroup.dirs[0], "cgroup.procs")) as handle:
                    return [int(line) for line in handle if line.strip()]
            except (OSError, ValueError):
                return []
        if self.process is None or self.process.poll() is not None:
            return []
        found, todo = [], [self.process.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo.extend(_children(pid))
        return found

    def pause(self) -> None:
        """Stop every process of the sandbox's bot (SIGSTOP, which no process can catch) until
        :meth:`resume`: the arena pauses a bot between its calls, so that no bot runs while another
        is being asked, and none can time the CPU it shares with a partner (the timing channel of
        docs/security.md). A stopped process can neither run nor fork, and SIGKILL still reaches it,
        so a paused sandbox dies with the arena like a running one. bwrap's own two processes run
        no code of the bot's and are left alone."""
        if self._bwrap is None and self.process is not None:
            self._bwrap = {self.process.pid, *_children(self.process.pid)}
        bwrap = self._bwrap or set()
        for _ in range(20):  # again for what forked between a listing and its stop
            pids = [pid for pid in self.members() if pid not in bwrap and pid not in self._paused]
            if not pids:
                return
            _stop_all(pids)
            self._paused.update(pids)

    def resume(self) -> None:
        """Let the paused bot run again (SIGCONT to what :meth:`pause` stopped)."""
        for pid in self._paused:
            _signal(pid, signal.SIGCONT)
        self._paused.clear()

    def kill(self) -> None:
        """Kill bwrap and its PID namespace's init (the kernel then kills every process left in
        the namespace), then whatever is still in the sandbox's cgroup. The init is killed by pid
        first: it is a forked bwrap that sets its own death signal (--die-with-parent) only once it
        runs, so killing the outer bwrap alone while it is being set up could leave it alive. The
        outer bwrap is stopped before its children are read, so that it cannot fork the init
        between that reading and its death (1 kill in 300 left an init so, without cgroups)."""
        process = self.process
        if process is not None:
            if process.poll() is None:
                _stop(process.pid)
                for child in _children(process.pid):
                    try:
                        os.kill(child, signal.SIGKILL)
                    except OSError:
                        pass
                try:
                    process.kill()
                except ProcessLookupError:
                    pass
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                pass
        if self.cgroup is not None:
            for _ in range(50):  # the namespace's processes take a moment to be reaped
                self.cgroup.kill()
                self.cgroup.close()
                if not self.cgroup.dirs:
                    break
                time.sleep(0.02)


def _stop(pid: int, timeout: float = 1.0) -> None:
    """SIGSTOP ``pid`` and wait until it is stopped (or dead): a fork it had begun is then either
    done, its child listed, or undone (the kernel restarts a fork a signal interrupts)."""
    _stop_all([pid], timeout)


def _stop_all(pids: Iterable[int], timeout: float = 1.0) -> None:
    """SIGSTOP every one of ``pids``, then wait until each is stopped (or dead): usually within
    microseconds, so the first checks do not sleep."""
    pids = [pid for pid in pids if _signal(pid, signal.SIGSTOP)]
    deadline = time.monotonic() + timeout
    for pid in pids:
        checks = 0
        while _state(pid) not in "TtZX" and time.monotonic() < deadline:
            checks += 1
            if checks > 50:
                time.sleep(0.0002)


def _signal(pid: int, signum: int) -> bool:
    try:
        os.kill(pid, signum)
    except OSError:
        return False
    return True


def _state(pid: int) -> str:
    """The process's state letter (R, S, D, T...); "X" when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "X"


def _children(pid: int) -> list[int]:
    """The processes ``pid`` forked that are still its children (Linux's /proc children list)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(word) for word in handle.read().split()]
    except (OSError, ValueError):
        return []


def python_command(module_name: str, site: Mapping[str, str] | None = None, other_bot_modules: Sequence[str] = ()
                   ) -> tuple[list[str], list[str], dict[str, str]]:
    """(command, binds, env) for a Python bot whose factory is in ``module_name``; ``site``: the
    bot's own entries ({name inside SITE: path outside}) instead of those found from its module
    and ``other_bot_modules`` (:func:`bot_entries`)."""
    own = bot_entries(module_name, other_bot_modules) if site is None else site
    entries = {**own, **runtime_entries()} if site is not None else {**runtime_entries(), **own}
    python = os.path.realpath(sys.executable)
    command = [python, "-S", "-B", "-m", "arena.players.sandbox_child"]
    return (command, *python_site(entries))


def socketpair() -> tuple[socket.socket, socket.socket]:
    parent, child = socket.socketpair()
    child.set_inheritable(True)
    return parent, child

