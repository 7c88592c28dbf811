"""The Bid Euchre game: its options (§3), their checks, and the tables a configured game fixes."""

from __future__ import annotations

from arena.errors import OptionError
from arena.games.base import DeckSource, Game
from arena.games.bid_euchre.actions import ActionTable
from arena.games.bid_euchre.cards import pack
from arena.games.bid_euchre.state import BidEuchreState
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


class BidEuchreGame(Game):
    """Bid Euchre as shared/rules/bid_euchre.md specifies it, with every option of its §3."""

    name = "bid_euchre"
    title = "Bid Euchre"
    option_table = OPTIONS
    rules = "shared/rules/bid_euchre.md"

    def configure(self) -> None:
        o = self.options
        if o["joker"] and o["allow_no_trump"]:
            raise OptionError(
                "option 'joker' cannot be combined with 'allow_no_trump' (§4.3): the joker is a trump;"
                " set one of them off"
            )
        self.double = o["deck"] == "double48"
        self.joker = o["joker"]
        self.tricks = 12 if self.double else 6
        self.pack = pack(self.double, self.joker)
        self.stick = o["stick_the_dealer"]
        self.ace_no_face = o["ace_no_face"]
        self.continuous = o["bidding_rounds"] == "continuous"
        self.exchange = o["help_exchange_count"]
        self.target = o["target_score"]
        self.simultaneous_finish = o["simultaneous_finish"]
        self.penalize = o["illegal_play_mode"] == "penalize"
        self.max_hands = o["max_hands"]
        self.actions = ActionTable(
            self.tricks, o["allow_partnership_full_bid"], o["allow_no_trump"], self.joker, self.ace_no_face
        )
        a = self.actions
        # Fast-path tables. play_ids[k][chunk]: the play ids of the card indices 9k..9k+8 set in a
        # 9-bit chunk of a hand's mask, ascending (so three look-ups list a hand's plays in order).
        self.play_ids = tuple(
            tuple(tuple(a.play_base + 9 * k + b for b in range(9) if chunk >> b & 1) for chunk in range(512))
            for k in range(3)
        )
        # bids_above[high]: the bid ids above the level ``high`` (0: no bid yet), in id order.
        self.bids_above = {high: [i for level, i in a.bid_id.items() if level > high]
                           for high in [0, *a.bid_id]}

    @property
    def num_sides(self) -> int:
        return 2

    def side_of(self, seat: int) -> int:
        return seat & 1

    def new_state(self, decks: DeckSource) -> BidEuchreState:
        return BidEuchreState(self, decks)

    @property
    def num_actions(self) -> int:
        return len(self.actions.names)

    def action_string(self, action_id: int) -> str:
        return self.actions.names[action_id]

    def action_id(self, action: str) -> int | None:
        return self.actions.parse(action)
