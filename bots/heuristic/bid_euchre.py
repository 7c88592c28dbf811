"""A hand-written Bid Euchre strategy that sees only observations (docs/games/bid_euchre.md).

Bidding counts tricks: sure trumps (the unbroken run from the top), other trumps by rank and
length, side aces and guarded kings, voids to ruff with, plus a fixed share for the partner. It
bids the lowest bid that wins the auction within that count, never overbids a partner with a
number, and goes alone (``moon``, ``help``) only when nearly every card is a certain winner. It
names the trump it counts most tricks in.

Play follows the usual rules: the bidders lead winning trumps to draw the opponents' trumps, then
cash winners; follow cheaply (the cheapest card that wins, or the lowest card); never overtake a
partner who is winning; discard the least useful card.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from arena.players.base import MatchInfo, Player

SUITS = "SCDH"
SUIT_SET = frozenset(SUITS)  # "trump in SUIT_SET" is False for None and "NT"
SAME_COLOUR = {"S": "C", "C": "S", "D": "H", "H": "D"}
PLAIN_ORDER = ("9", "10", "J", "Q", "K", "A")  # low to high
TRUMP_ORDER = ("9", "10", "Q", "K", "A")


def rank_suit(card: str) -> tuple[str, str]:
    return card[:-1], card[-1]


def eff(card: str, trump: str | None) -> str:
    """The effective suit: the bowers and the joker are trumps."""
    if card == "JK":
        return trump if trump in SUIT_SET else "JK"
    rank, suit = rank_suit(card)
    if trump in SUIT_SET and rank == "J" and suit in (trump, SAME_COLOUR[trump]):
        return trump
    return suit


def power(card: str, trump: str | None) -> int:
    """Order inside an effective suit; every trump is above every plain card."""
    if card == "JK":
        return 100
    rank, suit = rank_suit(card)
    if trump in SUIT_SET and eff(card, trump) == trump:
        if rank == "J":
            return 90 if suit == trump else 80
        return 50 + TRUMP_ORDER.index(rank)
    return PLAIN_ORDER.index(rank)


def trump_cards(trump: str, joker: bool) -> list[str]:
    """The trumps of ``trump``, high to low (one token per card, copies not repeated)."""
    cards = (["JK"] if joker else []) + ["J" + trump, "J" + SAME_COLOUR[trump]]
    return cards + [r + trump for r in reversed(TRUMP_ORDER)]


def suit_cards(suit: str, trump: str | None) -> list[str]:
    """The plain cards of effective suit ``suit`` (not trumps), high to low."""
    return [r + suit for r in reversed(PLAIN_ORDER) if eff(r + suit, trump) == suit]


def beats(card: str, best: str, trump: str | None) -> bool:
    """Would ``card`` played now beat the trick's current best card ``best``?"""
    e, b = eff(card, trump), eff(best, trump)
    if e == b:
        return power(card, trump) > power(best, trump)
    return trump in SUIT_SET and e == trump


