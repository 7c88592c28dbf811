"""The Bid Euchre game: its options (§3 of docs/games/bid_euchre.md) checked, and the tables a
configured game fixes."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from arena.errors import OptionError
from arena.games import resample
from arena.games.base import DeckSource, Game
from arena.games.bid_euchre import fast
from arena.games.bid_euchre import dealing
from arena.games.bid_euchre.actions import ActionTable
from arena.games.bid_euchre.cards import INDEX, pack
from arena.games.bid_euchre.options import OPTIONS
from arena.games.bid_euchre.page import PAGE
from arena.games.bid_euchre.state import BidEuchreState

class BidEuchreGame(Game):
    """Bid Euchre as docs/games/bid_euchre.md states it, with every option of its §3."""

    name = "bid_euchre"
    title = "Bid Euchre"
    option_table = OPTIONS
    rules = "docs/games/bid_euchre.md"

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
        self.pack_mask = sum(1 << INDEX[card] for card in set(self.pack))  # the token indices in the pack
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

    def start_hand(self, dealer: int, deck: Sequence[str], scores: Sequence[int] | None = None, *,
                   then: DeckSource | None = None, **match: Any) -> BidEuchreState:
        """A match at the start of a hand: ``scores`` per side before it (``deck_for`` makes a deck
        from hands)."""
        self.check_hand_start(dealer, scores, match)
        return BidEuchreState(self, resample.hand_decks(dealer, deck, then), scores)

    @property
    def num_actions(self) -> int:
        return len(self.actions.names)

    def action_string(self, action_id: int) -> str:
        return self.actions.names[action_id]

    def action_id(self, action: str) -> int | None:
        return self.actions.parse(action)

    # -- the page and search hooks (arena.games.base.Game) --------------------------------------
    def page(self) -> dict[str, Any]:
        return {**super().page(), **PAGE}

    def match_stake(self) -> float:
        return float(self.target)  # §10: the points that win

    def fast_path(self) -> Any:
        return fast

    def deck_for(self, dealer: int, hands: Mapping[int, Sequence[str]], **seen: Any) -> list[str]:
        return dealing.deck_for(self, dealer, hands, **seen)
