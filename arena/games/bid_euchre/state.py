"""One Bid Euchre match in progress: the phases of a deal, wiring the modules beside this one.

Phases (§12.1 of docs/games/bid_euchre.md): ``discard`` (joker: the dealer's extra card) ->
``ace_no_face`` (claim window) -> ``auction`` -> ``trump`` -> ``exchange`` (``bid help`` only) ->
``play`` -> scoring -> next deal, or ``over``. Hands are a count per card index plus a bitmask of the
indices held (the double deck holds two copies of a card).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence, cast

from arena.games import resample
from arena.games.base import DeckSource, GameState, MatchEnd, PlayRanks
from arena.games.bid_euchre.auction import PASS, Auction, claimants, contract, gifts
from arena.games.bid_euchre.cards import SUITS, TABLES, TOKENS, TrumpTable
from arena.games.bid_euchre.dealing import deal
from arena.games.bid_euchre.play import is_renege, trick_list, trick_winner
from arena.games.bid_euchre.scoring import game_winner, hand_changes, played_result, thrown_in_result
from arena.games.bid_euchre.view import hidden_cards, observation, visible
from arena.games.bitmask import bits

if TYPE_CHECKING:
    from arena.games.bid_euchre.game import BidEuchreGame

DISCARD, ACE_NO_FACE, AUCTION, TRUMP, EXCHANGE, PLAY, OVER = (
    "discard", "ace_no_face", "auction", "trump", "exchange", "play", "over",
)


class BidEuchreState(GameState):
    game: BidEuchreGame
    to_act: int | None  # the seat to act; None once the match is over
    table: TrumpTable | None  # the ranking facts of the trump, once it is named (§7.1)

    def __init__(self, game: BidEuchreGame, decks: DeckSource, scores: Sequence[int] | None = None):
        super().__init__(game, decks)
        self.total = list(scores) if scores is not None else [0, 0]  # scores: a match started mid-way
        self.winner_side: int | None = None
        self.unfinished = False
        self.dealer = decks.first_dealer(4)  # §5.1
        self._deal()

    # -- dealing (§5) ------------------------------------------------------------------------------
    def _deal(self) -> None:
        g = self.game
        deck = self._new_deal(self.dealer, g.pack)
        counts, masks = deal(deck, self.dealer, g.tricks, g.joker)
        self.counts = counts
        self.masks = masks
        self.discarded: int | None = None
        self.claim: dict[str, Any] | None = None
        self.anf_queue: list[int] = []
        self.auction = Auction(self.dealer, g.continuous, g.stick)
        self.contractor: int | None = None
        self.level = 0
        self.trump: int | None = None
        self.table = None
        self.sitting_out: int | None = None  # the partner who sits out a lone hand (§7.4)
        self.gives: list[list[int]] = [[], []]  # help exchange: contractor's cards, partner's cards
        self.trick: list[tuple[int, int]] = []
        self.leader: int | None = None
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
        self.tricks_won_by_seat = [0, 0, 0, 0]
        self.reneges = [0, 0]
        if g.joker:
            self._phase, self.to_act = DISCARD, self.dealer
        else:
            self._after_discard()

    def _after_discard(self) -> None:
        if self.game.ace_no_face:  # §6.5: eligible players, clockwise from the dealer's left
            self.anf_queue = claimants(self.masks, self.dealer)
        if self.anf_queue:
            self._phase, self.to_act = ACE_NO_FACE, self.anf_queue[0]
        else:
            self._phase, self.to_act = AUCTION, self.auction.to_call

    def _take(self, seat: int, t: int) -> None:
        c = self.counts[seat]
        c[t] -= 1
        if not c[t]:
            self.masks[seat] &= ~(1 << t)

    def _put(self, seat: int, t: int) -> None:
        self.counts[seat][t] += 1
        self.masks[seat] |= 1 << t

    # -- interface ---------------------------------------------------------------------------------
    def current_player(self) -> int | None:
        return self.to_act

    @property
    def phase(self) -> str:
        return self._phase

    def scores(self) -> list[int]:
        return list(self.total)

    def is_over(self) -> bool:
        return self._phase == OVER

    def ranking(self) -> list[int]:
        if self.winner_side is not None:
            return [0, 1] if self.winner_side == 0 else [1, 0]
        a, b = self.total  # unfinished (max_hands): by score, ties equal
        return [0 if a >= b else 1, 0 if b >= a else 1]

    # The fast path, fused: the base class's legal_action_ids/apply_id without a call per layer.
    def legal_action_ids(self) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_ids() if self.to_act is not None else []
        return legal

    def apply_id(self, action_id: int) -> None:
        legal = self._legal
        if legal is None:
            legal = self.legal_action_ids()
        if action_id not in legal:
            self._check_and_apply(action_id, action_id)  # raises IllegalActionError
            return
        seat: int = self.to_act  # type: ignore[assignment]  # a legal action: someone is to act
        self.deals[-1]["actions"].append((seat, action_id))
        self._legal = None
        if self._phase == PLAY:
            self._play(seat, action_id - self.game.actions.play_base)
        else:
            self._apply(action_id)

    def _legal_ids(self) -> list[int]:
        # The hot path: no narrowing at run time. Only asked while someone is to act; in the play
        # trumps are named.
        phase = self._phase
        seat: int = self.to_act  # type: ignore[assignment]
        if phase == PLAY:
            mask = self.masks[seat]
            trick = self.trick
            if trick and not self.game.penalize:  # penalize: a renege is allowed, and costs (§9.3)
                table: TrumpTable = self.table  # type: ignore[assignment]
                follow = mask & table.suit_mask[table.eff[trick[0][1]]]  # play.playable, inline
                if follow:
                    mask = follow
            t0, t1, t2 = self.game.play_ids  # the ids of the cards in ``mask``, ascending
            return [*t0[mask & 511], *t1[mask >> 9 & 511], *t2[mask >> 18]]
        a = self.game.actions
        if phase == AUCTION:
            auction = self.auction
            ids = [0] if auction.may_pass() else []
            return ids + self.game.bids_above[auction.high]
        if phase == TRUMP:
            return list(range(a.trump_base, a.trump_base + a.strains))
        if phase == EXCHANGE:  # the partner must give the best trump it holds (§7.2.3, E6)
            base = a.give_base
            return [base + t for t in gifts(self.masks[seat], self.table, seat == self.sitting_out)]  # type: ignore[arg-type]  # trumps are named
        if phase == DISCARD:
            return [a.discard_base + t for t in bits(self.masks[seat])]
        if phase == ACE_NO_FACE:
            return [a.claim, a.decline]
        return []

    def _apply(self, action_id: int) -> None:
        a = self.game.actions
        phase = self._phase
        seat: int = self.to_act  # type: ignore[assignment]  # a legal action: someone is to act
        if phase == PLAY:
            self._play(seat, action_id - a.play_base)
            return
        if phase == AUCTION:
            auction = self.auction
            auction.call(PASS if action_id == 0 else a.level_of[action_id])
            if auction.to_call is not None:
                self.to_act = auction.to_call
            elif auction.high_seat is None:
                self._throw_in("all_pass")  # §6.3
            else:
                self.contractor, self.level = auction.high_seat, auction.high
                self._phase, self.to_act = TRUMP, self.contractor
        elif phase == TRUMP:
            self.trump = action_id - a.trump_base
            self.table = TABLES[self.trump]
            if self.level >= a.help_level:  # HELP and MOON: the partner sits out (§7.2-7.4)
                self.sitting_out = (seat + 2) & 3  # seat: the contractor, who names trumps
            if self.level == a.help_level:
                self._phase = EXCHANGE
            else:
                self._start_play()
        elif phase == EXCHANGE:
            t = action_id - a.give_base
            self._take(seat, t)
            mine = self.gives[0 if seat == self.contractor else 1]
            mine.append(t)
            if len(mine) == self.game.exchange:
                if seat == self.contractor:
                    self.to_act = self.sitting_out  # the partner chooses without seeing the card(s) (E5)
                else:  # both have chosen (seat: the partner): the swap happens together (§7.2.4)
                    contractor: int = self.contractor  # type: ignore[assignment]  # set by the auction
                    for card in self.gives[0]:
                        self._put(seat, card)
                    for card in self.gives[1]:
                        self._put(contractor, card)
                    self._start_play()
        elif phase == DISCARD:
            t = action_id - a.discard_base
            self._take(seat, t)
            self.discarded = t
            self._after_discard()
        elif phase == ACE_NO_FACE:
            if action_id == a.claim:
                hand = [TOKENS[t] for t in range(25) for _ in range(self.counts[seat][t])]
                self.claim = {"seat": seat, "hand": hand}
                self._throw_in("ace_no_face")
            else:
                self.anf_queue.pop(0)
                if self.anf_queue:
                    self.to_act = self.anf_queue[0]
                else:
                    self._phase, self.to_act = AUCTION, self.auction.to_call
        else:  # pragma: no cover - the base class never applies in "over"
            raise AssertionError(phase)

    # -- play (§8) -----------------------------------------------------------------------------------
    def _start_play(self) -> None:
        self._phase = PLAY
        self.leader = self.to_act = self.contractor  # the contractor leads (§8.1)

    def _play(self, seat: int, t: int) -> None:
        trick = self.trick
        table: TrumpTable = self.table  # type: ignore[assignment]  # the hot path: in the play trumps are named
        mask = self.masks[seat]
        if trick and self.game.penalize and is_renege(mask, trick[0][1], t, table):
            self.reneges[seat & 1] += 1  # §9.3: detected now, scored at the hand's end
        counts = self.counts[seat]  # self._take(seat, t), inline
        left = counts[t] = counts[t] - 1
        if not left:
            self.masks[seat] = mask & ~(1 << t)
        trick.append((seat, t))
        out = self.sitting_out
        if len(trick) < (4 if out is None else 3):
            nxt = (seat + 1) & 3
            self.to_act = (nxt + 1) & 3 if nxt == out else nxt  # play.next_player, inline
            return
        winner = trick_winner(trick, table)
        self.tricks_won_by_seat[winner] += 1
        self.tricks.append((self.leader, tuple(trick), winner))  # type: ignore[arg-type]  # the play has a leader
        self.trick = []
        self.leader = self.to_act = winner
        if len(self.tricks) == self.game.tricks:
            self._score()

    # -- scoring and the next deal (§9, §10) ---------------------------------------------------------
    def _score(self) -> None:
        g = self.game
        a = g.actions
        contractor = cast(int, self.contractor)  # a hand played: the auction was won
        side = contractor & 1
        by_seat = self.tricks_won_by_seat
        changes, made = hand_changes(
            self.level, g.tricks, a.help_level, a.moon_level, side,
            [by_seat[0] + by_seat[2], by_seat[1] + by_seat[3]], self.reneges,
        )
        self.total = [self.total[0] + changes[0], self.total[1] + changes[1]]
        self.winner_side = game_winner(self.total, g.target, side, g.simultaneous_finish)
        contract_ = contract(a, g.tricks, contractor, self.level, self.trump)
        self._finish_deal(played_result(self.total, changes, made, contract_, by_seat, self.reneges, trick_list(self.tricks)))

    def _throw_in(self, why: str) -> None:
        self._finish_deal(thrown_in_result(self.total, why, self.claim))

    def _finish_deal(self, result: dict[str, Any]) -> None:
        max_hands = self.game.max_hands
        if self.winner_side is not None:
            result["winner"] = self.winner_side
        elif max_hands is not None and len(self.deals) >= max_hands:
            self.unfinished = True
            result["unfinished"] = True  # the harness limit stopped the match here
        self._end_deal(result)
        self.dealer = (self.dealer + 1) & 3  # the deal passes to the left after every hand (§5.5)
        if self.winner_side is not None or self.unfinished:
            self._phase, self.to_act = OVER, None
        else:
            self._deal()

    def match_end(self) -> MatchEnd | None:
        """TARGET when a side has won by §10, HAND_LIMIT when ``max_hands`` stopped it, else None."""
        if self.winner_side is not None:
            return MatchEnd.TARGET
        return MatchEnd.HAND_LIMIT if self.unfinished else None

    # -- what a seat sees (§11) ----------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        return observation(self, seat)

    def hidden_cards(self, seat: int) -> frozenset[str]:
        return hidden_cards(self, seat)

    # -- deals a seat could be facing (docs/games/bid_euchre.md, "Resampling") -----------------------
    def _hand_tokens(self, seat: int) -> list[str]:
        counts = self.counts[seat]
        return [TOKENS[t] for t in range(25) for _ in range(counts[t])]

    def voids(self) -> dict[int, list[str]]:
        """A card of another effective suit than the led card's (the left bower and the joker are
        trumps, §4.2-4.3) shows a void in the led suit; none are shown under ``illegal_play_mode``
        penalize, where a renege is allowed."""
        table = self.table
        if table is None or self.game.penalize:
            return {}
        eff = table.eff
        tricks = [(eff[cards[0][1]], cards) for _, cards, _ in self.tricks]
        if self.trick:
            tricks.append((eff[self.trick[0][1]], tuple(self.trick)))
        return resample.suit_voids(tricks, lambda t, led: eff[t] == led, SUITS)

    def play_ranks(self) -> PlayRanks | None:
        """Cards rank by the contract's table (§4); only tricks score, so no card has points."""
        if self._phase != PLAY or self.to_act is None:
            return None
        table: TrumpTable = self.table  # type: ignore[assignment]  # in the play trumps are named
        eff, power, seat, base = table.eff, table.power, self.to_act, self.game.actions.play_base
        mine = {base + t: (eff[t], power[t], 0) for t in bits(self.masks[seat])}
        others = [(eff[t], power[t]) for s in range(4) if s != seat for t in bits(self.masks[s])]
        others += [(eff[t], power[t]) for _, t in self.trick]
        return mine, others

    def _resample_layout(self, seat: int) -> resample.Layout:
        g = self.game
        a = g.actions
        dealer = self.deals[-1]["dealer"]
        contractor, partner = self.contractor, self.sitting_out
        played: dict[int, list[str]] = {s: [] for s in range(4)}
        for _, trick, _ in self.tricks:
            for s, t in trick:
                played[s].append(TOKENS[t])
        for s, t in self.trick:
            played[s].append(TOKENS[t])
        # The help exchange (§7.2): whose gifts seat did not see, and whether the swap has happened
        helping = contractor is not None and partner is not None and bool(self.gives[0] or self.gives[1])
        in_limbo = self._phase == "exchange"  # given cards wait beside the hands until the swap
        hidden_gifts = {who: helping and bool(self.gives[who]) and not visible(self, seat, cast(int, actor), a.give_base)
                        for who, actor in ((0, contractor), (1, partner))}
        # Gifts seat saw go on being known where they went (until the receiver plays such a card)
        fixed: dict[int, list[str]] = {s: [] for s in range(4)}
        if helping and not in_limbo:
            for who, receiver in ((0, partner), (1, contractor)):
                if not hidden_gifts[who] and receiver != seat:
                    gone = list(played[cast(int, receiver)])
                    for card in (TOKENS[t] for t in self.gives[who]):
                        if card in gone:
                            gone.remove(card)
                        else:
                            fixed[cast(int, receiver)].append(card)
        others = [s for s in range(4) if s != seat]
        cards: list[str] = []
        sizes: list[int] = []
        owners: list[int | None] = []
        for s in others:
            hand = self._hand_tokens(s)
            for card in fixed[s]:
                hand.remove(card)
            cards += hand
            sizes.append(len(hand))
            owners.append(s)
        pools: dict[str, int] = {}  # the pool slots: the joker discard (seen by the dealer only), gifts in limbo
        if self.discarded is not None and seat != dealer:
            cards.append(TOKENS[self.discarded])
            sizes.append(1)
            owners.append(None)
            pools["discard"] = len(sizes) - 1
        for who in (0, 1):
            if hidden_gifts[who] and in_limbo:
                given = [TOKENS[t] for t in self.gives[who]]
                cards += given
                sizes.append(len(given))
                owners.append(None)
                pools[f"gift{who}"] = len(sizes) - 1
        shown = self.voids()
        table = self.table
        allowed = []
        full = (1 << len(sizes)) - 1
        for card in cards:
            mask = full
            if table is not None and shown:
                suit = SUITS[table.eff[TOKENS.index(card)]]
                for i, s in enumerate(others):
                    if suit in shown.get(s, ()):
                        mask &= ~(1 << i)
            allowed.append(mask)
        own = self._hand_tokens(seat)
        known_discard = TOKENS[self.discarded] if self.discarded is not None and seat == dealer else None
        seen_gifts = {who: [TOKENS[t] for t in self.gives[who]] for who in (0, 1)}
        # the scores before this deal: the total changes only when a deal is scored (a state started
        # mid-match by start_hand has no earlier result to take them from)
        unscored = len(self.deal_results) < len(self.deals)
        start = list(self.total) if unscored else self.deal_results[-2]["scores"] if len(self.deal_results) > 1 else [0, 0]
        exchange = g.exchange

        def build(slots: list[list[str]], rng: random.Random) -> tuple["BidEuchreState", dict[int, list[str]]]:
            now = {s: list(slot) + fixed[s] for s, slot in zip(others, slots)}
            now[seat] = list(own)
            hands = {s: now[s] + played[s] for s in range(4)}
            plan: dict[int, list[str]] = {}
            if helping:
                c, p = cast(int, contractor), cast(int, partner)
                if in_limbo:  # the gifts so far are out of both hands: give them back
                    x = slots[pools["gift0"]] if hidden_gifts[0] else seen_gifts[0]
                    y = slots[pools["gift1"]] if hidden_gifts[1] else seen_gifts[1]
                else:  # swapped: the contractor's gifts are in the partner's hand, and the other way round
                    x = rng.sample(now[p], exchange) if hidden_gifts[0] else seen_gifts[0]
                    y = rng.sample(hands[c], exchange) if hidden_gifts[1] else seen_gifts[1]
                    for card in y:
                        hands[c].remove(card)
                    for card in x:
                        hands[p].remove(card)
                hands[c] += x
                hands[p] += y
                plan = {c: list(x) if hidden_gifts[0] else [], p: list(y) if hidden_gifts[1] else []}
            extra = None
            if self.discarded is not None:
                discard = known_discard if known_discard is not None else slots[pools["discard"]][0]
                hands[dealer].append(discard)
                plan[-1] = [discard]
            if g.joker:  # the dealer's extra card is the deck's last: any of its cards will do
                extra = hands[dealer].pop(rng.randrange(len(hands[dealer])))
            # deck_for without its checks: one card at a time from the dealer's left (§5.2), the extra last
            deck = [hands[(dealer + 1 + i) & 3][i >> 2] for i in range(4 * g.tricks)] + ([extra] if extra else [])
            sample = BidEuchreState(g, resample.hand_decks(dealer, deck, rng=rng, checked=False), start)
            resample.graft(sample, self)
            return sample, plan

        def hidden(sample: GameState, plan: dict[int, list[str]], step: tuple[int, int] | None) -> int | None:
            st: BidEuchreState = sample  # type: ignore[assignment]
            actor = st.to_act
            if actor is None or actor == seat:
                return None
            if st._phase == "discard" and plan.get(-1):
                return a.discard_base + TOKENS.index(plan[-1].pop())
            if st._phase == "exchange" and plan.get(actor):
                return a.give_base + TOKENS.index(plan[actor].pop(0))
            return None

        return resample.Layout(seat, cards, sizes, owners, allowed, build, hidden,
                               lambda actor, act: visible(self, seat, actor, act), fixed=fixed)

    # -- copies for search bots ------------------------------------------------------------------------
    def clone(self) -> "BidEuchreState":
        other = BidEuchreState.__new__(BidEuchreState)
        other.__dict__.update(self.__dict__)
        other.deals = [dict(d, actions=list(d["actions"])) for d in self.deals]
        other.deal_results = list(self.deal_results)
        other.total = list(self.total)
        other.counts = [list(c) for c in self.counts]
        other.masks = list(self.masks)
        other.anf_queue = list(self.anf_queue)
        other.auction = self.auction.copy()
        other.gives = [list(self.gives[0]), list(self.gives[1])]
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other.tricks_won_by_seat = list(self.tricks_won_by_seat)
        other.reneges = list(self.reneges)
        return other
