"""Settling a hand in tables (§10, §11 of fifty_six.md)."""

from __future__ import annotations


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
