"""Scoring a hand (§9 of docs/games/bid_euchre.md), the hand's result, and the end of the game (§10).

Pure functions of plain numbers and lists.
"""

from __future__ import annotations

from typing import Any

RENEGE_PENALTY = 2  # §9.3: per renege, in ``illegal_play_mode = penalize``


def hand_changes(
    level: int,
    tricks: int,
    help_level: int,
    moon_level: int,
    bidding_side: int,
    side_tricks: list[int],
    reneges: list[int],
) -> tuple[list[int], bool]:
    """Score changes per side and whether the contract was made.

    ``level`` is the contract (a number, ``help_level`` or ``moon_level``); ``tricks`` is T, the
    tricks per hand. Defenders always score +1 a trick (§9.1); a made number bid scores the tricks
    taken, a set one ``-bid`` and no trick points (E9); HELP scores 2T, MOON 4T, either failed -T
    (§9.2, E8). Reneges cost 2 each after the normal scoring (§9.3).
    """
    changes = [0, 0]
    defenders = 1 - bidding_side
    changes[defenders] = side_tricks[defenders]
    taken = side_tricks[bidding_side]
    if level == moon_level:
        made = taken == tricks
        changes[bidding_side] = 4 * tricks if made else -tricks
    elif level == help_level:
        made = taken == tricks
        changes[bidding_side] = 2 * tricks if made else -tricks
    else:
        made = taken >= level
        changes[bidding_side] = taken if made else -level
    for side in (0, 1):
        changes[side] -= RENEGE_PENALTY * reneges[side]
    return changes, made


def played_result(
    scores: list[int],
    changes: list[int],
    made: bool,
    contract: dict[str, Any] | None,
    tricks_won_by_seat: list[int],
    reneges: list[int],
    tricks: list[dict[str, Any]],
) -> dict[str, Any]:
    """The result of a played hand (§12.4): ``end`` is "made" or "set"."""
    by_seat = tricks_won_by_seat
    return {
        "scores": list(scores),
        "changes": changes,
        "end": "made" if made else "set",
        "contract": contract,
        "tricks_won": [by_seat[0] + by_seat[2], by_seat[1] + by_seat[3]],
        "tricks": tricks,
        "tricks_won_by_seat": list(by_seat),
        "reneges": list(reneges),
    }


def thrown_in_result(scores: list[int], end: str, claim: dict[str, Any] | None) -> dict[str, Any]:
    """The result of a deal thrown in before play: ``end`` "all_pass" (§6.3) or "ace_no_face"
    (§6.5, with the ``claim``: the claimant's seat and shown hand)."""
    result: dict[str, Any] = {
        "scores": list(scores), "changes": [0, 0], "end": end, "contract": None, "tricks_won": [0, 0], "tricks": [],
    }
    if claim is not None:
        result["claim"] = claim  # public: the claimant's hand is shown (§11)
    return result


def game_winner(scores: list[int], target: int, bidding_side: int, simultaneous_finish: str) -> int | None:
    """The side that has won after a scored hand (§10), or None to deal another hand.

    One side at or over the target wins. Both over: equal scores play on (the user's rule document,
    in every mode); otherwise the higher score wins, or the bidding side with ``bidders_win``.
    """
    over = [scores[0] >= target, scores[1] >= target]
    if over[0] and over[1]:
        if scores[0] == scores[1]:
            return None
        if simultaneous_finish == "bidders_win":
            return bidding_side
        return 0 if scores[0] > scores[1] else 1
    if over[0]:
        return 0
    if over[1]:
        return 1
    return None
