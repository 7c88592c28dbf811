"""Play one match: ask each player in turn, check the answer, keep the clocks, apply the fault
policy, and write the game record. The only place where rules meet players.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from arena.games.base import DeckSource, Game, GameState
from arena.players.base import MatchInfo
from arena.players.hosts import BotCrash, BotTimeout, Host
from arena.referee.clock import Clock, TimeControl
from arena.referee.faults import Fault, FaultKind, FaultPolicy, Response, Termination


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
        ask_forced: bool = False,
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
        self.time_control = time_control or TimeControl()
        self.policy = policy or FaultPolicy()
        self.ask_forced = ask_forced  # False: a decision with one legal action is taken without asking
        self.match_id = match_id
        self.on_action = on_action
        self.clocks = [Clock(self.time_control) for _ in hosts]
        self.times: list[list[float | None]] = []  # per deal entry, aligned with its actions
        self.faults: list[Fault] = []
        self.side_faults = [0] * game.num_sides
        self.substitute_rng = random.Random(f"{seed}/substitute")
        self.termination = Termination()

    # -- the match -----------------------------------------------------------------------------
    def play(self) -> MatchResult:
        """Play to the end (or a forfeit) and return the result. The caller closes the hosts."""
        state = self.state
        for seat in range(self.game.players):
            if not self._notify(seat, "start", None):
                return self._finish()
        announced = 0
        while True:
            while announced < len(state.deal_results):  # tell everyone each hand's result
                if not self._end_hand(announced):
                    return self._finish()
                announced += 1
            if state.is_over():
                break
            self._decide()
            if self.termination.how == "forfeit":
                return self._finish()
        if state.unfinished:
            self.termination = Termination("unfinished")
        return self._finish()

    def _decide(self) -> None:
        state = self.state
        seat = state.current_player()
        assert seat is not None
        while len(self.times) < len(state.deals):
            self.times.append([])
        legal_ids = state.legal_action_ids()
        if len(legal_ids) == 1 and not self.ask_forced:
            self._apply(seat, self.game.action_string(legal_ids[0]), None)
            return
        observation = state.observation(seat)
        clock = self.clocks[seat]
        observation.update(clock.view())
        allowed = clock.allowed()
        answer: Any = None
        try:
            answer, elapsed = self.hosts[seat].decide(observation, allowed)
        except BotTimeout as exc:
            clock.charge(exc.elapsed)
            self._fault(seat, FaultKind.TIMEOUT, None, str(exc), exc.elapsed)
            return
        except BotCrash as exc:
            self._fault(seat, FaultKind.CRASH, None, str(exc), None)
            return
        clock.charge(elapsed)
        kind, message = self._judge(answer)
        if kind is not None:
            self._fault(seat, kind, answer, message, elapsed)
            return
        self._apply(seat, answer, elapsed)

    def _judge(self, answer: Any) -> tuple[FaultKind | None, str]:
        if not isinstance(answer, str) or not answer.strip():
            return FaultKind.MALFORMED, f"the answer {_shown(answer)} is not an action string"
        action_id = self.game.action_id(answer)
        if action_id is None:
            return FaultKind.MALFORMED, f"{answer!r} is not an action string of {self.game.title}"
        if action_id not in self.state.legal_action_ids():
            legal = ", ".join(self.state.legal_actions())
            return FaultKind.ILLEGAL, f"{answer!r} is not legal in phase {self.state.phase!r}; legal: {legal}"
        return None, ""

    def _apply(self, seat: int, action: str, elapsed: float | None) -> None:
        self.times[len(self.state.deals) - 1].append(None if elapsed is None else round(elapsed, 6))
        self.state.apply(action)
        if self.on_action is not None:
            self.on_action(self.state, seat, action, elapsed)

    def _fault(self, seat: int, kind: FaultKind, answer: Any, message: str, elapsed: float | None) -> None:
        state = self.state
        side = self.game.side_of(seat)
        self.side_faults[side] += 1
        response = self.policy.response(kind)
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
            return
        fault.substituted = self.substitute_rng.choice(state.legal_actions())
        self._apply(seat, fault.substituted, elapsed)

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
            kind = FaultKind.TIMEOUT if isinstance(exc, BotTimeout) else FaultKind.CRASH
            if event == "end_match":
                return True
            side = self.game.side_of(seat)
            self.side_faults[side] += 1
            response = self.policy.response(kind)
            if self.side_faults[side] >= self.policy.max_faults:
                response = Response.FORFEIT
            state = self.state
            fault = Fault(seat, kind, None, f"during {event}: {exc}", max(0, len(state.deals) - 1),
                          len(state.deals[-1]["actions"]) if state.deals else 0, response)
            self.faults.append(fault)
            if response is Response.FORFEIT:
                self.termination = Termination("forfeit", fault)
                return False
            return True

    def _end_hand(self, index: int) -> bool:
        payload = dict(self.state.deal_results[index])
        payload["hand_index"] = index
        for seat in range(self.game.players):
            if not self._notify(seat, "end_hand", payload):
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
        think = []
        for clock in self.clocks:
            think.append({
                "decisions": clock.decisions,
                "total": round(clock.used, 6),
                "mean": round(clock.used / clock.decisions, 6) if clock.decisions else 0.0,
            })
        record = state.record(seats=self.names)
        for index, hand in enumerate(record["hands"]):
            hand["times"] = self.times[index] if index < len(self.times) else []
        record["result"].update({"ranking": ranking, "winners": winners, "winner": winners[0] if len(winners) == 1 else None})
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
        for seat in range(self.game.players):
            self._notify(seat, "end_match", {**result.as_dict(), "seat": seat})
        return result


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)[:200]


def _shown(value: Any) -> str:
    return repr(value)[:80]
