"""The dealing procedure (docs/games/all_fours.md §6, §7.3): which deck position goes to which seat.

The deck is read top card first. The first deal gives six cards each, counter-clockwise from the
eldest (``dealer+1``) to the dealer, in two packets of three or in ones (`deal_packet`); the next
card is the turn-up. Each run of the pack gives one more packet of three each in the same order and
turns up the next card. :func:`deck_for` is the inverse: the deck that deals given hands, for tests
and for search bots setting up positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from arena.cards import normalize_card
from arena.games.all_fours.cards import CARD_OF, PACK, SUITS

if TYPE_CHECKING:
    from arena.games.all_fours.game import AllFoursGame


def first_deal_seats(players: int, dealer: int, packet: int) -> tuple[int, ...]:
    """The seat receiving each of the first ``6 * players`` deck positions (§6.2)."""
    order = [(dealer + i) % players for i in range(1, players + 1)]
    seats: list[int] = []
    for _ in range(6 // packet):
        for seat in order:
            seats.extend([seat] * packet)
    return tuple(seats)


def run_seats(players: int, dealer: int) -> tuple[int, ...]:
    """The seat receiving each position of one run's packets of three (§7.3 step 3)."""
    return tuple((dealer + i) % players for i in range(1, players + 1) for _ in range(3))


def max_runs(players: int) -> int:
    """How many runs the pack allows before it is exhausted (§7.5): 2 with four players, 5 with two."""
    stock, runs = 52 - 6 * players - 1, 0
    while stock >= 3 * players + 1:
        stock -= 3 * players + 1
        runs += 1
    return runs


def deck_ids(deck: Sequence[str]) -> list[int]:
    """A deck of card strings as card ids."""
    return [CARD_OF[token] for token in deck]


def deal_first(deck: Sequence[int], seats: Sequence[int], players: int) -> list[int]:
    """The hands (masks) of the first deal (§6.2): ``seats`` is :func:`first_deal_seats`."""
    hands = [0] * players
    for position, seat in enumerate(seats):
        hands[seat] |= 1 << deck[position]
    return hands


def deal_run(hands: list[int], deck: Sequence[int], position: int, seats: Sequence[int]) -> int:
    """Give one run's packets (§7.3 step 3) from ``position`` on; returns the position after them."""
    for offset, seat in enumerate(seats):
        hands[seat] |= 1 << deck[position + offset]
    return position + len(seats)


def deck_for(
    game: "AllFoursGame",
    dealer: int,
    hands: Mapping[int, Sequence[str]],
    *,
    turn_up: str | None = None,
    runs: Sequence[tuple[Mapping[int, Sequence[str]], str | None]] = (),
    last_suits: str = "",
) -> list[str]:
    """The deck (top first) that deals these hands: the inverse of the deal for ``game`` and ``dealer``.

    ``hands`` maps seats to (up to six) first-deal cards, ``turn_up`` is the first turn-up, ``runs``
    gives for each run of the pack the (up to three) cards per seat and its turn-up (``T`` may stand
    for ten). The number of players and the first deal's packets come from ``game``. Unnamed places
    are filled from the rest of the pack in canonical order, cards of ``last_suits`` last (so they
    stay in the stock when they can).
    """
    players = game.players
    deck: list[str | None] = [None] * 52
    used: set[str] = set()

    def place(positions: list[int], cards: Sequence[str]) -> None:
        if len(cards) > len(positions):
            raise ValueError(f"too many cards {list(cards)} for {len(positions)} places")
        for position, given in zip(positions, cards):
            card = normalize_card(given)
            if card in used or card not in PACK:
                raise ValueError(f"card {card!r} is repeated or not in the pack")
            deck[position] = card
            used.add(card)

    seats = first_deal_seats(players, dealer, game.options["deal_packet"])
    for seat in range(players):
        place([p for p, s in enumerate(seats) if s == seat], hands.get(seat, ()))
    position = len(seats)
    place([position], [turn_up] if turn_up is not None else [])
    position += 1
    for run_hands, run_turn_up in runs:
        block = run_seats(players, dealer)
        for seat in range(players):
            place([position + p for p, s in enumerate(block) if s == seat], run_hands.get(seat, ()))
        position += len(block)
        place([position], [run_turn_up] if run_turn_up is not None else [])
        position += 1
    rest = sorted((c for c in PACK if c not in used), key=lambda c: (c[-1] in last_suits, SUITS.index(c[-1]), PACK.index(c)))
    fill = iter(rest)
    return [card if card is not None else next(fill) for card in deck]
