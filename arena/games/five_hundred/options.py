"""The options (variants) of Five Hundred: docs/games/five_hundred.md §11."""

from __future__ import annotations

from arena.options import Option, OptionTable

_BOOL = "bool"

OPTIONS = OptionTable(
    "five_hundred",
    (
        Option("players", 4, "choice", "number of players (§1)", choices=(2, 3, 4, 5, 6), rule="§1"),
        Option("auction", "australian", "choice", "australian: call until all but one pass; "
               "american: one round of calls", choices=("australian", "american"), rule="R-5.3, R-5.4"),
        Option("allow_misere", True, _BOOL, "misère (MIS) may be bid", rule="R-5.2.3"),
        Option("allow_open_misere", True, _BOOL, "open misère (OM) may be bid", rule="R-5.2.4"),
        Option("misere_requires_seven", True, _BOOL, "MIS only over a 7-level bid", rule="R-5.2.3"),
        Option("allow_blind_misere", False, _BOOL, "blind misère (BM) before looking; `look` first",
               rule="§5.7"),
        Option("sans_kitty", False, _BOOL, "suit/NT bids may be made without the kitty (-SK)", rule="§5.8"),
        Option("joker_lead_last_trick_only", False, _BOOL, "the suitless joker may be led only to "
               "the last trick", rule="R-7.3.5"),
        Option("raise_after_others_pass", False, _BOOL, "the last bidder gets one more call once all "
               "others passed (australian auction)", rule="R-5.3.3"),
        Option("defence_cap", False, "choice", "defensive trick points never lift a side above this",
               choices=(False, 490, 480), rule="R-8.4"),
        Option("six_player_teams", "2x3", "choice", "six players: two teams of three or three teams "
               "of two", choices=("2x3", "3x2"), rule="§11"),
        Option("max_hands", None, "int", "stop the match unfinished after this many hands (deals)",
               minimum=1, rule="R-9.5"),
    ),
)
