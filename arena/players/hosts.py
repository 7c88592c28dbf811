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
from typing import TYPE_CHECKING, Any, ContextManager, Protocol

from arena.players.base import MatchInfo, Player

GRACE = 0.05  # seconds past the limit before a hard stop, so that a late answer can still be seen
# The most the arena reads of one message from a bot, on every path (a process's pipe, gRPC): a
# longer answer is malformed, and only an excerpt of it is kept (arena.referee.faults).
MAX_ANSWER_BYTES = 64 * 1024


class BotTimeout(Exception):
    """No answer within the time allowed."""

    def __init__(self, elapsed: float, allowed: float):
        self.elapsed = elapsed
        super().__init__(f"no answer within {allowed:.3f} s (waited {elapsed:.3f} s)")


class Garbage:
    """What stands where an answer should be when a bot's message carries none a referee could read
    (its repr, said by the transport: an oversized or unreadable message, an answer of another type
    than a string, a gRPC Decision without an action). The referee judges it ``malformed`` and the
    fault shows its repr."""

    def __init__(self, shown: str):
        self.shown = shown

    def __repr__(self) -> str:
        return self.shown


class BotCrash(Exception):
    """The bot raised, or its process or connection died."""


class ArenaFailure(Exception):
    """The arena itself failed to set up or host a seat: its launcher could not start or died
    before it ran the bot's program, a sandbox could not be made (an OSError of the arena's), its
    own code raised. Never the bot's fault: the match is played again, and a failure that persists
    is recorded as the arena's (``arena_error``), neither rated nor counted towards probation."""


class LaunchedProcess(Protocol):
    """A bot's process as a launcher started it (a transport adds how to reach it: the pipe's
    :class:`arena.players.isolated.Launched`, the command's
    :class:`arena.players.command.LaunchedCommand`): what a host may do to it."""

    what: str  # how a message names it ("the bot process", "the sandboxed command")
    pauses: bool  # paused between calls (a sandbox): each call runs inside turn(); else turn() does nothing

    @property
    def pid(self) -> int | None:
        """The process the arena started (a sandbox's: bubblewrap's); None: none runs."""

    def turn(self) -> ContextManager[None]:
        """Around each call: the process runs within it (a sandbox is paused outside it)."""

    def kill(self) -> None:
        """Kill it (and what it started), and let go of the arena's end."""

    def exit_code(self, wait: float) -> int | None:
        """Its exit code, waiting up to ``wait`` seconds (None: still running)."""

    def explain(self, text: str, code: int | None = None) -> str:
        """``text`` (a crash of it) with what the launcher knows of the cause (a limit it hit)."""


class Host(abc.ABC):
    """The referee's handle on one seat's player."""

    # The player's methods (start_match, end_hand, end_match, close) that the host knows do nothing
    # (the player inherits Player's): the referee does not make those calls at all.
    ignored: frozenset[str] = frozenset()

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


_SIGALRM = getattr(signal, "SIGALRM", 14)
_clock = time.perf_counter
_get_ident = threading.get_ident

if TYPE_CHECKING:  # typeshed has no stub for _signal; its functions have these signatures
    _getsignal, _set_handler = signal.getsignal, signal.signal
else:
    try:  # the C functions: signal.getsignal/signal wrap them in enum conversions that cost microseconds
        from _signal import getsignal as _getsignal
        from _signal import signal as _set_handler
    except ImportError:  # pragma: no cover - not CPython
        _getsignal, _set_handler = signal.getsignal, signal.signal


