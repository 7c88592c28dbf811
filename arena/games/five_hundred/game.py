"""Five Hundred configured by its options (docs/games/five_hundred.md §11): sides, the action
numbering (actions.py), the precomputed call lists (auction.py)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from arena.errors import OptionError
from arena.games import resample
from arena.games.base import DeckSource, Game
from arena.games.five_hundred import fast
from arena.games.five_hundred import dealing
from arena.games.five_hundred.actions import ActionTable, ladder
from arena.games.five_hundred.auction import call_lists
from arena.games.five_hundred.cards import pack_for
from arena.games.five_hundred.options import OPTIONS
from arena.games.five_hundred.page import PAGE
from arena.games.five_hundred.scoring import TARGET
from arena.games.five_hundred.state import FiveHundredState


class FiveHundredGame(Game):
    """The Australian game for 4 players, and the 2-, 3-, 5- and 6-player configurations (§1)."""

    name = "five_hundred"
    title = "Five Hundred"
    option_table = OPTIONS
    rules = "docs/games/five_hundred.md"

    def configure(self) -> None:
        o = self.options
        n = self.players
        if o["raise_after_others_pass"] and o["auction"] == "american":
            raise OptionError("option 'raise_after_others_pass': on is not valid with auction=american; "
                              "it accepts on only with the australian auction (R-5.3.3)")
        if o["six_player_teams"] != "2x3" and n != 6:
            raise OptionError(f"option 'six_player_teams': {o['six_player_teams']!r} is not valid with "
                              f"players={n}; it accepts 3x2 only with 6 players")
        self.pack = pack_for(n)
        self.american = o["auction"] == "american"
        self.blind = o["allow_blind_misere"]
        self.raise_once = o["raise_after_others_pass"]
        self.joker_last_only = o["joker_lead_last_trick_only"]
        self.cap = o["defence_cap"] or None
        self.max_hands = o["max_hands"]
        # five or six hands: a search's repair of its rebuilt state by a swap is cheaper than a
        # redraw (six players: 1.4 ms a decision against 3.7, `arena bench --only search`)
        self.swap_played_cards = n >= 5

        # Sides (R-3.1, §1, §11): teams sit alternately; cut-throat games keep a side per seat.
        if n == 4 or (n == 6 and o["six_player_teams"] == "2x3"):
            sides = [seat % 2 for seat in range(n)]
        elif n == 6:
            sides = [seat % 3 for seat in range(n)]
        else:
            sides = list(range(n))
        self.sides = sides
        self._num_sides = max(sides) + 1
        self.team_mask = [sum(1 << s for s in range(n) if sides[s] == sides[seat]) for seat in range(n)]
        self.side_seats = [[s for s in range(n) if sides[s] == side] for side in range(self._num_sides)]

        bids = ladder(o["allow_misere"], o["allow_open_misere"], self.blind, o["sans_kitty"])
        table = self.actions = ActionTable(self.pack.tokens, n, bids, self.blind)
        # The engine reads the blocks from the game itself (one attribute look-up on the hot path).
        self.strings = table.strings
        self.bid_of = table.bid_of
        self.num_bids = table.num_bids
        self.bm_id = table.bm_id
        self.look_id = table.look_id
        self.discard_base = table.discard_base
        self.nominate_base = table.nominate_base
        self.play_base = table.play_base
        self.joker_lead_base = table.joker_lead_base
        self.partners_base = table.partners_base
        self.partner_sets = table.partner_sets
        self.normal_calls, self.first_calls = call_lists(table, o["misere_requires_seven"])

    # -- Game interface ----------------------------------------------------------------------------
    @property
    def num_sides(self) -> int:
        return self._num_sides

    def side_of(self, seat: int) -> int:
        return self.sides[seat]

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def action_string(self, action_id: int) -> str:
        return self.actions.strings[action_id]

    def action_id(self, action: str) -> int | None:
        return self.actions.parse(action)

    def side_name(self, side: int) -> str:
        return "seats " + "+".join(str(s) for s in self.side_seats[side])

    def new_state(self, decks: DeckSource) -> FiveHundredState:
        return FiveHundredState(self, decks)

    def start_hand(self, dealer: int, deck: Sequence[str], scores: Sequence[int] | None = None, *,
                   then: DeckSource | None = None, **match: Any) -> FiveHundredState:
        """A match at the start of a hand: ``scores`` per side before it (``deck_for`` makes a deck
        from hands, kitty and dead hand)."""
        self.check_hand_start(dealer, scores, match)
        return FiveHundredState(self, resample.hand_decks(dealer, deck, then), scores)

    # -- the page and search hooks (arena.games.base.Game) --------------------------------------
    def page(self) -> dict[str, Any]:
        return {**super().page(), **PAGE}

    def match_stake(self) -> float:
        return float(TARGET)  # 500 wins (and -500 loses)

    def fast_path(self) -> Any:
        return fast

    def deck_for(self, dealer: int, hands: Mapping[int, Sequence[str]], **seen: Any) -> list[str]:
        return dealing.deck_for(self, dealer, hands, **seen)

    def proxy_deck(self, dealer: int, seat: int, hand: Sequence[str], observation: Mapping[str, Any],
                   kitty: Sequence[str] | None = None) -> list[str]:
        if kitty:  # the contractor saw the kitty: it goes where it was
            return dealing.deck_for(self, dealer, {seat: hand}, kitty=kitty)
        return dealing.deck_for(self, dealer, {seat: hand})
