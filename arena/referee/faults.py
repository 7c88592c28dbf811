"""The ways a bot can misbehave, and what the match does about each (the fault policy)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Mapping

from arena.errors import ArenaError


class FaultKind(str, Enum):
    ILLEGAL = "illegal"  # an action string of the game that is not legal now
    MALFORMED = "malformed"  # not an action string at all: wrong type, empty, garbage
    TIMEOUT = "timeout"  # no answer within the time allowed
    CRASH = "crash"  # an exception in the bot, or its process died
    LOG_FLOOD = "log_flood"  # its output passed its log's cap (found after the match: the result stands)


class Response(str, Enum):
    FORFEIT = "forfeit"  # the match ends at once and the faulting side loses
    SUBSTITUTE = "substitute"  # a seeded random legal action is played for the bot
    RECORDED = "recorded"  # nothing changes in the match; the fault counts (ratings' faults, probation)


# The kinds a fault policy answers (forfeit or substitute); a log flood is only ever recorded.
POLICY_KINDS = (FaultKind.ILLEGAL, FaultKind.MALFORMED, FaultKind.TIMEOUT, FaultKind.CRASH)


@dataclass(frozen=True)
class FaultPolicy:
    """The response to each fault kind, and how many substitutions a side may use in one match."""

    illegal: Response = Response.FORFEIT
    malformed: Response = Response.FORFEIT
    timeout: Response = Response.FORFEIT
    crash: Response = Response.FORFEIT
    max_faults: int = 3  # with "substitute": the side forfeits at this many faults in one match

    def response(self, kind: FaultKind) -> Response:
        return getattr(self, kind.value) if kind in POLICY_KINDS else Response.RECORDED

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {kind.value: self.response(kind).value for kind in POLICY_KINDS}
        data["max_faults"] = self.max_faults
        return data

    @classmethod
    def uniform(cls, response: str, max_faults: int = 3) -> "FaultPolicy":
        return cls.from_dict({kind.value: response for kind in POLICY_KINDS} | {"max_faults": max_faults})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "FaultPolicy":
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key == "max_faults":
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise ArenaError(f"fault policy: max_faults must be a whole number >= 1, not {value!r}")
                values[key] = value
            elif key in {kind.value for kind in POLICY_KINDS}:
                if value not in (Response.FORFEIT.value, Response.SUBSTITUTE.value):
                    raise ArenaError(f"fault policy: {key} must be 'forfeit' or 'substitute', not {value!r}")
                values[key] = Response(value)
            else:
                kinds = ", ".join(kind.value for kind in POLICY_KINDS)
                raise ArenaError(f"fault policy: unknown key {key!r}; keys: {kinds}, max_faults")
        return cls(**values)


# What is kept of a fault's answer and message (a hostile bot's answer may be megabytes): an excerpt.
MAX_ANSWER_CHARS = 200
MAX_MESSAGE_CHARS = 2000


def excerpt(text: str, limit: int) -> str:
    """``text`` itself when it has at most ``limit`` characters, else its start and its length."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters in all)"


@dataclass
class Fault:
    """One fault as recorded in the match result and the game record.

    A long answer or message is cut to an excerpt (:data:`MAX_ANSWER_CHARS`, :data:`MAX_MESSAGE_CHARS`)."""

    seat: int
    kind: FaultKind
    answer: Any  # what the bot answered (repr for non-JSON values), None when it answered nothing
    message: str
    hand: int
    action_index: int
    response: Response
    substituted: str | None = None  # the action played for the bot

    def __post_init__(self) -> None:
        if isinstance(self.answer, str) and len(self.answer) > MAX_ANSWER_CHARS:
            self.answer = excerpt(self.answer, MAX_ANSWER_CHARS)
        if len(self.message) > MAX_MESSAGE_CHARS:
            self.message = excerpt(self.message, MAX_MESSAGE_CHARS)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["kind"] = self.kind.value
        data["response"] = self.response.value
        return data


@dataclass
class Termination:
    """How a match ended: "normal", "forfeit" (with the fault) or "unfinished"."""

    how: str = "normal"
    forfeit: Fault | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"how": self.how}
        if self.forfeit is not None:
            data["seat"] = self.forfeit.seat
            data["fault"] = self.forfeit.as_dict()
        data.update(self.detail)
        return data
