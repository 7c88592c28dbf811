"""Play one match: ask each player in turn, check the answer, keep the clocks, apply the fault
policy, and write the game record. The only place where rules meet players.
"""

from __future__ import annotations

import copy
import random
import weakref
from sys import getrefcount
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from arena.games.base import DeckSource, Game, GameState, action_strings
from arena.players.base import MatchInfo
from arena.players.hosts import BotCrash, BotTimeout, Host, deadline_scope
from arena.referee.clock import Clock, TimeControl
from arena.referee.faults import Fault, FaultKind, FaultPolicy, Response, Termination
from arena.referee.observation import LazyObservation, attach


@dataclass
class MatchResult:
    """Everything a match produced. ``record`` is the game record (with times and faults)."""

    game: str
    seats: list[str]
    scores: list[int]
    ranking: list[int]  # per side: 0 = first place
    winners: list[int]
    termination: Termination
    faults: list[Fault]
    think_times: list[dict[str, float]]  # per seat
    hands: list[dict[str, Any]]  # the engine's result row of every deal entry
    record: dict[str, Any] = field(repr=False, default_factory=dict)
    isolation: str = ""  # the level the bots ran at (set by arena.matches.play_match)

    @property
    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": self.seats,
            "scores": self.scores,
            "ranking": self.ranking,
            "winners": self.winners,
            "winner": self.winner,
            "termination": self.termination.as_dict(),
            "faults": [fault.as_dict() for fault in self.faults],
            "think_times": self.think_times,
            **({"isolation": self.isolation} if self.isolation else {}),
        }


