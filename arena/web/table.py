"""One table of `arena serve`: its match played by the referee in a thread of its own, a person in
one seat (arena.web.human), installed bots in the others: each bot in a process of its own, its
decisions computed within the server's bot pool (arena.web.botpool: a bound on decisions at once,
and a budget per person).

Every action is written to the store as it is taken. A table that is started again (after a
server restart) replays its stored actions: each seat's host answers its first decisions from the
log (the bots are still asked, so what they remember matches), then the match goes on live.
Whatever the referee thread publishes is one ``state`` message (docs/web.md), JSON-encoded once
and handed to every connected browser's queue on the event loop.
"""

from __future__ import annotations

import asyncio
import collections
import json
import sys
import threading
import time
import traceback
from typing import TYPE_CHECKING, Any, Callable

from arena.games.base import GameState
from arena.matches import MatchSpec, open_hosts, referee_for
from arena.players.base import MatchInfo
from arena.players.hosts import Host
from arena.referee import FaultPolicy
from arena.results import margin
from arena.web.botpool import BotPool, lower_priority
from arena.web.human import CHANNELS, PREFIX, Channel, TableStopped
from arena.web.store import TableRow, WebStore

if TYPE_CHECKING:
    from arena.plugins.manager import Registry


class TableCorrupt(Exception):
    """The stored actions do not replay: the match took another course than the log says."""


def match_spec(spec: dict[str, Any], isolation: str = "inprocess") -> MatchSpec:
    """The :class:`MatchSpec` of a stored table spec (docs/web.md, "What is stored"), its bots
    hosted at ``isolation``."""
    n = len(spec["bots"])
    return MatchSpec(index=0, game=spec["game"], options=dict(spec["options"]), deal_seed=spec["deal_seed"],
                     seats=tuple(spec["seats"]), bots=tuple(spec["bots"]), settings=tuple({} for _ in range(n)),
                     bot_seeds=tuple(spec["bot_seeds"]), time_control=dict(spec["time_control"]),
                     faults=FaultPolicy().as_dict(), isolation=isolation)


