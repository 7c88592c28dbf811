"""Bots in processes of their own: a crash never touches the arena, an endless loop is killed at its
deadline and the process replaced, and the bot can read nothing but the observations it is sent.

The child is never a fork of the arena, whose memory holds every hand. Where the platform allows it
it is forked from a *fork server* (``multiprocessing``'s ``forkserver`` method): a fresh interpreter
started for that purpose, which has imported nothing but the arena's own process code (never a bot's
module: each child imports its own bot after the fork, so no bot can touch what another bot's process
starts from) and has never seen a game. A fork of it starts in milliseconds where a fresh
interpreter takes a tenth of a second; elsewhere the child is a fresh interpreter (``spawn``).

Messages go over a pipe, by the protocol of :mod:`arena.players.pipe` (the bot's answers are plain
text, never unpickled by the arena). :class:`ProcessHost` is the arena's end of it; a
:class:`Launcher` starts the process at the other end (:class:`ForkServerLauncher` here, the
sandbox's in :mod:`arena.players.sandboxed`).
"""

from __future__ import annotations

import contextlib
import marshal
import math
import multiprocessing
import os
import select
import socket
import struct
import threading
import time
from multiprocessing import spawn
from typing import Any, ContextManager, Mapping, Protocol

from arena.errors import ArenaError
from arena.players import pipe
from arena.players.base import MatchInfo
from arena.players.hosts import GRACE, MAX_ANSWER_BYTES, ArenaFailure, BotCrash, BotTimeout, Garbage, Host, \
    LaunchedProcess
from arena.players.logs import CappedLog, last_output
from arena.referee.observation import LazyObservation

_dumps, _pack, _unpack = marshal.dumps, pipe.LENGTH.pack, pipe.LENGTH.unpack_from
_read, _perf_counter, _ceil, _DONTWAIT = os.read, time.perf_counter, math.ceil, socket.MSG_DONTWAIT

STARTUP_TIMEOUT = 60.0  # seconds for a fresh interpreter to import the bot; never charged to its clock
# The modules the fork server imports before it forks bot processes: the arena's, never a bot's.
FORKSERVER_PRELOAD = ["arena.players.isolated", "arena.plugins"]


