"""One match of All Fours: the phases wiring dealing, the auction, play and scoring together.

Every scoring event (kick, give one, revoke penalty, High, Low, Jack, Game) goes through
:meth:`AllFoursState._score`, which ends the game the moment a side reaches the target
(docs/games/all_fours.md §10.2), so the order of counting (§9, E10) decides who wins. When a record
entry ends — a hand counted, the pack exhausted (§7.4), or the game won in the middle of it —
:meth:`_close_entry` writes its result.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence, cast

from arena.games.all_fours.actions import BEG, GIVE_ONE, GIVE_OR_RUN, OVER, PLAY, PLAYING, STAND, STAND_OR_BEG
from arena.games.all_fours.auction import beggars_side, can_run, decisions, kick
from arena.games.all_fours.cards import CARD_OF, JACK, PACK, SUITS, game_count, tokens_of
from arena.games.all_fours.dealing import deal_first, deal_run, deck_ids
from arena.games.all_fours.play import is_serious_revoke, lawful_plays, trick_winner
from arena.games.all_fours.scoring import hand_items, match_end, reaches_target
from arena.games.all_fours.view import contract_json, events_json, observation, revokes_json, tricks_json
from arena.games import resample
from arena.games.base import DeckSource, GameState, MatchEnd, PlayRanks
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

    # -- deals a seat could be facing (docs/games/all_fours.md, "Resampling") --------------------------
    def _all_tricks(self) -> list[tuple[int, list[tuple[int, int]]]]:
        """(led suit, [(seat, card), ...]) of this deal's tricks, the one in progress last."""
        n = self.n
        out = [(cards[0] // 13, [((leader + i) % n, c) for i, c in enumerate(cards)]) for leader, cards, _ in self.tricks]
        if self.trick:
            out.append((self.trick[0] // 13, list(zip(self.trick_seats, self.trick))))
        return out

    def voids(self) -> dict[int, list[str]]:
        """§8.2: to a trump lead a card that is not a trump shows no trump; to a plain lead a card
        of neither the led suit nor trumps shows none of the led suit (a trump shows nothing: it
        may always be played). None are shown under ``illegal_play_mode`` penalize."""
        trump = self.trump
        if trump is None or self.g.penalize:
            return {}
        return resample.suit_voids(self._all_tricks(), lambda c, led: c // 13 == led or (led != trump and c // 13 == trump),
                                   SUITS)

    def _resample_layout(self, seat: int) -> resample.Layout:
        g, n = self.g, self.n
        dealer = self.deals[-1]["dealer"]
        played: dict[int, list[str]] = {s: [] for s in range(n)}
        for _, cards in self._all_tricks():
            for s, c in cards:
                played[s].append(PACK[c])
        others = [s for s in range(n) if s != seat]
        unknown: list[str] = []
        sizes: list[int] = []
        for s in others:
            hand = tokens_of(self.hands[s])
            unknown += hand
            sizes.append(len(hand))
        stock = [PACK[c] for c in self.deck[self.pos:]]
        unknown += stock
        sizes.append(len(stock))
        shown = self.voids()
        full = (1 << len(sizes)) - 1
        allowed = [full & ~sum(1 << i for i, s in enumerate(others) if card[-1] in shown.get(s, ())) for card in unknown]
        # The deck positions: the first deal's, then per run its packets and its turn-up (§6.2, §7.3)
        first, run = g.deal_seats[dealer], g.run_seats[dealer]
        runs = self.runs
        deck = self.deck
        # seat's own cards stay at the positions it got them from (it saw its hand before each run)
        mine = [i for i, s in enumerate(first) if s == seat]
        position = len(first) + 1
        for _ in range(runs):
            mine += [position + i for i, s in enumerate(run) if s == seat]
            position += len(run) + 1
        own_positions = {i: PACK[deck[i]] for i in mine}
        turn_ups = {len(first) + k * (len(run) + 1): PACK[c] for k, c in enumerate(self.turn_ups)}
        end = position - 1  # the last turn-up's position; the stock follows it
        start = [s - c for s, c in zip(self._scores, self.changes)]  # the scores before this entry's kicks

        def build(slots: list[list[str]], rng: random.Random) -> tuple["AllFoursState", None]:
            order: list[str | None] = [None] * 52
            for i, card in own_positions.items():
                order[i] = card
            for i, card in turn_ups.items():
                order[i] = card
            dealt = {s: slots[k] + played[s] for k, s in enumerate(others)}
            for s in others:
                rng.shuffle(dealt[s])  # which packet gave which card: any order is as likely
            places = {s: [i for i in range(end) if order[i] is None and _owner(i) == s] for s in others}
            for s in others:
                for i, card in zip(places[s], dealt[s]):
                    order[i] = card
            order[end + 1:] = slots[-1]
            sample = AllFoursState(g, resample.hand_decks(dealer, cast("list[str]", order), rng=rng, checked=False), start)
            resample.graft(sample, self)
            return sample, None

        def _owner(i: int) -> int:
            if i < len(first):
                return first[i]
            offset = (i - len(first) - 1) % (len(run) + 1)
            return run[offset] if offset < len(run) else -1

        return resample.Layout(seat, unknown, sizes, [*others, None], allowed, build,
                               lambda sample, plan, step: None, lambda actor, action: True,
                               # every action is public and plays respect the voids; but a revoke
                               # (penalize) is public too and depends on the hand: compare then
                               check=g.penalize)

    def play_ranks(self) -> PlayRanks | None:
        """A card's suit and rank are its id (§2); its points are its game count (§4), and the jack
        of trumps scores on its own (§9), so it gets points no other card has. High and Low go to
        whoever was dealt them, whatever is played."""
        if self._phase != PLAYING or self._to_act is None or self.trump is None:
            return None
        seat, jack = self._to_act, self.trump * 13 + JACK
        mine = {PLAY + c: (c // 13, c % 13, -1 if c == jack else game_count(1 << c)) for c in bits(self.hands[seat])}
        others = [(c // 13, c % 13) for s in range(self.n) if s != seat for c in bits(self.hands[s])]
        others += [(c // 13, c % 13) for c in self.trick]
        return mine, others

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
