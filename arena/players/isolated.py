"""Bots in processes of their own: a crash never touches the arena, an endless loop is killed at its
deadline and the process replaced, and the bot can read nothing but the observations it is sent.

The child is started with the ``spawn`` method (a fresh interpreter, never a fork of the arena, whose
memory holds every hand). Messages are pickled over a pipe: ``(verb, payload)`` each way.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import time
import traceback
from typing import Any, Mapping

from arena.players.base import MatchInfo, Player
from arena.players.hosts import GRACE, BotCrash, BotTimeout, Host

STARTUP_TIMEOUT = 60.0  # seconds for a fresh interpreter to import the bot; never charged to its clock
_CONTEXT = multiprocessing.get_context("spawn")


def factory_path(factory: Any) -> str:
    """``module:qualname`` of a bot factory, so that a child process can import it."""
    return f"{factory.__module__}:{factory.__qualname__}"


def _load(path: str) -> Any:
    module, _, name = path.partition(":")
    target: Any = importlib.import_module(module)
    for part in name.split("."):
        target = getattr(target, part)
    return target


def serve(conn: Any, path: str, settings: Mapping[str, Any], seed: int) -> None:
    """The child's loop: make the player, then answer one message at a time until told to close."""
    os.environ["ARENA_BOT_PROCESS"] = "1"  # lets a bot know it is isolated
    try:
        player: Player = _load(path)(dict(settings), seed)
    except Exception:
        conn.send(("error", traceback.format_exc(limit=-3)))
        return
    conn.send(("ok", None))
    while True:
        try:
            verb, payload = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if verb == "act":
                value = player.act(payload)
            elif verb == "start":
                value = player.start_match(MatchInfo(**payload))
            elif verb in ("end_hand", "end_match"):
                value = getattr(player, verb)(payload)
            elif verb == "close":
                player.close()
                conn.send(("ok", None))
                return
            else:
                value = None
        except Exception:
            conn.send(("error", traceback.format_exc(limit=-3)))
            continue
        try:
            conn.send(("ok", value))
        except Exception:  # the answer cannot be pickled: garbage, not a crash
            conn.send(("garbage", repr(value)[:200]))


class ProcessHost(Host):
    """A bot in its own process, replaced after a crash or a timeout."""

    def __init__(self, factory: Any, settings: Mapping[str, Any] | None = None, seed: int = 0):
        self.path = factory if isinstance(factory, str) else factory_path(factory)
        self.settings = dict(settings or {})
        self.seed = seed
        self.info: MatchInfo | None = None
        self.process: Any = None
        self.conn: Any = None
        self.restarts = 0
        self._spawn()

    # -- process management ------------------------------------------------------------------
    def _spawn(self) -> None:
        parent, child = _CONTEXT.Pipe()
        self.process = _CONTEXT.Process(
            target=serve, args=(child, self.path, self.settings, self.seed), daemon=True, name=f"bot:{self.path}"
        )
        self.process.start()
        child.close()
        self.conn = parent
        if not parent.poll(STARTUP_TIMEOUT):
            self._kill()
            raise BotCrash(f"the bot process did not start within {STARTUP_TIMEOUT:.0f} s")
        verb, value = self._receive()
        if verb != "ok":
            self._kill()
            raise BotCrash(f"the bot could not be created: {value}")

    def _kill(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.kill()
        if self.process is not None:
            self.process.join(5)
        if self.conn is not None:
            self.conn.close()
        self.process = self.conn = None

    def _replace(self) -> None:
        """Kill the process and start a fresh one that knows the match (outside any clock)."""
        self._kill()
        self.restarts += 1
        try:
            self._spawn()
            if self.info is not None:
                self._call("start", self.info.as_dict(), STARTUP_TIMEOUT, replace_on_fault=False)
        except (BotCrash, BotTimeout):
            self._kill()  # the next call will try again and report a crash

    def _receive(self) -> tuple[str, Any]:
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            code = self.process.exitcode if self.process is not None else None
            if self.process is not None:
                self.process.join(1)
                code = self.process.exitcode
            raise BotCrash(f"the bot process died (exit code {code})") from None

    def _call(self, verb: str, payload: Any, timeout: float, replace_on_fault: bool = True) -> tuple[Any, float]:
        if self.conn is None:
            self._replace()
            if self.conn is None:
                raise BotCrash("the bot process could not be restarted")
        start = time.perf_counter()
        try:
            self.conn.send((verb, payload))
            if not self.conn.poll(timeout + GRACE):
                raise BotTimeout(time.perf_counter() - start, timeout)
            kind, value = self._receive()
        except (BotTimeout, BotCrash, OSError) as exc:
            if replace_on_fault:
                self._replace()
            if isinstance(exc, OSError):
                raise BotCrash(f"the pipe to the bot failed: {exc}") from None
            raise
        elapsed = time.perf_counter() - start
        if kind == "error":
            raise BotCrash(value)
        if kind == "garbage":
            return _Garbage(value), elapsed
        if elapsed > timeout:
            raise BotTimeout(elapsed, timeout)
        return value, elapsed

    # -- the host interface ------------------------------------------------------------------
    def start(self, info: MatchInfo, timeout: float) -> None:
        self.info = info
        self._call("start", info.as_dict(), timeout)

    def decide(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        return self._call("act", observation, timeout)

    def notify(self, event: str, payload: dict[str, Any], timeout: float) -> None:
        self._call(event, payload, timeout)

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.send(("close", None))
                if self.conn.poll(1.0):
                    self.conn.recv()
            except (EOFError, OSError):
                pass
        self._kill()


class _Garbage:
    """An answer that could not even be sent back (unpicklable); shown by its repr."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text
