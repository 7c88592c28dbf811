"""The deal (R-4.1): packets of 3, 4 and 3 cards clockwise from the dealer's left, one card to the
kitty after each round of packets. The deck order alone fixes the deal."""

from __future__ import annotations

from typing import Sequence

PACKETS = (3, 4, 3)
DEAD = -1  # the two-player dead hand's slot in a deal order


def deal_order(players: int, dealer: int) -> list[int]:
    """The seats in the order they receive packets; DEAD marks the two-player dead hand, which sits
    to the dealer's left and is dealt first, then the non-dealer, then the dealer (R-4.1, R-BC2)."""
    if players == 2:
        return [DEAD, 1 - dealer, dealer]
    return [(dealer + 1 + k) % players for k in range(players)]


def deal(index: dict[str, int], players: int, dealer: int, deck: Sequence[str]) -> tuple[list[int], int, int]:
    """Turn a deck (top card first) into (hands per seat as masks, the dead hand, the kitty)."""
    order = deal_order(players, dealer)
    hands = [0] * players
    dead = kitty = 0
    position = 0
    for size in PACKETS:
        for seat in order:
            mask = 0
            for token in deck[position:position + size]:
                mask |= 1 << index[token]
            position += size
            if seat == DEAD:
                dead |= mask
            else:
                hands[seat] |= mask
        kitty |= 1 << index[deck[position]]
        position += 1
    return hands, dead, kitty


def deck_for(pack_tokens: Sequence[str], players: int, dealer: int, hands: dict[int, Sequence[str]],
             kitty: Sequence[str], dead: Sequence[str] = ()) -> list[str]:
    """The inverse of :func:`deal`: the deck that deals exactly these hands (10 cards each) and
    kitty (3 cards). For tests and tools that set up positions."""
    queues = {seat: list(cards) for seat, cards in hands.items()}
    queues[DEAD] = list(dead)
    rest = list(kitty)
    deck: list[str] = []
    for size in PACKETS:
        for seat in deal_order(players, dealer):
            packet, queues[seat] = queues[seat][:size], queues[seat][size:]
            if len(packet) != size:
                raise ValueError(f"seat {seat} needs 10 cards")
            deck.extend(packet)
        deck.append(rest.pop(0))
    if sorted(deck) != sorted(pack_tokens):
        raise ValueError("the hands and kitty are not exactly the pack")
    return deck
