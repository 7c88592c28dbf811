"""The deal (docs/games/five_hundred.md R-4.1): packets of 3, 4 and 3 cards clockwise from the
dealer's left, one card to the kitty after each round of packets. The deck order alone fixes the
deal; :func:`deck_for` is its inverse."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

if TYPE_CHECKING:
    from arena.games.five_hundred.game import FiveHundredGame

PACKETS = (3, 4, 3)
HAND = sum(PACKETS)  # 10 cards a hand
KITTY = len(PACKETS)  # 3 cards
DEAD = -1  # the two-player dead hand's slot in a deal order


def deal_order(players: int, dealer: int) -> list[int]:
    """The seats in the order they receive packets; DEAD marks the two-player dead hand, which sits
    to the dealer's left and is dealt first, then the non-dealer, then the dealer (R-4.1)."""
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


def deck_for(game: "FiveHundredGame", dealer: int, hands: Mapping[int, Sequence[str]], *,
             kitty: Sequence[str] = (), dead: Sequence[str] = ()) -> list[str]:
    """The deck that deals these hands (seat -> card strings), ``kitty`` and two-player ``dead``
    hand when ``dealer`` deals: the inverse of :func:`deal`, for tests and search bots.

    Any of them may be given short (or left out): the cards named nowhere fill them in pack order,
    the seats first (seat 0 up), then the kitty, then the dead hand."""
    players = game.players
    tokens = game.pack.tokens
    queues: dict[int, list[str]] = {seat: list(hands.get(seat, ())) for seat in range(players)}
    for seat in hands:
        if seat not in queues:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player game")
    queues[DEAD] = list(dead)
    rest = list(kitty)
    named = [t for q in queues.values() for t in q] + rest
    unknown = [t for t in named if t not in game.pack.index]
    if unknown or len(set(named)) != len(named):
        raise ValueError(f"not the cards of one pack: {unknown or sorted(t for t in set(named) if named.count(t) > 1)}")
    taken = set(named)
    spare = [t for t in tokens if t not in taken]
    slots: Sequence[tuple[int | None, int]] = [(seat, HAND) for seat in range(players)] + [(None, KITTY)] + ([(DEAD, HAND)] if players == 2 else [])
    for owner, size in slots:
        queue = rest if owner is None else queues[owner]
        if len(queue) > size:
            raise ValueError(f"{'the kitty' if owner is None else f'seat {owner}'} has more than {size} cards")
        missing = size - len(queue)
        queue.extend(spare[:missing])
        del spare[:missing]
    deck: list[str] = []
    for size in PACKETS:
        for seat in deal_order(players, dealer):
            packet, queues[seat] = queues[seat][:size], queues[seat][size:]
            deck.extend(packet)
        deck.append(rest.pop(0))
    assert sorted(deck) == sorted(tokens)
    return deck
