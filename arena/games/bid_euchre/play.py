"""Trick play (§8 of docs/games/bid_euchre.md): lawful plays, reneges, the turn, the trick's winner.

Cards are token indices (:mod:`~arena.games.bid_euchre.cards`), a hand the bitmask of the indices
it holds, a trick a list of (seat, index) pairs in the order played. The state's fast path inlines
:func:`playable` and :func:`next_player`; these are the reference versions the tests use.
"""

from __future__ import annotations

from typing import Any, Sequence

from arena.games.bid_euchre.cards import TOKENS, TrumpTable


def playable(mask: int, led: int | None, table: TrumpTable) -> int:
    """The cards of ``mask`` that may follow a lead of card ``led`` (§8.3): its effective suit if
    held, else anything. ``led`` None: a lead, anything goes."""
    if led is None:
        return mask
    follow = mask & table.suit_mask[table.eff[led]]
    return follow or mask


def is_renege(mask: int, led: int, card: int, table: TrumpTable) -> bool:
    """§9.3: playing ``card`` from ``mask`` to a lead of ``led`` fails to follow while able."""
    suit = table.eff[led]
    return table.eff[card] != suit and bool(mask & table.suit_mask[suit])


def next_player(seat: int, out: int | None) -> int:
    """The seat after ``seat`` clockwise, skipping a lone contractor's partner ``out`` (§7.4)."""
    nxt = (seat + 1) & 3
    return (nxt + 1) & 3 if nxt == out else nxt


def trick_winner(cards: list[tuple[int, int]], table: TrumpTable) -> int:
    """The seat that wins a trick of (seat, index) pairs (§8.4); identical cards: the first wins."""
    eff, power, trump = table.eff, table.power, table.trump
    best_seat, best = cards[0]
    best_eff, best_power = eff[best], power[best]
    for seat, card in cards[1:]:
        e = eff[card]
        if e == best_eff:
            if power[card] > best_power:  # strictly higher: an identical later copy loses (§4.4)
                best_seat, best_power = seat, power[card]
        elif e == trump:  # a first trump on a plain lead
            best_seat, best_eff, best_power = seat, e, power[card]
    return best_seat


def trick_list(tricks: Sequence[tuple[int, Sequence[tuple[int, int]], int]]) -> list[dict[str, Any]]:
    """Finished tricks as the shared vocabulary shows them: ``{"leader", "cards", "winner"}``."""
    return [
        {"leader": lead, "cards": [[s, TOKENS[t]] for s, t in cards], "winner": win}
        for lead, cards, win in tricks
    ]
