"""Hosts of sandboxed bots (:mod:`arena.players.sandbox`): a Python plugin bot on the pipe wire of
:class:`~arena.players.isolated.ProcessHost`, a ``cmd:`` program over gRPC on a Unix socket. Each
is a fresh sandbox per match (and per restart after a fault), never a fork of anything that lived
before it, so nothing a bot saw in one match reaches the next.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import time
from dataclasses import dataclass
from typing import Any, ContextManager, Iterator, Mapping, Sequence

from arena.errors import ArenaError
from arena.players.hosts import ArenaFailure, BotCrash
from arena.players import pipe
from arena.players.isolated import ProcessHost, factory_path
from arena.players.limits import Limits
from arena.players import socket_dirs
from arena.players.logs import CappedLog
from arena.players.command import CommandHost, StartedCommand
from arena.players.remote import ENV_HOST, ENV_PORT, ENV_SOCKET, Address, UnixAddress, command_argv
from arena.players.sandbox import SOCKET_DIR, SOCKET_NAME, Sandbox, python_command, runtime_entries, \
    sandbox_uid, socketpair


@contextlib.contextmanager
def turns(host: Any) -> Iterator[None]:
    """Run ``host``'s sandbox for the length of one call, and pause it after (its current sandbox:
    a call may replace it). The referee asks one bot at a time, so the bots of a sandboxed match
    take turns: none runs while another is asked."""
    if host.sandbox is not None:
        host.sandbox.resume()
    try:
        yield
    finally:
        if host.sandbox is not None:
            host.sandbox.pause()


class _Sandboxed:
    """A bot process in a bubblewrap sandbox of its own (:class:`SandboxLauncher`): paused between
    its calls, so the bots of a match take turns (:func:`turns`)."""

    what = "the sandboxed bot process"
    pauses = True

    def __init__(self, conn: socket.socket, sandbox: Sandbox):
        self.conn = conn
        self.sandbox = sandbox
        self.pid: int | None = sandbox.process.pid if sandbox.process is not None else None

    def turn(self) -> ContextManager[None]:
        return turns(self)

    def kill(self) -> None:
        self.sandbox.kill()
        self.conn.close()

    def exit_code(self, wait: float) -> int | None:
        return self.sandbox.exit_code(wait=wait)

    def explain(self, text: str, code: int | None = None) -> str:
        return self.sandbox.explain(text, code)


class SandboxLauncher:
    """Each bot process started fresh in a sandbox of its own (never from the fork server), running
    ``python -m arena.players.sandbox_child``, which is told the bot to make by an ``init`` message."""

    def __init__(self, limits: Limits, command: list[str], binds: list[str], env: dict[str, str]):
        self.limits, self.command, self.binds, self.env = limits, command, binds, env

    def launch(self, path: str, settings: Mapping[str, Any], seed: int, log: CappedLog) -> _Sandboxed:
        parent, child = socketpair()
        try:  # the sandbox is the arena's: failing to make or start it is the arena's failure, not the bot's
            sandbox = Sandbox(self.limits, self.command + [str(child.fileno())], binds=self.binds, env=self.env)
            output = log.pipe()
        except (OSError, ArenaError) as exc:
            parent.close()
            child.close()
            raise ArenaFailure(f"cannot make the sandbox: {type(exc).__name__}: {exc}") from None
        try:
            sandbox.start(stdout=output, pass_fds=(child.fileno(),))
        except ArenaFailure:
            parent.close()
            raise
        except OSError as exc:
            parent.close()
            raise ArenaFailure(f"cannot start the sandbox: {exc}") from None
        finally:
            child.close()
            CappedLog.started(output)
        try:
            pipe.write(parent.fileno(), pipe.message("init", {"path": path, "settings": dict(settings), "seed": seed}))
        except OSError:  # it died before reading a word: the host's first read says how (exit code, output)
            pass
        return _Sandboxed(parent, sandbox)


class SandboxHost(ProcessHost):
    """A Python plugin bot in a sandbox of its own (replaced, in a fresh sandbox, after a crash or a
    timeout): a :class:`ProcessHost` whose processes a :class:`SandboxLauncher` starts, with the
    tournament's ``limits`` (its log capped at their ``log_size``). ``site``: the bot's code as
    {name inside the sandbox's site: path outside} (a ladder's installed version), instead of the
    code found from its factory's module in the arena's environment. ``other_bot_modules``: the
    other registered bots' modules (:func:`bot_entries`)."""

    def __init__(self, factory: Any, settings: Mapping[str, Any] | None = None, seed: int = 0, *,
                 limits: Limits | None = None, log_path: str | None = None, site: Mapping[str, str] | None = None,
                 other_bot_modules: Sequence[str] = ()):
        limits = limits or Limits()
        path = factory if isinstance(factory, str) else factory_path(factory)
        launcher = SandboxLauncher(limits, *python_command(path.partition(":")[0], site, other_bot_modules))
        super().__init__(path, settings, seed, launcher=launcher, log=CappedLog(log_path, limits.log_size))

    @property
    def sandbox(self) -> Sandbox | None:
        """The sandbox of its current process (None between a crash and its replacement)."""
        return self.launched.sandbox if isinstance(self.launched, _Sandboxed) else None


