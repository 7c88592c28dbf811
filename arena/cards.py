"""The card notation of docs/game-interface.md (Notation): rank then suit, ``10`` for ten, ``JK``.

Engines use integers inside; this module is only for the edges (parsing and printing tokens).
"""

from __future__ import annotations

SUITS = "SCDH"  # the canonical suit order of every pack (R-3.4 of five_hundred.md)
SUIT_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A")
JOKER = "JK"


def normalize_card(token: str) -> str | None:
    """The canonical spelling of a card token (``T`` accepted for ten), or None if it is not one."""
    text = token.strip().upper()
    if text == JOKER:
        return JOKER
    if len(text) < 2 or text[-1] not in SUITS:
        return None
    rank = text[:-1]
    if rank == "T":
        rank = "10"
    return rank + text[-1] if rank in RANKS else None


def suit_of(token: str) -> str:
    """The printed suit of a card token (not of the joker)."""
    return token[-1]


def rank_of(token: str) -> str:
    return token[:-1]
