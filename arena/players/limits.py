"""Resource limits of a sandboxed bot: parsed from a tournament's ``[limits]`` table, set with
``setrlimit`` on the sandbox's process (inherited by everything it starts) and, where the machine
offers cgroups (v1 or v2) the arena may write, a memory and a pids limit on a cgroup of its own.

A limit a bot runs into becomes the cause of its recorded fault (:func:`explain`): "killed by SIGXCPU:
the CPU-time limit of 30 s", "MemoryError under the 1 GiB address-space limit", ...
"""

from __future__ import annotations

import os
import re
import resource
import signal
from dataclasses import asdict, dataclass, fields
from typing import Any, Iterable, Mapping

from arena.errors import ArenaError

MIB = 1024 * 1024
GIB = 1024 * MIB
LOG_LIMIT = 1 * MIB  # bytes of a bot's output kept in its log file (then a note, and the rest dropped)
_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": MIB, "mb": MIB, "mib": MIB,
          "g": GIB, "gb": GIB, "gib": GIB}


@dataclass(frozen=True)
class Limits:
    """Per sandboxed bot process tree (the defaults suit the bundled bots with room to spare)."""

    address_space: int = 2 * GIB  # RLIMIT_AS of each process, bytes
    cpu_seconds: int = 300  # RLIMIT_CPU of each process: CPU seconds for the whole match
    processes: int = 64  # RLIMIT_NPROC (per sandbox uid) and the cgroup's pids.max
    open_files: int = 256  # RLIMIT_NOFILE
    file_size: int = 64 * MIB  # RLIMIT_FSIZE: the largest file it may write
    tmp_size: int = 64 * MIB  # the size of its private /tmp (tmpfs)
    memory: int = 2 * GIB  # the cgroup's memory limit (all its processes together), bytes
    log_size: int = LOG_LIMIT  # bytes of its output kept in its log file

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "Limits":
        return parse_limits(data or {})


_SIZES = {"address_space", "file_size", "tmp_size", "memory", "log_size"}
_MINIMUM = {"address_space": 64 * MIB, "cpu_seconds": 1, "processes": 1, "open_files": 16, "file_size": 0,
            "tmp_size": 1 * MIB, "memory": 16 * MIB, "log_size": 0}
_HELP = {
    "address_space": "bytes of virtual memory per process (a number, or a string like \"1 GiB\")",
    "cpu_seconds": "CPU seconds per process (a whole number)",
    "processes": "processes and threads at once (a whole number)",
    "open_files": "open file descriptors per process (a whole number)",
    "file_size": "the largest file it may write, bytes (or \"64 MiB\")",
    "tmp_size": "the size of its private /tmp, bytes (or \"64 MiB\")",
    "memory": "memory of all its processes together (cgroup), bytes (or \"2 GiB\")",
    "log_size": "bytes of its output kept in its log file (or \"1 MiB\")",
}
KEYS = tuple(f.name for f in fields(Limits))