class _Seat(Host):
    """One seat's host as the table uses it: the first decisions answered from the stored log,
    bots paced (``pace`` seconds before each live decision) so a person can follow the play."""

    def __init__(self, table: "Table", inner: Host, answers: collections.deque[tuple[str, float]], human: bool):
        self.table, self.inner, self.answers, self.human = table, inner, answers, human
        self.ignored = inner.ignored

    def start(self, info: MatchInfo, timeout: float) -> None:
        lower_priority(self.inner)
        self.inner.start(info, timeout)

    def decide(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        if self.table.stopping.is_set():
            raise TableStopped(self.table.id)
        if self.answers:
            action, elapsed = self.answers.popleft()
            if not self.human:  # asked all the same: a bot's memory must be what it was
                self._bot(observation, timeout)
            return action, elapsed
        if self.human:
            self.table.channel.decision = self.table.n
            return self.inner.decide(observation, timeout)
        if self.table.pace > 0 and self.table.stopping.wait(self.table.pace):
            raise TableStopped(self.table.id)
        return self._bot(observation, timeout)

    def _bot(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        pool = self.table.pool
        if pool is None:
            return self.inner.decide(observation, timeout)
        lower_priority(self.inner)  # again if the bot's process was replaced after a fault
        answer = pool.decide(self.table.row.owner, lambda: self.inner.decide(observation, timeout),
                             self.table.stopping, self.table.budget_wait)
        if self.table.stopping.is_set():
            raise TableStopped(self.table.id)
        return answer

    def notify(self, event: str, payload: dict[str, Any], timeout: float) -> None:
        self.inner.notify(event, payload, timeout)

    def close(self) -> None:
        self.inner.close()


Listener = tuple[asyncio.AbstractEventLoop, "asyncio.Queue[str]"]


class Table:
    """A running table. ``start()`` plays it in a thread; browsers ``listen()`` to its states."""

    def __init__(self, row: TableRow, store: WebStore, registry: "Registry", *, pace: float = 0.0,
                 nickname: str | None = None, on_finish: Callable[["Table"], None] | None = None,
                 pool: BotPool | None = None, isolation: str = "inprocess"):
        self.id = row.id
        self.row = row
        self.spec = row.spec
        self.store = store
        self.registry = registry
        self.pace = pace
        self.on_finish = on_finish
        self.pool = pool  # None: the bots decide at once, in this thread's time (tools, tests of the protocol)
        self.isolation = isolation
        self.last_move = time.monotonic()  # when an action was last taken (idle tables are put aside)
        self.put_aside: str | None = None  # why the table was stopped while the server runs on
        self.human_seat: int = self.spec["human_seat"]
        self.game = registry.game(self.spec["game"], self.spec["options"])
        self.channel = Channel(self.id, self._on_turn, self._on_notify)
        self.stopping = threading.Event()
        self.n = 0  # actions applied so far (the next action's index)
        self.log: list[tuple[int, str, float | None]] = []
        self.hands: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.confirm_forced = False  # the person's setting: ask them for their forced moves too
        self.forced: dict[str, Any] | None = None  # the person's latest move played for them unasked
        self.error: str | None = None
        self.done = False
        self.finished = threading.Event()
        self._state: GameState | None = None
        self._lock = threading.Lock()
        self._listeners: set[Listener] = set()
        self._latest: str | None = None
        self._thread: threading.Thread | None = None
        self.summary = self._summary(nickname)

    def _summary(self, nickname: str | None) -> dict[str, Any]:
        seating = [("you" + (f" ({nickname})" if nickname else "")) if seat == self.human_seat else name
                   for seat, name in enumerate(self.spec["bots"])]
        summary = {"id": self.id, "game": self.game.name, "title": self.game.title, "mode": self.row.mode,
                   "ranked": self.row.ranked, "date": self.row.date, "seat": self.human_seat,
                   "players": self.game.players, "seating": seating, "options": dict(self.game.options),
                   "nickname": nickname, "bots": list(self.spec["bots"])}
        if "daily" in self.spec:  # which deal of which daily set (docs/web.md, "The daily set")
            daily = self.spec["daily"]
            summary["daily"] = {"set": daily["set"], "deal": daily["deal"], "deals": daily["deals"]}
        return summary

    # -- the browsers' side ----------------------------------------------------------------------
    def listen(self, queue: "asyncio.Queue[str]") -> None:
        """Send this queue every state from now on, starting with the latest one."""
        loop = asyncio.get_running_loop()
        with self._lock:
            self._listeners.add((loop, queue))
            if self._latest is not None:
                queue.put_nowait(self._latest)
        self.channel.connect()

    def unlisten(self, queue: "asyncio.Queue[str]") -> None:
        with self._lock:
            self._listeners = {(loop, q) for loop, q in self._listeners if q is not queue}
        self.channel.disconnect()

    def latest(self) -> dict[str, Any] | None:
        with self._lock:
            return json.loads(self._latest) if self._latest else None

    # -- running ---------------------------------------------------------------------------------
    def start(self) -> None:
        self.log = self.store.actions(self.id)
        CHANNELS[self.id] = self.channel
        self._thread = threading.Thread(target=self._run, name=f"table-{self.id}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """End the thread without finishing the match (it resumes from the store next time)."""
        self.stopping.set()
        self.channel.close()
        if self._thread is not None:
            self._thread.join(timeout)

    def set_aside(self, reason: str, code: str | None = None, **params: Any) -> None:
        """Stop the table while the server runs on (idle): its browsers are told ``reason`` (and
        ``code`` with ``params``, which the page says in its own language); it resumes from the
        store when its person opens it again."""
        self.put_aside = reason
        self._broadcast(json.dumps({"type": "error", "message": reason, **({"code": code, **params} if code else {})}))
        self.stop()

    def budget_wait(self, seconds: float) -> None:
        """The person's bots are over their budget: say so at the table (the game waits)."""
        wait = max(1, round(seconds))
        self._broadcast_quietly(json.dumps({"type": "notice", "code": "bots_waiting", "seconds": wait, "message": (
            f"your bots used their share of the server's time for this minute: they go on in about "
            f"{wait} s (docs/web.md, 'Limits')")}))

    @property
    def replaying(self) -> bool:
        return self.n < len(self.log)

    def _run(self) -> None:
        try:
            self._play()
        except TableStopped:
            pass
        except Exception as exc:  # a bug or a log that does not replay: this table stops, the others go on
            self.error = f"{type(exc).__name__}: {exc}"
            print(f"arena serve: table {self.id}: {self.error}\n{traceback.format_exc()}", file=sys.stderr)
            self._broadcast(json.dumps({"type": "error", "message": f"this table stopped: {self.error}"}))
        finally:
            CHANNELS.pop(self.id, None)
            self.finished.set()

    def _play(self) -> None:
        spec = match_spec(self.spec, self.isolation)
        answers: list[collections.deque[tuple[str, float]]] = [collections.deque() for _ in spec.bots]
        for seat, action, elapsed in self.log:
            if elapsed is not None:  # asked (a forced action is taken by the referee itself)
                answers[seat].append((action, elapsed))
        with open_hosts(self.registry, spec, self.game) as hosts:
            seats = [_Seat(self, host, answers[seat], spec.bots[seat].startswith(PREFIX))
                     for seat, host in enumerate(hosts)]
            referee = referee_for(spec, self.game, seats, ask_forced=self._ask_forced, on_action=self._on_action)
            self._state = referee.state
            self._publish()
            result = referee.play()
        if self.replaying:
            raise TableCorrupt(f"the match ended after {self.n} of the {len(self.log)} stored actions")
        side = self.game.side_of(self.human_seat)
        score = None
        if "daily" in self.spec:  # a deal of a daily set: scored by the hand's margin (arena.web.daily)
            from arena.web.daily import hand_score

            score = hand_score(result.record, self.human_seat, self.game.side_of)
        self.store.finish(self.id, result.record, int(margin(result.scores, side, max)), result.termination.how,
                          score)
        if self.result is None:
            self.result = {**result.as_dict(), "seat": self.human_seat}
        self.done = True  # the record is stored: the last state carries the result
        self._publish()
        if self.on_finish is not None:
            self.on_finish(self)

    # -- the referee's side (its thread) ------------------------------------------------------------
    def _ask_forced(self, seat: int) -> bool:
        """Whether the next decision, forced (one legal action), is asked of ``seat``: as the stored
        log says while it replays; then only the person's, if they confirm their forced moves."""
        if self.replaying:
            return self.log[self.n][2] is not None
        return seat == self.human_seat and self.confirm_forced

    def _on_action(self, state: GameState, seat: int, action: str, elapsed: float | None) -> None:
        n = self.n
        if n < len(self.log):
            stored = self.log[n]
            if (stored[0], stored[1]) != (seat, action):
                raise TableCorrupt(f"action {n}: the log has seat {stored[0]} {stored[1]!r}, the match {seat} {action!r}")
        else:
            self.store.add_action(self.id, n, seat, action, None if elapsed is None else round(elapsed, 6))
        self.n = n + 1
        self.last_move = time.monotonic()
        if seat == self.human_seat:
            self.forced = {"decision": n, "action": action} if elapsed is None else None
        if self.replaying:
            return
        to_act = state.current_player()
        asked = len(state.legal_action_ids()) > 1 or (to_act is not None and self._ask_forced(to_act))
        if to_act == self.human_seat and asked and not state.deal_results[len(self.hands):]:
            return  # the person is asked next: that state follows at once
        self._publish()

    def _on_turn(self, observation: dict[str, Any], decision: int) -> None:
        self._publish(observation, decision)

    def _on_notify(self, event: str, payload: dict[str, Any]) -> None:
        if event == "end_hand":
            self.hands.append(payload)
            if not self.replaying:
                self._publish()
        elif event == "end_match":
            self.result = payload

    def _publish(self, turn: dict[str, Any] | None = None, decision: int | None = None) -> None:
        if turn is None:
            assert self._state is not None
            observation = self._state.observation(self.human_seat)
        else:
            observation = turn
        message = {
            "type": "state",
            "table": self.summary,
            "observation": observation,
            "lines": self.game.page_lines(observation),  # the game's own lines (Game.page_lines)
            "your_turn": turn is not None,
            "legal_actions": list(turn["legal_actions"]) if turn is not None else [],
            "decision": self.n if decision is None else decision,
            "hands": self.hands,
            "forced": self.forced,
            "result": self.result if self.done else None,
        }
        self._broadcast(json.dumps(message))

    def _broadcast_quietly(self, text: str) -> None:
        """Send ``text`` to the browsers without making it the table's latest state."""
        with self._lock:
            listeners = list(self._listeners)
        for loop, queue in listeners:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, text)
            except RuntimeError:
                pass

    def _broadcast(self, text: str) -> None:
        with self._lock:
            self._latest = text
            listeners = list(self._listeners)
        for loop, queue in listeners:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, text)
            except RuntimeError:  # that browser's loop is closed: it is gone
                pass
