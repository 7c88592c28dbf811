"""Every result is checked before it is stored: its record is replayed from the match's own deal set.

A worker (and an in-process bot in it) could hand back anything; what is stored must be what the
rules make of the record's actions on the deals of the match's specification. :func:`check` replays
the record on those deals (never the decks the record carries) and compares the seats, the scores,
the ranking and the winners with the result; :func:`checked` returns the result to store: the one
handed back when it agrees, else one made from the replay and flagged with ``"integrity"`` (the
disagreement, in words), so a tampered or corrupt result is neither trusted nor lost.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Mapping

from arena.errors import ArenaError, RecordError
from arena.games.base import SeededDecks

if TYPE_CHECKING:
    from arena.plugins.manager import Registry
    from arena.matches import MatchSpec


class IntegrityError(ArenaError):
    """A result disagrees with the replay of its record."""


def check(spec: "MatchSpec", result: Mapping[str, Any], record: Mapping[str, Any], game: Any) -> Any:
    """Replay ``record`` on the deals of ``spec``; return the final state. IntegrityError says what disagrees."""
    from arena.records import _replay_hand

    if not isinstance(record, Mapping) or not isinstance(record.get("hands"), list):
        raise IntegrityError("the record has no list of hands")
    if record.get("game") != spec.game:
        raise IntegrityError(f"the record is of game {record.get('game')!r}, the match of {spec.game!r}")
    if list(record.get("seats") or ()) != list(spec.seats) or list(result.get("seats") or ()) != list(spec.seats):
        raise IntegrityError("the seats of the result or the record are not the match's")
    state = game.new_match(seed=spec.deal_seed, decks=SeededDecks(spec.deal_seed))
    hands = record["hands"]
    try:
        for index, hand in enumerate(hands):
            if not isinstance(hand, dict) or not isinstance(hand.get("actions"), list):
                raise IntegrityError(f"hand {index} of the record has no list of actions")
            _replay_hand(state, index, hand, len(hands))
    except RecordError as exc:
        raise IntegrityError(f"the record does not replay on the match's deals: {exc}") from None
    except (ArenaError, ValueError, TypeError, KeyError, IndexError) as exc:
        raise IntegrityError(f"the record does not replay on the match's deals: {type(exc).__name__}: {exc}") from None
    if len(state.deals) != len(hands):
        raise IntegrityError(f"the record has {len(hands)} hands but its actions make {len(state.deals)}")
    dealt = state.record(seats=list(spec.seats))["hands"]
    for index, hand in enumerate(hands):
        if hand.get("deck") != dealt[index]["deck"]:
            raise IntegrityError(f"hand {index}: the record's deck is not the one of the match's deal set")
    scores = state.scores()
    for what, carried in (("the result", result.get("scores")), ("the record", (record.get("result") or {}).get("scores"))):
        if carried != scores:
            raise IntegrityError(f"{what} says scores {carried}, replaying the record gives {scores}")
    how = (result.get("termination") or {}).get("how")
    if how in ("normal", "unfinished"):
        ranking = state.ranking()
        if list(result.get("ranking") or ()) != ranking:
            raise IntegrityError(f"the result says ranking {result.get('ranking')}, replaying gives {ranking}")
    ranking = result.get("ranking")
    if not isinstance(ranking, list) or len(ranking) != game.num_sides:
        raise IntegrityError(f"the result's ranking {ranking!r} does not rank the game's {game.num_sides} sides")
    if how == "forfeit":
        seat = (result.get("termination") or {}).get("seat")
        loser = game.side_of(seat) if isinstance(seat, int) and 0 <= seat < game.players else None
        if loser is None or any(rank >= ranking[loser] for side, rank in enumerate(ranking) if side != loser):
            raise IntegrityError(f"the result's ranking {ranking} does not put the forfeiting side last")
    if list(result.get("winners") or ()) != [side for side, rank in enumerate(ranking) if rank == 0]:
        raise IntegrityError(f"the result's winners {result.get('winners')} are not the sides ranked first")
    return state


def checked(spec: "MatchSpec", result: dict[str, Any], record: Mapping[str, Any] | str, registry: "Registry") -> dict[str, Any]:
    """The result to store for ``spec``: ``result`` itself when its record replays to it, else a
    result made from the replay (or, when the record does not replay, a match with no winner),
    flagged with ``"integrity"``."""
    game = registry.game(spec.game, spec.options)
    try:
        data = json.loads(record) if isinstance(record, str) else record
        check(spec, result, data, game)
        return result
    except IntegrityError as exc:
        problem = str(exc)
    except (ValueError, RecursionError) as exc:  # the record text is no JSON
        problem = f"the record is not valid JSON: {type(exc).__name__}"
    flagged = dict(result)
    flagged["integrity"] = problem
    sides = game.num_sides
    try:
        state = _replayed(spec, data, game)
        flagged["scores"] = state.scores()
        flagged["ranking"] = state.ranking()
    except Exception:  # the record does not replay at all: nobody won this match
        flagged["scores"] = [0] * sides
        flagged["ranking"] = [0] * sides
    flagged["winners"] = [side for side, rank in enumerate(flagged["ranking"]) if rank == 0]
    flagged["winner"] = flagged["winners"][0] if len(flagged["winners"]) == 1 else None
    flagged["seats"] = list(spec.seats)
    return flagged


def _replayed(spec: "MatchSpec", record: Mapping[str, Any], game: Any) -> Any:
    from arena.records import _replay_hand

    state = game.new_match(seed=spec.deal_seed, decks=SeededDecks(spec.deal_seed))
    for index, hand in enumerate(record["hands"]):
        _replay_hand(state, index, hand)
    return state
