"""The human seat: a seat kind (``human:TABLE``) whose host waits for a person's answer.

The referee asks it like any player. :class:`HumanHost.decide` hands the observation to the table's
:class:`Channel` and blocks (in the table's thread) until the browser answers through
:meth:`Channel.submit`, which checks the answer first, so a refused message changes nothing.
The person's clock runs only while a browser is connected to the table: a decision may take
``timeout`` seconds of connected time (``arena serve --human-time``); disconnected, the game just
waits. A channel that is closed (the server stopping) ends the wait with :class:`TableStopped`,
which the referee does not catch: the table's thread ends and the table resumes from the store.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from arena.errors import ArenaError
from arena.players.base import MatchInfo
from arena.players.hosts import BotTimeout, Host
from arena.players.seats import SeatKind, SeatRequest
from arena.plugins import hookimpl

PREFIX = "human:"


class TableStopped(Exception):
    """The table's channel was closed while the referee waited for the person (server shutdown)."""


class Channel:
    """Between one table's referee thread (the person's host) and its browsers."""

    def __init__(self, table_id: str, on_turn: Callable[[dict[str, Any], int], None],
                 on_notify: Callable[[str, dict[str, Any]], None]):
        self.table_id = table_id
        self.on_turn = on_turn  # (observation, decision) -> None: publish "your turn"
        self.on_notify = on_notify  # (event, payload) -> None: end_hand / end_match
        self.decision = 0  # the action index the pending question answers (set by the table)
        self._cond = threading.Condition()
        self._pending: list[str] | None = None  # the legal actions while the person is asked
        self._pending_decision = -1
        self._answer: str | None = None
        self._connected = 0
        self._closed = False

    # -- the browser's side (the event loop) -----------------------------------------------------
    def connect(self) -> None:
        with self._cond:
            self._connected += 1
            self._cond.notify_all()

    def disconnect(self) -> None:
        with self._cond:
            self._connected = max(0, self._connected - 1)
            self._cond.notify_all()

    def submit(self, action: Any, decision: Any) -> str | None:
        """The browser's answer; None when taken, else why it is refused (nothing changes)."""
        with self._cond:
            if self._pending is None or self._answer is not None:
                return "it is not your turn"
            if isinstance(decision, bool) or not isinstance(decision, int):
                return f"'decision' must be the integer decision of the state answered, not {_shown(decision)}"
            if decision != self._pending_decision:
                return (f"decision {decision} is stale: the decision now is {self._pending_decision} "
                        "(answer the latest state)")
            if not isinstance(action, str):
                return f"'action' must be an action string, not {_shown(action)}"
            if action not in self._pending:
                return f"{_shown(action)} is not a legal action now; legal: {', '.join(self._pending)}"
            self._answer = action
            self._cond.notify_all()
            return None

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def waiting(self) -> bool:
        with self._cond:
            return self._pending is not None and self._answer is None

    # -- the referee's side (the table's thread) ---------------------------------------------------
    def ask(self, observation: dict[str, Any], timeout: float) -> tuple[str, float]:
        """Wait for the person's answer; return it and the connected time it took."""
        legal = list(observation["legal_actions"])
        with self._cond:
            if self._closed:
                raise TableStopped(self.table_id)
            self._pending, self._pending_decision, self._answer = legal, self.decision, None
        self.on_turn(observation, self.decision)
        used = 0.0
        with self._cond:
            try:
                while self._answer is None:
                    if self._closed:
                        raise TableStopped(self.table_id)
                    if self._connected:
                        left = timeout - used
                        if left <= 0:
                            raise BotTimeout(used, timeout)
                        start = time.monotonic()
                        self._cond.wait(min(left, 1.0))
                        used += time.monotonic() - start
                    else:  # not charged: wait for a browser (or the answer, or the close)
                        self._cond.wait()
                return self._answer, used
            finally:
                self._pending, self._answer = None, None


# The channels of the tables running in this process, by table id (the seat kind looks them up).
CHANNELS: dict[str, Channel] = {}


class HumanHost(Host):
    """The referee's handle on a person: decisions and notifications go through the table's channel."""

    def __init__(self, channel: Channel):
        self.channel = channel

    def start(self, info: MatchInfo, timeout: float) -> None:
        pass

    def decide(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        return self.channel.ask(dict(observation), timeout)

    def notify(self, event: str, payload: dict[str, Any], timeout: float) -> None:
        self.channel.on_notify(event, payload)


def _channel(name: str) -> Channel:
    table = name[len(PREFIX):]
    if not table or not all(c.isalnum() or c in "-_" for c in table):
        raise ArenaError(f"seat {name!r}: a human seat is human:TABLE, the id of a table of `arena serve`")
    channel = CHANNELS.get(table)
    if channel is None:  # e.g. `arena play --seats human:...`: refused before the match
        raise ArenaError(f"seat {name!r}: no such table is open here; a person plays in the browser, "
                         "at a table of `arena serve` (docs/web.md)")
    return channel


def _check(name: str) -> None:
    _channel(name)


def _make_host(request: SeatRequest) -> Host:
    return HumanHost(_channel(request.name))


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


@hookimpl
def arena_register_seat_kinds() -> list[SeatKind]:
    return [SeatKind("human", (PREFIX,), "a person playing in the browser at a table of `arena serve` (docs/web.md)",
                     _make_host, _check, example="human:TABLE")]
