"""Before play (docs/games/all_fours.md §6.3-§7): the turn-up and its kick, stand or beg, give one or
run the pack.

The state calls these at each step; the points they name are scored by the state, which checks
the target after every one (§10.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.all_fours.actions import BEG, GIVE_ONE, GIVE_OR_RUN, RUN, STAND, STAND_OR_BEG

if TYPE_CHECKING:
    from arena.games.all_fours.game import AllFoursGame


def decisions(phase: str) -> list[int]:
    """The legal action ids of a decision before play: the eldest's (§7.1) or the dealer's (§7.2)."""
    if phase == STAND_OR_BEG:
        return [STAND, BEG]
    if phase == GIVE_OR_RUN:
        return [GIVE_ONE, RUN]
    return []


def kick(game: "AllFoursGame", card: int, first: bool, proposed: int | None) -> int:
    """The kick a turn-up scores for the dealer's side (§4, §6.4, §7.3 step 5).

    The first turn-up of a deal always scores its kick; a later one (while running the pack) of the
    rejected suit ``proposed`` scores only under `kick_scores_on_same_suit_turnups` (E6).
    """
    points = game.kicks[card]
    if points and (first or game.kick_same_suit or card // 13 != proposed):
        return points
    return 0


def can_run(stock_left: int, players: int) -> bool:
    """§7.3 step 1, E8: the stock can supply three cards each and a turn-up; else the pack is exhausted (§7.4)."""
    return stock_left >= 3 * players + 1


def beggars_side(dealer: int) -> int:
    """The side of the eldest (``dealer+1``), who scores the given point (§7.2)."""
    return (dealer + 1) % 2
