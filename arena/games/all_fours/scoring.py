"""Scoring (docs/games/all_fours.md §9, §10): the end-of-hand items High, Low, Jack, Game (computed
here, counted in order by the state), the target, and how the match ended."""

from __future__ import annotations

from typing import Sequence

from arena.games.all_fours.cards import JACK, SUIT_MASK, game_count, highest, lowest
from arena.games.base import MatchEnd


def reaches_target(score: int, target: int) -> bool:
    """§10.1: a side that has ``target`` or more wins, the moment it gets there (§10.2)."""
    return score >= target


def match_end(over: bool, unfinished: bool, lost_by_revoke: int | None) -> MatchEnd | None:
    """How the match ended: the target (§10), a serious revoke (§11), or the ``max_hands`` limit."""
    if not over:
        return None
    if unfinished:
        return MatchEnd.HAND_LIMIT
    return MatchEnd.PENALTY if lost_by_revoke is not None else MatchEnd.TARGET


def game_point(counts: Sequence[int], tie: str, eldest_side: int, barred: Sequence[bool]) -> int | None:
    """The side scoring Game, or None: the higher count; a tie per `game_tie`; a revoker never (§11)."""
    side: int | None
    if counts[0] > counts[1]:
        side = 0
    elif counts[1] > counts[0]:
        side = 1
    else:
        side = eldest_side if tie == "eldest" else None
    return None if side is None or barred[side] else side


def hand_items(
    dealt: Sequence[int],
    captured: Sequence[int],
    trump: int,
    *,
    hang_jack_points: int,
    game_tie: str,
    eldest: int,
    barred: Sequence[bool] = (False, False),
) -> list[tuple[str, int, int, int | None]]:
    """The items of a played hand in counting order, as ``(item, side, points, card)``.

    ``dealt`` is each seat's hand at the start of play (cards received in runs included), so the
    turn-ups and the stock never count (E12, E14); ``captured`` the cards each side won in tricks.
    With no trump in play only Game can score (§9.2, degenerate case).
    """
    players = len(dealt)
    trumps_in_play = 0
    for hand in dealt:
        trumps_in_play |= hand
    trumps_in_play &= SUIT_MASK[trump]

    def holder_side(card: int) -> int:
        return next(seat for seat in range(players) if dealt[seat] >> card & 1) % 2

    items: list[tuple[str, int, int, int | None]] = []
    if trumps_in_play:
        high, low = highest(trumps_in_play), lowest(trumps_in_play)
        items.append(("high", holder_side(high), 1, high))
        items.append(("low", holder_side(low), 1, low))
        jack = trump * 13 + JACK
        if trumps_in_play >> jack & 1:
            kept = holder_side(jack)
            taker = 0 if captured[0] >> jack & 1 else 1
            items.append(("jack", taker, 1 if taker == kept else hang_jack_points, jack))
    counts = [game_count(captured[0]), game_count(captured[1])]
    side = game_point(counts, game_tie, eldest % 2, barred)
    if side is not None:
        items.append(("game", side, 1, None))
    return items
