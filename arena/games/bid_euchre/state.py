"""One Bid Euchre match in progress: the deal, the auction, trumps, the help exchange, the play.

Phases (§12): ``discard`` (joker: the dealer's extra card) -> ``ace_no_face`` (claim window) ->
``auction`` -> ``trump`` -> ``exchange`` (``bid help`` only) -> ``play`` -> scoring -> next deal, or
``over``. Hands are a count per card index plus a bitmask of the indices held (double deck holds
two copies of a card).
"""

from __future__ import annotations

from typing import Any

from arena.games.base import DeckSource, GameState
from arena.games.bid_euchre.auction import PASS, Auction
from arena.games.bid_euchre.cards import (
    STRAINS,
    TABLES,
    TOKENS,
    ace_no_face,
    best_trump,
    bits,
    playable,
    trick_winner,
)
from arena.games.bid_euchre.dealing import deal
from arena.games.bid_euchre.scoring import game_winner, hand_changes

DISCARD, ACE_NO_FACE, AUCTION, TRUMP, EXCHANGE, PLAY, OVER = (
    "discard", "ace_no_face", "auction", "trump", "exchange", "play", "over",
)


class BidEuchreState(GameState):
    def __init__(self, game: Any, decks: DeckSource):
        super().__init__(game, decks)
        self.total = [0, 0]
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
        self.out: int | None = None  # the partner who sits out a lone hand (§7.4)
        self.gives: list[list[int]] = [[], []]  # help exchange: contractor's cards, partner's cards
        self.trick: list[tuple[int, int]] = []
        self.leader: int | None = None
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
        self.won = [0, 0, 0, 0]
        self.reneges = [0, 0]
        if g.joker:
            self._phase, self.to_act = DISCARD, self.dealer
        else:
            self._after_discard()

    def _after_discard(self) -> None:
        if self.game.ace_no_face:  # §6.5: eligible players, clockwise from the dealer's left
            self.anf_queue = [s for s in ((self.dealer + i) & 3 for i in range(1, 5)) if ace_no_face(self.masks[s])]
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
        seat = self.to_act
        self.deals[-1]["actions"].append((seat, action_id))
        self._legal = None
        if self._phase == PLAY:
            self._play(seat, action_id - self.game.actions.play_base)
        else:
            self._apply(action_id)

    def _legal_ids(self) -> list[int]:
        phase = self._phase
        seat = self.to_act
        if phase == PLAY:
            mask = self.masks[seat]
            trick = self.trick
            if trick and not self.game.penalize:  # penalize: a renege is allowed, and costs (§9.3)
                table = self.table
                follow = mask & table.suit_mask[table.eff[trick[0][1]]]  # cards.playable, inline
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
        if phase == EXCHANGE:
            mask = self.masks[seat]
            if seat == self.out:  # the partner must give the best trump it holds (§7.2.3, E6)
                best = best_trump(mask, self.table)
                if best is not None:
                    return [a.give_base + best]
            return [a.give_base + t for t in bits(mask)]
        if phase == DISCARD:
            return [a.discard_base + t for t in bits(self.masks[seat])]
        if phase == ACE_NO_FACE:
            return [a.claim, a.decline]
        return []

    def _apply(self, action_id: int) -> None:
        a = self.game.actions
        phase = self._phase
        seat = self.to_act
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
                self.out = (self.contractor + 2) & 3
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
                    self.to_act = self.out  # the partner chooses without seeing the card(s) (E5)
                else:  # both have chosen: the swap happens together (§7.2.4)
                    for card in self.gives[0]:
                        self._put(self.out, card)
                    for card in self.gives[1]:
                        self._put(self.contractor, card)
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
        table = self.table
        mask = self.masks[seat]
        if trick and self.game.penalize:  # §9.3: a renege is detected, scored at the hand's end
            led = table.eff[trick[0][1]]
            if table.eff[t] != led and mask & table.suit_mask[led]:
                self.reneges[seat & 1] += 1
        counts = self.counts[seat]  # self._take(seat, t), inline
        left = counts[t] = counts[t] - 1
        if not left:
            self.masks[seat] = mask & ~(1 << t)
        trick.append((seat, t))
        out = self.out
        if len(trick) < (4 if out is None else 3):
            nxt = (seat + 1) & 3
            self.to_act = (nxt + 1) & 3 if nxt == out else nxt  # skip the lone hand's partner
            return
        winner = trick_winner(trick, table)
        self.won[winner] += 1
        self.tricks.append((self.leader, tuple(trick), winner))
        self.trick = []
        self.leader = self.to_act = winner
        if len(self.tricks) == self.game.tricks:
            self._score()

    # -- scoring and the next deal (§9, §10) ---------------------------------------------------------
    def _score(self) -> None:
        g = self.game
        a = g.actions
        side = self.contractor & 1
        side_tricks = [self.won[0] + self.won[2], self.won[1] + self.won[3]]
        changes, made = hand_changes(
            self.level, g.tricks, a.help_level, a.moon_level, side, side_tricks, self.reneges
        )
        self.total = [self.total[0] + changes[0], self.total[1] + changes[1]]
        self.winner_side = game_winner(self.total, g.target, side, g.simultaneous_finish)
        result = {
            "scores": list(self.total),
            "changes": changes,
            "outcome": "made" if made else "set",
            "contract": self._contract(),
            "tricks": side_tricks,
            "tricks_by_seat": list(self.won),
            "reneges": list(self.reneges),
            "trick_log": [
                {"leader": lead, "cards": [[s, TOKENS[t]] for s, t in cards], "winner": win}
                for lead, cards, win in self.tricks
            ],
        }
        self._finish_deal(result)

    def _throw_in(self, why: str) -> None:
        result: dict[str, Any] = {"scores": list(self.total), "changes": [0, 0], "outcome": why}
        if self.claim is not None:
            result["claim"] = self.claim  # public: the claimant's hand is shown (§11)
        self._finish_deal(result)

    def _finish_deal(self, result: dict[str, Any]) -> None:
        max_hands = self.game.max_hands
        if self.winner_side is not None:
            result["winner"] = self.winner_side
        elif max_hands is not None and len(self.deals) >= max_hands:
            self.unfinished = True
            result["end"] = "unfinished"
        self._end_deal(result)
        self.dealer = (self.dealer + 1) & 3  # the deal passes to the left after every hand (§5.5)
        if self.winner_side is not None or self.unfinished:
            self._phase, self.to_act = OVER, None
        else:
            self._deal()

    def _contract(self) -> dict[str, Any] | None:
        if self.contractor is None:
            return None
        return {
            "seat": self.contractor,
            "side": self.contractor & 1,
            "bid": self.game.actions.level_name(self.level),
            "tricks": min(self.level, self.game.tricks),
            "trump": None if self.trump is None else STRAINS[self.trump],
            "alone": self.level >= self.game.actions.help_level,
            "sitting_out": (self.contractor + 2) & 3 if self.level >= self.game.actions.help_level else None,
        }

    # -- what a seat sees (§11) ----------------------------------------------------------------------
    def _visible(self, viewer: int, actor: int, action_id: int) -> bool:
        a = self.game.actions
        if a.discard_base >= 0 and a.discard_base <= action_id < a.discard_base + a.tokens:
            return viewer == actor  # the joker discard: the dealer only
        if a.give_base <= action_id < a.give_base + a.tokens:
            if viewer == actor:
                return True
            pair = (self.contractor, self.out)
            if viewer not in pair:
                return False
            # The partner sees the contractor's card(s) once it has given its own (E5).
            return actor == self.out or self._phase != EXCHANGE
        return True

    def observation(self, seat: int) -> dict[str, Any]:
        g = self.game
        name = g.actions.names
        deal = self.deals[-1]
        a = g.actions
        low = a.give_base  # the give (and, with the joker, discard) blocks: only there can an action be hidden
        high = low + a.tokens * (2 if a.discard_base >= 0 else 1)
        visible = self._visible
        history = [[s, name[i]] for s, i in deal["actions"] if not low <= i < high or visible(seat, s, i)]
        counts = self.counts[seat]
        hand = [TOKENS[t] for t in bits(self.masks[seat]) for _ in range(counts[t])]
        to_act = self.to_act
        trick = [[s, TOKENS[t]] for s, t in self.trick]
        tricks = [
            {"leader": lead, "cards": [[s, TOKENS[t]] for s, t in cards], "winner": win}
            for lead, cards, win in self.tricks
        ]
        auction = self.auction
        exchange = None
        if self.level == g.actions.help_level and self.trump is not None:
            exchange = {
                "contractor": self.contractor,
                "partner": self.out,
                "count": g.exchange,
                "done": self._phase != EXCHANGE,
            }
            if seat == self.contractor or seat == self.out:
                own, other = (0, 1) if seat == self.contractor else (1, 0)
                exchange["given"] = [TOKENS[t] for t in self.gives[own]]
                exchange["received"] = [TOKENS[t] for t in self.gives[other]] if exchange["done"] else []
        active = [s for s in range(4) if s != self.out]  # who plays the tricks
        return {
            "game": g.name,
            "seat": seat,
            "side": seat & 1,
            "players": 4,
            "phase": self._phase,
            "hand_index": len(self.deals) - 1,
            "hands_played": len(self.deal_results),
            "dealer": self.dealer if self._phase != OVER else deal["dealer"],
            "hand": hand,
            "legal_actions": self.legal_actions() if to_act == seat else [],
            "to_act": to_act,
            "history": history,
            "scores": list(self.total),
            "target_score": g.target,
            "tricks_per_hand": g.tricks,
            "auction": [[s, name[g.actions.bid_id[lv]] if lv else "pass"] for s, lv in auction.calls],
            "high_bid": None
            if auction.high_seat is None
            else {"seat": auction.high_seat, "bid": g.actions.level_name(auction.high)},
            "contract": self._contract(),
            "trump": None if self.trump is None else STRAINS[self.trump],
            "exchange": exchange,
            "discarded": TOKENS[self.discarded] if self.discarded is not None and seat == deal["dealer"] else None,
            "active_seats": active,
            "leader": self.leader,
            "trick": trick,
            "tricks": tricks,
            "last_trick": tricks[-1] if tricks else None,
            "tricks_won": [self.won[0] + self.won[2], self.won[1] + self.won[3]],
            "tricks_won_by_seat": list(self.won),
            "last_result": self.deal_results[-1] if self.deal_results else None,
        }

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
        other.won = list(self.won)
        other.reneges = list(self.reneges)
        return other
