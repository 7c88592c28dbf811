"""Dealing (§7 of fifty_six.md): counter-clockwise from the dealer's right, ending with the dealer,
one card at a time or in packets of 4, until the deck is gone (no stock)."""

from __future__ import annotations

from arena.games.fifty_six.cards import KIND, add


def deal_order(active: list[int], dealer: int) -> list[int]:
    """The active seats in dealing (and calling) order: the dealer's right first, the dealer last."""
    i = active.index(dealer)
    return active[i + 1:] + active[: i + 1]


def deal(deck: list[str], order: list[int], packet: int, players: int) -> list[int]:
    """The hands (bitmasks, one per seat; empty for inactive seats) that ``deck`` gives.

    Card ``i`` (top card first) goes to ``order[(i // packet) % len(order)]``.
    """
    hands = [0] * players
    n = len(order)
    for i, token in enumerate(deck):
        seat = order[(i // packet) % n]
        hands[seat] = add(hands[seat], KIND[token])
    return hands
