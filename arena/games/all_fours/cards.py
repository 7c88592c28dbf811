"""Cards as integers and hands as 52-bit masks (docs/games/all_fours.md §2, §4).

A card is ``suit * 13 + rank``: suits in the canonical pack order S, C, D, H (§2) and
ranks from the two (0) to the ace (12). So the canonical pack lists the cards in id order, a card
outranks another of its suit exactly when its id is larger, and a suit is 13 adjacent bits.
"""

from __future__ import annotations

from arena.games.bitmask import bits

SUITS = "SCDH"
RANK_TOKENS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
TWO, SIX, TEN, JACK, QUEEN, KING, ACE = 0, 4, 8, 9, 10, 11, 12

PACK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANK_TOKENS)
CARD_OF: dict[str, int] = {token: card for card, token in enumerate(PACK)}
ALL_CARDS = (1 << 52) - 1
SUIT_MASK = tuple(0x1FFF << (13 * suit) for suit in range(4))
# The top five trumps (A K Q J 10) of each suit: holding one makes a revoke to a trump lead serious (§11).
TOP_FIVE = tuple(sum(1 << (13 * suit + rank) for rank in (TEN, JACK, QUEEN, KING, ACE)) for suit in range(4))

# Game-count values (§4): A 4, K 3, Q 2, J 1, ten 10, in every suit.
COUNT_OF_RANK = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)
_COUNT13 = [0] * 8192
for _bits in range(1, 8192):
    _low = _bits & -_bits
    _COUNT13[_bits] = _COUNT13[_bits ^ _low] + COUNT_OF_RANK[_low.bit_length() - 1]

# Kick values of a turned-up card by rank (§4), per `kick_values` option.
KICKS = {
    "trinidad": {ACE: 1, SIX: 2, JACK: 3},
    "tobago": {ACE: 1, TWO: 2, JACK: 3},
}


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def token(card: int) -> str:
    return PACK[card]


def mask_of(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


cards_of = bits  # the cards of a mask, lowest id first


def tokens_of(mask: int) -> list[str]:
    return [PACK[card] for card in cards_of(mask)]


def game_count(mask: int) -> int:
    """The game-count total (§4) of the cards of a mask."""
    return (
        _COUNT13[mask & 0x1FFF]
        + _COUNT13[(mask >> 13) & 0x1FFF]
        + _COUNT13[(mask >> 26) & 0x1FFF]
        + _COUNT13[(mask >> 39) & 0x1FFF]
    )


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def kick_table(values: str) -> tuple[int, ...]:
    """Kick points of each card id under the named kick values."""
    by_rank = KICKS[values]
    return tuple(by_rank.get(card % 13, 0) for card in range(52))
