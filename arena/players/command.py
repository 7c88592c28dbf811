"""Bots the arena launches itself (``cmd:...``): a program that serves the player service over gRPC.

:class:`CommandHost` is the gRPC transport's host of such a program, written once; how the program
is started is its :class:`CommandLauncher`'s business: :class:`PortLauncher` here (a process on a
free port of ``127.0.0.1``), :class:`arena.players.sandboxed.SandboxCommandLauncher` in a sandbox (a
Unix socket, no network). A launched command is treated like an isolated bot
(:class:`~arena.players.isolated.ProcessHost`): its start-up is never charged to its clock, and
after a timeout, or when its process dies or the connection breaks, it is killed and started
again, and told the match again, before the next call (a bot that merely fails a call, by raising,
keeps its process).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from typing import Any, ContextManager, Mapping, Protocol

import grpc

from arena import wire
from arena.players.base import MatchInfo
from arena.players.hosts import ArenaFailure, BotCrash, BotTimeout, LaunchedProcess
from arena.players.launch import Report, launcher
from arena.players.limits import LOG_LIMIT
from arena.players.logs import CappedLog, last_output
from arena.players.ports import free_port
from arena.players.remote import ENV_HOST, ENV_PORT, Address, BotDisconnected, GrpcHost, command_argv

STARTUP_TIMEOUT = 60.0  # seconds for a launched command to answer its health check; never charged to its clock
STOP_TIMEOUT = 3.0  # seconds a launched command has to exit after SIGTERM before it is killed


class LaunchedCommand(LaunchedProcess, Protocol):
    """A command as its launcher started it: where it serves, and what the host may do to it."""

    address: Address  # where the host connects first
    launch_error: str | None  # the bot's: its command cannot be run (the bot's crash)
    arena_error: str | None  # the arena's: the launcher or sandbox could not be started
    process: subprocess.Popen | None  # the process the arena started (None: none was)

    def serving(self, deadline: float) -> Address | None:
        """Wait (outside any clock) until the program can be reached: the address to use (None:
        it exited, or ``deadline`` passed first; the health check then says which). Raises
        :class:`BotCrash` for an endpoint the arena refuses to reach."""


class CommandLauncher(Protocol):
    """Starts a command that serves the player service."""

    def launch(self, command: str, env: Mapping[str, str], log: CappedLog) -> LaunchedCommand:
        """Start ``command`` with ``env`` added to its environment, its output into ``log``."""


def _runnable(program: str, cwd: str | None, path: str | None) -> bool:
    """Whether ``program`` names an executable file (by path, or found on ``path``)."""
    if os.sep in program:
        return os.access(os.path.join(cwd or os.getcwd(), program), os.X_OK)
    return shutil.which(program, path=path) is not None


class StartedCommand:
    """A launched command as :class:`PortLauncher` starts it (its own process group, serving on a
    port); other launchers' commands are subclasses (the sandbox's)."""

    what = "the command"
    pauses = False

    def __init__(self, address: Address):
        self.address = address
        self.process: subprocess.Popen | None = None
        self.launch_error: str | None = None
        self.arena_error: str | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def serving(self, deadline: float) -> Address | None:
        return self.address

    def turn(self) -> ContextManager[None]:
        return contextlib.nullcontext()

    def exit_code(self, wait: float) -> int | None:
        if self.process is None:
            return None
        try:
            return self.process.wait(wait) if wait > 0 else self.process.poll()
        except subprocess.TimeoutExpired:
            return None

    def explain(self, text: str, code: int | None = None) -> str:
        return text

    def kill(self) -> None:
        """SIGTERM to its process group, SIGKILL after :data:`STOP_TIMEOUT`, then to anything left."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            _signal_group(process.pid, signal.SIGTERM)  # its own process group: children go too
            try:
                process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                _signal_group(process.pid, signal.SIGKILL)
                process.wait(5)
        _signal_group(process.pid, signal.SIGKILL)  # anything it left behind in its group


