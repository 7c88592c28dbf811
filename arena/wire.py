"""The wire: the one place where the arena's values are converted to and from protobuf messages.

The protocol is ``proto/arena/v1/player.proto`` (generated code in ``arena.v1``). The arena's values
are the ones every bot sees: :class:`~arena.players.base.MatchInfo`, observation dicts, action
strings, and the hand and match results. Each JSON-ready dict travels whole as a JSON string (so a
bot in any language gets exactly what a Python plugin bot gets); its common parts are also typed
fields of the message. Both directions live here, for the arena (the client, ``arena.players.remote``)
and for Python bots (the server, ``arena.players.serve``), so the two cannot drift apart.
"""

from __future__ import annotations

import json
import math
from typing import Any, Iterable, Mapping

from arena.players.base import MatchInfo
from arena.players.hosts import MAX_ANSWER_BYTES as _MAX_ANSWER_BYTES
from arena.players.hosts import Garbage
from arena.referee.observation import LazyObservation
from arena.v1 import player_pb2 as pb

PROTOCOL_VERSION = pb.PROTOCOL_VERSION_1
SERVICE_NAME = "arena.v1.Player"  # also the name its health status is reported under

# Message size limits, in bytes. What the arena sends (observations, results) is a few kilobytes;
# what a bot sends (an action, its description) is a few dozen bytes. A message over its limit is
# refused by gRPC (RESOURCE_EXHAUSTED) before anyone parses it.
MAX_REQUEST_BYTES = 4 * 1024 * 1024  # arena -> bot
MAX_ANSWER_BYTES = _MAX_ANSWER_BYTES  # bot -> arena: the same limit as an isolated bot's pipe


def garbage(cause: str) -> Garbage:
    """A reply that carries no action string (an oversized or unparseable message, a Decision
    without an action): :class:`arena.players.hosts.Garbage`, shown as ``<cause>``."""
    return Garbage(f"<{cause}>")


# -- JSON ---------------------------------------------------------------------------------------


def _default(value: Any) -> Any:
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if hasattr(value, "as_dict"):
        return value.as_dict()
    if hasattr(value, "value"):  # enums
        return value.value
    return repr(value)


# Made once. No circular check: what is sent is a tree of plain data, and the check costs a
# dict insertion per list (a quarter of an observation's encoding); a cycle still fails (RecursionError).
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False, default=_default).encode


def dumps(data: Any) -> str:
    """Compact JSON, as every ``*_json`` field carries it."""
    return _ENCODE(data)


def loads_object(text: str, what: str) -> dict[str, Any]:
    """A ``*_json`` field as a dict ({} when empty). ValueError names the field when it is no object."""
    if not text:
        return {}
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{what} is not a JSON object")
    return data


# -- describing a bot ---------------------------------------------------------------------------


def describe_request(arena_version: str = "") -> pb.DescribeRequest:
    return pb.DescribeRequest(protocol_version=PROTOCOL_VERSION, arena_version=arena_version)


# The notifications a bot may say it does not need (BotDescription.ignores), so that the arena
# does not send them. StartMatch is not among them: it opens the session the other calls name.
IGNORABLE = frozenset({"end_hand", "end_match"})


def description_to_proto(
    name: str,
    version: str = "",
    games: tuple[str, ...] | list[str] | None = None,
    summary: str = "",
    ignores: Iterable[str] = (),
    owner_key: str = "",
) -> pb.BotDescription:
    return pb.BotDescription(
        name=name, version=version, protocol_version=PROTOCOL_VERSION, games=list(games or ()), summary=summary,
        ignores=sorted(ignores), owner_key=owner_key,
    )


def description_from_proto(message: pb.BotDescription) -> dict[str, Any]:
    """``{"name", "version", "protocol_version", "games" (None: every game), "summary", "ignores",
    "owner_key"}``;
    ``ignores`` keeps only the names the arena knows how to skip (:data:`IGNORABLE`): any other
    name is harmless, the call is made as before."""
    return {
        "name": message.name,
        "version": message.version,
        "protocol_version": message.protocol_version,
        "games": list(message.games) or None,
        "summary": message.summary,
        "ignores": IGNORABLE.intersection(message.ignores),
        "owner_key": message.owner_key,
    }


# -- the start of a match -------------------------------------------------------------------------


def _time_control_to_proto(control: Mapping[str, Any]) -> pb.TimeControl:
    message = pb.TimeControl(
        per_decision=float(control.get("per_decision") or 0.0), increment=float(control.get("increment") or 0.0)
    )
    if control.get("bank") is not None:
        message.bank = float(control["bank"])
    return message


def _time_control_from_proto(message: pb.TimeControl) -> dict[str, Any]:
    return {
        "per_decision": message.per_decision,
        "bank": message.bank if message.HasField("bank") else None,
        "increment": message.increment,
    }