def size(value: Any) -> int:
    """``1073741824``, ``"1 GiB"``, ``"512M"``, ``"64 MiB"`` as a number of bytes."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", value)
        if match and match.group(2).lower() in _UNITS:
            return int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    raise ValueError(f"expected a number of bytes or a size like \"1 GiB\", got {value!r}")


def parse_limits(data: Mapping[str, Any], where: str = "[limits]") -> Limits:
    """The limits of a ``[limits]`` table; ArenaError names the key, what was expected and what was found."""
    if not isinstance(data, Mapping):
        raise ArenaError(f"{where}: expected a table")
    values: dict[str, int] = {}
    for key, value in data.items():
        if key not in KEYS:
            raise ArenaError(f"{where} {key}: unknown key; keys: {', '.join(KEYS)}")
        try:
            if key in _SIZES:
                number = size(value)
            elif isinstance(value, int) and not isinstance(value, bool):
                number = value
            else:
                raise ValueError(f"expected a whole number, got {value!r}")
        except ValueError as exc:
            raise ArenaError(f"{where} {key}: {exc} ({_HELP[key]})") from None
        if number < _MINIMUM[key]:
            raise ArenaError(f"{where} {key}: {number} is too small: at least {_MINIMUM[key]} ({_HELP[key]})")
        values[key] = number
    return Limits(**values)


def human(n: int) -> str:
    for unit, factor in (("GiB", GIB), ("MiB", MIB), ("KiB", 1024)):
        if n >= factor and n % (factor // 16 or 1) == 0:
            return f"{n / factor:g} {unit}"
    return f"{n} bytes"


def rlimits(limits: Limits) -> list[tuple[int, tuple[int, int]]]:
    """The (resource, (soft, hard)) pairs set on the sandbox's process, which everything in it inherits."""
    pairs = [(which, (value, value)) for which, value in (
        (resource.RLIMIT_AS, limits.address_space), (resource.RLIMIT_NPROC, limits.processes),
        (resource.RLIMIT_NOFILE, limits.open_files), (resource.RLIMIT_FSIZE, limits.file_size),
        (resource.RLIMIT_CORE, 0))]
    # SIGXCPU at the soft limit (a cause the arena can name); SIGKILL a second later if it is caught
    pairs.append((resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1)))
    return pairs


# -- cgroups ---------------------------------------------------------------------------------------

CGROUP_ROOT = "/sys/fs/cgroup"
CGROUP_NAME = "trick-arena"


class Cgroup:
    """A cgroup of one sandbox, with a memory and a pids limit where the machine lets the arena make
    one (cgroup v1 ``memory`` and ``pids`` controllers, or v2 with both enabled); otherwise nothing
    (``applied`` is empty) and the rlimits stand alone."""

    swept = False  # the stale cgroups of dead arenas are removed once per process

    def __init__(self, name: str, limits: Limits):
        self.dirs: list[str] = []
        self.applied: list[str] = []
        self.v2 = os.path.exists(os.path.join(CGROUP_ROOT, "cgroup.controllers"))
        if not Cgroup.swept:
            Cgroup.swept = True
            sweep_stale([os.path.join(CGROUP_ROOT, CGROUP_NAME)] if self.v2 else
                        [os.path.join(CGROUP_ROOT, kind, CGROUP_NAME) for kind in ("memory", "pids")])
        if self.v2:
            self._make(os.path.join(CGROUP_ROOT, CGROUP_NAME, name), {"memory.max": limits.memory,
                                                                      "pids.max": limits.processes,
                                                                      "memory.swap.max": 0})
        else:
            self._make(os.path.join(CGROUP_ROOT, "memory", CGROUP_NAME, name), {"memory.limit_in_bytes": limits.memory})
            self._make(os.path.join(CGROUP_ROOT, "pids", CGROUP_NAME, name), {"pids.max": limits.processes})

    def _make(self, path: str, settings: Mapping[str, int]) -> None:
        try:
            if self.v2:  # the parent must hand both controllers down
                parent = os.path.dirname(path)
                os.makedirs(parent, exist_ok=True)
                with open(os.path.join(parent, "cgroup.subtree_control"), "w") as handle:
                    handle.write("+memory +pids")
            os.makedirs(path, exist_ok=True)
            for key, value in settings.items():
                try:
                    with open(os.path.join(path, key), "w") as handle:
                        handle.write(str(value))
                    self.applied.append(key)
                except OSError:
                    if key != "memory.swap.max":  # absent without swap accounting: nothing to cap
                        raise
        except OSError:
            self._remove(path)
            return
        self.dirs.append(path)

    def enter(self) -> None:
        """In the child before it execs (it moves itself, so nothing runs outside the limits)."""
        for path in self.dirs:
            with open(os.path.join(path, "cgroup.procs"), "w") as handle:
                handle.write("0")

    def events(self) -> str:
        """What the cgroup's counters say it refused: "" or a cause ("the memory limit of 2 GiB")."""
        for path in self.dirs:
            for name, marker in (("memory.oom_control", "oom_kill "), ("memory.events", "oom_kill "),
                                 ("pids.events", "max ")):
                try:
                    with open(os.path.join(path, name)) as handle:
                        text = handle.read()
                except OSError:
                    continue
                for line in text.splitlines():
                    if line.startswith(marker) and line.split()[-1] != "0":
                        return "memory" if "memory" in name else "pids"
            try:
                with open(os.path.join(path, "memory.failcnt")) as handle:
                    if handle.read().strip() not in ("", "0"):
                        return "memory"
            except OSError:
                pass
        return ""

    def kill(self) -> None:
        """SIGKILL every process in the cgroup. Killing bwrap is not enough: its PID namespace's
        init is a forked bwrap whose own death signal is set only once it runs, so a sandbox killed
        while it starts can leave that init alive, reparented to pid 1 (about 1 start in 36 here)."""
        for path in self.dirs:
            kill_members(path)

    def close(self) -> None:
        """Remove the cgroup; the directories that still hold a process (being reaped) stay in
        ``dirs``, for the caller to try again."""
        self.dirs = [path for path in self.dirs if not self._remove(path)]

    @staticmethod
    def _remove(path: str) -> bool:
        try:
            os.rmdir(path)
        except FileNotFoundError:
            return True
        except OSError:
            return False
        return True