def _signal_group(pid: int, signum: int) -> None:
    try:
        os.killpg(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


class PortLauncher:
    """The command run (no shell) in ``cwd`` with ``ARENA_BOT_PORT`` set to a free port (``{port}``
    in the command is replaced by it too): it must serve on ``127.0.0.1`` at that port. It runs
    through :func:`arena.players.launch.launcher`, which makes it die with the arena."""

    def __init__(self, cwd: str | None = None):
        self.cwd = cwd

    def launch(self, command: str, env: Mapping[str, str], log: CappedLog) -> LaunchedCommand:
        port = free_port()
        launched = StartedCommand(Address("grpc", "127.0.0.1", port))
        full_env = {**os.environ, **env, ENV_PORT: str(port), ENV_HOST: "127.0.0.1"}
        argv = command_argv(command, port)
        if not _runnable(argv[0], self.cwd, full_env.get("PATH")):
            launched.launch_error = f"cannot run {command!r}: no such program {argv[0]!r}"
            return launched
        output = log.pipe()
        report = Report()
        try:  # no preexec_fn: see arena.players.launch
            launched.process = subprocess.Popen(launcher(argv, status=report.write), cwd=self.cwd, env=full_env,
                                                stdin=subprocess.DEVNULL, stdout=output, stderr=output,
                                                start_new_session=True, pass_fds=(report.write,))
        except OSError as exc:  # the launcher is the arena's Python: it could not be started at all
            launched.arena_error = f"cannot start the arena's launcher for {command!r}: {exc}"
        finally:
            CappedLog.started(output)
            report.started()
        if launched.process is not None:
            how, why = report.outcome(launched.process)
            if how in ("died", "setup"):  # the arena's launcher failed before the program ran: not the bot's
                launched.arena_error = f"{why} ({command!r})"
            # "exec": the bot's program could not be run (its file): it exits 127, the bot's crash
        return launched


class CommandHost(GrpcHost):
    """A bot the arena starts itself, by its ``launcher`` (:class:`PortLauncher` unless given):
    the program must serve the player service and the standard gRPC health check where the
    launcher says. The arena waits up to ``startup_timeout`` for the health check to answer
    SERVING, and stops the program when the match is over or after a fault.
    """

    def __init__(
        self,
        command: str,
        *,
        launcher: CommandLauncher | None = None,
        seed: int = 0,
        settings: Mapping[str, Any] | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        startup_timeout: float = STARTUP_TIMEOUT,
        max_send: int = wire.MAX_REQUEST_BYTES,
        max_receive: int = wire.MAX_ANSWER_BYTES,
        log_path: str | None = None,
        log_limit: int = LOG_LIMIT,
    ):
        self.command = command
        command_argv(command, 0)  # a command that cannot be parsed is a configuration error, at once
        self.launcher: CommandLauncher = launcher or PortLauncher(cwd)
        self.extra_env = dict(env or {})
        self.startup_timeout = startup_timeout
        self.launched: LaunchedCommand | None = None
        self.log = CappedLog(log_path, log_limit)  # its output, capped (a temporary file unless log_path)
        self.restarts = 0
        self._ready = False
        super().__init__(None, seed=seed, settings=settings, max_send=max_send, max_receive=max_receive)
        self._launch()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.command!r})"

    @property
    def process(self) -> subprocess.Popen | None:
        """The process the arena started for the command (None once stopped)."""
        return self.launched.process if self.launched is not None else None

    # -- the process -----------------------------------------------------------------------------
    def _launch(self) -> None:
        """Start the command (without waiting for it: see :meth:`_wait_ready`)."""
        self._ready = False
        self.launched = self.launcher.launch(self.command, self.extra_env, self.log)
        self._connect(self.launched.address)

    def _output(self, limit: int = 800) -> str:
        """The last characters the command printed (for the cause of a crash)."""
        return last_output(self.log, limit)

    def _wait_ready(self) -> None:
        """Wait (outside any clock) until the bot's health check answers SERVING."""
        if self._ready:
            return
        launched = self.launched
        if launched is not None and launched.arena_error:
            raise ArenaFailure(launched.arena_error)
        if launched is None or launched.launch_error or launched.process is None:
            raise BotCrash(launched.launch_error if launched and launched.launch_error
                           else f"the command {self.command!r} is not running")
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        deadline = time.monotonic() + self.startup_timeout
        try:
            address = launched.serving(deadline)
        except BotCrash as exc:
            self._stop()
            raise BotCrash(f"{exc}{self._output()}") from None
        if address is not None and address is not self.address:
            GrpcHost.close(self)
            self._connect(address)
        health = health_pb2_grpc.HealthStub(self.channel)
        last = "no answer"
        while True:
            code = launched.exit_code(0)
            if code is not None:
                raise BotCrash(f"the command {self.command!r} exited with code {code} before serving{self._output()}")
            left = deadline - time.monotonic()
            if left <= 0:
                self._stop()
                raise BotCrash(f"the command {self.command!r} did not pass its health check within "
                               f"{self.startup_timeout:.0f} s ({last}){self._output()}")
            try:
                reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=min(1.0, left))
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    self._ready = True
                    return
                last = f"status {health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)}"
            except grpc.RpcError as exc:
                last = f"{exc.code().name}: {exc.details()}"
            time.sleep(0.05)

    def _stop(self) -> None:
        if self.launched is not None:
            self.launched.kill()
        GrpcHost.close(self)

    def _replace(self) -> None:
        """Stop the command and start it again, told the match again (outside any clock)."""
        info = self.info
        self._stop()
        self.restarts += 1
        self._launch()
        self.info = info
        if info is not None:
            try:
                self._wait_ready()
                GrpcHost.start(self, info, STARTUP_TIMEOUT)
            except (BotCrash, BotTimeout):
                pass  # the next call fails and says why

    def _crash_cause(self, exc: BotCrash) -> BotCrash:
        """Add the command's exit code and last output (and what its launcher knows) to a crash."""
        launched = self.launched
        if launched is None or launched.process is None:
            return exc
        # a dead process closes its sockets a moment before it can be reaped
        code = launched.exit_code(0.2 if isinstance(exc, BotDisconnected) else 0)
        text = str(exc) if code is None else f"{exc} (the command exited with code {code}{self._output()})"
        explained = launched.explain(text, code)
        return exc if explained == str(exc) else type(exc)(explained)

    def _turn(self) -> ContextManager[None]:
        """Around each call: the program runs within it (a sandbox is paused outside it)."""
        return self.launched.turn() if self.launched is not None else contextlib.nullcontext()

    # -- the host interface ----------------------------------------------------------------------
    def _call(self, what: str, method: Any, request: Any, timeout: float) -> tuple[Any, float]:
        with self._turn():
            return super()._call(what, method, request, timeout)

    def start(self, info: MatchInfo, timeout: float) -> None:
        self.info = info
        self._wait_ready()
        try:
            super().start(info, timeout)
        except BotCrash as exc:
            raise self._crash_cause(exc) from None

    def decide(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        if not self._ready:  # it never became ready (or was stopped): say why, outside the clock
            self._wait_ready()
        try:
            with self._turn():  # Decide is not made through _call (its failures are told apart)
                return super().decide(observation, timeout)
        except (BotTimeout, BotCrash) as exc:
            raise self._after_fault(exc, replace=True) from None

    def notify(self, event: str, payload: dict[str, Any], timeout: float) -> None:
        try:
            super().notify(event, payload, timeout)
        except (BotTimeout, BotCrash) as exc:
            raise self._after_fault(exc, replace=event != "end_match") from None

    def _after_fault(self, exc: Exception, replace: bool) -> Exception:
        """As for an isolated bot: a late or dead process is replaced; a bot that merely failed
        the call (it raised) keeps its process. Returns the fault to raise, with its cause."""
        if isinstance(exc, BotCrash):
            exc = self._crash_cause(exc)
        dead = self.launched is not None and self.launched.process is not None and self.launched.exit_code(0) is not None
        if replace and (isinstance(exc, (BotTimeout, BotDisconnected)) or dead):
            self._replace()
        return exc

    def close(self) -> None:
        self._stop()
        self.log.close()
