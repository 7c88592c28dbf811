"""The configured game: options checked and turned into the tables deals are made from; the action
numbering is :mod:`arena.games.all_fours.actions`'s."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from arena.games import resample
from arena.games.all_fours import fast
from arena.games.all_fours import actions, dealing
from arena.games.all_fours.cards import kick_table
from arena.games.all_fours.dealing import first_deal_seats, run_seats
from arena.games.all_fours.options import OPTIONS
from arena.games.all_fours.page import PAGE
from arena.games.all_fours.state import AllFoursState
from arena.games.base import DeckSource, Game


class AllFoursGame(Game):
    """All Fours, Trinidad rules (docs/games/all_fours.md)."""

    name = "all_fours"
    title = "All Fours"
    option_table = OPTIONS
    rules = "docs/games/all_fours.md"
    scores_change_in_hand = True  # kicks of turn-ups score during the deal (search hooks)

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

    @property
    def num_sides(self) -> int:
        return 2

    def side_of(self, seat: int) -> int:
        return seat % 2

    @property
    def num_actions(self) -> int:
        return actions.NUM_ACTIONS

    def action_string(self, action_id: int) -> str:
        return actions.ACTION_STRINGS[action_id]

    def action_id(self, action: str) -> int | None:
        return actions.action_id(action)

    def new_state(self, decks: DeckSource) -> AllFoursState:
        return AllFoursState(self, decks)

    def start_hand(self, dealer: int, deck: Sequence[str], scores: Sequence[int] | None = None, *,
                   then: DeckSource | None = None, **match: Any) -> AllFoursState:
        """A match at the start of a hand: ``scores`` per side *before* the hand (the kick of the
        turn-up in ``deck`` is then scored as the deal scores it, so the observed scores of the
        hand come out as they were: give the previous hand result's scores, not the observed ones)."""
        self.check_hand_start(dealer, scores, match)
        return AllFoursState(self, resample.hand_decks(dealer, deck, then), scores)

    # -- the page and search hooks (arena.games.base.Game) --------------------------------------
    def page(self) -> dict[str, Any]:
        return {**super().page(), **PAGE}

    def match_stake(self) -> float:
        return float(self.target)  # §10.1: the points that win

    def fast_path(self) -> Any:
        return fast

    def deck_for(self, dealer: int, hands: Mapping[int, Sequence[str]], **seen: Any) -> list[str]:
        return dealing.deck_for(self, dealer, hands, **seen)

    def proxy_dealt(self, hands_seen: Mapping[int, Sequence[str]], played: Sequence[str]) -> list[str]:
        own = super().proxy_dealt(hands_seen, played)
        for length in sorted(hands_seen):  # cards that came later came from runs of the pack, in order
            own += [card for card in hands_seen[length] if card not in own]
        return own

    def proxy_deck(self, dealer: int, seat: int, hand: Sequence[str], observation: Mapping[str, Any],
                   kitty: Sequence[str] | None = None) -> list[str]:
        turn_ups = observation.get("turn_ups") or [None]  # the first deal's six cards, then three per run
        runs = [({seat: hand[6 + 3 * i:9 + 3 * i]}, up) for i, up in enumerate(turn_ups[1:])]
        return dealing.deck_for(self, dealer, {seat: hand[:6]}, turn_up=turn_ups[0], runs=runs)
