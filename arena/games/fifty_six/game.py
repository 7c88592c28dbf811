"""The configured game of 56 (docs/games/fifty_six.md): its options, teams and action numbering."""

from __future__ import annotations

from arena.games.base import DeckSource, Game
from arena.games.fifty_six.actions import ActionTable
from arena.games.fifty_six.cards import pack_kinds
from arena.games.fifty_six.options import OPTIONS
from arena.games.fifty_six.state import FiftySixState


class FiftySixGame(Game):
    """56 (Fifty-Six / Ambathiyaaru) for 4, 6 or 8 players."""

    name = "fifty_six"
    title = "56"
    rules = "docs/games/fifty_six.md"
    option_table = OPTIONS

    def configure(self) -> None:
        # Every combination of the §3 options is playable: deal_packet 4 divides every hand size
        # (12 or 8) and two_sides with 4 players is the same as pairs (§5.2), so nothing to refuse.
        o = self.options
        self.teams = self.players // 2 if o["team_mode"] == "pairs" else 2
        self.team_of = [seat % self.teams for seat in range(self.players)]  # §5.1, §5.2
        self.additive = o["double_payout"] == "additive"
        self.capped = o["settlement"] == "capped"
        self.cannot_pay = o["elimination"] == "cannot_pay"
        self.packet = o["deal_packet"]
        self.auction_ccw = o["auction_direction"] == "counter_clockwise"
        self.max_hands = o["max_hands"]
        self.table = ActionTable(pack_kinds(self.players), o["plus_noes_increment"] == "any")

    @property
    def num_sides(self) -> int:
        return self.teams

    def side_of(self, seat: int) -> int:
        return self.team_of[seat]

    @property
    def num_actions(self) -> int:
        return len(self.table)

    def action_string(self, action_id: int) -> str:
        return self.table.strings[action_id]

    def action_id(self, action: str) -> int | None:
        return self.table.parse(action)

    def new_state(self, decks: DeckSource) -> FiftySixState:
        return FiftySixState(self, decks)