def _context() -> Any:
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(FORKSERVER_PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


_CONTEXT = _context()

# A bot process needs nothing of the arena's main script: its target (pipe.serve) and arguments are
# the arena's own. By default multiprocessing runs that script again in every child started from
# the fork server (as ``__mp_main__``, for targets defined there), which was about half of a bot
# process's start under the ``arena`` command (15-18 -> 9.7 ms, docs/performance.md; more under
# pytest or a script that imports much) and ran the user's script beside a bot. So a launch leaves it out of what the child prepares
# from, unless the bot's factory is defined in that script (``__main__:...``).
_launching = threading.local()
_preparation_data = spawn.get_preparation_data


def _preparation_data_for(name: str) -> dict[str, Any]:
    data = _preparation_data(name)
    if getattr(_launching, "without_main", False):
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
    return data


spawn.get_preparation_data = _preparation_data_for


def _start(process: Any, path: str) -> None:
    """Start a bot process (the fork server's child) without the main script unless its factory is there."""
    _launching.without_main = not path.startswith("__main__:")
    try:
        process.start()
    finally:
        _launching.without_main = False


def _quiet_fork_server() -> None:
    """Start the fork server (if it is not running) with its standard error on /dev/null.

    When the process that asked it for a bot dies in the middle of the request (a pool worker
    killed as the arena stops on Ctrl-C or SIGTERM), the fork server's loop ends with an EOFError
    traceback, which would land in the arena's terminal. The bots it forks write to logs of their
    own (``serve``), so nothing else of it is lost.
    """
    if _CONTEXT.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        forkserver.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def factory_path(factory: Any) -> str:
    """``module:qualname`` of a bot factory, so that a child process can import it. A lambda or a
    function defined inside another cannot be imported by name: that is said here, in the arena,
    rather than as a crash of the bot's process."""
    qualname = getattr(factory, "__qualname__", type(factory).__qualname__)
    path = f"{getattr(factory, '__module__', '?')}:{qualname}"
    if "<" in qualname:  # <lambda>, <locals>
        raise ArenaError(f"bot factory {path} cannot run in a process of its own: the bot's process imports "
                         "its factory by module and name, so it must be a function or class defined at the top "
                         "level of its module (not a lambda, not inside another function)")
    return path


def arena_cpus() -> set[int] | None:
    """The CPUs this (the arena's) process may run on, where the platform says so.

    A bot process runs on the same ones. The arena and its bots take turns, never run at once, so
    nothing is lost when they share a CPU, and much is gained where the arena is kept to one (a
    tournament worker is, :mod:`arena.tournaments.executors`): handing the turn to a process
    waiting on another CPU wakes that CPU, which on a virtual machine costs several times the round
    trip itself (measured in docs/performance.md).
    """
    getaffinity = getattr(os, "sched_getaffinity", None)
    return getaffinity(0) if getaffinity is not None else None


class Launched(LaunchedProcess, Protocol):
    """A bot process as its launcher started it (:class:`Launcher`): the arena's end of its pipe too."""

    conn: Any  # the arena's end of the pipe (``fileno()``, ``close()``)


class Launcher(Protocol):
    """Starts bot processes that serve a Python bot on the pipe (:func:`arena.players.pipe.serve`)."""

    def launch(self, path: str, settings: Mapping[str, Any], seed: int, log: CappedLog) -> Launched:
        """Start one for the factory at ``path``, its output into ``log``; the arena's failure to
        start it raises :class:`ArenaFailure`."""


class _Forked:
    """A bot process forked from the fork server (:class:`ForkServerLauncher`)."""

    what = "the bot process"
    pauses = False  # it runs between calls: turn() does nothing

    def __init__(self, conn: Any, process: Any):
        self.conn = conn
        self.process = process
        self.pid: int | None = process.pid

    def turn(self) -> ContextManager[None]:
        return contextlib.nullcontext()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()

    def exit_code(self, wait: float) -> int | None:
        self.process.join(wait)
        return self.process.exitcode

    def explain(self, text: str, code: int | None = None) -> str:
        return text


class ForkServerLauncher:
    """Bot processes forked from the arena's fork server (see the module's doc), on the CPUs of the
    arena's process (:func:`arena_cpus`)."""

    def launch(self, path: str, settings: Mapping[str, Any], seed: int, log: CappedLog) -> Launched:
        _quiet_fork_server()
        parent, child = _CONTEXT.Pipe()
        log_in, log_out = _CONTEXT.Pipe(duplex=False)  # its output: Connections, which a fork server passes on
        log.drain(os.dup(log_in.fileno()))
        log_in.close()
        process = _CONTEXT.Process(target=pipe.serve, args=(child, path, dict(settings), seed, arena_cpus(), log_out),
                                   daemon=True, name=f"bot:{path}")
        try:
            _start(process, path)
        except OSError as exc:  # the arena's fork server (a broken pipe to it, no more processes): the arena's failure
            parent.close()
            raise ArenaFailure(f"cannot start the bot's process: {type(exc).__name__}: {exc}") from None
        finally:
            child.close()
            log_out.close()
        return _Forked(parent, process)


class _ArenaEnd:
    """The arena's end of a bot process's socket pair: its reader, and a second descriptor of the
    same socket that writes without ever blocking (``MSG_DONTWAIT``), so a bot that stops reading
    cannot hold the arena. Reads block, bounded by the socket's receive timeout (``SO_RCVTIMEO``),
    set to the call's allowance when it changes: the usual decision then waits for its answer in the
    ``read`` itself, one system call where ``poll`` and ``read`` were two (about 1 µs a round trip
    on one CPU). The general exchange still waits in ``poll`` with its deadline before each read."""

    __slots__ = ("reader", "sender", "send", "wait")

    def __init__(self, fd: int):
        os.set_blocking(fd, True)
        self.reader = pipe.Reader(fd, pipe.MESSAGE_LIMIT)
        self.sender = socket.socket(fileno=os.dup(fd))  # the same socket; closed with the host's end
        self.send = self.sender.send
        self.wait: float | None = None  # the receive timeout set on the socket (None: none)

    def limit_reads(self, seconds: float) -> None:
        """Make a blocking read give up after ``seconds`` (``EAGAIN``)."""
        if seconds != self.wait:
            micros = max(1, _ceil(seconds * 1e6))  # never 0, which would mean no limit at all
            self.sender.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("ll", *divmod(micros, 1_000_000)))
            self.wait = seconds

    def close(self) -> None:
        self.sender.close()


