"""The results model: one finished match as every results store yields it, and the statistics
defined on it once.

The tournament store (arena.store), the ladder's (arena.ladder.store) and the web's
(arena.web.store) keep their matches in their own tables; each yields :class:`MatchRow` values
(their ``rows()``), and the ratings (arena.kinds.RatingSystem) and boards read those. Plain data and
the standard library only: this module stands at the bottom of the arena (docs/architecture.md).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence


@dataclass(frozen=True)
class MatchRow:
    """One finished match. Sides are numbered as the match's ``scores`` and ``ranking`` are."""

    match: str  # its id in its store: a schedule index, a ladder match id, a web table id
    game: str
    seats: tuple[str, ...]  # who sat in each seat (seat 0 first)
    sides: tuple[str, ...]  # who held each side (side 0 first); () where the store cannot say (web)
    scores: tuple[float, ...]  # each side's final score
    ranking: tuple[int, ...]  # each side's place, 0 = first; equal places drew
    termination: str = "normal"  # how it ended: normal, forfeit, arena_error, ...
    deal_set: int | None = None  # matches of one deal set were dealt the same cards
    finished: float | None = None  # when it finished (seconds since the epoch), where stored
    forfeited: int | None = None  # the side that forfeited the match (None: it did not end by a forfeit)

    @property
    def places(self) -> dict[str, int]:
        """Each distinct player's place (0 = first); one holding several sides counts at its best."""
        places: dict[str, int] = {}
        for who, rank in zip(self.sides, self.ranking):
            places[who] = min(rank, places.get(who, rank))
        return places

    @property
    def winners(self) -> tuple[str, ...]:
        """The players placed first (more than one: they drew)."""
        return tuple(who for who, place in self.places.items() if place == 0)

    def outcome(self, who: str) -> int:
        """0, 1 or 2 (the index into wins, draws, losses): ``who`` placed first alone (won), first
        with others (drew), or lower (lost)."""
        places = self.places
        if places[who] != 0:
            return 2
        return 0 if list(places.values()).count(0) == 1 else 1

    def margins(self, penalty: float = 0.0) -> list[float]:
        """Each side's duplicate margin (:func:`margin`: its score less the mean of the others'). A
        side that forfeited loses by at least ``penalty``: its score is lowered, for the margin
        only, until its margin is at most -penalty; the others' margins are computed against that."""
        scores = [float(score) for score in self.scores]
        side = self.forfeited
        if side is not None and len(scores) >= 2:
            others = statistics.fmean([score for s, score in enumerate(scores) if s != side])
            scores[side] = min(scores[side], others - penalty)
        return [margin(scores, s) for s in range(len(scores))]


def margin(scores: Sequence[float], side: int, others: Callable[[list[float]], float] = statistics.fmean) -> float:
    """A side's margin: its score less ``others`` of the other sides' scores: their mean (the
    duplicate margin the board and the ladder rate on) or, with ``others=max``, the best of them
    (the web's leaderboard). With no other side, the score itself. Two sides: both are the difference."""
    rest = [score for s, score in enumerate(scores) if s != side]
    return scores[side] - others(rest) if rest else scores[side]


def row_of(spec: Mapping[str, Any], result: Mapping[str, Any], finished: float | None = None) -> MatchRow:
    """The row of a tournament's or the ladder's match: its spec (a MatchSpec as a dict) and result.
    Side ``s`` is held by ``lineup[(s + rotation) % len(lineup)]``."""
    lineup = list(spec.get("lineup") or ())
    k = len(lineup)
    sides = tuple(lineup[(side + spec.get("rotation", 0)) % k] for side in range(k)) if k else ()
    seats, ranking = tuple(spec.get("seats") or ()), tuple(result.get("ranking") or ())
    termination = result.get("termination") or {}
    forfeited = None
    seat = termination.get("seat")
    if termination.get("how") == "forfeit" and isinstance(seat, int) and 0 <= seat < len(seats):
        held = [side for side, who in enumerate(sides) if who == seats[seat] and side < len(ranking)]
        # one bot may hold several sides (fewer bots than sides): the forfeiting one is ranked last
        forfeited = max(held, key=lambda side: ranking[side]) if held else None
    return MatchRow(match=str(spec.get("index")), game=str(spec.get("game") or result.get("game")), seats=seats,
                    sides=sides, scores=tuple(result.get("scores") or ()), ranking=ranking,
                    termination=termination.get("how") or "normal", deal_set=spec.get("deal_set"),
                    finished=finished, forfeited=forfeited)


def record_row(match: str, record: Mapping[str, Any], sides: Sequence[str] = (), deal_set: int | None = None,
               finished: float | None = None) -> MatchRow:
    """The row of a match known by its game record alone (the web's tables)."""
    result = record.get("result") or {}
    return MatchRow(match=match, game=str(record["game"]), seats=tuple(record.get("seats") or ()), sides=tuple(sides),
                    scores=tuple(result.get("scores") or ()), ranking=tuple(result.get("ranking") or ()),
                    termination=(record.get("termination") or {}).get("how") or "normal", deal_set=deal_set,
                    finished=finished)
