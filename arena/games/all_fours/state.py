"""One match of All Fours: the phases wiring dealing, the auction, play and scoring together.

Every scoring event (kick, give one, revoke penalty, High, Low, Jack, Game) goes through
:meth:`AllFoursState._score`, which ends the game the moment a side reaches the target
(docs/games/all_fours.md §10.2), so the order of counting (§9, E10) decides who wins. When a record
entry ends — a hand counted, the pack exhausted (§7.4), or the game won in the middle of it —
:meth:`_close_entry` writes its result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence, cast

from arena.games.all_fours.actions import BEG, GIVE_ONE, GIVE_OR_RUN, OVER, PLAY, PLAYING, STAND, STAND_OR_BEG
from arena.games.all_fours.auction import beggars_side, can_run, decisions, kick
from arena.games.all_fours.cards import PACK, SUITS, game_count, tokens_of
from arena.games.all_fours.dealing import deal_first, deal_run, deck_ids
from arena.games.all_fours.play import is_serious_revoke, lawful_plays, trick_winner
from arena.games.all_fours.scoring import hand_items, match_end, reaches_target
from arena.games.all_fours.view import contract_json, events_json, observation, revokes_json, tricks_json
from arena.games.base import DeckSource, GameState, MatchEnd
from arena.games.bitmask import bits

if TYPE_CHECKING:
    from arena.games.all_fours.game import AllFoursGame


class AllFoursState(GameState):
    """A match in progress. ``scores`` may set a starting score (for studying end-game positions)."""

    def __init__(self, game: "AllFoursGame", decks: DeckSource, scores: Sequence[int] | None = None):
        super().__init__(game, decks)
        self.g = game
        self.n = game.players
        self._scores = list(scores) if scores is not None else [0, 0]
        self._winner: int | None = None  # the side that won (target reached, or the other side's serious revoke)
        self._over = False
        self.unfinished = False
        self._lost_by_revoke: int | None = None
        self.dealer = decks.first_dealer(self.n)
        self._start_deal()

    # -- dealing, stand/beg, running the pack (§6, §7) --------------------------------------------
    def _start_deal(self) -> None:
        g, n, dealer = self.g, self.n, self.dealer
        self.deck = deck_ids(self._new_deal(dealer, PACK))
        self.hands = deal_first(self.deck, g.deal_seats[dealer], n)
        self.pos = 6 * n
        self.dealt: list[int] | None = None
        self.turn_ups: list[int] = []
        self.trump: int | None = None
        self.decision: str | None = None  # stand, give one or run: how trumps were fixed
        self.runs = 0
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.leader = (dealer + 1) % n
        self.captured = [0, 0]
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.tricks_won = [0, 0]
        self.changes = [0, 0]
        self.events: list[tuple[str, int, int, int]] = []
        self.pending: list[tuple[int, bool]] = []
        self.revokes: list[tuple[int, int, bool]] = []
        self.barred = [False, False]
        self._phase = STAND_OR_BEG
        self._to_act: int | None = (dealer + 1) % n
        self.proposed: int | None = None
        self.proposed = self._turn_up()  # §6.3-4: the kick may end the game before stand/beg
        if self._over:
            self._close_entry("won")

    def _turn_up(self) -> int:
        """Turn up the next stock card and score its kick (§6.4, §7.3 steps 4-5). Returns its suit."""
        card = self.deck[self.pos]
        self.pos += 1
        self.turn_ups.append(card)
        points = kick(self.g, card, len(self.turn_ups) == 1, self.proposed)
        if points:
            self._score("kick", self.dealer % 2, points, card)
        return card // 13

    def _run(self) -> None:
        """Run the pack (§7.3) until a new suit turns up, the game ends, or the pack is exhausted (§7.4)."""
        n, deck = self.n, self.deck
        seats = self.g.run_seats[self.dealer]
        while True:
            if not can_run(52 - self.pos, n):
                self._close_entry("redeal")  # same dealer deals again; kicks already scored are kept
                return
            self.pos = deal_run(self.hands, deck, self.pos, seats)
            self.runs += 1
            new_suit = self._turn_up()
            if self._over:
                self._close_entry("won")
                return
            if new_suit != self.proposed:
                self.trump = new_suit
                self._start_play()
                return

    def _start_play(self) -> None:
        self.dealt = list(self.hands)
        self._phase = PLAYING
        self._to_act = self.leader

    # -- the engine interface ----------------------------------------------------------------------
    def current_player(self) -> int | None:
        return self._to_act

    @property
    def phase(self) -> str:
        return self._phase

    def _legal_ids(self) -> list[int]:
        if self._phase == PLAYING:  # the hot path: no narrowing at run time; in the play both are set
            hand = self.hands[self._to_act]  # type: ignore[index]  # someone is to act
            if not self.g.penalize:
                hand = lawful_plays(hand, self.trick, self.trump, self.g.no_undertrump)  # type: ignore[arg-type]  # trumps are fixed
            return bits(hand << PLAY)  # play_ids(hand), without the call
        return decisions(self._phase)

    def _apply(self, action_id: int) -> None:
        if action_id >= PLAY:
            self._play(action_id - PLAY)
        elif action_id == STAND:
            self.decision = "stand"
            self.trump = self.proposed
            self._start_play()
        elif action_id == BEG:
            self._phase = GIVE_OR_RUN
            self._to_act = self.dealer
        elif action_id == GIVE_ONE:
            self.decision = "give one"
            if self._score("give one", beggars_side(self.dealer), 1):
                self._close_entry("won")
                return
            self.trump = self.proposed
            self._start_play()
        else:
            self.decision = "run"
            self._run()

    # -- play (§8) and revokes (§11) ----------------------------------------------------------------
    def _play(self, card: int) -> None:
        # The hot path: no narrowing at run time. In the play someone is to act and trumps are fixed.
        seat: int = self._to_act  # type: ignore[assignment]
        hand = self.hands[seat]
        trick = self.trick
        if self.g.penalize and not lawful_plays(hand, trick, self.trump, self.g.no_undertrump) >> card & 1:  # type: ignore[arg-type]
            self.pending.append((seat, is_serious_revoke(hand, trick, card, self.trump)))  # type: ignore[arg-type]
        self.hands[seat] = hand & ~(1 << card)
        trick.append(card)
        self.trick_seats.append(seat)
        if len(trick) < self.n:
            self._to_act = (seat + 1) % self.n
            return
        winner = self.trick_seats[trick_winner(trick, self.trump)]  # type: ignore[arg-type]
        side = winner % 2
        for played in trick:
            self.captured[side] |= 1 << played
        self.tricks_won[side] += 1
        self.tricks.append((self.leader, tuple(trick), winner))
        self.trick, self.trick_seats = [], []
        self.leader = winner
        if self.pending and self._penalize_revokes():
            return
        if self.hands[winner]:
            self._to_act = winner
            return
        self._count_hand()

    def _penalize_revokes(self) -> bool:
        """Apply the revokes established at the end of the trick (§11). True if the game ended."""
        pending, self.pending = self.pending, []
        trick_index = len(self.tricks) - 1
        for seat, serious in pending:
            self.revokes.append((seat, trick_index, serious))
            offenders = seat % 2
            if serious:
                self._over, self._winner, self._lost_by_revoke = True, 1 - offenders, offenders
                self.events.append(("serious revoke", offenders, 0, -1))
                self._close_entry("lost_by_revoke")
                return True
            self.barred[offenders] = True
            if self._score("revoke", 1 - offenders, 1):
                self._close_entry("won")
                return True
        return False

    # -- scoring (§9, §10) ---------------------------------------------------------------------------
    def _score(self, item: str, side: int, points: int, card: int = -1) -> bool:
        """Score one event; end the game at once if the side reaches the target. True if it did."""
        self._scores[side] += points
        self.changes[side] += points
        self.events.append((item, side, points, card))
        if reaches_target(self._scores[side], self.g.target):
            self._over, self._winner = True, side
            return True
        return False

    def _count_hand(self) -> None:
        g = self.g
        items = hand_items(  # the hand was played: dealt and trump are set
            cast("list[int]", self.dealt), self.captured, cast(int, self.trump), hang_jack_points=g.hang_jack, game_tie=g.game_tie,
            eldest=(self.dealer + 1) % self.n, barred=self.barred,
        )
        for item, side, points, card in items:
            if self._score(item, side, points, -1 if card is None else card):
                self._close_entry("won")
                return
        self._close_entry("played")

    def _close_entry(self, end: str) -> None:
        """Write the result of this record entry, then deal the next one unless the match is over."""
        result: dict[str, Any] = {
            "scores": list(self._scores),
            "changes": list(self.changes),
            "end": end,
            "contract": contract_json(self),
            "tricks_won": list(self.tricks_won),
            "tricks": tricks_json(self.tricks, self.n),
            "points": events_json(self.events),
            "turn_ups": [PACK[c] for c in self.turn_ups],
            "trump": None if self.trump is None else SUITS[self.trump],
            "decision": self.decision,
            "runs": self.runs,
            "game_counts": [game_count(self.captured[0]), game_count(self.captured[1])],
            "revokes": revokes_json(self),
            "stock_left": 52 - self.pos,
        }
        self._end_deal(result)
        if not self._over and self.g.max_hands is not None and len(self.deal_results) >= self.g.max_hands:
            self._over = self.unfinished = True
            result["unfinished"] = True
        if self._over:
            self._phase, self._to_act = OVER, None
            return
        if end != "redeal":
            self.dealer = (self.dealer + 1) % self.n  # §5: the deal passes to the right
        self._start_deal()

    def scores(self) -> list[int]:
        return list(self._scores)

    def is_over(self) -> bool:
        return self._over

    def match_end(self) -> MatchEnd | None:
        return match_end(self._over, self.unfinished, self._lost_by_revoke)

    def ranking(self) -> list[int]:
        if self._winner is not None:
            return [0 if side == self._winner else 1 for side in range(2)]
        return [sum(other > mine for other in self._scores) for mine in self._scores]

    def hidden_cards(self, seat: int) -> frozenset[str]:
        """The other seats' hands and the stock (§12); turn-ups and played cards are public."""
        mask = 0
        for other, hand in enumerate(self.hands):
            if other != seat:
                mask |= hand
        for card in self.deck[self.pos:]:
            mask |= 1 << card
        return frozenset(tokens_of(mask))

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see (§12): see :func:`arena.games.all_fours.view.observation`."""
        return observation(self, seat)

    def clone(self) -> "AllFoursState":
        other = object.__new__(AllFoursState)
        other.__dict__.update(self.__dict__)
        other.deals = [dict(deal, actions=list(deal["actions"])) for deal in self.deals]
        other.deal_results = list(self.deal_results)
        other._scores = list(self._scores)
        other.hands = list(self.hands)
        other.dealt = None if self.dealt is None else list(self.dealt)
        other.turn_ups = list(self.turn_ups)
        other.trick, other.trick_seats = list(self.trick), list(self.trick_seats)
        other.captured = list(self.captured)
        other.tricks = list(self.tricks)
        other.tricks_won = list(self.tricks_won)
        other.changes = list(self.changes)
        other.events = list(self.events)
        other.pending = list(self.pending)
        other.revokes = list(self.revokes)
        other.barred = list(self.barred)
        return other
