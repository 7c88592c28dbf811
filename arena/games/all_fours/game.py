"""The configured game: options, the fixed action numbering, and the tables deals are made from."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.cards import normalize_card
from arena.games.all_fours.cards import CARD_OF, PACK, kick_table
from arena.games.all_fours.dealing import first_deal_seats, run_seats
from arena.games.all_fours.options import OPTIONS
from arena.games.base import DeckSource, Game

if TYPE_CHECKING:
    from arena.games.all_fours.state import AllFoursState

# Action ids: the four decisions, then ``play <card>`` as PLAY + card id.
STAND, BEG, GIVE_ONE, RUN, PLAY = 0, 1, 2, 3, 4
DECISIONS = ("stand", "beg", "give one", "run")


class AllFoursGame(Game):
    """All Fours, Trinidad rules (shared/rules/all_fours.md)."""

    name = "all_fours"
    title = "All Fours"
    option_table = OPTIONS
    rules = "shared/rules/all_fours.md"

    def configure(self) -> None:
        # Every combination of §3's options is playable: there is nothing to refuse here.
        opts = self.options
        n = self.players
        self.target = opts["target_score"]
        self.packet = opts["deal_packet"]
        self.kicks = kick_table(opts["kick_values"])
        self.kick_same_suit = opts["kick_scores_on_same_suit_turnups"]
        self.hang_jack = opts["hang_jack_points"]
        self.game_tie = opts["game_tie"]
        self.no_undertrump = opts["no_undertrump"]
        self.penalize = opts["illegal_play_mode"] == "penalize"
        self.max_hands = opts["max_hands"]
        self.deal_seats = [first_deal_seats(n, dealer, self.packet) for dealer in range(n)]
        self.run_seats = [run_seats(n, dealer) for dealer in range(n)]
        self._strings = list(DECISIONS) + ["play " + card for card in PACK]
        self._ids = {text: index for index, text in enumerate(self._strings)}

    @property
    def num_sides(self) -> int:
        return 2

    def side_of(self, seat: int) -> int:
        return seat % 2

    @property
    def num_actions(self) -> int:
        return len(self._strings)

    def action_string(self, action_id: int) -> str:
        return self._strings[action_id]

    def action_id(self, action: str) -> int | None:
        if not isinstance(action, str):
            return None
        words = action.lower().split()
        found = self._ids.get(" ".join(words))
        if found is not None or len(words) != 2 or words[0] != "play":
            return found
        card = normalize_card(words[1])
        return PLAY + CARD_OF[card] if card in CARD_OF else None

    def new_state(self, decks: DeckSource) -> "AllFoursState":
        from arena.games.all_fours.state import AllFoursState

        return AllFoursState(self, decks)