@dataclass(frozen=True)
class PinnedSocket(UnixAddress):
    """A sandboxed program's socket reached through the arena's ``O_PATH`` descriptor of it
    (:func:`arena.players.socket_dirs.pin_socket`): gRPC connects, and reconnects, to that very
    socket, never through a link the program put in its place. ``fd`` -1: not found yet (no
    connection can be made)."""

    fd: int = -1

    @property
    def target(self) -> str:
        return f"unix:/proc/self/fd/{self.fd}"


class _SandboxedCommand(StartedCommand):
    """A ``cmd:`` program in a sandbox of its own (:class:`SandboxCommandLauncher`), serving on the
    socket in its socket folder; paused between its calls, as a sandboxed Python bot is."""

    what = "the sandboxed command"
    pauses = True

    def __init__(self, command: str, socket_dir: str, uid: int):
        super().__init__(PinnedSocket("unix", os.path.join(socket_dir, SOCKET_NAME), 0))  # reaches nothing yet
        self.command = command
        self.socket_dir: str | None = socket_dir
        self.uid = uid
        self.sandbox: Sandbox | None = None
        self.socket_fd: int | None = None

    def serving(self, deadline: float) -> Address | None:
        """Wait for ``bot.sock``, then point at it through an ``O_PATH`` descriptor; refuse anything
        but a socket of the bot's own uid (a symbolic link to a socket the arena may reach and the
        bot may not would have the arena connect there)."""
        if self.socket_fd is not None:
            return self.address
        assert self.socket_dir is not None and self.process is not None
        path = os.path.join(self.socket_dir, SOCKET_NAME)
        while True:
            try:
                fd = socket_dirs.pin_socket(path, self.uid)
                break
            except FileNotFoundError:
                pass
            except (ValueError, OSError) as exc:
                raise BotCrash(f"the command {self.command!r} made its {SOCKET_NAME} {exc}: the arena connects "
                               "only to a socket the bot made itself") from None
            if self.process.poll() is not None or time.monotonic() > deadline:
                return None  # the health check's wait says why (its exit code, or no answer in time)
            time.sleep(0.02)
        self.socket_fd = fd
        self.address = PinnedSocket("unix", path, 0, fd=fd)
        return self.address

    def turn(self) -> ContextManager[None]:
        return turns(self)

    def exit_code(self, wait: float) -> int | None:
        return self.sandbox.exit_code(wait=wait) if self.sandbox is not None and self.process is not None else None

    def explain(self, text: str, code: int | None = None) -> str:
        return self.sandbox.explain(text, code) if self.sandbox is not None else text

    def kill(self) -> None:
        """Everything in the sandbox dies with it; its socket folder goes."""
        if self.sandbox is not None:
            self.sandbox.kill()
        self.process = None  # reaped: no process group of its pid to signal (the pid may be reused)
        if self.socket_fd is not None:
            os.close(self.socket_fd)
            self.socket_fd = None
        if self.socket_dir is not None:
            socket_dirs.remove(self.socket_dir)
            self.socket_dir = None


