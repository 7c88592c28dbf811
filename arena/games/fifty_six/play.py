"""Trick play (docs/games/fifty_six.md §9): follow suit if you can, else anything; highest trump wins,
else the highest card of the led suit; of two identical cards the one played first wins."""

from __future__ import annotations

from arena.games.fifty_six.cards import LOW, SUIT_MASK


def playable(hand: int, led_suit: int) -> int:
    """The kinds ``hand`` may play as a mask: any card when leading (``led_suit`` < 0), else the
    led suit when held, else any card (§9.2, §9.3)."""
    held = hand & LOW
    if led_suit < 0:
        return held
    follow = held & SUIT_MASK[led_suit]
    return follow or held


def beats(kind: int, best: int, trump: int) -> bool:
    """Whether ``kind`` takes the trick from the current best card ``best`` (§9.4).

    Strictly higher only, so an identical card played later never wins (E15). Off-suit
    non-trumps never win: the led suit is the best card's suit unless the best card is a trump.
    """
    suit, best_suit = kind >> 3, best >> 3
    if suit == best_suit:
        return (kind & 7) > (best & 7)
    return suit == trump


def trick_winner(cards: list[int], trump: int) -> int:
    """The index in ``cards`` (in play order) of the card that wins. ``trump`` < 0 for NT."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best
