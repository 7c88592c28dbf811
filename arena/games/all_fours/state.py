"""One match of All Fours: deals, stand/beg, running the pack, tricks, and counting to the target.

Every scoring event (kick, give one, revoke penalty, High, Low, Jack, Game) goes through
:meth:`AllFoursState._score`, which ends the game the moment a side reaches the target (§10.2), so
the order of counting (§9, E10) decides who wins. When a record entry ends — a hand counted, the
pack exhausted (§7.4), or the game won in the middle of it — :meth:`_close_entry` writes its result.
"""

from __future__ import annotations

from typing import Any, Sequence

from arena.games.all_fours.cards import PACK, SUITS, SUIT_MASK, cards_of, game_count, tokens_of
from arena.games.all_fours.game import BEG, GIVE_ONE, PLAY, RUN, STAND, AllFoursGame
from arena.games.all_fours.play import is_serious_revoke, lawful_plays, trick_winner
from arena.games.all_fours.scoring import hand_items
from arena.games.base import DeckSource, GameState

STAND_OR_BEG, GIVE_OR_RUN, PLAYING, OVER = "stand_or_beg", "give_or_run", "play", "over"
_TOKEN_CARD = {token: card for card, token in enumerate(PACK)}


class AllFoursState(GameState):
    """A match in progress. ``scores`` may set a starting score (for studying end-game positions)."""

    def __init__(self, game: AllFoursGame, decks: DeckSource, scores: Sequence[int] | None = None):
        super().__init__(game, decks)
        self.g = game
        self.n = game.players
        self._scores = list(scores) if scores is not None else [0, 0]
        self._winner: int | None = None  # the side that won (target reached, or the other side's serious revoke)
        self._over = False
        self._unfinished = False
        self._lost_by_revoke: int | None = None
        self.dealer = decks.first_dealer(self.n)
        self._start_deal()

    # -- dealing, stand/beg, running the pack (§6, §7) --------------------------------------------
    def _start_deal(self) -> None:
        g, n, dealer = self.g, self.n, self.dealer
        self.deck = [_TOKEN_CARD[t] for t in self._new_deal(dealer, PACK)]
        hands = [0] * n
        deck = self.deck
        for position, seat in enumerate(g.deal_seats[dealer]):
            hands[seat] |= 1 << deck[position]
        self.hands = hands
        self.pos = 6 * n
        self.dealt: list[int] | None = None
        self.turn_ups: list[int] = []
        self.trump: int | None = None
        self.how: str | None = None
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
        self.proposed = self._turn_up()  # §6.3-4: the kick may end the game before stand/beg
        if self._over:
            self._close_entry("won")

    def _turn_up(self) -> int:
        """Turn up the next stock card and score its kick (§6.4, §7.3 steps 4-5). Returns its suit."""
        card = self.deck[self.pos]
        self.pos += 1
        self.turn_ups.append(card)
        points = self.g.kicks[card]
        if points and (len(self.turn_ups) == 1 or self.g.kick_same_suit or card // 13 != self.proposed):
            self._score("kick", self.dealer % 2, points, card)
        return card // 13

    def _run(self) -> None:
        """Run the pack (§7.3) until a new suit turns up, the game ends, or the pack is exhausted (§7.4)."""
        n, deck = self.n, self.deck
        seats = self.g.run_seats[self.dealer]
        while True:
            if 52 - self.pos < 3 * n + 1:
                self._close_entry("redeal")  # same dealer deals again; kicks already scored are kept
                return
            hands, pos = self.hands, self.pos
            for offset, seat in enumerate(seats):
                hands[seat] |= 1 << deck[pos + offset]
            self.pos = pos + len(seats)
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
        if self._phase == PLAYING:
            hand = self.hands[self._to_act]
            if not self.g.penalize:
                hand = lawful_plays(hand, self.trick, self.trump, self.g.no_undertrump)
            ids = []
            while hand:
                low = hand & -hand
                ids.append(PLAY - 1 + low.bit_length())
                hand ^= low
            return ids
        if self._phase == STAND_OR_BEG:
            return [STAND, BEG]
        if self._phase == GIVE_OR_RUN:
            return [GIVE_ONE, RUN]
        return []

    def _apply(self, action_id: int) -> None:
        if action_id >= PLAY:
            self._play(action_id - PLAY)
        elif action_id == STAND:
            self.how = "stand"
            self.trump = self.proposed
            self._start_play()
        elif action_id == BEG:
            self._phase = GIVE_OR_RUN
            self._to_act = self.dealer
        elif action_id == GIVE_ONE:
            self.how = "give one"
            if self._score("give one", (self.dealer + 1) % 2, 1):
                self._close_entry("won")
                return
            self.trump = self.proposed
            self._start_play()
        else:
            self.how = "run"
            self._run()

    # -- play (§8) and revokes (§11) ----------------------------------------------------------------
    def _play(self, card: int) -> None:
        seat = self._to_act
        hand = self.hands[seat]
        trick = self.trick
        if self.g.penalize and not lawful_plays(hand, trick, self.trump, self.g.no_undertrump) >> card & 1:
            self.pending.append((seat, is_serious_revoke(hand, trick, card, self.trump)))
        self.hands[seat] = hand & ~(1 << card)
        trick.append(card)
        self.trick_seats.append(seat)
        if len(trick) < self.n:
            self._to_act = (seat + 1) % self.n
            return
        winner = self.trick_seats[trick_winner(trick, self.trump)]
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
        if self._scores[side] >= self.g.target:
            self._over, self._winner = True, side
            return True
        return False

    def _count_hand(self) -> None:
        g = self.g
        items = hand_items(
            self.dealt, self.captured, self.trump, hang_jack_points=g.hang_jack, game_tie=g.game_tie,
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
            "points": self._events_json(),
            "turn_ups": [PACK[c] for c in self.turn_ups],
            "trump": None if self.trump is None else SUITS[self.trump],
            "how": self.how,
            "runs": self.runs,
            "tricks_won": list(self.tricks_won),
            "game_counts": [game_count(self.captured[0]), game_count(self.captured[1])],
            "tricks": self._tricks_json(),
            "revokes": [{"seat": s, "trick": t, "serious": x} for s, t, x in self.revokes],
            "stock_left": 52 - self.pos,
        }
        self._end_deal(result)
        if not self._over and self.g.max_hands is not None and len(self.deal_results) >= self.g.max_hands:
            self._over = self._unfinished = True
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

    def ranking(self) -> list[int]:
        if self._winner is not None:
            return [0 if side == self._winner else 1 for side in range(2)]
        return [sum(other > mine for other in self._scores) for mine in self._scores]

    def result(self) -> dict[str, Any]:
        out = super().result()
        out["how"] = (
            "unfinished" if self._unfinished else "revoke" if self._lost_by_revoke is not None
            else "target" if self._over else None
        )
        return out

    # -- what a seat sees (§12) ----------------------------------------------------------------------
    def _events_json(self) -> list[dict[str, Any]]:
        return [
            {"item": item, "side": side, "points": points, "card": PACK[card] if card >= 0 else None}
            for item, side, points, card in self.events
        ]

    def _tricks_json(self) -> list[dict[str, Any]]:
        n = self.n
        return [
            {"leader": leader, "cards": [[(leader + i) % n, PACK[c]] for i, c in enumerate(cards)], "winner": winner}
            for leader, cards, winner in self.tricks
        ]

    def observation(self, seat: int) -> dict[str, Any]:
        """Public: turn-ups, kicks, decisions, played cards, trick winners, scores, stock size. Own hand only."""
        n = self.n
        my_turn = self._to_act == seat
        legal = self.legal_actions() if my_turn else []
        tricks = self._tricks_json()
        playing = self._phase == PLAYING
        obs: dict[str, Any] = {
            "game": self.g.name,
            "seat": seat,
            "side": seat % 2,
            "players": n,
            "phase": self._phase,
            "hand_index": len(self.deals) - 1,
            "dealer": self.dealer,
            "eldest": (self.dealer + 1) % n,
            "hand": tokens_of(self.hands[seat]),
            "legal_actions": legal,
            "to_act": self._to_act,
            "history": [[s, self.g.action_string(a)] for s, a in self.deals[-1]["actions"]],
            "scores": list(self._scores),
            "target_score": self.g.target,
            "contract": None if self.trump is None else {"trump": SUITS[self.trump], "how": self.how, "runs": self.runs},
            "trump": None if self.trump is None else SUITS[self.trump],
            "proposed_suit": SUITS[self.proposed],
            "turn_up": PACK[self.turn_ups[-1]],
            "turn_ups": [PACK[c] for c in self.turn_ups],
            "stock_count": 52 - self.pos,
            "runs": self.runs,
            "points": self._events_json(),
            "trick": [[s, PACK[c]] for s, c in zip(self.trick_seats, self.trick)],
            "leader": self.leader if playing else None,
            "tricks": tricks,
            "last_trick": tricks[-1] if tricks else None,
            "tricks_won": list(self.tricks_won),
            "game_counts": [game_count(self.captured[0]), game_count(self.captured[1])],
            "hand_sizes": [bin(h).count("1") for h in self.hands],
            "revokes": [{"seat": s, "trick": t, "serious": x} for s, t, x in self.revokes],
            "game_barred": list(self.barred),
        }
        if self.g.penalize:
            lawful = []
            if my_turn and playing:
                mask = lawful_plays(self.hands[seat], self.trick, self.trump, self.g.no_undertrump)
                lawful = ["play " + PACK[c] for c in cards_of(mask)]
            obs["lawful_actions"] = lawful if playing else legal
        return obs

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
