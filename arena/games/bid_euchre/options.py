"""The options of Bid Euchre (§3 of docs/games/bid_euchre.md): the variants a match is played with."""

from __future__ import annotations

from arena.options import Option, OptionTable

OPTIONS = OptionTable(
    "bid_euchre",
    (
        Option("players", 4, "choice", "four players in two partnerships", choices=(4,), rule="§1"),
        Option("deck", "single24", "choice", "24 cards (6 tricks) or two packs, 48 cards (12 tricks)",
               choices=("single24", "double48"), rule="§4.1"),
        Option("joker", False, "bool", "add a joker, the highest trump; the dealer gets one card extra and discards one",
               rule="§4.3, §5.3"),
        Option("stick_the_dealer", False, "bool", "after three passes the dealer must bid", rule="§6.4"),
        Option("ace_no_face", False, "bool", "a hand with an ace and no K, Q or J may be claimed to void the deal",
               rule="§6.5"),
        Option("bidding_rounds", "single", "choice", "one call each, dealer last; or round and round until three passes",
               choices=("single", "continuous"), rule="§6.2"),
        Option("allow_partnership_full_bid", False, "bool", "allow a plain partnership bid of all the tricks",
               rule="§6.1"),
        Option("allow_no_trump", False, "bool", "the contractor may name no trumps (trump NT)", rule="§7.1"),
        Option("help_exchange_count", 1, "choice", "cards each partner gives in the help exchange",
               choices=(1, 2, 3), rule="§7.2"),
        Option("target_score", 32, "int", "points that win the game", minimum=1, maximum=100000, rule="§10"),
        Option("simultaneous_finish", "higher_score", "choice",
               "both sides pass the target with different scores: the higher wins, or the bidders",
               choices=("higher_score", "bidders_win"), rule="§10"),
        Option("illegal_play_mode", "reject", "choice", "refuse a renege, or allow it and charge 2 points",
               choices=("reject", "penalize"), rule="§9.3"),
        Option("max_hands", None, "int", "harness limit: stop unfinished after this many deals (none: no limit)",
               minimum=1, maximum=1000000),
    ),
)