class _AlarmState:
    """The ``SIGALRM`` deadline of the in-process bot call running in the main thread.

    Inside a :func:`deadline_scope` the handler stays installed and the interval timer is armed
    lazily: a call only sets :attr:`deadline`; the timer is re-armed only when it is not armed or
    would fire later than that. When it fires early (armed for an earlier call) the handler re-arms
    it for what is left; when no bot call is running it lets it lapse. So a decision costs no
    system call at all, and a bot is still interrupted at its own deadline.

    One instance, :data:`_Alarm`, with slots: assigning a class attribute (as every call sets
    ``deadline``) would invalidate the class's attribute cache each time.
    """

    __slots__ = ("depth", "thread", "previous", "deadline", "armed")

    def __init__(self) -> None:
        self.depth = 0  # open scopes
        self.thread: int | None = None  # the thread that opened them (the main thread)
        self.previous: Any = None  # the SIGALRM handler before the first scope
        self.deadline: float | None = None  # perf_counter time at which the running call is interrupted
        self.armed: float | None = None  # perf_counter time at which the timer fires (None: not armed)


_Alarm = _AlarmState()


def _arm(seconds: float) -> None:
    _Alarm.armed = time.perf_counter() + seconds
    signal.setitimer(signal.ITIMER_REAL, seconds)


def _on_alarm(signum: int, frame: Any) -> None:
    deadline = _Alarm.deadline
    if deadline is None:  # no bot call is running: let the timer lapse
        _Alarm.armed = None
        return
    now = time.perf_counter()
    if now < deadline:  # armed for an earlier call: wait for this one's deadline
        _arm(deadline - now)
        return
    _arm(0.05)  # again every 50 ms until the call ends, so a bot that swallows one gets the next
    raise _Deadline()


def _can_interrupt() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


class _DeadlineScope:
    """What :func:`deadline_scope` returns: a class, cheaper to enter and leave than a generator's
    context manager (the referee opens one per match). The state is all in :data:`_Alarm`; a scope
    was entered in this thread exactly when ``_Alarm.depth`` is set and ``_Alarm.thread`` is this
    thread, since only the main thread opens scopes."""

    __slots__ = ()

    def __enter__(self) -> None:
        if _Alarm.depth:
            if _Alarm.thread == _get_ident():
                _Alarm.depth += 1
            return
        if not _can_interrupt():
            return
        _Alarm.previous = _set_handler(_SIGALRM, _on_alarm)
        _Alarm.thread = _get_ident()
        _Alarm.deadline = _Alarm.armed = None
        _Alarm.depth = 1

    def __exit__(self, *exc_info: Any) -> None:
        if not _Alarm.depth or _Alarm.thread != _get_ident():
            return
        _Alarm.depth -= 1
        if _Alarm.depth == 0:
            signal.setitimer(signal.ITIMER_REAL, 0)
            _Alarm.deadline = _Alarm.armed = _Alarm.thread = None
            _set_handler(_SIGALRM, _Alarm.previous)
            _Alarm.previous = None


_SCOPE = _DeadlineScope()


def deadline_scope() -> _DeadlineScope:
    """Keep the ``SIGALRM`` deadline machinery installed for a while (the referee: one match), so
    each in-process call pays no system call for it. Nestable; does nothing outside the main thread."""
    return _SCOPE


def call_with_deadline(function: Any, timeout: float, *args: Any) -> tuple[Any, float]:
    """Call ``function(*args)`` in this thread; interrupt it at ``timeout`` + grace where possible.

    Returns (result, elapsed). Raises BotTimeout (late or interrupted) or BotCrash (it raised).
    The interruption works in the main thread (``SIGALRM``); inside a :func:`deadline_scope` it
    costs next to nothing, outside one the handler is installed for this call alone.
    """
    if _Alarm.depth and _Alarm.thread == threading.get_ident():
        return _call_interruptible(function, timeout, args)
    if _can_interrupt():
        with deadline_scope():
            return _call_interruptible(function, timeout, args)
    start = time.perf_counter()
    try:
        result = function(*args)
    except (Exception, SystemExit) as exc:  # SystemExit: a bot calling sys.exit() must not end the arena
        raise BotCrash(f"{type(exc).__name__}: {exc}\n{_short_traceback(exc)}") from None
    elapsed = time.perf_counter() - start
    if elapsed > timeout:
        raise BotTimeout(elapsed, timeout)
    return result, elapsed


