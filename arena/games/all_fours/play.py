"""Trick play (docs/games/all_fours.md §8, §11): the following rule (§8.2), the undertrump variant, the
winner (§8.3), revokes (§11)."""

from __future__ import annotations

from typing import Sequence

from arena.games.all_fours.actions import PLAY
from arena.games.all_fours.cards import SUIT_MASK, TOP_FIVE
from arena.games.bitmask import bits


def play_ids(mask: int) -> list[int]:
    """The ``play <card>`` action ids of the cards of a mask, in id order (``PLAY + card`` is the bit
    of the card in ``mask << PLAY``)."""
    return bits(mask << PLAY)


def lawful_plays(hand: int, trick: Sequence[int], trump: int, no_undertrump: bool = False) -> int:
    """The mask of cards ``hand`` may play to a trick holding ``trick`` (cards in play order).

    Trump led: a trump if you hold one. Plain suit led: that suit or a trump if you hold the suit,
    else anything (playing a trump is always lawful). ``no_undertrump``: on a plain lead already
    trumped, no trump below the highest trump in it unless nothing else is lawful.
    """
    if not trick:
        return hand
    led = trick[0] // 13
    trumps = SUIT_MASK[trump]
    if led == trump:
        held = hand & trumps
        return held if held else hand
    allowed = hand & (SUIT_MASK[led] | trumps) if hand & SUIT_MASK[led] else hand
    if no_undertrump:
        top = -1
        for card in trick:
            if card // 13 == trump and card > top:
                top = card
        if top >= 0:
            lower = allowed & trumps & ((1 << top) - 1)
            if lower and allowed & ~lower:
                allowed &= ~lower
    return allowed


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """The index in ``trick`` of the winning card: the highest trump, else the highest of the led suit."""
    led = trick[0] // 13
    best, best_index, best_trump = trick[0], 0, led == trump
    for index in range(1, len(trick)):
        card = trick[index]
        is_trump = card // 13 == trump
        if is_trump:
            if not best_trump or card > best:
                best, best_index, best_trump = card, index, True
        elif not best_trump and card // 13 == led and card > best:
            best, best_index = card, index
    return best_index


def is_serious_revoke(hand: int, trick: Sequence[int], card: int, trump: int) -> bool:
    """§11: a non-trump played to a trump lead while holding one of the top five trumps."""
    return bool(trick) and trick[0] // 13 == trump and card // 13 != trump and bool(hand & TOP_FIVE[trump])
