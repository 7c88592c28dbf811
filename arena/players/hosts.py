"""Hosts: how the referee reaches a player. Every host offers the same four calls.

* :class:`InProcessHost` calls a :class:`Player` object directly (fast; trusted bots). Its deadline
  is enforced with ``SIGALRM`` when the match runs in the main thread, so an endless loop is
  interrupted; elsewhere a late answer is still a timeout, but a runaway bot cannot be stopped.
* :class:`ProcessHost` (``arena.players.isolated``) runs the bot in a process of its own.
* The gRPC host (``arena.players.remote``) reaches a bot over the network.

A host reports a late answer as :class:`BotTimeout` and a failure as :class:`BotCrash`; what the
answer *means* (malformed, illegal) is the referee's business.
"""

from __future__ import annotations

import abc
import signal
import threading
import time
import traceback
from typing import Any

from arena.players.base import MatchInfo, Player

GRACE = 0.05  # seconds past the limit before a hard stop, so that a late answer can still be seen


class BotTimeout(Exception):
    """No answer within the time allowed."""

    def __init__(self, elapsed: float, allowed: float):
        self.elapsed = elapsed
        super().__init__(f"no answer within {allowed:.3f} s (waited {elapsed:.3f} s)")


class BotCrash(Exception):
    """The bot raised, or its process or connection died."""


class Host(abc.ABC):
    """The referee's handle on one seat's player."""

    @abc.abstractmethod
    def start(self, info: MatchInfo, timeout: float) -> None:
        """Tell the player the match starts."""

    @abc.abstractmethod
    def decide(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        """Ask for an action; return (answer as received, seconds taken)."""

    @abc.abstractmethod
    def notify(self, event: str, payload: dict[str, Any], timeout: float) -> None:
        """Send ``end_hand`` or ``end_match``."""

    def close(self) -> None:
        """Release the player (stop its process, close its connection)."""


class _Deadline(BaseException):
    """Raised inside an in-process bot at its deadline (a BaseException: ``except Exception`` can't hide it)."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Deadline()


def _can_interrupt() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def call_with_deadline(function: Any, timeout: float, *args: Any) -> tuple[Any, float]:
    """Call ``function(*args)`` in this thread; interrupt it at ``timeout`` + grace where possible.

    Returns (result, elapsed). Raises BotTimeout (late or interrupted) or BotCrash (it raised).
    """
    hard = _can_interrupt()
    previous = None
    if hard:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
    start = time.perf_counter()
    try:
        try:
            if hard:
                # Repeats every 50 ms, so a bot that swallows one interruption gets the next.
                signal.setitimer(signal.ITIMER_REAL, timeout + GRACE, 0.05)
            try:
                result = function(*args)
            finally:
                if hard:
                    signal.setitimer(signal.ITIMER_REAL, 0)
        except _Deadline:
            raise BotTimeout(time.perf_counter() - start, timeout) from None
        except (Exception, SystemExit) as exc:  # SystemExit: a bot calling sys.exit() must not end the arena
            raise BotCrash(f"{type(exc).__name__}: {exc}\n{_short_traceback(exc)}") from None
    finally:
        if hard:
            signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - start
    if elapsed > timeout:
        raise BotTimeout(elapsed, timeout)
    return result, elapsed


def _short_traceback(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc, limit=-3)).strip()


class InProcessHost(Host):
    """A player object in the arena's own process."""

    def __init__(self, player: Player):
        self.player = player

    def start(self, info: MatchInfo, timeout: float) -> None:
        call_with_deadline(self.player.start_match, timeout, info)

    def decide(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        return call_with_deadline(self.player.act, timeout, observation)

    def notify(self, event: str, payload: dict[str, Any], timeout: float) -> None:
        call_with_deadline(getattr(self.player, event), timeout, payload)

    def close(self) -> None:
        try:
            call_with_deadline(self.player.close, 5.0)
        except (BotTimeout, BotCrash):
            pass
