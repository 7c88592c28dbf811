"""The configured game of 56 (docs/games/fifty_six.md): its options, teams and action numbering."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from arena.games import resample
from arena.games.base import DeckSource, Game
from arena.games.fifty_six import fast
from arena.games.fifty_six import dealing
from arena.games.fifty_six.actions import ActionTable
from arena.games.fifty_six.cards import pack_kinds
from arena.games.fifty_six.options import OPTIONS
from arena.games.fifty_six.page import PAGE
from arena.games.fifty_six.state import FiftySixState


class FiftySixGame(Game):
    """56 (Fifty-Six / Ambathiyaaru) for 4, 6 or 8 players."""

    name = "fifty_six"
    title = "56"
    rules = "docs/games/fifty_six.md"
    swap_played_cards = True  # six or eight hands: a swap is much cheaper than a redraw (search hooks)
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

    def hand_value(self, result: Mapping[str, Any], side: int) -> float:
        """The solver's value: the card points the team won (§9.5), not its tables: the tables are a
        step of them (made or not, §10), so the points are the finer score of the same play."""
        return float(result["points"][side])

    @property
    def num_actions(self) -> int:
        return len(self.table)

    def action_string(self, action_id: int) -> str:
        return self.table.strings[action_id]

    def action_id(self, action: str) -> int | None:
        return self.table.parse(action)

    def new_state(self, decks: DeckSource) -> FiftySixState:
        return FiftySixState(self, decks)

    def start_hand(self, dealer: int, deck: Sequence[str], scores: Sequence[int] | None = None, *,
                   then: DeckSource | None = None, knocked_out: Mapping[int, int] | None = None,
                   **match: Any) -> FiftySixState:
        """A match at the start of a hand: ``scores`` are each team's tables (a knocked-out team's
        are what it was left with), ``knocked_out`` maps each knocked-out team to the index of the
        hand that knocked it out (it ranks the teams out; its seats sit out and the pack follows
        the seats left, §4.1, §11.3); ``deck`` is the pack of the seats left (``deck_for`` with
        ``active``)."""
        if match:
            raise TypeError(f"56 has no match setting {sorted(match)}")
        out_at: list[int | None] = [None] * self.teams
        for team, index in (knocked_out or {}).items():
            if not 0 <= team < self.teams:
                raise ValueError(f"knocked_out: {team} is not a team of this {self.players}-player game")
            out_at[team] = index
        if out_at.count(None) < 2:
            raise ValueError("knocked_out: at least two teams must be left in")
        if scores is not None and len(scores) != self.teams:
            raise ValueError(f"scores: {len(scores)} given, the game has {self.teams} teams")
        active = [s for s in range(self.players) if out_at[self.team_of[s]] is None]
        if dealer not in active:
            raise ValueError(f"dealer {dealer} is not a seat left in {active}")
        return FiftySixState(self, resample.hand_decks(dealer, deck, then), scores, out_at)

    # -- the page and search hooks (arena.games.base.Game) --------------------------------------
    def page(self) -> dict[str, Any]:
        return {**super().page(), **PAGE}

    def match_stake(self) -> float:
        # §5.3: a team is out once its tables are gone, so the tables each starts with decide it
        return float(self.options["initial_tables"])

    def fast_path(self) -> Any:
        return fast

    def deck_for(self, dealer: int, hands: Mapping[int, Sequence[str]], **seen: Any) -> list[str]:
        return dealing.deck_for(self, dealer, hands, **seen)

    def proxy_deck(self, dealer: int, seat: int, hand: Sequence[str], observation: Mapping[str, Any],
                   kitty: Sequence[str] | None = None) -> list[str]:
        return dealing.deck_for(self, dealer, {seat: hand}, active=observation["active_seats"])

    def proxy_match(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        if observation.get("eliminated_sides"):
            return {"knocked_out": {team: 0 for team in observation["eliminated_sides"]}}
        return {}
