"""The configured game of 56: its options (§3 of fifty_six.md), teams and action numbering."""

from __future__ import annotations

from arena.games.base import DeckSource, Game
from arena.games.fifty_six.actions import ActionTable
from arena.games.fifty_six.cards import pack_kinds
from arena.options import Option, OptionTable

OPTIONS = OptionTable(
    "fifty_six",
    (
        Option("players", 4, "choice", "number of players", choices=(4, 6, 8), rule="§3, §4.1"),
        Option(
            "team_mode", "pairs", "choice",
            "pairs: teams of two (6 players = 3 teams, 8 = 4); two_sides: two teams of N/2",
            choices=("pairs", "two_sides"), rule="§5",
        ),
        Option("initial_tables", 12, "int", "tables each team starts with", minimum=1, rule="§5.3"),
        Option(
            "double_payout", "multiply", "choice",
            "multiply: x2 doubled, x4 redoubled; additive: +1 doubled, +2 redoubled",
            choices=("multiply", "additive"), rule="§10.3",
        ),
        Option(
            "settlement", "capped", "choice",
            "capped: a team never pays more tables than it holds; uncapped: counters may go negative",
            choices=("capped", "uncapped"), rule="§10.5",
        ),
        Option(
            "elimination", "at_zero", "choice",
            "at_zero: out when holding 0 tables or fewer; cannot_pay: out when it owes more than it holds",
            choices=("at_zero", "cannot_pay"), rule="§11.1",
        ),
        Option(
            "plus_noes_increment", "two_only", "choice",
            "two_only: 'plus two, noes' adds exactly 2; any: 'bid +n noes' for any n",
            choices=("two_only", "any"), rule="§8.3",
        ),
        Option(
            "auction_direction", "clockwise", "choice",
            "clockwise: the seed's words (each call passes to the caller's left, seat-1); counter_clockwise: "
            "the English original, pagat and 56INT (seat+1, the direction of play)",
            choices=("clockwise", "counter_clockwise"), rule="§8.1, E1 (the seed wins)",
        ),
        Option("deal_packet", 1, "choice", "cards per packet when dealing", choices=(1, 4), rule="§7.3"),
        Option("first_dealer", "random", "choice", "how the first dealer is chosen", choices=("random",), rule="§7.1"),
        Option("max_hands", None, "int", "stop the match unfinished after this many hands (harness limit)", minimum=1),
    ),
)


class FiftySixGame(Game):
    """56 (Fifty-Six / Ambathiyaaru) for 4, 6 or 8 players."""

    name = "fifty_six"
    title = "56"
    rules = "shared/rules/fifty_six.md"
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

    def new_state(self, decks: DeckSource):
        from arena.games.fifty_six.state import FiftySixState

        return FiftySixState(self, decks)
