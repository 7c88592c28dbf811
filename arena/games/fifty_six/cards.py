"""Cards of 56 as small integers (docs/games/fifty_six.md §4).

A card *kind* is ``suit * 8 + strength``: suits in the canonical order S C D H (0..3), strength
0..7 in the game's order 7 < 8 < Q < K < 10 < A < 9 < J (§4.2; the 4- and 6-player pack simply
lacks strengths 0 and 1). The pack holds two copies of every kind, and the copies are identical
(§2), so a hand is one int: bit ``kind`` is set when the hand holds at least one copy and bit
``kind + 32`` when it holds both. ``hand & LOW`` is then the set of kinds held.
"""

from __future__ import annotations

from arena.cards import normalize_card

SUITS = "SCDH"
RANK_TOKENS = ("7", "8", "Q", "K", "10", "A", "9", "J")  # by strength, low to high (§4.2)
POINTS = (0, 0, 0, 0, 1, 1, 2, 3)  # by strength: 10 and A 1, 9 2, J 3 (§4.3)
NATURAL = ("7", "8", "9", "10", "J", "Q", "K", "A")  # printed order of the canonical pack
LOW = (1 << 32) - 1
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))

TOKEN = tuple(RANK_TOKENS[k & 7] + SUITS[k >> 3] for k in range(32))
KIND = {token: kind for kind, token in enumerate(TOKEN)}
KIND_POINTS = tuple(POINTS[k & 7] for k in range(32))


def lowest_strength(active_players: int) -> int:
    """4 and 6 active players use 9..A (2s to 8s removed); 8 use 7..A (2s to 6s removed). §4.1"""
    return 0 if active_players == 8 else 2


def pack_kinds(active_players: int) -> list[int]:
    low = lowest_strength(active_players)
    return [s * 8 + r for s in range(4) for r in range(low, 8)]


def pack_tokens(active_players: int) -> list[str]:
    """The canonical pack: two decks one after the other, suits S C D H, ranks low to high."""
    low_rank = "7" if active_players == 8 else "9"
    ranks = NATURAL[NATURAL.index(low_rank):]
    deck = [rank + suit for suit in SUITS for rank in ranks]
    return deck + deck


def hand_size(active_players: int) -> int:
    """12 cards with 4 players, 8 with 6 or 8 (§4.1)."""
    return len(pack_tokens(active_players)) // active_players


def kind_of(token: str) -> int | None:
    """The kind of a card token (``T`` accepted for ten), or None."""
    card = normalize_card(token)
    return KIND.get(card) if card is not None else None


def add(hand: int, kind: int) -> int:
    return hand | (1 << (kind + 32)) if hand >> kind & 1 else hand | (1 << kind)


def remove(hand: int, kind: int) -> int:
    return hand & ~(1 << (kind + 32)) if hand >> (kind + 32) & 1 else hand & ~(1 << kind)


def count(hand: int, kind: int) -> int:
    return (hand >> kind & 1) + (hand >> (kind + 32) & 1)


def size(hand: int) -> int:
    return hand.bit_count()


_HIGH_FIRST = tuple(tuple(bit for bit in range(7, -1, -1) if byte >> bit & 1) for byte in range(256))


def tokens(hand: int) -> list[str]:
    """The hand as tokens, suit by suit (S C D H), high to low, a duplicate listed twice. (Every
    observation lists the hand, so only the kinds held are visited.)"""
    out: list[str] = []
    for shift in (0, 8, 16, 24):
        held = hand >> shift & 0xFF
        if held:
            both = hand >> (shift + 32) & 0xFF  # a kind held twice has its bit in both bytes
            for bit in _HIGH_FIRST[held]:
                token = TOKEN[shift + bit]
                out.append(token)
                if both >> bit & 1:
                    out.append(token)
    return out


def points(hand: int) -> int:
    return sum(KIND_POINTS[k] * count(hand, k) for k in range(32))
