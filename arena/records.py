"""Game records: load, check and replay them (the format: docs/game-interface.md, "Records").

Replaying recomputes everything from the decks and the actions; results carried in a record are
compared with the recomputed ones, never trusted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from arena.errors import ArenaError, IllegalActionError, RecordError
from arena.games.base import RECORD_FORMATS, FixedDecks, Game, GameState


@dataclass
class Replay:
    """What replaying a record gives: the scores after every entry of ``hands``, and the result."""

    game: Game
    state: GameState
    hands: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {
            "ok": True,
            "hands": [{"scores": row["scores"]} for row in self.hands],
            "scores": self.state.scores(),
            "winner": self.state.winner(),
            "over": self.state.is_over(),
        }


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file; bad JSON or a non-object is a :class:`RecordError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read record {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path} is not UTF-8 text: byte {exc.start} cannot be decoded") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    except RecursionError:
        raise RecordError(f"{path}: the JSON is nested too deeply to be a record") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise RecordError(f"{path} is not a usable JSON record: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object, not {type(data).__name__}")
    return data


def replay(record: Mapping[str, Any], make_game: Callable[[str, Mapping[str, Any]], Game]) -> Replay:
    """Replay ``record`` action by action; raise :class:`RecordError` at the first problem.

    ``make_game(name, options)`` builds the game (the caller's registry's ``game``: records stand
    below the plugins).
    Whatever the record holds, the outcome is a Replay or a RecordError (never another exception).
    """
    try:
        return _replay(record, make_game)
    except RecordError:
        raise
    except RecursionError:
        raise RecordError("the record is nested too deeply to be replayed") from None
    except Exception as exc:  # a value of the wrong type where the engine expected a card, a seat, ...
        raise RecordError(f"the record is malformed: {type(exc).__name__}: {str(exc)[:200]}") from None


def _replay(record: Mapping[str, Any], make_game: Callable[[str, Mapping[str, Any]], Game]) -> Replay:
    fmt = record.get("format", RECORD_FORMATS[-1])
    if fmt not in RECORD_FORMATS:
        raise RecordError(f"the record's format {fmt!r} is not one this arena reads ({', '.join(RECORD_FORMATS)})")
    for key, kind in (("game", str), ("hands", list)):
        if not isinstance(record.get(key), kind):
            raise RecordError(f"the record has no {key!r} {kind.__name__}")
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("the record's 'options' is not an object")
    try:
        game = make_game(record["game"], options)
    except ArenaError as exc:
        raise RecordError(f"the record's game cannot be set up: {exc}") from exc
    hands = record["hands"]
    for index, hand in enumerate(hands):
        if not isinstance(hand, dict) or not isinstance(hand.get("deck"), list) or not isinstance(hand.get("actions"), list):
            raise RecordError(f"hand {index}: needs a 'deck' list and an 'actions' list", hand=index)
        if not all(isinstance(card, str) for card in hand["deck"]):
            raise RecordError(f"hand {index}: the deck holds something that is not a card (a string)", hand=index)
        if "result" in hand and not isinstance(hand["result"], dict):
            raise RecordError(f"hand {index}: its 'result' is not an object", hand=index)
    first_dealer = hands[0].get("dealer", 0) if hands else 0
    if not isinstance(first_dealer, int) or isinstance(first_dealer, bool):
        raise RecordError("hand 0: 'dealer' is not a seat number", hand=0)
    state = game.new_match(decks=FixedDecks([hand["deck"] for hand in hands], first_dealer))
    result = Replay(game, state)
    for index, hand in enumerate(hands):
        _replay_hand(state, index, hand, len(hands))
        if "result" in hand and index < len(state.deal_results):
            _compare(hand["result"].get("scores"), state.deal_results[index]["scores"], f"hand {index}", index)
    if len(state.deals) != len(hands):
        raise RecordError(
            f"the record has {len(hands)} hands but its actions make {len(state.deals)}",
            hand=min(len(hands), len(state.deals)),
        )
    result.hands = list(state.deal_results)
    carried = record.get("result")
    if isinstance(carried, dict) and carried.get("scores") is not None:
        _compare(carried["scores"], state.scores(), "the final result", None)
    return result


def _replay_hand(state: GameState, index: int, hand: Mapping[str, Any], hands: int | None = None) -> None:
    """Replay one deal entry; ``hands``: how many the record has (to name an action past the last)."""
    if len(state.deals) <= index:
        if state.is_over():
            raise RecordError(f"hand {index}: the game was already over before it", hand=index)
        raise RecordError(f"hand {index}: the previous hand had not ended", hand=index)
    dealt = state.deals[index]
    if "dealer" in hand and hand["dealer"] != dealt["dealer"]:
        raise RecordError(f"hand {index}: the record says dealer {hand['dealer']!r}, the rules say {dealt['dealer']}", hand=index)
    for position, item in enumerate(hand["actions"]):
        seat, action = _pair(item, index, position)
        to_act = state.current_player()
        where: dict[str, Any] = dict(hand=index, action_index=position, seat=seat, action=action)
        if len(state.deals) != index + 1:
            raise RecordError(f"hand {index}, action {position}: the hand had already ended", **where)
        if to_act is None:
            raise RecordError(f"hand {index}, action {position}: one action too many: the game was already over", **where)
        if to_act != seat:
            raise RecordError(
                f"hand {index}, action {position}: seat {seat} acted but it was seat {to_act}'s turn",
                legal=state.legal_actions(),
                **where,
            )
        try:
            state.apply(action)
        except RecordError as exc:  # the action ended the hand and the next deal has no deck in the record
            if exc.action_index is not None or hands is None or index + 1 < hands:
                raise  # located already, or about a deck the record does have (e.g. not the game's pack)
            if position + 1 < len(hand["actions"]):
                extra = _pair(hand["actions"][position + 1], index, position + 1)
                raise RecordError(
                    f"hand {index}, action {position + 1}: one action too many: the hand ended with action {position}",
                    hand=index, action_index=position + 1, seat=extra[0], action=extra[1]) from None
            raise RecordError(
                f"hand {index}, action {position}: it ended the hand and the game goes on, but the record has "
                f"no hand {index + 1} ({exc})", **where) from None
        except IllegalActionError as exc:
            raise RecordError(
                f"hand {index}, action {position}: seat {seat} played {action!r}, which is illegal "
                f"in phase {exc.phase!r}; legal: {', '.join(exc.legal)}",
                legal=exc.legal,
                **where,
            ) from exc


def _pair(item: Any, hand: int, position: int) -> tuple[int, str]:
    if (
        isinstance(item, (list, tuple))
        and len(item) == 2
        and isinstance(item[0], int)
        and not isinstance(item[0], bool)
        and isinstance(item[1], str)
    ):
        return item[0], item[1]
    raise RecordError(
        f"hand {hand}, action {position}: {item!r} is not a [seat, action] pair", hand=hand, action_index=position
    )


def _compare(carried: Any, computed: list[int], what: str, hand: int | None) -> None:
    if carried is not None and (not isinstance(carried, list) or list(carried) != list(computed)):
        raise RecordError(f"{what}: the record says scores {carried}, replaying gives {computed}", hand=hand)


def dumps(record: Mapping[str, Any] | str, *, file: bool = False) -> str:
    """The one writer of a record's text: compact JSON as every results store keeps it (the
    tournament's, the ladder's, the web's), or with ``file`` as a record file is written (indented,
    ending in a newline). Text already encoded (by the worker that played the match) is kept as it is."""
    if isinstance(record, str):
        return record
    return json.dumps(record, indent=1) + "\n" if file else json.dumps(record)


def dump(record: Mapping[str, Any], path: str | Path) -> None:
    Path(path).write_text(dumps(record, file=True), encoding="utf-8")