class ProcessHost(Host):
    """A bot in its own process, replaced after a crash or a timeout.

    A notification the bot does not implement (its player inherits :class:`Player`'s, as its
    process reports when it starts) is not sent: nothing could come of it. Observations go as
    described under "observations" above.
    """

    # The observations (class defaults: SandboxHost makes its own __init__)
    reads = False  # the bot has read a whole observation: each decision brings the changes
    sent: dict[str, bytes] | None = None  # the last whole observation its process got, value by value
    sent_to: Any = None  # the connection of that process
    deciding: Mapping[str, Any] | None = None  # the observation of the decision under way
    sent_bytes = 0  # bytes of the messages of the match's calls (for `arena bench`)

    def __init__(self, factory: Any, settings: Mapping[str, Any] | None = None, seed: int = 0,
                 log_path: str | None = None, *, launcher: Launcher | None = None, log: CappedLog | None = None):
        self.path = factory if isinstance(factory, str) else factory_path(factory)
        self.settings = dict(settings or {})
        self.seed = seed
        self.launcher: Launcher = launcher or ForkServerLauncher()
        self.launched: Launched | None = None
        self.info: MatchInfo | None = None
        self.conn: Any = None
        self.end: _ArenaEnd | None = None
        self.reader: pipe.Reader | None = None  # self.end.reader
        self.ignored: frozenset[str] = frozenset()
        self.restarts = 0
        # a temporary file unless log_path (the user's to read: a tournament's)
        self.log = log if log is not None else CappedLog(log_path)
        self.log_path: str | None = self.log.path
        try:
            self._spawn()
        except BaseException:
            self._remove_log()
            raise

    # -- process management ------------------------------------------------------------------
    def _spawn(self) -> None:
        launched = self.launched = self.launcher.launch(self.path, self.settings, self.seed, self.log)
        self.conn = launched.conn
        self.end = _ArenaEnd(launched.conn.fileno())
        self.reader = self.end.reader
        with launched.turn():  # a sandbox runs until it is ready, and waits for its first call
            kind, value = self._receive(time.perf_counter() + STARTUP_TIMEOUT)
        if kind is None:
            self._kill()
            raise BotCrash(f"{launched.what} did not start within {STARTUP_TIMEOUT:.0f} s{self.output()}")
        if kind != "ready":
            self._kill()
            raise BotCrash(launched.explain(f"the bot could not be created: {value}"))
        self.ignored = frozenset(value.get("ignores", ()) if isinstance(value, dict) else ())

    def _kill(self) -> None:
        if self.launched is not None:
            self.launched.kill()
        if self.end is not None:
            self.end.close()
        self.launched = self.conn = self.end = self.reader = None

    @property
    def pid(self) -> int | None:
        """The bot's current process (None between a crash and its replacement)."""
        return self.launched.pid if self.launched is not None else None

    def output(self, limit: int = 800) -> str:
        """The end of what the bot printed, for the cause of a crash ("" when it printed nothing)."""
        return last_output(self.log, limit) if self.log_path is not None else ""

    def _remove_log(self) -> None:
        self.log.close()
        self.log_path = None

    def _replace(self) -> None:
        """Kill the process and start a fresh one that knows the match (outside any clock)."""
        self._kill()
        self.restarts += 1
        try:
            self._spawn()
            if self.info is not None and "start_match" not in self.ignored:
                self._call("start", self.info.as_dict(), STARTUP_TIMEOUT, replace_on_fault=False)
        except (BotCrash, BotTimeout):
            self._kill()  # the next call will try again and report a crash

    def _receive(self, deadline: float) -> tuple[str | None, Any]:
        """(kind, value) of the next message, or (None, None) when the deadline passed first."""
        try:
            data = self.reader.read(deadline)  # type: ignore[union-attr]
        except (EOFError, OSError):
            launched = self.launched
            if launched is None:
                raise BotCrash(f"the bot process died{self.output()}") from None
            code = launched.exit_code(wait=1.0)
            raise BotCrash(launched.explain(f"{launched.what} died (exit code {code}){self.output()}", code)) from None
        except pipe.Oversized as exc:  # the rest of it is still in the pipe: the process must go
            self._kill()
            return "oversized", f"an answer of {exc.length} bytes, over the limit of {MAX_ANSWER_BYTES}"
        if data is None:
            return None, None
        kind, value = pipe.decode(data)
        if kind == "error" and isinstance(value, str) and self.launched is not None:
            value = self.launched.explain(value)
        return kind, value

    def _ensure_process(self) -> None:
        if self.conn is None:
            self._replace()
            if self.conn is None:
                raise BotCrash("the bot process could not be restarted")

    def _send(self, framed: bytes, deadline: float) -> bool:
        """Write ``framed`` (a message as :func:`pipe.frame` made it, or what is left of one), waiting
        for room in the pipe until ``deadline`` at most (False: it passed first). The arena's writes
        never block (:class:`_ArenaEnd`), so a bot that stops reading cannot hold the arena."""
        if not framed:
            return True
        send = self.end.send  # type: ignore[union-attr]
        try:
            written = send(framed, _DONTWAIT)  # the usual case: all of it at once
        except BlockingIOError:
            written = 0
        if written == len(framed):
            return True
        view = memoryview(framed)[written:]
        room = select.poll()
        room.register(self.reader.fd, select.POLLOUT)  # type: ignore[union-attr]
        while True:
            left = deadline - time.perf_counter()
            if left <= 0 or not room.poll(max(1, math.ceil(left * 1000))):
                return False
            try:
                view = view[send(view, _DONTWAIT):]
            except BlockingIOError:
                pass
            if not view:
                return True

    def _call(self, verb: str, payload: Any, timeout: float, replace_on_fault: bool = True) -> tuple[Any, float]:
        self._ensure_process()
        return self._turn(pipe.message(verb, payload), timeout, replace_on_fault)

    def _turn(self, message: bytes, timeout: float, replace_on_fault: bool = True) -> tuple[Any, float]:
        """One exchange, with the process running (a sandbox runs for this call only)."""
        assert self.launched is not None
        with self.launched.turn():
            return self._exchange(message, timeout, replace_on_fault)

    def _exchange(self, message: bytes, timeout: float, replace_on_fault: bool) -> tuple[Any, float]:
        framed = pipe.frame(message)
        self.sent_bytes += len(framed)
        start = time.perf_counter()
        return self._complete(framed, start, start + timeout + GRACE, timeout, replace_on_fault)

    def _complete(self, unsent: bytes, start: float, deadline: float, timeout: float,
                  replace_on_fault: bool = True) -> tuple[Any, float]:
        """An exchange begun at ``start``, from where it stands: ``unsent`` is what is left to write
        of the message, and any bytes of the answer already read are in the reader's buffer."""
        try:
            kind, value = self._receive(deadline) if self._send(unsent, deadline) else (None, None)
            asked = False
            while kind == "need":  # answered once in a decision (so no bot can fill the pipe), else ignored
                if self.deciding is not None and not asked:
                    asked = self.reads = True  # it reads whole observations: send the next ones with the decision
                    if not self._send(pipe.frame(pipe.message("observation", self._changes(self.deciding))), deadline):
                        kind = None
                        break
                kind, value = self._receive(deadline)
            if kind is None:
                raise BotTimeout(time.perf_counter() - start, timeout)
        except (BotTimeout, BotCrash, OSError) as exc:
            if replace_on_fault:
                self._replace()
            if isinstance(exc, OSError):
                raise BotCrash(f"the pipe to the bot failed: {exc}") from None
            raise
        elapsed = time.perf_counter() - start
        if kind == "error":
            raise BotCrash(value)
        if kind == "oversized":  # the process was killed: the next call starts a fresh one
            if elapsed > timeout:
                raise BotTimeout(elapsed, timeout)
            return Garbage(f"<{value}>"), elapsed
        if kind == "garbage" or kind == "ready":
            return Garbage(value if isinstance(value, str) else repr(value)), elapsed
        if elapsed > timeout:
            raise BotTimeout(elapsed, timeout)
        return value, elapsed

    # -- the host interface ------------------------------------------------------------------
    def start(self, info: MatchInfo, timeout: float) -> None:
        self.info = info
        if "start_match" not in self.ignored:
            self._call("start", info.as_dict(), timeout)

    def decide(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        end = self.end
        if (end is not None and type(observation) is LazyObservation and not self.reads and not end.reader.buffer
                and not self.launched.pauses):  # type: ignore[union-attr]
            reader = end.reader
            # The usual decision, written flat: a bot that reads only the referee's keys, a running
            # process, an answer string in one read. Each Python call between the system calls costs
            # several times its warm price after the switch from the bot's process, so this is one
            # function; anything else is handed to the general exchange where it stands (_complete).
            # (An observation a caller has built already goes whole, as ``known``: its process
            # never needs to ask for the rest.)
            known = dict(dict.items(observation))
            try:
                data = _dumps(("act", (known, None)))
            except ValueError:  # not plain data (a caller's own keys): the general exchange pickles it
                return self._turn(pipe.message("act", (known, None)), timeout)
            framed = _pack(len(data) + 1) + b"m" + data
            self.sent_bytes += len(framed)
            end.limit_reads(timeout + GRACE)  # a system call only when the allowance changes
            fd = reader.fd
            start = _perf_counter()
            deadline = start + timeout + GRACE
            written = 0
            try:
                written = end.send(framed, _DONTWAIT)
                if written == len(framed):
                    chunk = _read(fd, 4096)  # waits for the answer, until the receive timeout at most
                    elapsed = _perf_counter() - start
                    if chunk[4:5] == b"s" and elapsed <= timeout and _unpack(chunk)[0] == len(chunk) - 4:
                        try:
                            return chunk[5:].decode("utf-8"), elapsed
                        except UnicodeDecodeError:
                            pass
                    reader.buffer = chunk  # not the usual answer: the general exchange reads it and says what it is
            except OSError:  # the general exchange meets it again and says what it was
                pass
            self.deciding = observation
            try:
                return self._complete(framed[written:], start, deadline, timeout)
            finally:
                self.deciding = None
        if self.conn is None:
            self._ensure_process()  # before the changes are taken against what its process has
        lazy = type(observation) is LazyObservation and not observation.built
        # the referee's keys, read without building the rest (dict.copy would build it: it calls keys())
        known = dict(dict.items(observation)) if lazy else {}
        self.deciding = observation
        try:
            return self._turn(pipe.message("act", (known, None if lazy and not self.reads else self._changes(observation))),
                              timeout)
        finally:
            self.deciding = None

    def _changes(self, observation: Mapping[str, Any]) -> tuple[str, dict[str, bytes]]:
        """The whole ``observation``, as changes to the last one this bot's process got (see
        "observations" above)."""
        if self.sent_to is not self.conn:  # a new process: it has none
            self.sent = None
        values = pipe.encode_values(dict(observation.items()))  # a LazyObservation is built here
        changes = pipe.changes(self.sent, values)
        self.sent, self.sent_to = values, self.conn
        return changes

    def notify(self, event: str, payload: dict[str, Any], timeout: float) -> None:
        if event not in self.ignored:
            self._call(event, payload, timeout)

    def close(self) -> None:
        if self.conn is not None and self.launched is not None:
            try:
                with self.launched.turn():  # a paused sandbox would be waited for in vain
                    deadline = time.perf_counter() + 1.0
                    if self._send(pipe.frame(pipe.message("close", None)), deadline):
                        self._receive(deadline)
            except (BotCrash, EOFError, OSError):
                pass
        self._kill()
        self._remove_log()