class SandboxCommandLauncher:
    """A ``cmd:`` program in a sandbox: no network, so it serves gRPC on the Unix socket
    ``$ARENA_BOT_SOCKET`` (``{socket}`` in the command) in a folder of its own
    (:mod:`arena.players.socket_dirs`: a capped tmpfs as root), which the arena reaches only once
    ``bot.sock`` is a socket of the bot's uid, and never through a symbolic link. ``own``: the
    folder of the bot's own files (a ladder version's), the only one of its command's it sees."""

    def __init__(self, command: str, limits: Limits, cwd: str | None = None, own: str | None = None):
        if any("{port}" in word for word in command.split()):
            raise ArenaError(f"the command {command!r} uses {{port}}, but a sandboxed command has no network: it "
                             "serves on the Unix socket in $ARENA_BOT_SOCKET (write {socket} in the command)")
        self.limits = limits
        self.view = command_view(command_argv(command, 0), cwd, own)

    def launch(self, command: str, env: Mapping[str, str], log: CappedLog) -> _SandboxedCommand:
        uid = sandbox_uid() if os.geteuid() == 0 else os.getuid()
        launched = _SandboxedCommand(command, socket_dirs.make(uid), uid)  # the bot's uid makes its socket there
        inside = f"{SOCKET_DIR}/{SOCKET_NAME}"
        binds, view_env, chdir, executable = self.view
        full_env = {**view_env, **env, ENV_SOCKET: inside}
        full_env.pop(ENV_PORT, None)
        full_env.pop(ENV_HOST, None)
        words = command_argv(command, 0, inside)  # {socket}: the path inside (not "" as command_argv would make it)
        words[0] = executable  # found on the arena's PATH: the sandbox's is only the system's
        assert launched.socket_dir is not None
        try:  # the sandbox is the arena's: failing to make or start it is the arena's failure, not the bot's
            launched.sandbox = Sandbox(self.limits, words, binds=binds + ["--bind", launched.socket_dir, SOCKET_DIR],
                                       env=full_env, chdir=chdir, name="cmd", uid=uid)
            output = log.pipe()
        except (OSError, ArenaError) as exc:
            launched.arena_error = f"cannot make the sandbox of {command!r}: {type(exc).__name__}: {exc}"
            return launched
        try:
            launched.process = launched.sandbox.start(stdout=output, new_session=True)
        except (OSError, ArenaFailure) as exc:
            launched.arena_error = f"cannot start the sandbox of {command!r}: {exc}"
        finally:
            CappedLog.started(output)
        return launched


class SandboxCommandHost(CommandHost):
    """A :class:`~arena.players.command.CommandHost` whose program a :class:`SandboxCommandLauncher`
    starts, with the tournament's ``limits`` (its log capped at their ``log_size``)."""

    def __init__(self, command: str, *, limits: Limits | None = None, log_path: str | None = None,
                 own: str | None = None, cwd: str | None = None, **kwargs: Any):
        limits = limits or Limits()
        launcher = SandboxCommandLauncher(command, limits, cwd, own)
        super().__init__(command, launcher=launcher, log_path=log_path, log_limit=limits.log_size, **kwargs)

    @property
    def sandbox(self) -> Sandbox | None:
        """The sandbox of its current program (None once stopped)."""
        return self.launched.sandbox if isinstance(self.launched, _SandboxedCommand) else None

    @property
    def socket_dir(self) -> str | None:
        return self.launched.socket_dir if isinstance(self.launched, _SandboxedCommand) else None


_RESULTS = (".db", ".db-wal", ".db-shm", "_logs")  # a results database, its journal, a run's logs


def _holds_results(directory: str) -> bool:
    """A directory with a results database (or its journal) or the arena's run logs in it."""
    try:
        names = os.listdir(directory)
    except OSError:
        return True  # cannot tell: treat it as one
    return any(name.endswith(_RESULTS) for name in names)