def kill_members(path: str) -> None:
    """SIGKILL the processes of the cgroup at ``path`` (v2's ``cgroup.kill`` where there is one)."""
    try:
        with open(os.path.join(path, "cgroup.kill"), "w") as handle:
            handle.write("1")
        return
    except OSError:
        pass
    try:
        with open(os.path.join(path, "cgroup.procs")) as handle:
            pids = [int(line) for line in handle if line.strip()]
    except (OSError, ValueError):
        return
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def sweep_stale(parents: Iterable[str]) -> list[str]:
    """Remove the empty sandbox cgroups (``NAME-PID-N``) of arenas that are gone (killed with -9,
    which leaves them behind); a live arena's cgroups, and any that still hold a process, are left.
    The removed paths."""
    removed = []
    for parent in parents:
        try:
            names = os.listdir(parent)
        except OSError:
            continue
        for name in names:
            owner = name.rsplit("-", 2)
            path = os.path.join(parent, name)
            if len(owner) == 3 and owner[1].isdigit() and not _alive(int(owner[1])) and os.path.isdir(path) \
                    and Cgroup._remove(path):
                removed.append(path)
    return removed


def explain(text: str, code: int | None, limits: Limits, cgroup_event: str = "") -> str:
    """Name the limit behind a crash: ``text`` is the crash's message, ``code`` the sandbox's exit
    status (bubblewrap exits 128 + N when its child is killed by signal N)."""
    signum = -code if code is not None and code < 0 else (code - 128 if code is not None and code > 128 else None)
    notes = []
    if signum == signal.SIGXCPU or "SIGXCPU" in text:
        notes.append(f"killed by SIGXCPU: the CPU-time limit of {limits.cpu_seconds} s")
    elif signum == signal.SIGXFSZ or "File too large" in text or "EFBIG" in text:
        notes.append(f"SIGXFSZ: the file-size limit of {human(limits.file_size)}")
    elif cgroup_event == "memory" or (signum == signal.SIGKILL and cgroup_event == "memory"):
        notes.append(f"killed under the memory limit of {human(limits.memory)} (cgroup)")
    elif "MemoryError" in text:
        notes.append(f"MemoryError under the {human(limits.address_space)} address-space limit")
    if cgroup_event == "pids" or "Resource temporarily unavailable" in text or "BlockingIOError" in text:
        notes.append(f"the process limit of {limits.processes}")
    if "Too many open files" in text:
        notes.append(f"the open-files limit of {limits.open_files}")
    if "No space left on device" in text:
        notes.append(f"the /tmp size limit of {human(limits.tmp_size)}")
    return f"{text} [{'; '.join(notes)}]" if notes else text