def _call_interruptible(function: Any, timeout: float, args: tuple[Any, ...]) -> tuple[Any, float]:
    if _getsignal(_SIGALRM) is not _on_alarm:  # a bot replaced the handler: put it back
        signal.signal(signal.SIGALRM, _on_alarm)
        _Alarm.armed = None
    start = _clock()
    deadline = start + timeout + GRACE
    try:
        try:
            armed = _Alarm.armed
            if armed is None or armed > deadline:
                _arm(timeout + GRACE)
            _Alarm.deadline = deadline
            try:
                result = function(*args)
            finally:
                _Alarm.deadline = None
        except _Deadline:
            raise BotTimeout(time.perf_counter() - start, timeout) from None
        except (Exception, SystemExit) as exc:  # SystemExit: a bot calling sys.exit() must not end the arena
            raise BotCrash(f"{type(exc).__name__}: {exc}\n{_short_traceback(exc)}") from None
    except _Deadline:  # the alarm went off as the call was ending
        raise BotTimeout(_clock() - start, timeout) from None
    elapsed = _clock() - start
    if elapsed > timeout:
        raise BotTimeout(elapsed, timeout)
    return result, elapsed


def _short_traceback(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc, limit=-3)).strip()


_NOTIFICATIONS = ("start_match", "end_hand", "end_match", "close")
_IGNORED: dict[type, frozenset[str]] = {}


def ignored_calls(player: Any) -> frozenset[str]:
    """The notifications ``player`` does not implement (it inherits Player's, which do nothing)."""
    kind = type(player)
    ignored = _IGNORED.get(kind)
    if ignored is None:
        ignored = _IGNORED[kind] = frozenset(
            name for name in _NOTIFICATIONS if getattr(kind, name, None) is getattr(Player, name))
    # A method set on the object itself counts. Looked up with getattr, not in the player's __dict__:
    # reading that turns the player's attributes into a plain dict, slower for the bot ever after.
    if ignored:
        ignored = frozenset(name for name in ignored
                            if getattr(getattr(player, name, None), "__func__", None) is getattr(Player, name))
    return ignored


class InProcessHost(Host):
    """A player object in the arena's own process.

    A notification the player does not implement (it inherits :class:`Player`'s, which does
    nothing) is not made at all: nothing could come of it.
    """

    def __init__(self, player: Player):
        self.player = player
        self.ignored = ignored_calls(player)

    def start(self, info: MatchInfo, timeout: float) -> None:
        if "start_match" not in self.ignored:
            call_with_deadline(self.player.start_match, timeout, info)

    def decide(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        if _Alarm.depth and _Alarm.thread == _get_ident():  # inside a match's deadline scope
            return _call_interruptible(self.player.act, timeout, (observation,))
        return call_with_deadline(self.player.act, timeout, observation)

    def notify(self, event: str, payload: dict[str, Any], timeout: float) -> None:
        if event not in self.ignored:
            call_with_deadline(getattr(self.player, event), timeout, payload)

    def close(self) -> None:
        if "close" in self.ignored:
            return
        try:
            call_with_deadline(self.player.close, 5.0)
        except (BotTimeout, BotCrash):
            pass


class FailedHost(Host):
    """A seat whose player could not be set up (its factory raised, its process or command did not
    start): every call is that crash, so the match records it as the seat's fault and goes on
    (forfeit, or substitutes up to the policy's limit) instead of stopping the tournament."""

    def __init__(self, message: str):
        self.message = message

    def start(self, info: MatchInfo, timeout: float) -> None:
        raise BotCrash(self.message)

    def decide(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        raise BotCrash(self.message)

    def notify(self, event: str, payload: dict[str, Any], timeout: float) -> None:
        raise BotCrash(self.message)