def _is_arena_python(path: str) -> bool:
    """A Python interpreter or script of the arena's own installation (its venv's bin, its Python)."""
    import sys

    real = os.path.realpath(path)
    if real == os.path.realpath(sys.executable) or os.path.dirname(path) == os.path.dirname(sys.executable):
        return True
    try:
        with open(path, "rb") as handle:
            first = handle.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def _own_view(words: list[str], own: str) -> tuple[list[str], dict[str, str], str, str]:
    """The view of a program confined to its own folder ``own`` (a ladder version's files): that
    folder, read-only, and its working directory; the executable must be one of its files, a
    system program (under /usr, which every sandbox sees) or the arena's Python. Nothing a word of
    the command names is shown: ``..``, symlinks and other versions' folders reach nothing."""
    import sys

    own = os.path.realpath(own)
    real = os.path.realpath(words[0]) if os.path.isabs(words[0]) else ""
    python = os.path.realpath(sys.executable)
    if not real or not os.path.isfile(real) or not (real.startswith(own + os.sep) or real.startswith("/usr/")
                                                    or real == python):
        raise ArenaError(f"cannot run {words[0]!r}: a program runs one of its own files or a system program")
    binds: list[str] = ["--ro-bind", own, own]
    env: dict[str, str] = {}
    _add_proto(binds, env)
    if _is_arena_python(real):  # the arena's Python, or a script of its own that names a Python
        _add_arena_python(binds, env)
    return binds, env, own, real


def _add_proto(binds: list[str], env: dict[str, str]) -> None:
    from arena.protogen import PROTO_DIR, PROTOS

    proto = PROTO_DIR / PROTOS[0]
    if proto.exists():  # the protocol's definition, public: a bot that loads it at run time finds it
        binds += ["--ro-bind", str(proto), f"/sandbox/proto/{PROTOS[0]}"]
        env["ARENA_PROTO"] = f"/sandbox/proto/{PROTOS[0]}"


def _add_arena_python(binds: list[str], env: dict[str, str]) -> None:
    from pathlib import Path

    import bots
    from arena.players.sandbox import python_site

    entries = dict(runtime_entries())
    entries["bots"] = str(Path(bots.__file__).parent)  # `arena serve-bot NAME` loads the bundled plugins
    site_binds, site_env = python_site(entries)
    binds += site_binds
    env.update(site_env)


def command_view(words: list[str], cwd: str | None, own: str | None = None) -> tuple[list[str], dict[str, str], str, str]:
    """(binds, env, chdir, executable) of a sandboxed command, read-only: its executable's directory
    and its script's (the first argument that is a file: ``node bot.js``, ``python bot.py``); only
    the file itself where that directory is the arena's working directory or above it (a script in
    a checkout must not show the checkout's results); nothing of a directory that holds a results
    database or a run's logs (but the executable itself, which must be seen to run); a ``cwd``; a
    Python command also gets the Python installation and the arena's runtime. Other arguments that
    name files are not shown: a command line cannot open the arena's files to its program.
    ``own``: the program's own folder, the only one shown (:func:`_own_view`)."""
    if own is not None:
        return _own_view(words, own)
    here = os.path.realpath(cwd or os.getcwd())
    binds: list[str] = []
    env: dict[str, str] = {}
    executable = shutil.which(words[0], path=os.environ.get("PATH")) if os.sep not in words[0] else \
        os.path.join(here, words[0]) if not os.path.isabs(words[0]) else words[0]
    if executable is None or not os.path.exists(executable):
        raise ArenaError(f"cannot run {words[0]!r}: no such program")
    shown: set[str] = set()

    def show(path: str) -> None:
        path = os.path.abspath(path)
        if path in shown or path.startswith("/usr/") or any(path.startswith(s + os.sep) for s in shown):
            return
        shown.add(path)
        binds.extend(["--ro-bind", path, path])

    def directory_of(path: str, program: bool = True) -> None:
        directory = os.path.dirname(os.path.abspath(path))
        if _holds_results(directory) or path.endswith(_RESULTS):
            if program:  # the executable itself must be seen to run; a script there is not shown at all
                show(path)
        elif here == directory or here.startswith(directory + os.sep) or directory in ("/", ""):
            show(path)
        else:
            show(directory)

    directory_of(executable)
    if os.path.realpath(executable) != os.path.abspath(executable):
        directory_of(os.path.realpath(executable))
    for word in words[1:]:
        candidate = word if os.path.isabs(word) else os.path.join(here, word)
        if os.path.isfile(candidate):
            directory_of(candidate, program=False)  # the script: the program's own directory
            break
    if cwd:
        show(here)
    _add_proto(binds, env)
    if _is_arena_python(executable):
        _add_arena_python(binds, env)
    return binds, env, here, os.path.abspath(executable)