def start_to_proto(
    info: MatchInfo, session_id: str, seed: int = 0, settings: Mapping[str, Any] | None = None
) -> pb.StartMatchRequest:
    return pb.StartMatchRequest(
        session_id=session_id,
        match_id=info.match_id,
        game=info.game,
        options_json=dumps(dict(info.options)),
        seat=info.seat,
        seating=list(info.seating),
        time_control=_time_control_to_proto(info.time_control),
        seed=int(seed),
        settings_json=dumps(dict(settings or {})),
    )


def start_from_proto(message: pb.StartMatchRequest) -> tuple[MatchInfo, int, dict[str, Any]]:
    """(the MatchInfo, the seed, the bot's settings)."""
    info = MatchInfo(
        game=message.game,
        options=loads_object(message.options_json, "options_json"),
        seat=message.seat,
        seating=tuple(message.seating),
        time_control=_time_control_from_proto(message.time_control),
        match_id=message.match_id,
    )
    return info, message.seed, loads_object(message.settings_json, "settings_json")


# -- decisions ------------------------------------------------------------------------------------


def _number(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return number if math.isfinite(number) else 0.0


def observation_to_proto(observation: Mapping[str, Any], session_id: str, decision: int) -> pb.DecisionRequest:
    """The decision request for one observation (as the referee builds it: with the clock's view)."""
    message = pb.DecisionRequest(
        session_id=session_id,
        decision=decision,
        legal_actions=[str(action) for action in observation.get("legal_actions", ())],
        time_left=_number(observation.get("time_left")),
        seat=int(observation.get("seat") or 0),
        phase=str(observation.get("phase") or ""),
        observation_json=dumps(observation),
    )
    if observation.get("bank_left") is not None:
        message.bank_left = _number(observation["bank_left"])
    return message


def observation_from_proto(message: pb.DecisionRequest) -> dict[str, Any]:
    """The observation dict, as a plugin bot would have received it.

    The JSON is the observation; the typed fields fill in whatever it lacks (a client that sends
    only the typed fields still gives a usable observation).
    """
    observation = loads_object(message.observation_json, "observation_json")
    observation.setdefault("legal_actions", list(message.legal_actions))
    observation.setdefault("time_left", message.time_left)
    observation.setdefault("bank_left", message.bank_left if message.HasField("bank_left") else None)
    observation.setdefault("seat", message.seat)
    observation.setdefault("phase", message.phase)
    return observation


class _RequestObservation:
    """The source of a :class:`LazyObservation` on the bot's side: parses the request when asked."""

    __slots__ = ("message",)

    def __init__(self, message: pb.DecisionRequest):
        self.message = message

    def observation(self, seat: int) -> dict[str, Any]:
        return observation_from_proto(self.message)


def lazy_observation_from_proto(message: pb.DecisionRequest) -> dict[str, Any]:
    """:func:`observation_from_proto`, but the JSON is parsed only when something other than
    ``legal_actions`` is read (a bot that reads only those saves the parse). What the bot can read
    is the same dict, in the same key order: the arena's typed ``legal_actions`` are those of the
    JSON. A request whose JSON is no object fails at the first such read, inside the bot's code.
    """
    return LazyObservation.make(_RequestObservation(message), message.seat, legal_actions=list(message.legal_actions))


def decision_to_proto(answer: Any) -> pb.Decision:
    """A bot's answer. Anything but a string leaves ``action`` absent (the arena: ``malformed``)."""
    if isinstance(answer, str):
        try:
            return pb.Decision(action=answer)
        except ValueError:  # not valid UTF-8 text (lone surrogates)
            pass
    return pb.Decision()


def decision_from_proto(message: pb.Decision) -> Any:
    """The answer as the referee judges it: the action string, or garbage() when there is none."""
    if not message.HasField("action"):
        return garbage("a Decision without an action")
    return message.action


# -- the end of a hand and of the match -----------------------------------------------------------


def end_hand_to_proto(result: Mapping[str, Any], session_id: str) -> pb.EndHandRequest:
    return pb.EndHandRequest(
        session_id=session_id, hand_index=int(result.get("hand_index") or 0), result_json=dumps(dict(result))
    )


def end_hand_from_proto(message: pb.EndHandRequest) -> dict[str, Any]:
    result = loads_object(message.result_json, "result_json")
    result.setdefault("hand_index", message.hand_index)
    return result


def end_match_to_proto(result: Mapping[str, Any], session_id: str) -> pb.EndMatchRequest:
    return pb.EndMatchRequest(session_id=session_id, result_json=dumps(dict(result)))


def end_match_from_proto(message: pb.EndMatchRequest) -> dict[str, Any]:
    return loads_object(message.result_json, "result_json")
