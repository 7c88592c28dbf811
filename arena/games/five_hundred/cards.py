"""Cards of Five Hundred as integers (docs/games/five_hundred.md §2): the pack of each player count,
and per-contract tables.

A card is its index in the canonical pack order (suits S, C, D, H; ranks low to high inside each
suit; JK last: R-3.4), so a hand is an int bitmask. Everything the play needs is precomputed per
*context* (the trump suit, or no trumps with the joker suitless or nominated to a suit):

* ``eff[c]``: the effective suit of card c (R-2.5), 0..3 for S C D H, 4 for the suitless joker;
* ``mask[s]``: the cards whose effective suit is s (mask[4] = the suitless joker);
* ``value[L][c]``: how strongly c plays to a trick whose led suit is L. The highest value wins
  (R-7.4); a card that can never win scores 0, and the led card is always above 0.
"""

from __future__ import annotations

from arena.games.bitmask import bits

SUITS = "SCDH"
NONE = 4  # the effective suit of the suitless joker
JOKER = "JK"

# Contexts: 0..3 trumps S C D H; 4 no trumps (or misère) with a suitless joker; 5..8 no trumps
# with the joker nominated to S C D H.
SUITLESS = 4
NOMINATED = 5

_COLOUR_TWIN = (1, 0, 3, 2)  # S<->C, D<->H (§0)


def suit_ranks(players: int, suit: int) -> list[str]:
    """The ranks of one suit, low to high, in the pack of ``players`` (§2.1, §2.2)."""
    red = suit >= 2
    if players in (2, 3):
        low = ["7", "8", "9", "10"]
    elif players == 4:
        low = [str(r) for r in range(4 if red else 5, 11)]
    elif players == 5:
        low = [str(r) for r in range(2, 11)]
    elif players == 6:
        low = [str(r) for r in range(2, 11)] + ["11", "12"] + (["13"] if red else [])
    else:
        raise ValueError(f"Five Hundred has no pack for {players} players")
    return low + ["J", "Q", "K", "A"]


class Pack:
    """The pack of one player count with its tokens and the nine context tables."""

    def __init__(self, players: int):
        tokens: list[str] = []
        suit: list[int] = []
        plain: list[int] = []  # rank position inside the printed suit, low = 0
        jack = [0, 0, 0, 0]
        for s, letter in enumerate(SUITS):
            for position, rank in enumerate(suit_ranks(players, s)):
                if rank == "J":
                    jack[s] = len(tokens)
                tokens.append(rank + letter)
                suit.append(s)
                plain.append(position)
        self.joker = len(tokens)
        tokens.append(JOKER)
        suit.append(NONE)
        plain.append(0)
        self.tokens = tokens
        self.size = len(tokens)
        self.index = {token: i for i, token in enumerate(tokens)}
        self.suit = suit
        self.plain = plain
        self.jack = jack
        self.all = (1 << self.size) - 1
        self.contexts = [self._context(k) for k in range(9)]

    def _context(self, k: int) -> "Context":
        jk = self.joker
        top = max(self.plain) + 1  # above every ace
        eff = list(self.suit)
        value = [[0] * self.size for _ in range(4)]
        if k < 4:  # trumps k: JK, right bower, left bower, then A K Q ...
            trump = k
            eff[jk] = trump
            eff[self.jack[trump]] = trump
            eff[self.jack[_COLOUR_TWIN[trump]]] = trump
            power = list(self.plain)
            power[self.jack[_COLOUR_TWIN[trump]]] = top
            power[self.jack[trump]] = top + 1
            power[jk] = top + 2
            for led in range(4):
                row = value[led]
                for c in range(self.size):
                    if eff[c] == trump:
                        row[c] = 200 + power[c]
                    elif eff[c] == led:
                        row[c] = 100 + power[c]
        else:
            nominated = k - NOMINATED if k >= NOMINATED else None
            eff[jk] = NONE if nominated is None else nominated
            for led in range(4):
                row = value[led]
                for c in range(self.size):
                    if c == jk:
                        if nominated is None:
                            row[c] = 300  # the suitless joker wins any trick it is in
                        elif nominated == led:
                            row[c] = 100 + top  # the highest card of its suit
                    elif eff[c] == led:
                        row[c] = 100 + self.plain[c]
        mask = [0] * 5
        for c in range(self.size):
            mask[eff[c]] |= 1 << c
        return Context(eff, mask, value)

    def cards(self, mask: int) -> list[str]:
        """The tokens of a hand, in pack order."""
        tokens = self.tokens
        return [tokens[c] for c in bits(mask)]

    def mask_of(self, tokens) -> int:
        mask = 0
        for token in tokens:
            mask |= 1 << self.index[token]
        return mask


class Context:
    """The tables of one contract context (see the module docstring)."""

    __slots__ = ("eff", "mask", "value")

    def __init__(self, eff: list[int], mask: list[int], value: list[list[int]]):
        self.eff = eff
        self.mask = mask
        self.value = value


def context_index(strain: int, nominated: int | None) -> int:
    """The context of a contract: a trump suit (0..3), or NT/misère (strain 4) with its joker."""
    if strain < 4:
        return strain
    return SUITLESS if nominated is None else NOMINATED + nominated


_PACKS: dict[int, Pack] = {}


def pack_for(players: int) -> Pack:
    """The (shared, read-only) pack of a player count."""
    pack = _PACKS.get(players)
    if pack is None:
        pack = _PACKS[players] = Pack(players)
    return pack
