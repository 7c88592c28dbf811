"""One Five Hundred match in progress (docs/games/five_hundred.md §12): deal, auction, partners,
kitty, nomination, play, score.

Phases: ``auction`` -> ``partners`` (five players, suit/NT contracts) -> ``discard`` (three
``discard <card>``, skipped sans kitty) -> ``nominate`` (NT and misère, contractor holding JK) ->
``play`` -> scoring -> the next deal, or ``over``. Hands are int bitmasks of pack indices.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence, cast

from arena.games import resample
from arena.games.base import DeckSource, GameState, MatchEnd, PlayRanks
from arena.games.bitmask import bits
from arena.games.five_hundred import auction, play, view
from arena.games.five_hundred.actions import NT, OM, Bid
from arena.games.five_hundred.cards import SUITS, context_index
from arena.games.five_hundred.dealing import deal, deck_for
from arena.games.five_hundred.scoring import (
    MADE, MATCH_END, SET, THROWN_IN, UNFINISHED, by_score, game_end, hand_changes,
)
from arena.games.five_hundred.view import AUCTION, DISCARD, NOMINATE, OVER, PARTNERS, PHASES, PLAY

if TYPE_CHECKING:
    from arena.games.five_hundred.game import FiveHundredGame

_play_legal, _play_apply = play.legal, play.apply  # the hot path: no module look-up

__all__ = ["FiveHundredState", "AUCTION", "PARTNERS", "DISCARD", "NOMINATE", "PLAY", "OVER", "PHASES"]


class FiveHundredState(GameState):
    game: FiveHundredGame
    bid: Bid | None  # the contract once the auction is won
    # The play tables of the contract's context (cards.Context): empty until the play starts.
    eff: Sequence[int]
    smask: Sequence[int]
    value: Sequence[Sequence[int]]

    def __init__(self, game: FiveHundredGame, decks: DeckSource, scores: Sequence[int] | None = None):
        super().__init__(game, decks)
        self.n = game.players
        self.jk_bit = 1 << game.pack.joker
        self.total = list(scores) if scores is not None else [0] * game.num_sides  # scores: a match started mid-way
        self.over = False
        self.unfinished = False
        self.end: str | None = None  # "win", "loss" or "unfinished" once over (scoring.MATCH_END)
        self.ranks: list[int] | None = None
        self.dealer = decks.first_dealer(self.n)
        self._deal()

    # -- dealing (§4) --------------------------------------------------------------------------
    def _deal(self) -> None:
        g = self.game
        deck = self._new_deal(self.dealer, g.pack.tokens)
        self.hands, self.dead, self.kitty = deal(g.pack.index, self.n, self.dealer, deck)
        self.stage = AUCTION
        self.passed = self.called = 0
        self.seen = 0 if g.blind else (1 << self.n) - 1  # under BM nobody has looked yet
        self.high = 0  # the action id of the high bid, 0 = none
        self.high_seat = -1
        self.raising = False
        self.bid = None
        self.contractor = -1
        self.members: tuple[int, ...] = ()
        self.partners: tuple[int, ...] = ()
        self.sitting = 0
        self.nominated = -1  # the joker's suit when nominated (public); -1 otherwise
        self.declined = False  # the contractor declined to nominate (known to them only)
        self.discards = 0
        self.to_discard = 0
        self.suitless = self.forced_joker = False
        self.eff = self.smask = self.value = ()
        self.next_active: list[int] = []
        self.nactive = self.n
        self.trick: list[tuple[int, int]] = []
        self.led = self.leader = self.taker = -1
        self.best = 0
        self.suits_led = 0
        self.tricks_won_by_seat = [0] * self.n
        # the finished tricks: (leader, ((seat, card), ...), winner, led suit)
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int, int]] = []
        self.exposed = False
        self.set_turn((self.dealer + 1) % self.n)

    def set_turn(self, seat: int) -> None:
        self.turn = seat
        if self.game.blind and self.called >> seat & 1 and not self.seen >> seat & 1:
            self.seen |= 1 << seat  # a BM bidder's next turn shows the hand

    # -- after the auction (§6) -----------------------------------------------------------------
    def start_contract(self) -> None:
        g = self.game
        self.seen = (1 << self.n) - 1  # everyone plays with open eyes from here on (R-5.7.1, §13)
        bid = self.bid = cast(Bid, g.bid_of[self.high])  # high >= 1: a bid, not the None of id 0
        c = self.contractor = self.high_seat
        self.turn = c
        if self.n == 5 and not bid.misere:
            self.stage = PARTNERS
            self.members = (c,)
            return
        team = g.team_mask[c]
        self.members = tuple(s for s in range(self.n) if team >> s & 1)
        self._exchange()

    def _exchange(self) -> None:
        if cast(Bid, self.bid).sans_kitty:  # after the auction: the contract is set  #: the kitty stays face down
            self._after_exchange()
            return
        self.hands[self.contractor] |= self.kitty
        self.to_discard = 3
        self.stage = DISCARD

    def _after_exchange(self) -> None:
        if cast(Bid, self.bid).strain == NT and self.hands[self.contractor] & self.jk_bit:
            self.stage = NOMINATE
            return
        self._start_play()

    def _start_play(self) -> None:
        g = self.game
        bid = cast(Bid, self.bid)
        ctx = g.pack.contexts[context_index(bid.strain, self.nominated if self.nominated >= 0 else None)]
        self.eff, self.smask, self.value = ctx.eff, ctx.mask, ctx.value
        self.suitless = bid.strain == NT and self.nominated < 0
        self.forced_joker = self.suitless and bid.misere
        c = self.contractor
        if bid.misere:  # the partners sit out
            self.sitting = sum(1 << s for s in self.members if s != c)
        n = self.n
        nxt = []
        for s in range(n):
            t = (s + 1) % n
            while self.sitting >> t & 1:
                t = (t + 1) % n
            nxt.append(t)
        self.next_active = nxt
        self.nactive = n - self.sitting.bit_count()
        self.stage = PLAY
        self.turn = c

    def finish_trick(self) -> None:
        w = self.taker
        self.tricks_won_by_seat[w] += 1
        self.tricks.append((self.leader, tuple(self.trick), w, self.led))
        self.trick = []
        bid: Bid = self.bid  # type: ignore[assignment]  # set before the play (the play path: no cast)
        if bid.misere:
            if w == self.contractor:  # the misère has failed, stop at once
                self._score(early=True)
                return
            if bid.kind == OM and len(self.tricks) == 1:
                self.exposed = True
        if len(self.tricks) == 10:
            self._score(early=False)
            return
        self.turn = w

    # -- end of a hand (§8, §9) ------------------------------------------------------------------
    def _score(self, early: bool) -> None:
        g = self.game
        bid = cast(Bid, self.bid)
        changes, made = hand_changes(bid, self.contractor, self.members, self.tricks_won_by_seat, g.sides,
                                     self.total, g.cap)
        self.total = [t + d for t, d in zip(self.total, changes)]
        result: dict[str, Any] = {
            "scores": list(self.total),
            "changes": changes,
            "end": MADE if made else SET,
            "contract": view.contract(self),
            "tricks_won": view.tricks_won(self),
            "tricks": view.tricks(self),
            "made": made,
            "tricks_won_by_seat": list(self.tricks_won_by_seat),
            "tricks_played": len(self.tricks),
            "early_end": early,
            "sitting_out": [s for s in range(self.n) if self.sitting >> s & 1],
        }
        ended = game_end(made, self.contractor, self.members, g.sides, self.total)
        self._close_hand(result, ended)

    def throw_in(self) -> None:
        """R-5.5: everyone passed; no score, the deal moves on, a new deal (a new record entry)."""
        result = {
            "scores": list(self.total),
            "changes": [0] * self.game.num_sides,
            "end": THROWN_IN,
            "contract": None,
            "tricks_won": [0] * self.game.num_sides,
            "tricks": [],
        }
        self._close_hand(result, None)

    def _close_hand(self, result: dict[str, Any], ended: tuple[list[int], str] | None) -> None:
        limit = self.game.max_hands
        if ended is not None:
            self.ranks, self.end = ended
        elif limit is not None and len(self.deals) >= limit:
            self.ranks, self.end = by_score(self.total), UNFINISHED
            self.unfinished = True
        # did this deal end the match, and how: the MatchEnd value ("target", "losing_score", "hand_limit") or None
        result["match_end"] = MATCH_END[self.end].value if self.end is not None else None
        self._end_deal(result)
        if self.end is not None:
            self.over = True
            self.stage = OVER
            self.turn = -1
            return
        self.dealer = (self.dealer + 1) % self.n
        self._deal()

    # -- GameState interface -----------------------------------------------------------------------
    def current_player(self) -> int | None:
        return None if self.over else self.turn

    @property
    def phase(self) -> str:
        return PHASES[self.stage]

    def _legal_ids(self) -> list[int]:
        stage = self.stage
        if stage == PLAY:
            return _play_legal(self)
        if stage == AUCTION:
            return auction.legal(self)
        g = self.game
        if stage == DISCARD:
            base = g.discard_base
            return [base + c for c in bits(self.hands[self.contractor])]
        if stage == NOMINATE:
            return list(range(g.nominate_base, g.nominate_base + 5))
        if stage == PARTNERS:
            return auction.partner_calls(self)
        return []

    def _apply(self, a: int) -> None:
        stage = self.stage
        if stage == PLAY:
            _play_apply(self, a)
        elif stage == AUCTION:
            auction.apply(self, a)
        elif stage == DISCARD:
            bit = 1 << (a - self.game.discard_base)
            self.hands[self.contractor] &= ~bit
            self.discards |= bit
            self.to_discard -= 1
            if not self.to_discard:
                self._after_exchange()
        elif stage == NOMINATE:
            k = a - self.game.nominate_base
            if k < 4:
                self.nominated = k
            else:
                self.declined = True
            self._start_play()
        elif stage == PARTNERS:
            g = self.game
            self.partners = g.partner_sets[a - g.partners_base]
            self.members = tuple(sorted((self.contractor,) + self.partners))
            self._exchange()

    def observation(self, seat: int) -> dict[str, Any]:
        return view.observation(self, seat)

    def scores(self) -> list[int]:
        return list(self.total)

    def is_over(self) -> bool:
        return self.over

    def hidden_cards(self, seat: int) -> frozenset[str]:
        """What ``seat`` may not see now (R-10.2, R-10.3): the other hands (less an exposed open
        misère hand), the dead hand, the kitty until it is taken (for ever sans kitty), the discards
        unless ``seat`` made them, and its own hand under blind misère until it has looked."""
        mask = self.dead
        if seat != self.contractor:
            mask |= self.discards
        bid = self.bid
        if bid is None or bid.sans_kitty or self.stage < DISCARD:
            mask |= self.kitty
        hands = self.hands
        for s in range(self.n):
            if s != seat:
                mask |= hands[s]
        if self.exposed:
            mask &= ~hands[self.contractor]
        if not self.seen >> seat & 1:
            mask |= hands[seat]
        return frozenset(self.game.pack.cards(mask))

    def match_end(self) -> MatchEnd | None:
        return MATCH_END[self.end] if self.end is not None else None

    # -- deals a seat could be facing (docs/games/five_hundred.md, "Resampling") -----------------
    def voids(self) -> dict[int, list[str]]:
        """A card whose effective suit (R-2.5: the bowers and the joker are trumps; a nominated
        joker is of its suit) is not the led suit — the suit a led suitless joker named — shows a
        void in it; so does the suitless joker played to a lead."""
        if self.stage != PLAY and not self.tricks:
            return {}
        eff = self.eff
        tricks = [(led, cards) for _, cards, _, led in self.tricks]
        if self.trick:
            tricks.append((self.led, tuple(self.trick)))
        return resample.suit_voids(tricks, lambda c, led: eff[c] == led, SUITS)

    def play_ranks(self) -> PlayRanks | None:
        """Cards rank by their strength in their own effective suit (``value``, R-2.4); only tricks
        score. The suitless joker (effective suit 4) is special: never merged, and it wins whatever
        trick it is in, so it lies between no two cards of a suit."""
        if self.stage != PLAY:
            return None
        g, eff, value, seat = self.game, self.eff, self.value, self.turn
        joker = g.pack.joker
        mine = {g.play_base + c: (eff[c], value[eff[c]][c], 0) for c in bits(self.hands[seat])
                if c != joker and eff[c] < 4}
        held = [c for s in range(self.n) if s != seat for c in bits(self.hands[s])] + [c for _, c in self.trick]
        return mine, [(eff[c], value[eff[c]][c]) for c in held if eff[c] < 4]

    def allies(self, seat: int) -> frozenset[int]:
        """Five players (R-6.1): the contractor's partners are chosen per hand and score with it."""
        if self.n == 5 and seat in self.members:
            return frozenset(self.members)
        return super().allies(seat)

    def _resample_layout(self, seat: int) -> resample.Layout:
        g = self.game
        pack = g.pack
        n = self.n
        dealer = self.deals[-1]["dealer"]
        c = self.contractor
        bid = self.bid
        taken = bid is not None and not bid.sans_kitty and self.stage >= DISCARD  # the kitty is in c's hand
        played: dict[int, list[str]] = {s: [] for s in range(n)}
        for _, trick, _, _ in self.tricks:
            for s, played_card in trick:
                played[s].append(pack.tokens[played_card])
        for s, played_card in self.trick:
            played[s].append(pack.tokens[played_card])
        exposed = self.hands[c] if self.exposed else 0  # open misère after trick 1: public
        unknown: list[str] = []
        sizes: list[int] = []
        owners: list[int | None] = []
        slot_of: dict[Any, int] = {}

        def add(key: Any, owner: int | None, mask: int) -> None:
            cards = pack.cards(mask)
            slot_of[key] = len(sizes)
            unknown.extend(cards)
            sizes.append(len(cards))
            owners.append(owner)

        seen_own = bool(self.seen >> seat & 1)
        for s in range(n):
            if s != seat or not seen_own:  # under blind misère a seat that has not looked knows nothing
                add(s, s, self.hands[s] & ~exposed if s != seat else self.hands[s])
        if not taken:
            add("kitty", None, self.kitty)
        if n == 2:
            add("dead", None, self.dead)
        if seat != c and self.discards:
            add("discards", None, self.discards)
        shown = self.voids()
        full = (1 << len(sizes)) - 1
        allowed = []
        for token in unknown:
            mask = full
            if shown:
                e = self.eff[pack.index[token]]
                suit = SUITS[e] if e < 4 else None
                for s, suits in shown.items():
                    if suit in suits and s in slot_of:
                        mask &= ~(1 << slot_of[s])
            allowed.append(mask)
        fixed = {s: pack.cards(self.hands[s] & exposed) for s in range(n)}
        own = pack.cards(self.hands[seat]) if seen_own else []
        kitty_known = pack.cards(self.kitty) if seat == c and taken else None
        discards_known = pack.cards(self.discards) if seat == c else []
        start = list(self.total)  # scores change only when a hand is scored

        def build(slots: list[list[str]], rng: random.Random) -> tuple["FiveHundredState", list[str]]:
            now = {s: list(slots[slot_of[s]]) + fixed[s] if s in slot_of else list(own) for s in range(n)}
            hands = {s: now[s] + played[s] for s in range(n)}
            discards = list(slots[slot_of["discards"]]) if "discards" in slot_of else list(discards_known)
            if taken:  # c's hand now holds the kitty less the discards: take them apart again
                hands[c] += discards
                kitty = kitty_known if kitty_known is not None else rng.sample(hands[c], 3)
                for card in kitty:
                    hands[c].remove(card)
            else:
                kitty = slots[slot_of["kitty"]]
            dead = slots[slot_of["dead"]] if "dead" in slot_of else []
            deck = deck_for(g, dealer, hands, kitty=kitty, dead=dead)
            sample = FiveHundredState(g, resample.hand_decks(dealer, deck, rng=rng, checked=False), start)
            resample.graft(sample, self)
            return sample, list(discards) if seat != c else []

        decline = g.nominate_base + 4

        def hidden(sample: GameState, plan: list[str], step: tuple[int, int] | None) -> int | None:
            st: FiveHundredState = sample  # type: ignore[assignment]
            if st.over or st.contractor == seat:
                return None
            if st.stage == DISCARD and plan:
                return g.discard_base + pack.index[plan.pop()]
            if st.stage == NOMINATE and (step is None or not g.nominate_base <= step[1] < decline):
                return decline  # a decline looks like nothing to the others
            return None

        hidden_low, hidden_high = g.discard_base, g.nominate_base

        def visible(actor: int, a: int) -> bool:
            return actor == seat or not (hidden_low <= a < hidden_high or a == decline)

        return resample.Layout(seat, unknown, sizes, owners, allowed, build, hidden, visible,
                               fixed={s: cards for s, cards in fixed.items() if cards and s != seat})

    def ranking(self) -> list[int]:
        return list(self.ranks) if self.ranks is not None else by_score(self.total)

    def clone(self) -> "FiveHundredState":
        new = object.__new__(FiveHundredState)
        d = self.__dict__.copy()
        d["hands"] = list(self.hands)
        d["total"] = list(self.total)
        d["tricks_won_by_seat"] = list(self.tricks_won_by_seat)
        d["trick"] = list(self.trick)
        d["tricks"] = list(self.tricks)
        deals = list(self.deals)
        if deals:
            last = dict(deals[-1])
            last["actions"] = list(last["actions"])
            deals[-1] = last
        d["deals"] = deals
        d["deal_results"] = list(self.deal_results)
        new.__dict__ = d
        return new
