"""Scoring a hand (docs/games/five_hundred.md §8) and the end of the game (§9), as pure functions
of plain numbers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from arena.games.base import MatchEnd

if TYPE_CHECKING:
    from arena.games.five_hundred.actions import Bid

SLAM = 250
TARGET = 500

# How a deal ended: the hand result's "end".
MADE, SET, THROWN_IN = "made", "set", "thrown_in"
# How a deal ended the match (the hand result's "match_end"), and the MatchEnd of each.
WIN, LOSS, UNFINISHED = "win", "loss", "unfinished"
MATCH_END = {WIN: MatchEnd.TARGET, LOSS: MatchEnd.LOSING_SCORE, UNFINISHED: MatchEnd.HAND_LIMIT}


def hand_changes(bid: Bid, contractor: int, members: Sequence[int], seat_tricks: Sequence[int],
                 sides: Sequence[int], totals: Sequence[int], cap: int | None) -> tuple[list[int], bool]:
    """The score change of every side and whether the contract was made.

    ``members`` are the seats of the contracting side (the team, or the contractor and any
    five-player partners); ``totals`` are the scores before the hand (for the defence cap, R-8.4).
    """
    changes = [0] * len(totals)
    if bid.misere:  # the contractor alone must take no trick; defenders score nothing
        made = seat_tricks[contractor] == 0
        changes[sides[contractor]] = bid.value if made else -bid.value
        return changes, made
    taken = sum(seat_tricks[s] for s in members)
    made = taken >= bid.level
    if not made:
        points = -bid.value
    elif taken == 10 and bid.value < SLAM:
        points = SLAM
    else:
        points = bid.value
    contracting = {sides[s] for s in members}
    for side in contracting:  # one team, or each five-player member
        changes[side] = points
    side_tricks = [0] * len(totals)
    for seat, taken_by_seat in enumerate(seat_tricks):
        side_tricks[sides[seat]] += taken_by_seat
    for side, tricks in enumerate(side_tricks):
        if side in contracting:
            continue
        award = 10 * tricks
        if cap is not None:
            old = totals[side]
            award = 0 if old >= cap else min(award, cap - old)
        changes[side] = award
    return changes, made


def game_end(made: bool, contractor: int, members: Sequence[int], sides: Sequence[int],
             totals: Sequence[int]) -> tuple[list[int], str] | None:
    """R-9.1 / R-9.4 after a scored hand: (each side's place, "win" or "loss"), or None to go on."""
    if made:
        candidates = sorted({sides[s] for s in members if totals[sides[s]] >= TARGET})
        if not candidates:
            return None
        own = sides[contractor]
        if own in candidates:
            winners = [own]
        else:
            top = max(totals[c] for c in candidates)
            winners = [c for c in candidates if totals[c] == top]
        others = [side for side in range(len(totals)) if side not in winners]
        ranks = [0] * len(totals)
        for side in others:
            ranks[side] = len(winners) + sum(1 for o in others if totals[o] > totals[side])
        return ranks, WIN
    losers = sorted({sides[s] for s in members if totals[sides[s]] <= -TARGET})
    if not losers:
        return None
    others = [side for side in range(len(totals)) if side not in losers]
    ranks = [0] * len(totals)
    for side in others:
        ranks[side] = sum(1 for o in others if totals[o] > totals[side])
    for side in losers:
        ranks[side] = len(others) + sum(1 for o in losers if totals[o] > totals[side])
    return ranks, LOSS


def by_score(totals: Sequence[int]) -> list[int]:
    """Places by score, ties equal (an unfinished match, R-9.5)."""
    return [sum(1 for o in totals if o > t) for t in totals]
