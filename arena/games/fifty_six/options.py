"""The options of 56 (docs/games/fifty_six.md §3): the variants a match is configured with."""

from __future__ import annotations

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
            "clockwise: as the user's rule document says (each call passes to the caller's left, seat-1); "
            "counter_clockwise: as the English rules it was translated from (seat+1, the direction of play)",
            choices=("clockwise", "counter_clockwise"), rule="§8.1, E1",
        ),
        Option("deal_packet", 1, "choice", "cards per packet when dealing", choices=(1, 4), rule="§7.3"),
        Option("first_dealer", "random", "choice", "how the first dealer is chosen", choices=("random",), rule="§7.1"),
        Option("max_hands", None, "int", "stop the match unfinished after this many hands (harness limit)", minimum=1),
    ),
)
