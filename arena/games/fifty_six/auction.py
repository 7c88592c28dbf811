"""The auction (docs/games/fifty_six.md §8): bids 28..56 in six forms, double, redouble, all-pass.

It starts at the dealer's right and goes clockwise (seat-1), as the user's rule document says, or
counter-clockwise (seat+1) with ``auction_direction = counter_clockwise`` (§8.1, E1); the turn is
moved by the state.
"""

from __future__ import annotations

from arena.games.fifty_six.actions import (
    DOUBLE,
    MIN_BID,
    NT,
    PASS,
    PLUS_FORMS,
    REDOUBLE,
    T_BID,
    ActionTable,
)


class Auction:
    """One auction. ``level`` is 0 undoubled, 1 doubled, 2 redoubled."""

    __slots__ = ("n", "amount", "strain", "form", "bidder", "level", "doubler", "passes", "over", "all_pass")

    def __init__(self, active_players: int):
        self.n = active_players
        self.amount = 0  # 0: no bid yet
        self.strain = -1
        self.form = -1
        self.bidder = -1
        self.level = 0
        self.doubler = -1
        self.passes = 0  # passes since the last bid or double (or since the start)
        self.over = False
        self.all_pass = False

    def copy(self) -> "Auction":
        new = Auction.__new__(Auction)
        for name in Auction.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    def legal(self, seat: int, team_of: list[int], table: ActionTable) -> list[int]:
        ids = [PASS]
        if self.bidder >= 0:
            same_team = team_of[self.bidder] == team_of[seat]
            if self.level == 0 and not same_team:  # §8.4
                ids.append(DOUBLE)
            elif self.level == 1 and same_team:  # §8.5 (E8)
                ids.append(REDOUBLE)
        ids.extend(table.bids_above(self.amount))
        return ids

    def call(self, seat: int, action: int, table: ActionTable, first_bidder: int) -> None:
        """Apply a legal call; sets ``over`` when the auction has ended (§8.6)."""
        if action == PASS:
            self.passes += 1
            if self.bidder < 0:
                if self.passes == self.n:  # §8.7: 28 NT undoubled for the first bidder's team
                    self.amount, self.strain = MIN_BID, NT  # form stays -1: nobody said it
                    self.bidder = first_bidder
                    self.over = self.all_pass = True
            elif self.passes == self.n - 1:
                self.over = True
        elif action == DOUBLE:
            self.level, self.doubler, self.passes = 1, seat, 0
        elif action == REDOUBLE:
            self.level = 2
            self.over = True
        else:
            kind, form, number, strain, _ = table.info[action]
            assert kind == T_BID
            self.amount = self.amount + number if form in PLUS_FORMS else number
            self.strain, self.form, self.bidder = strain, form, seat
            self.level, self.doubler, self.passes = 0, -1, 0  # a new bid cancels a double (§8.2)
