"""The contract phase (§6-§7 of docs/games/bid_euchre.md): the ace-no-face window, the auction,
the contract it makes, and the cards a partner may give in the ``bid help`` exchange.

Calls are ``0`` (pass) or a bid level (see :class:`~arena.games.bid_euchre.actions.ActionTable`).
"""

from __future__ import annotations

from typing import Any, Sequence

from arena.games.bid_euchre.actions import ActionTable
from arena.games.bid_euchre.cards import STRAINS, TrumpTable, ace_no_face, best_trump
from arena.games.bitmask import bits

PASS = 0


def claimants(masks: Sequence[int], dealer: int) -> list[int]:
    """§6.5: the seats holding an ace and no face card, clockwise from the dealer's left."""
    return [s for s in ((dealer + i) & 3 for i in range(1, 5)) if ace_no_face(masks[s])]


class Auction:
    """One hand's auction. ``single``: each player calls once, dealer last (§6.2); ``continuous``:
    round and round, a pass is final, it ends when every other player has passed after the last bid.
    """

    __slots__ = ("dealer", "continuous", "stick", "calls", "high", "high_seat", "passed", "to_call")

    def __init__(self, dealer: int, continuous: bool, stick: bool):
        self.dealer = dealer
        self.continuous = continuous
        self.stick = stick
        self.calls: list[tuple[int, int]] = []
        self.high = 0  # the highest bid level so far (0: none)
        self.high_seat: int | None = None
        self.passed = [False] * 4
        self.to_call: int | None = (dealer + 1) % 4  # the dealer's left starts (§6.2)

    def copy(self) -> "Auction":
        other = Auction.__new__(Auction)
        other.dealer, other.continuous, other.stick = self.dealer, self.continuous, self.stick
        other.calls = list(self.calls)
        other.high, other.high_seat = self.high, self.high_seat
        other.passed = list(self.passed)
        other.to_call = self.to_call
        return other

    def may_pass(self) -> bool:
        """False only for a stuck dealer: no bid yet and the other three have passed (§6.4)."""
        if not self.stick or self.to_call != self.dealer or self.high_seat is not None:
            return True
        return not all(self.passed[s] for s in range(4) if s != self.dealer)

    def call(self, level: int) -> None:
        """Record the current caller's call (already checked) and move on; ``to_call`` None = over."""
        seat = self.to_call
        assert seat is not None
        self.calls.append((seat, level))
        if level == PASS:
            self.passed[seat] = True
        else:
            self.high, self.high_seat = level, seat
        if not self.continuous:
            self.to_call = None if seat == self.dealer else (seat + 1) % 4
            return
        nxt = (seat + 1) % 4
        for _ in range(4):
            if not self.passed[nxt]:
                break
            nxt = (nxt + 1) % 4
        else:
            self.to_call = None  # everyone passed, no bid
            return
        # Back round to the high bidder: all the others passed after the last bid (§6.2).
        self.to_call = None if nxt == self.high_seat else nxt


def contract(actions: ActionTable, tricks: int, contractor: int | None, level: int, trump: int | None
             ) -> dict[str, Any] | None:
    """The contract as observations and hand results show it, or None before the auction is won."""
    if contractor is None:
        return None
    alone = level >= actions.help_level  # HELP and MOON: the partner sits out (§7.2-7.4)
    return {
        "seat": contractor,
        "side": contractor & 1,
        "bid": actions.level_name(level),
        "tricks": min(level, tricks),
        "trump": None if trump is None else STRAINS[trump],
        "alone": alone,
        "sitting_out": (contractor + 2) & 3 if alone else None,
    }


def gifts(mask: int, table: TrumpTable, partner: bool) -> list[int]:
    """The card indices one may give next in the help exchange (§7.2): the contractor any card;
    the partner its highest trump while it holds one (E6), else any card (E7)."""
    if partner:
        best = best_trump(mask, table)
        if best is not None:
            return [best]
    return bits(mask)