class Referee:
    """One match among ``hosts`` (one per seat), named ``names`` in the record."""

    def __init__(
        self,
        game: Game,
        hosts: Sequence[Host],
        names: Sequence[str],
        *,
        seed: int | str = 0,
        decks: DeckSource | None = None,
        time_control: TimeControl | None = None,
        policy: FaultPolicy | None = None,
        ask_forced: bool | Callable[[int], bool] = False,
        match_id: str = "",
        on_action: Callable[[GameState, int, str, float | None], None] | None = None,
    ):
        if len(hosts) != game.players or len(names) != game.players:
            raise ValueError(f"{game.title} with {game.players} players needs {game.players} seats, got {len(hosts)}")
        self.game = game
        self.hosts = list(hosts)
        self.names = list(names)
        self.seed = seed
        self.state = game.new_match(seed=seed, decks=decks)
        self.time_control = time_control or _DEFAULT_TIME_CONTROL
        self.policy = policy or _DEFAULT_POLICY
        # False: a decision with one legal action is taken without asking; a function of the seat
        # asks that seat when it says so (a web table's person who confirms their forced moves).
        self.ask_forced = ask_forced
        self.match_id = match_id
        self.on_action = on_action
        self.clocks = [Clock(self.time_control) for _ in hosts]
        # The thinking time of every action of the match in order (None: not asked), cut into the
        # record's deal entries at the end: they are aligned with the actions.
        self.times: list[float | None] = []
        self.faults: list[Fault] = []
        self.side_faults = [0] * game.num_sides
        self._substitute_rng: random.Random | None = None  # made at the first substitution
        self.termination = Termination()
        self._exact_ids = _exact_ids(game)
        self._names = action_strings(game)
        self._per_decision = self.time_control.per_decision
        self._time_left = _round6(self._per_decision)

    @property
    def substitute_rng(self) -> random.Random:
        if self._substitute_rng is None:
            self._substitute_rng = random.Random(f"{self.seed}/substitute")
        return self._substitute_rng

    # -- the match -----------------------------------------------------------------------------
    def play(self) -> MatchResult:
        """Play to the end (or a forfeit) and return the result. The caller closes the hosts."""
        with deadline_scope():  # in-process deadlines: the SIGALRM handler stays for the match
            return self._play()

    def _play(self) -> MatchResult:
        state = self.state
        for index, host in enumerate(self.hosts):
            if "start_match" in getattr(host, "ignored", ()):  # the player has no start_match
                continue
            if not self._notify(index, "start", None):
                return self._finish()
        announced = 0
        results = state.deal_results
        # The decisions, written flat: what this loop looks up or calls is paid once a decision,
        # and several times its warm price after the switch back from an isolated bot's process.
        # Anything but a legal answer in time is handed to _answered or _fault.
        hosts, clocks, names, exact_ids, times = self.hosts, self.clocks, self._names, self._exact_ids, self.times
        ask_forced, on_action, per_decision, time_left = self.ask_forced, self.on_action, self._per_decision, self._time_left
        while True:
            while announced < len(results):  # tell everyone each hand's result
                if not self._end_hand(announced):
                    return self._finish()
                announced += 1
            if state.is_over():
                break
            seat = state.current_player()
            assert seat is not None
            legal_ids = state.legal_action_ids()
            if len(legal_ids) == 1 and not (ask_forced(seat) if callable(ask_forced) else ask_forced):
                times.append(None)  # forced: applied without asking
                state.apply_id(legal_ids[0])
                if on_action is not None:
                    on_action(state, seat, self.game.action_string(legal_ids[0]), None)
                continue
            legal = [names[i] for i in legal_ids]  # state.legal_actions(), without asking the state again
            clock = clocks[seat]
            bank = clock.bank
            if bank is None:
                allowed = per_decision
                observation = LazyObservation(legal_actions=legal, time_left=time_left, bank_left=None)
            else:
                allowed = clock.allowed()
                observation = LazyObservation(legal_actions=legal, time_left=_round6(allowed), bank_left=_round6(bank))
            attach(observation, state, seat)  # the rest is built when the bot first reads more
            try:
                try:
                    answer, elapsed = hosts[seat].decide(observation, allowed)
                finally:
                    if getrefcount(observation) > 2 and not observation.built:  # the cheaper test first
                        observation.settle()  # the bot kept it: fix it to this decision's state
                    del observation
            except BotTimeout as exc:
                clock.charge(exc.elapsed)
                if not self._fault(seat, FaultKind.TIMEOUT, str(exc), elapsed=exc.elapsed):
                    return self._finish()
                continue
            except BotCrash as exc:
                if not self._fault(seat, FaultKind.CRASH, str(exc)):
                    return self._finish()
                continue
            clock.charge(elapsed)
            if type(answer) is str:  # the usual answer: a legal action string, written canonically
                action_id = exact_ids.get(answer)
                if action_id is not None and action_id in legal_ids:
                    times.append(_round6(elapsed))
                    state.apply_id(action_id)
                    if on_action is not None:
                        on_action(state, seat, answer, elapsed)
                    continue
            if not self._answered(seat, answer, elapsed):
                return self._finish()
        if state.unfinished:
            self.termination = Termination("unfinished")
        return self._finish()

    def _answered(self, seat: int, answer: Any, elapsed: float) -> bool:
        """Any answer but a canonical legal string: judge it, then apply it or the fault policy
        (False: the match was forfeited)."""
        kind, message = self._judge(answer)
        if kind is not None:
            return self._fault(seat, kind, message, answer=answer, elapsed=elapsed)
        self._apply(seat, answer, elapsed)
        return True

    def _judge(self, answer: Any) -> tuple[FaultKind | None, str]:
        if not isinstance(answer, str) or not answer.strip():
            return FaultKind.MALFORMED, f"the answer {_shown(answer)} is not an action string"
        action_id = self.game.action_id(answer)
        if action_id is None:
            return FaultKind.MALFORMED, f"{_shown(answer)} is not an action string of {self.game.title}"
        if action_id not in self.state.legal_action_ids():
            legal = ", ".join(self.state.legal_actions())
            return FaultKind.ILLEGAL, f"{_shown(answer)} is not legal in phase {self.state.phase!r}; legal: {legal}"
        return None, ""

    def _apply(self, seat: int, action: str, elapsed: float | None) -> None:
        self.times.append(None if elapsed is None else _round6(elapsed))
        self.state.apply(action)
        if self.on_action is not None:
            self.on_action(self.state, seat, action, elapsed)

    def _fault(self, seat: int, kind: FaultKind, message: str, *, answer: Any = None,
               elapsed: float | None = None, during: str | None = None) -> bool:
        """Record a fault of ``seat`` and apply the policy: forfeit (False: the match is over) or go
        on (True) — with a substituted action when the fault was a decision's (``during`` None),
        with nothing when it was a notification's (``during`` names it)."""
        state = self.state
        side = self.game.side_of(seat)
        self.side_faults[side] += 1
        response = self.policy.response(kind)
        if during is not None:
            message = f"during {during}: {message}"
        if response is Response.SUBSTITUTE and self.side_faults[side] >= self.policy.max_faults:
            message += f" (fault {self.side_faults[side]} of side {side}: the limit is {self.policy.max_faults})"
            response = Response.FORFEIT
        fault = Fault(
            seat=seat,
            kind=kind,
            answer=_jsonable(answer),
            message=message,
            hand=max(0, len(state.deals) - 1),
            action_index=len(state.deals[-1]["actions"]) if state.deals else 0,
            response=response,
        )
        self.faults.append(fault)
        if response is Response.FORFEIT:
            self.termination = Termination("forfeit", fault)
            return False
        if during is None:
            fault.substituted = self.substitute_rng.choice(state.legal_actions())
            self._apply(seat, fault.substituted, elapsed)
        return True

    def _notify(self, seat: int, event: str, payload: dict[str, Any] | None) -> bool:
        """Send a notification; a failure is a fault like any other. False if the match ended."""
        host = self.hosts[seat]
        timeout = self.time_control.per_decision
        try:
            if event == "start":
                info = MatchInfo(
                    game=self.game.name,
                    options=dict(self.game.options),
                    seat=seat,
                    seating=tuple(self.names),
                    time_control=self.time_control.as_dict(),
                    match_id=self.match_id,
                )
                host.start(info, max(timeout, 10.0))
            else:
                host.notify(event, payload or {}, timeout)
            return True
        except (BotTimeout, BotCrash) as exc:
            if event == "end_match":  # the match is over: nothing to decide any more
                return True
            kind = FaultKind.TIMEOUT if isinstance(exc, BotTimeout) else FaultKind.CRASH
            return self._fault(seat, kind, str(exc), during=event)

    def _notify_all(self, event: str, payload: Any) -> bool:
        """Send ``end_hand``/``end_match`` to every seat in seat order (``payload(seat)`` makes
        each seat's); False if the match ended."""
        for seat, host in enumerate(self.hosts):
            if event in getattr(host, "ignored", ()):  # hosts that know their player has no such method
                continue
            if not self._notify(seat, event, payload(seat)):
                return False
        return True

    def _end_hand(self, index: int) -> bool:
        payload: dict[str, Any] | None = None  # one for every seat, made only if a seat wants it
        for seat, host in enumerate(self.hosts):
            if "end_hand" in getattr(host, "ignored", ()):
                continue
            if payload is None:
                payload = dict(self.state.deal_results[index])
                payload["hand_index"] = index
            # Each seat its own copy: a bot that changes what it is sent changes nothing of the match's.
            if not self._notify(seat, "end_hand", _copied(payload)):
                return False
        return True

    # -- the result ----------------------------------------------------------------------------
    def _ranking(self) -> list[int]:
        state = self.state
        if self.termination.how != "forfeit":
            return state.ranking()
        loser = self.game.side_of(self.termination.forfeit.seat)  # type: ignore[union-attr]
        scores = state.scores()
        others = sorted({scores[s] for s in range(self.game.num_sides) if s != loser}, reverse=True)
        ranks = [others.index(scores[s]) if s != loser else len(others) for s in range(self.game.num_sides)]
        return ranks

    def _finish(self) -> MatchResult:
        state = self.state
        ranking = self._ranking()
        winners = [side for side, rank in enumerate(ranking) if rank == 0]
        think = [{
            "decisions": clock.decisions,
            "total": _round6(clock.used),
            "mean": _round6(clock.used / clock.decisions) if clock.decisions else 0.0,
        } for clock in self.clocks]
        record = state.record(seats=self.names)
        times, start = self.times, 0
        for hand in record["hands"]:  # each deal entry's share of the times: one per action
            end = start + len(hand["actions"])
            hand["times"] = times[start:end]
            start = end
        record["result"].update(ranking=ranking, winners=winners, winner=winners[0] if len(winners) == 1 else None)
        record["termination"] = self.termination.as_dict()
        record["faults"] = [fault.as_dict() for fault in self.faults]
        record["time_control"] = self.time_control.as_dict()
        record["seed"] = self.seed
        result = MatchResult(
            game=self.game.name,
            seats=self.names,
            scores=state.scores(),
            ranking=ranking,
            winners=winners,
            termination=self.termination,
            faults=self.faults,
            think_times=think,
            hands=list(state.deal_results),
            record=record,
        )
        self._notify_all("end_match", lambda seat: _copied({**result.as_dict(), "seat": seat}))
        return result


