"""Bid Euchre cards as small integers, and their ranking once trumps are named (§4 of
docs/games/bid_euchre.md).

A card *token index* is ``suit * 6 + rank`` with suits in the canonical order S C D H and ranks
9 10 J Q K A (low to high); the joker is 24. Both copies of a double-deck card share one index, so a
hand is a count per index plus a bitmask of the indices it holds.

For each trump (0-3 a suit, 4 no-trump) :func:`table` gives, per index, the *effective* suit (the
left bower and the joker belong to trumps, §4.2-4.3), a power that orders cards inside one
effective suit, and one bitmask per effective suit.
"""

from __future__ import annotations

from arena.games.bitmask import bits

SUITS = "SCDH"
RANKS = ("9", "10", "J", "Q", "K", "A")
NINE, TEN, JACK, QUEEN, KING, ACE = range(6)
JOKER = 24
NUM_TOKENS = 25
NO_TRUMP = 4
TOKENS: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS) + ("JK",)
INDEX: dict[str, int] = {token: i for i, token in enumerate(TOKENS)}
SAME_COLOUR = (1, 0, 3, 2)  # S<->C, D<->H in S C D H order (§2 "next suit")
STRAINS = ("S", "C", "D", "H", "NT")

ACE_MASK = sum(1 << (s * 6 + ACE) for s in range(4))
FACE_MASK = sum(1 << (s * 6 + r) for s in range(4) for r in (JACK, QUEEN, KING))

# Powers inside an effective suit. Plain suits: 9 < 10 < J < Q < K < A. Trumps sit above every plain
# power so "any trump beats any plain card" also holds numerically: 9 10 Q K A < left < right < joker.
_TRUMP_POWER = {NINE: 10, TEN: 11, QUEEN: 13, KING: 14, ACE: 15}
LEFT_POWER, RIGHT_POWER, JOKER_POWER = 16, 17, 18


def pack(double: bool, joker: bool) -> list[str]:
    """The canonical pack: S C D H, 9 up to A inside each suit (copies side by side), JK last."""
    copies = 2 if double else 1
    cards = [TOKENS[t] for t in range(24) for _ in range(copies)]
    return cards + ["JK"] if joker else cards


class TrumpTable:
    """Ranking facts for one trump: ``eff[t]``, ``power[t]``, ``suit_mask[s]`` (s = 0..3)."""

    __slots__ = ("trump", "eff", "power", "suit_mask", "trump_mask")

    def __init__(self, trump: int):
        self.trump = trump
        eff = [0] * NUM_TOKENS
        power = [0] * NUM_TOKENS
        for t in range(24):
            suit, rank = divmod(t, 6)
            if trump == NO_TRUMP:
                eff[t], power[t] = suit, rank  # every suit A K Q J 10 9, no bowers (§4.2)
            elif rank == JACK and suit == trump:
                eff[t], power[t] = trump, RIGHT_POWER
            elif rank == JACK and suit == SAME_COLOUR[trump]:
                eff[t], power[t] = trump, LEFT_POWER  # the left bower is a trump, not its printed suit
            elif suit == trump:
                eff[t], power[t] = trump, _TRUMP_POWER[rank]
            else:
                eff[t], power[t] = suit, rank
        # The joker is the highest trump (§4.3); it never meets a no-trump contract (options forbid it).
        eff[JOKER], power[JOKER] = (trump, JOKER_POWER) if trump != NO_TRUMP else (NO_TRUMP, -1)
        self.eff = tuple(eff)
        self.power = tuple(power)
        masks = [0] * 5
        for t in range(NUM_TOKENS):
            masks[eff[t]] |= 1 << t
        self.suit_mask = tuple(masks[:4])
        self.trump_mask = masks[trump] if trump != NO_TRUMP else 0


TABLES = tuple(TrumpTable(trump) for trump in range(5))


def best_trump(mask: int, table: TrumpTable) -> int | None:
    """The highest-ranking trump index in ``mask`` (left bower and joker included, §7.2), or None."""
    trumps = mask & table.trump_mask
    if not trumps:
        return None
    power = table.power
    return max(bits(trumps), key=power.__getitem__)


def ace_no_face(mask: int) -> bool:
    """§6.5: at least one ace and no king, queen or jack (the joker is not a face card)."""
    return bool(mask & ACE_MASK) and not mask & FACE_MASK