class Strategy(Player):
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.options: dict[str, Any] = {}

    def start_match(self, info: MatchInfo) -> None:
        self.options = dict(info.options)

    # -- the pack and what is still unseen -------------------------------------------------------------
    def _setup(self, obs: dict[str, Any]) -> None:
        self.tricks_per_hand = obs.get("tricks_per_hand", 6)
        self.copies = 2 if self.tricks_per_hand == 12 else 1
        legal = obs["legal_actions"]
        self.joker = bool(self.options.get("joker")) or "JK" in obs["hand"] or any(a.endswith(" JK") for a in legal)
        self.no_trump = bool(self.options.get("allow_no_trump"))

    def _unseen(self, obs: dict[str, Any]) -> Counter:
        """Cards that may still be played against us (whole pack less all we have seen go)."""
        pack = Counter({r + s: self.copies for s in SUITS for r in PLAIN_ORDER})
        if self.joker:
            pack["JK"] = 1
        pack.subtract(obs["hand"])
        for trick in obs["tricks"]:
            pack.subtract(card for _, card in trick["cards"])
        pack.subtract(card for _, card in obs["trick"])
        if obs.get("discarded"):
            pack.subtract([obs["discarded"]])
        exchange = obs.get("exchange") or {}
        if obs["seat"] == exchange.get("contractor"):
            pack.subtract(exchange.get("given", []))  # now with the partner, out of play
        return +pack

    # -- hand evaluation -----------------------------------------------------------------------------
    def _estimate(self, hand: list[str], trump: str) -> tuple[float, int]:
        """(tricks this hand should take with a partner, certain tricks playing alone)."""
        big = self.copies == 2
        held = Counter(hand)
        if trump == "NT":
            trumps: list[str] = []
        else:
            trumps = sorted((c for c in hand if eff(c, trump) == trump), key=lambda c: -power(c, trump))
        # Sure trumps: the unbroken run from the top (both copies of a card to go on past it).
        sure = 0
        if trump != "NT":
            for card in trump_cards(trump, self.joker):
                copies = 1 if card == "JK" else self.copies
                have = held[card]
                sure += have
                if have < copies:
                    break
        total_trumps = (len(trump_cards(trump, self.joker)) * self.copies - (self.copies - 1) * self.joker
                        if trump != "NT" else 0)
        outstanding = total_trumps - len(trumps)
        est = float(sure)
        for card in trumps[sure:]:
            p = power(card, trump)
            est += 0.6 if p >= 80 else 0.45 if p >= 54 else 0.3 if p >= 53 else 0.2
        if len(trumps) >= (5 if big else 3):
            est += 0.35 * (len(trumps) - (4 if big else 2))
        side_sure = 0
        side_est = 0.0
        voids = 0
        for suit in SUITS:
            if suit == trump:
                continue
            mine = [c for c in hand if eff(c, trump) == suit]
            if not mine:
                voids += 1
                continue
            order = suit_cards(suit, trump)
            run = 0
            for card in order:  # a run of winners from the ace down
                have = held[card]
                run += have
                if have < self.copies:
                    break
            run = min(run, len(mine))
            side_sure += run
            if run:
                cash = 0.85 if len(mine) <= (4 if big else 2) else 0.7
                side_est += cash + 0.6 * (run - 1)
            elif any(c[:-1] == "K" for c in mine) and len(mine) >= 2:
                side_est += 0.3
        if trump == "NT":
            side_est *= 1.05
        elif len(trumps) >= 2:
            est += 0.3 * voids
        est += side_est
        # Playing alone: once the sure run has drawn every outstanding trump (even all in one hand),
        # the other trumps and the side runs are certain too.
        if trump == "NT":
            lone = side_sure
        elif sure >= outstanding:
            lone = len(trumps) + side_sure
        else:
            lone = sure
        return est, lone

    def _best_strain(self, hand: list[str], alone: bool = False) -> tuple[str, float, int]:
        strains = list(SUITS) + (["NT"] if self.no_trump else [])
        best = None
        for strain in strains:
            est, lone = self._estimate(hand, strain)
            if strain == "NT":
                est -= 0.5  # no trumps to ruff with: only clearly better hands
            key = (lone, est) if alone else (est, lone)
            if best is None or key > best[0]:
                best = (key, strain, est, lone)
        assert best is not None  # there is always a strain
        return best[1], best[2], best[3]

    # -- decisions ---------------------------------------------------------------------------------------
    def act(self, obs: dict[str, Any]) -> str:
        legal = obs["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        self._setup(obs)
        phase = obs["phase"]
        if phase == "play":
            choice = self._play(obs)
        elif phase == "auction":
            choice = self._bid(obs)
        elif phase == "trump":
            choice = self._trump(obs)
        elif phase == "exchange":
            choice = self._give(obs)
        elif phase == "discard":
            choice = self._discard(obs)
        elif phase == "ace_no_face":
            _, est, _ = self._best_strain(obs["hand"])
            choice = "claim" if est + self._partner_share(obs) < 3.5 else "decline"
        else:
            choice = legal[0]
        return choice if choice in legal else self.rng.choice(legal)

    def _partner_share(self, obs: dict[str, Any]) -> float:
        share = 0.9 if self.copies == 1 else 2.0
        partner = (obs["seat"] + 2) % 4
        for seat, call in obs["auction"]:
            if seat == partner and call.startswith("bid ") and call[4:].isdigit():
                share = max(share, int(call[4:]) - (1.5 if self.copies == 1 else 3.0))
        return share

    def _bid(self, obs: dict[str, Any]) -> str:
        legal = obs["legal_actions"]
        hand = obs["hand"]
        t = self.tricks_per_hand
        _, _, lone = self._best_strain(hand, alone=True)
        if lone >= t and "bid moon" in legal:
            return "bid moon"
        k = self.options.get("help_exchange_count", 1)
        if lone >= t - k and "bid help" in legal and self._help_ok(hand):
            return "bid help"
        high = obs.get("high_bid")
        partner_high = high is not None and high["seat"] == (obs["seat"] + 2) % 4
        _, est, _ = self._best_strain(hand)
        want = int(est + self._partner_share(obs))
        numbers = [a for a in legal if a[4:].isdigit()]
        if "pass" in legal and (partner_high or not numbers):
            return "pass"
        fitting = [a for a in numbers if int(a[4:]) <= want]
        if fitting:
            return fitting[0]
        if "pass" in legal:
            return "pass"
        return numbers[0] if numbers else legal[0]  # a stuck dealer bids as low as it may

    def _help_ok(self, hand: list[str]) -> bool:
        """The partner's gift must almost surely be a winner: its best trump, or, holding no trump,
        its best card (the user's rule document), a side ace, which wins once the trumps are drawn. So
        the chance that it holds neither an outstanding trump nor a side ace must be small."""
        strain, _, _ = self._best_strain(hand, alone=True)
        if strain == "NT":
            return False
        total = len(trump_cards(strain, self.joker)) * self.copies - (self.copies - 1) * self.joker
        outstanding = total - sum(1 for c in hand if eff(c, strain) == strain)
        aces = 3 * self.copies - sum(1 for c in hand if c[0] == "A" and eff(c, strain) != strain)
        unseen = 4 * self.tricks_per_hand + self.joker - len(hand)
        partner = self.tricks_per_hand
        miss = math.comb(unseen - outstanding - aces, partner) / math.comb(unseen, partner)
        return miss <= 0.12

    def _trump(self, obs: dict[str, Any]) -> str:
        contract = obs["contract"] or {}
        alone = bool(contract.get("alone"))
        strain, _, _ = self._best_strain(obs["hand"], alone=alone)
        return f"trump {strain}"

    def _discard(self, obs: dict[str, Any]) -> str:
        """The joker variant's extra card: keep the six (twelve) that count most tricks."""
        hand = obs["hand"]
        best = None
        for card in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(card)
            _, est, lone = self._best_strain(rest)
            key = (est, lone, -power(card, None) if card != "JK" else -100)
            if best is None or key > best[0]:
                best = (key, card)
        assert best is not None  # the hand is never empty
        return f"discard {best[1]}"

    def _give(self, obs: dict[str, Any]) -> str:
        legal = obs["legal_actions"]
        trump = obs["trump"]
        cards = [a[5:] for a in legal]
        contract = obs["contract"]
        if obs["seat"] == contract["seat"]:
            # The contractor gives its least useful card: the lowest plain card of its shortest suit.
            def waste(card: str) -> tuple:
                suit = eff(card, trump)
                length = sum(1 for c in obs["hand"] if eff(c, trump) == suit)
                return (suit == trump, power(card, trump), length)

            return f"give {min(cards, key=waste)}"
        # The partner holds no trump (else its gift is forced): give the highest card.
        return f"give {max(cards, key=lambda c: (power(c, trump), c[:-1] == 'A'))}"

    # -- play --------------------------------------------------------------------------------------------
    def _play(self, obs: dict[str, Any]) -> str:
        trump = obs["trump"]
        cards = [a[5:] for a in obs["legal_actions"]]
        trick = obs["trick"]
        unseen = self._unseen(obs)
        seat = obs["seat"]
        contract = obs["contract"]
        bidders = contract["side"] == seat % 2
        if not trick:
            return "play " + self._lead(cards, obs, unseen, trump, bidders)
        led = eff(trick[0][1], trump)
        best_seat, best = trick[0]
        for s, c in trick[1:]:
            if beats(c, best, trump):
                best_seat, best = s, c
        active = obs["active_seats"]
        played = {s for s, _ in trick}
        after = [s for s in active if s not in played and s != seat]
        partner = (seat + 2) % 4
        winners = [c for c in cards if beats(c, best, trump)]
        low = min(cards, key=lambda c: self._value(c, trump, obs["hand"]))
        if best_seat == partner:
            return "play " + low  # never overtake a partner who is winning
        if not winners:
            return "play " + low
        cheapest = min(winners, key=lambda c: (eff(c, trump) == trump, power(c, trump)))
        if not after:
            return "play " + cheapest  # last to play: win as cheaply as possible
        safe = [c for c in winners if self._boss(c, trump, unseen, led)]
        if safe:
            return "play " + min(safe, key=lambda c: (eff(c, trump) == trump, power(c, trump)))
        if partner in after:
            return "play " + low  # second hand low: the partner still plays
        return "play " + max(winners, key=lambda c: (eff(c, trump) != trump, power(c, trump)))

    def _lead(self, cards: list[str], obs: dict[str, Any], unseen: Counter, trump: str, bidders: bool) -> str:
        trumps_out = sum(n for c, n in unseen.items() if trump in SUIT_SET and eff(c, trump) == trump)
        my_trumps = [c for c in cards if trump in SUIT_SET and eff(c, trump) == trump]
        if bidders and my_trumps and trumps_out:
            top = max(my_trumps, key=lambda c: power(c, trump))
            if self._boss(top, trump, unseen, trump):
                return top  # draw the opponents' trumps with a sure winner
        # Cash sure winners in side suits (safe once no trump is out, or led by the defence anyway).
        side_boss = [c for c in cards if eff(c, trump) != trump and self._boss(c, trump, unseen, eff(c, trump))]
        if side_boss and (not trumps_out or not bidders or not my_trumps):
            return max(side_boss, key=lambda c: power(c, trump))
        if bidders and my_trumps and trumps_out:
            contract = obs["contract"]
            if contract.get("alone") or len(my_trumps) >= 2:
                return max(my_trumps, key=lambda c: power(c, trump))
        if side_boss:
            return max(side_boss, key=lambda c: power(c, trump))
        plain = [c for c in cards if eff(c, trump) != trump]
        if plain:
            # A low card of the shortest plain suit (toward a void), or the partner's strength.
            def key(card: str) -> tuple:
                suit = eff(card, trump)
                return (sum(1 for c in cards if eff(c, trump) == suit), power(card, trump))

            return min(plain, key=key)
        if trump in SUIT_SET and my_trumps and not bidders:
            return min(my_trumps, key=lambda c: power(c, trump))
        return max(cards, key=lambda c: power(c, trump))

    def _boss(self, card: str, trump: str | None, unseen: Counter, suit: str) -> bool:
        """No unseen card of ``card``'s effective suit ranks higher (ruffs are the caller's concern)."""
        e = eff(card, trump)
        p = power(card, trump)
        for other in unseen:
            oe = eff(other, trump)
            if oe == e and power(other, trump) > p:
                return False
        return True

    def _value(self, card: str, trump: str | None, hand: list[str]) -> tuple:
        """How much a card is worth keeping: trumps most, then high cards; short suits least."""
        e = eff(card, trump)
        is_trump = trump in SUIT_SET and e == trump
        length = sum(1 for c in hand if eff(c, trump) == e)
        return (is_trump, power(card, trump), length)
