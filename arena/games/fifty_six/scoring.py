"""Settling a hand in tables, and the end of the match (docs/games/fifty_six.md §10, §11)."""

from __future__ import annotations

from arena.games.base import MatchEnd


def base_stakes(amount: int) -> tuple[int, int]:
    """(W, L): tables received if made, paid if lost (§10.2)."""
    if amount <= 39:
        return 1, 2
    if amount <= 47:
        return 2, 3
    if amount <= 55:
        return 3, 4
    return 4, 5


def stakes(amount: int, level: int, additive: bool) -> tuple[int, int]:
    """(W*, L*) after doubling: level 0/1/2 is x1/x2/x4, or +0/+1/+2 with ``additive`` (§10.3)."""
    win, loss = base_stakes(amount)
    if additive:
        return win + level, loss + level
    return win << level, loss << level


def settle(
    tables: list[int],
    contractor: int,
    others: list[int],
    made: bool,
    win: int,
    loss: int,
    capped: bool,
    cannot_pay: bool,
) -> list[int]:
    """Move tables for one hand (§10.4, §10.5); update ``tables`` in place; return the teams
    eliminated by it (§11.1).

    ``others`` are the other active teams in creditor order: seat order from the declarer's right.
    Made: each pays ``win`` (capped at its holdings). Lost: the contractor pays each ``loss`` in
    turn, in full, until it has nothing left (capped), or in full whatever it holds (uncapped).
    """
    in_debt: list[int] = []  # owed more than it held before paying (cannot_pay)
    if made:
        for team in others:
            held = tables[team]
            pay = min(win, max(held, 0)) if capped else win
            tables[team] -= pay
            tables[contractor] += pay
            if win > held:
                in_debt.append(team)
    else:
        held = tables[contractor]
        for team in others:
            pay = min(loss, max(tables[contractor], 0)) if capped else loss
            tables[contractor] -= pay
            tables[team] += pay
        if loss * len(others) > held:
            in_debt.append(contractor)
    if cannot_pay:
        return sorted(in_debt)
    return sorted(team for team in [contractor, *others] if tables[team] <= 0)


def hand_end(made: bool) -> str:
    """The ``end`` of a hand's result: every 56 hand is played out and settled, made or lost."""
    return "made" if made else "lost"


def match_end(teams_left: int, hands_played: int, max_hands: int | None) -> MatchEnd | None:
    """After a settlement: over by elimination when one team is left (§11.2), else stopped at the
    ``max_hands`` harness limit, else None (the match goes on)."""
    if teams_left <= 1:
        return MatchEnd.ELIMINATION
    if max_hands is not None and hands_played >= max_hands:
        return MatchEnd.HAND_LIMIT
    return None


def ranking(tables: list[int], out_at: list[int | None]) -> list[int]:
    """Places (0 first): a team still in above every knocked-out one; teams still in by tables
    (more than one only when the match stopped at ``max_hands``); knocked-out teams by how long
    they lasted (``out_at``: the index of the hand that knocked them out), the same hand a tie."""
    keys = [(1, tables[t]) if out_at[t] is None else (0, out_at[t]) for t in range(len(tables))]
    return [sum(1 for other in keys if other > key) for key in keys]