_DEFAULT_TIME_CONTROL = TimeControl()  # both frozen: one instance serves every match
_DEFAULT_POLICY = FaultPolicy()

_EXACT_IDS: "weakref.WeakKeyDictionary[Game, dict[str, int]]" = weakref.WeakKeyDictionary()


def _exact_ids(game: Game) -> dict[str, int]:
    """Each canonical action string of ``game`` -> its id (what ``game.action_id`` parses, without parsing)."""
    table = _EXACT_IDS.get(game)
    if table is None:
        table = _EXACT_IDS[game] = {action: i for i, action in enumerate(action_strings(game))}
    return table


def _round6(seconds: float) -> float:
    """``round(seconds, 6)``, the very same float, in half the time (times in records, once a decision).

    ``round`` rounds the exact value to a whole number of millionths ``n`` and returns the float
    nearest to ``n / 10**6``, as ``n / 1e6`` does. Below ``1e9``, ``seconds * 1e6`` is off the exact
    product by less than ``2**-23``, so ``round(scaled)`` is that ``n`` whenever ``scaled`` is
    further than ``1e-6`` from a half; the rest (and zero, negative, huge or non-finite values) go
    to ``round`` itself.
    """
    scaled = seconds * 1e6
    if 0.0 < scaled < 1e9:
        whole = round(scaled)
        if -0.499999 < scaled - whole < 0.499999:
            return whole / 1e6
    return round(seconds, 6)


def _copied(payload: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a notification's payload (plain data: lists, dicts, numbers, strings)."""
    return copy.deepcopy(payload)


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)[:200]


def _shown(value: Any) -> str:
    if isinstance(value, str) and len(value) > 80:  # not the repr of a megabyte answer, to cut it after
        return repr(value[:80])[:80] + "..."
    return repr(value)[:80]
