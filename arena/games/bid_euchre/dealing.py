"""The deal (§5.2-5.3 of docs/games/bid_euchre.md): a deck order fixes the hands, and
:func:`deck_for` finds a deck order that deals wanted hands (for tests and search bots).

Cards go one at a time, clockwise, starting with the dealer's left, ``tricks`` to each seat; with the
joker the one card left over (the deck's last) is the dealer's seventh (or thirteenth).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Mapping, Sequence

from arena.cards import normalize_card
from arena.games.bid_euchre.cards import INDEX

if TYPE_CHECKING:
    from arena.games.bid_euchre.game import BidEuchreGame


def deal(deck: Sequence[str], dealer: int, tricks: int, joker: bool) -> tuple[list[list[int]], list[int]]:
    """Counts per card index and held-index bitmasks of the four hands dealt from ``deck``."""
    counts = [[0] * 25 for _ in range(4)]
    masks = [0, 0, 0, 0]
    first = dealer + 1
    for i in range(4 * tricks):
        seat = (first + i) & 3
        t = INDEX[deck[i]]
        counts[seat][t] += 1
        masks[seat] |= 1 << t
    if joker:
        t = INDEX[deck[4 * tricks]]
        counts[dealer][t] += 1
        masks[dealer] |= 1 << t
    return counts, masks


def deck_for(
    game: BidEuchreGame,
    dealer: int,
    hands: Mapping[int, Sequence[str]],
    *,
    extra: str | None = None,
) -> list[str]:
    """The deck of ``game``'s pack that deals ``hands`` (seat -> cards; ``T`` is accepted for ten)
    when ``dealer`` deals.

    Seats left out, and the missing cards of short hands, get the remaining cards in pack order.
    ``extra`` is the dealer's joker-variant extra card (the deck's last card); with the joker and no
    ``extra`` given, it is the one card left over.
    """
    pack = game.pack
    norm = {seat: [card_token(c) for c in cards] for seat, cards in hands.items()}
    rest = Counter(pack)
    rest.subtract(c for cards in norm.values() for c in cards)
    if extra is not None:
        rest.subtract([card_token(extra)])
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"these hands use cards the pack lacks: {sorted(c for c, n in rest.items() if n < 0)}")
    spare = []
    for card in pack:
        if rest[card] > 0:
            spare.append(card)
            rest[card] -= 1
    tricks = game.tricks
    full: list[list[str]] = []
    for seat in range(4):
        cards = list(norm.get(seat, []))
        while len(cards) < tricks:
            cards.append(spare.pop(0))
        if len(cards) != tricks:
            raise ValueError(f"seat {seat} is given {len(cards)} cards, not {tricks}")
        full.append(cards)
    deck = [full[(dealer + 1 + i) % 4][i // 4] for i in range(4 * tricks)]
    if game.joker:
        deck.append(card_token(extra) if extra is not None else spare.pop(0))
    return deck


def card_token(card: str) -> str:
    """The pack's token of a card string (``T`` is accepted for ten); ValueError if it is none."""
    token = normalize_card(card)
    if token is None or token not in INDEX:
        raise ValueError(f"{card!r} is not a Bid Euchre card")
    return token
