"""The options (variants) of docs/games/all_fours.md §3, plus the harness limit `max_hands`."""

from __future__ import annotations

from arena.options import Option, OptionTable

OPTIONS = OptionTable(
    "all_fours",
    (
        Option("players", 4, "choice", "4 players in two partnerships, or 2 players", choices=(4, 2), rule="§1"),
        Option("target_score", 14, "int", "points that win the game", minimum=1, rule="§10.1"),
        Option("deal_packet", 3, "choice", "cards per packet in the first deal, fixed for the game",
               choices=(3, 1), rule="§6.2"),
        Option("kick_values", "trinidad", "choice", "kick points of a turn-up: trinidad A1 6=2 J3, tobago A1 2=2 J3",
               choices=("trinidad", "tobago"), rule="§4"),
        Option("kick_scores_on_same_suit_turnups", True, "bool",
               "a turn-up of the rejected suit during a run scores its kick", rule="§7.3, E6"),
        Option("hang_jack_points", 3, "choice", "points for capturing the opponents' jack of trumps",
               choices=(3, 1), rule="§9.2"),
        Option("game_tie", "none", "choice", "who scores Game on equal counts: nobody, or the eldest's side",
               choices=("none", "eldest"), rule="§9.2, E11"),
        Option("no_undertrump", False, "bool", "no trump below one already in a plain-suit trick unless forced",
               rule="§8.2"),
        Option("illegal_play_mode", "reject", "choice",
               "reject illegal plays, or accept any card in hand and penalize revokes", choices=("reject", "penalize"),
               rule="§11"),
        Option("first_dealer", "cut", "choice", "how the first dealer is chosen (both give each seat 1/N)",
               choices=("cut", "random"), rule="§5"),
        Option("max_hands", None, "int", "harness limit: stop 'unfinished' after this many record entries",
               minimum=1),
    ),
)
