"""Dealing (docs/games/fifty_six.md §7): counter-clockwise from the dealer's right, ending with the
dealer, one card at a time or in packets of 4, until the deck is gone (no stock).

:func:`deck_for` is the inverse: the deck that deals chosen hands (for tests and search bots).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Mapping, Sequence

from arena.cards import normalize_card
from arena.games.fifty_six.cards import KIND, add, pack_tokens

if TYPE_CHECKING:
    from arena.games.fifty_six.game import FiftySixGame


def deal_order(active: list[int], dealer: int) -> list[int]:
    """The active seats in dealing order: the dealer's right (the next active seat) first, the
    dealer last. The first of them also calls first and leads first (§8.1, §9.1)."""
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


def deck_for(
    game: "FiftySixGame",
    dealer: int,
    hands: Mapping[int, Sequence[str]],
    *,
    active: Sequence[int] | None = None,
) -> list[str]:
    """The deck (top card first) that the §7 deal of ``game`` turns into ``hands``.

    ``hands`` maps a seat to the cards it must hold (card strings, ``T`` accepted for ten; a card
    named twice is held twice). ``active`` lists the seats dealt to (default: every seat; after a
    knock-out, the seats still in), which fixes the pack and the hand size (§4.1); ``dealer``
    must be one of them. Seats left out of ``hands``, or given fewer cards than the hand size, are
    filled in a fixed order: seat by seat from the lowest, each taking the next unnamed cards of
    the canonical pack (suits S C D H, ranks low to high, the first deck before the second).
    The packet size is the game's ``deal_packet``. Raises ValueError for hands that no deal gives.
    """
    seats = sorted(active) if active is not None else list(range(game.players))
    if len(seats) not in (4, 6, 8) or not set(seats) <= set(range(game.players)):
        raise ValueError(f"{seats} are not the active seats of a deal of this {game.players}-player game")
    if dealer not in seats:
        raise ValueError(f"the dealer {dealer} is not an active seat {seats}")
    pack = pack_tokens(len(seats))
    size = len(pack) // len(seats)
    kinds = set(pack)
    wanted: dict[int, list[str]] = {seat: [] for seat in seats}
    for seat, cards in hands.items():
        if seat not in wanted:
            raise ValueError(f"seat {seat} is not an active seat {seats}")
        for token in cards:
            card = normalize_card(token)
            if card not in kinds:
                raise ValueError(f"{token!r} is not a card of the {len(pack)}-card pack")
            wanted[seat].append(card)
        if len(wanted[seat]) > size:
            raise ValueError(f"seat {seat} is given {len(wanted[seat])} cards; hands hold {size}")
    left = Counter(pack)
    left.subtract(card for cards in wanted.values() for card in cards)
    if any(n < 0 for n in left.values()):
        extra = sorted(card for card, n in left.items() if n < 0)
        raise ValueError(f"more copies named than the pack of {len(pack)} holds: {extra}")
    rest = []  # the unnamed cards, in pack order
    for card in pack:
        if left[card] > 0:
            left[card] -= 1
            rest.append(card)
    for seat in seats:
        need = size - len(wanted[seat])
        wanted[seat].extend(rest[:need])
        del rest[:need]
    order = deal_order(seats, dealer)
    packet = game.packet
    position = {seat: 0 for seat in seats}
    deck = []
    for i in range(len(pack)):
        seat = order[(i // packet) % len(order)]
        deck.append(wanted[seat][position[seat]])
        position[seat] += 1
    return deck

