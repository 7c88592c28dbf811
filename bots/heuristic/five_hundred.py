"""The heuristic Five Hundred strategy: bid from counted tricks, exchange and play by sound rules.

It sees only observations (action strings and card tokens) and knows the public rules
(docs/games/five_hundred.md): the pack of each player count (§2), the bowers and the joker
(R-2.4), the suitless joker in no trumps (§7.3).

* Bidding: estimate the side's tricks in each strain — the joker, the bowers, trump honours and
  length, side aces and kings, plus what a partner and the kitty usually bring — and bid the
  cheapest legal bid the estimate supports. Misère only with a hand of low cards.
* Exchange: keep trumps and aces, throw the lowest cards of the shortest side suits (voids ruff);
  for misère throw the joker and the highest cards. In no trumps keep the joker suitless (it wins any
  trick it is played to); in misère name the suit it hides best in.
* Play: the contractor draws trumps while holding the top one; win a trick as cheaply as possible,
  never overtake a partner who is winning, discard the lowest card; the suitless joker is played
  only to win a trick an opponent would take.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from arena.games.five_hundred.cards import suit_ranks as engine_suit_ranks
from arena.players.base import MatchInfo, Player

SUITS = "SCDH"
TWIN = {"S": "C", "C": "S", "D": "H", "H": "D"}
PLAIN = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A"]
RANK = {rank: i for i, rank in enumerate(PLAIN)}
# what the rest of one's side usually takes; with five, the partners the contractor names:
# 2.0 measured best of 0.4-4.0 on seeded deals (docs/games/five_hundred.md), where 0.8 had been set
# while no partner was ever named
PARTNER_TRICKS = {2: 0.0, 3: 0.0, 4: 1.6, 5: 2.0, 6: 2.4}


def suit_ranks(players: int, suit: str) -> list[str]:
    """The ranks of one suit in the pack of ``players``, low to high: the engine's pack (§2.1, §2.2)."""
    return engine_suit_ranks(players, SUITS.index(suit))


def full_pack(players: int) -> list[str]:
    return [rank + suit for suit in SUITS for rank in suit_ranks(players, suit)] + ["JK"]


class Context:
    """How cards behave in one contract: the trump suit, or no trumps with the joker's suit."""

    def __init__(self, trump: str | None, joker_suit: str | None):
        self.trump = trump
        self.joker_suit = joker_suit

    def eff(self, card: str) -> str | None:
        """The effective suit (R-2.5); None for the suitless joker."""
        if card == "JK":
            return self.trump or self.joker_suit
        if self.trump and card[:-1] == "J" and card[-1] == TWIN[self.trump]:
            return self.trump
        return card[-1]

    def strength(self, card: str) -> int:
        """Order within the card's effective suit (higher wins); the suitless joker beats all."""
        if card == "JK":
            return 1000 if self.eff(card) is None else 40
        if self.trump and self.eff(card) == self.trump and card[:-1] == "J":
            return 39 if card[-1] == self.trump else 38
        return RANK[card[:-1]]

    def power(self, card: str, led: str | None) -> int:
        """How strongly ``card`` plays to a trick led in ``led`` (R-7.4); 0 can never win."""
        suit = self.eff(card)
        if suit is None:
            return 5000
        if self.trump and suit == self.trump:
            return 1000 + self.strength(card)
        return 100 + self.strength(card) if suit == led else 0


def _card(action: str) -> str:
    return action.split()[1]


class Strategy(Player):
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.players = 4

    def start_match(self, info: MatchInfo) -> None:
        self.players = int(info.options.get("players", 4))

    # -- the decision ------------------------------------------------------------------------
    def act(self, obs: dict[str, Any]) -> str:
        legal = obs["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        self.players = obs.get("players", self.players)
        phase = obs["phase"]
        if phase == "auction":
            return self.bid(obs, legal)
        if phase == "discard":
            return self.discard(obs, legal)
        if phase == "nominate":
            return self.nominate(obs, legal)
        if phase == "partners":
            return self.partners(obs, legal)
        if phase == "play":
            return self.play(obs, legal)
        return self.rng.choice(legal)

    # -- the auction -------------------------------------------------------------------------
    def bid(self, obs: dict[str, Any], legal: list[str]) -> str:
        if "look" in legal:
            return "look"
        hand = obs["hand"]
        extra = PARTNER_TRICKS.get(self.players, 0.0) + 0.5  # partner(s) and the kitty
        estimates = {strain: tricks + extra for strain, tricks in hand_tricks(tuple(hand)).items()}
        high = obs.get("high_bid")
        partner_high = high is not None and high["seat"] != obs["seat"] and obs["sides"][high["seat"]] == obs["side"]
        choices = []
        for action in legal:
            words = action.split()
            if words[0] != "bid":
                continue
            call = words[1]
            if call in ("MIS", "OM", "BM"):
                if call == "MIS" and misere_hand(hand):
                    choices.append((250, action))
                continue
            call = call.removesuffix("-SK")
            level, strain = int(call[:-2] if call.endswith("NT") else call[:-1]), ("NT" if call.endswith("NT") else call[-1])
            margin = 0.0 if not partner_high else 1.0  # outbid a partner only with clearly more
            if level + margin <= estimates[strain]:
                value = 40 + 20 * "SCDHN".index(strain[0]) + 100 * (level - 6)
                choices.append((value - 15 * (level + margin > estimates[strain] - 0.5), action))
        if not choices:
            return "pass"
        # the cheapest bid the hand supports in its best strain
        best_strain = max(estimates, key=estimates.__getitem__)
        in_best = [c for c in choices if c[1].split()[1].removesuffix("-SK").endswith(best_strain)]
        pool = in_best or choices
        return min(pool, key=lambda c: (c[0], c[1].endswith("-SK")))[1]

    # -- the kitty exchange, the joker, partners ---------------------------------------------
    def discard(self, obs: dict[str, Any], legal: list[str]) -> str:
        contract = obs["contract"]
        hand = [_card(a) for a in legal]
        if contract["misere"]:
            return "discard " + max(hand, key=lambda c: (c == "JK", RANK.get(c[:-1], 99)))
        ctx = Context(contract["trump"], None)
        lengths = {s: sum(1 for c in hand if ctx.eff(c) == s) for s in SUITS}

        def keep_value(card: str) -> float:
            suit = ctx.eff(card)
            if suit is None or (ctx.trump and suit == ctx.trump):
                return 1000 + ctx.strength(card)
            if card[:-1] == "A":
                return 500
            return ctx.strength(card) + 2 * lengths[suit]  # short suits go first: voids ruff

        return "discard " + min(hand, key=keep_value)

    def nominate(self, obs: dict[str, Any], legal: list[str]) -> str:
        if not obs["contract"]["misere"] and "nominate none" in legal:
            return "nominate none"  # the suitless joker wins any trick it is played to
        hand = [c for c in obs["hand"] if c != "JK"]
        counts = {s: sum(1 for c in hand if c[-1] == s) for s in SUITS}
        best = max(SUITS, key=lambda s: counts[s])
        return f"nominate {best}" if f"nominate {best}" in legal else legal[0]

    def partners(self, obs: dict[str, Any], legal: list[str]) -> str:
        # five players (R-6.1): the bid counted on partners' tricks (PARTNER_TRICKS), so name as
        # many as allowed, the seats furthest behind first (a partner scores with the contract, so
        # the leader is not lifted). Preferring the seats that bid was measured and gained nothing
        options = {frozenset(int(s) for s in a.split()[1:] if s != "none"): a for a in legal if a.startswith("partners")}
        if not options:
            return legal[0]
        others = sorted({s for option in options for s in option}, key=lambda s: (obs["scores"][obs["sides"][s]], s))
        return options[frozenset(others[:max(map(len, options))])]  # every set up to the most allowed is legal

    # -- the play ----------------------------------------------------------------------------
    def play(self, obs: dict[str, Any], legal: list[str]) -> str:
        contract = obs["contract"]
        ctx = Context(contract["trump"], contract.get("joker_suit"))
        trick = obs["trick"]
        seat = obs["seat"]
        sides = obs["sides"]
        contracting = seat in contract["seats"]
        played = {card for t in obs["tricks"] for _, card in t["cards"]} | {c for _, c in trick}
        hand = obs["hand"]
        if contract["misere"]:
            return self.play_misere(obs, legal, ctx, contracting)
        if not trick:
            return self.lead(obs, legal, ctx, contracting, played, hand)
        led = obs["led_suit"]
        best_seat, best_card = max(trick, key=lambda sc: ctx.power(sc[1], led))
        best = ctx.power(best_card, led)
        active = self.players - len(obs.get("sitting_out", []))
        last = len(trick) == active - 1
        # a partner: of one's side, or with five players of the hand's contracting side
        partner_winning = sides[best_seat] == obs["side"] or (contracting and best_seat in contract["seats"])
        options = [(a, _card(a)) for a in legal]
        beaters = [(a, c) for a, c in options if ctx.power(c, led) > best]
        if partner_winning and (last or self.is_top(best_card, ctx, played, hand)):
            return self.cheapest(options, ctx, led)
        if beaters:
            joker = [(a, c) for a, c in beaters if c == "JK" and ctx.eff("JK") is None]
            others = [b for b in beaters if b not in joker]
            if others:
                return min(others, key=lambda ac: ctx.power(ac[1], led))[0]
            if joker and not partner_winning:
                return joker[0][0]
        return self.cheapest(options, ctx, led)

    def lead(self, obs, legal, ctx, contracting, played, hand) -> str:
        options = [(a, _card(a)) for a in legal if len(a.split()) == 2]  # not the suitless joker leads
        if not options:
            return legal[0]
        trump = ctx.trump
        if trump:
            trumps = [(a, c) for a, c in options if ctx.eff(c) == trump]
            outstanding = [c for c in full_pack(self.players) if ctx.eff(c) == trump and c not in played and c not in hand]
            if contracting and trumps and outstanding:
                top = max(trumps, key=lambda ac: ctx.strength(ac[1]))
                if all(ctx.strength(top[1]) > ctx.strength(c) for c in outstanding):
                    return top[0]  # draw trumps while holding the best one
        winners = [(a, c) for a, c in options if ctx.eff(c) != trump and self.is_top(c, ctx, played, hand)]
        if winners:
            return max(winners, key=lambda ac: ctx.strength(ac[1]))[0]
        if contracting and trump:
            trumps = [(a, c) for a, c in options if ctx.eff(c) == trump]
            side = [(a, c) for a, c in options if ctx.eff(c) != trump]
            if side:
                return min(side, key=lambda ac: (sum(1 for x in hand if ctx.eff(x) == ctx.eff(ac[1])), ctx.strength(ac[1])))[0]
            return min(trumps, key=lambda ac: ctx.strength(ac[1]))[0]
        side = [(a, c) for a, c in options if ctx.eff(c) != trump] or options
        suits = [s for s in SUITS if any(ctx.eff(c) == s for _, c in side)]  # a fixed order: ties reproducible
        longest = max(suits, key=lambda s: sum(1 for x in hand if ctx.eff(x) == s))
        return min((ac for ac in side if ctx.eff(ac[1]) == longest), key=lambda ac: ctx.strength(ac[1]))[0]

    def play_misere(self, obs, legal, ctx, contracting) -> str:
        options = [(a, _card(a)) for a in legal]
        trick = obs["trick"]
        contractor = obs["contract"]["contractor"]
        if not trick:
            plain = [(a, c) for a, c in options if len(a.split()) == 2] or options
            return min(plain, key=lambda ac: ctx.strength(ac[1]))[0]
        led = obs["led_suit"]
        best = max(ctx.power(c, led) for _, c in trick)
        if contracting:
            losing = [(a, c) for a, c in options if ctx.power(c, led) < best]
            if losing:  # the highest card that still loses
                return max(losing, key=lambda ac: (ctx.power(ac[1], led), ctx.strength(ac[1])))[0]
            return min(options, key=lambda ac: ctx.power(ac[1], led))[0]
        played_by_contractor = [c for s, c in trick if s == contractor]
        if played_by_contractor and max(trick, key=lambda sc: ctx.power(sc[1], led))[0] == contractor:
            under = [(a, c) for a, c in options if ctx.power(c, led) < best]
            if under:  # let the contractor keep the trick
                return max(under, key=lambda ac: ctx.strength(ac[1]))[0]
        return min(options, key=lambda ac: (ctx.power(ac[1], led), ctx.strength(ac[1])))[0]

    def cheapest(self, options, ctx, led) -> str:
        """The least useful card: no trump if possible, the lowest, from the shortest suit."""
        def cost(ac):
            card = ac[1]
            suit = ctx.eff(card)
            if suit is None:
                return 10_000
            if ctx.trump and suit == ctx.trump:
                return 1000 + ctx.strength(card)
            return ctx.strength(card) + (300 if card[:-1] == "A" else 0)

        return min(options, key=cost)[0]

    def is_top(self, card: str, ctx: Context, played: set[str], hand: list[str]) -> bool:
        """True if no unseen card of the same effective suit ranks above ``card``."""
        suit = ctx.eff(card)
        if suit is None:
            return True
        strength = ctx.strength(card)
        for other in full_pack(self.players):
            if other in played or other in hand or other == card:
                continue
            if ctx.eff(other) == suit and ctx.strength(other) > strength:
                return False
        return True


# -- hand evaluation -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def hand_tricks(hand: tuple[str, ...]) -> dict[str, float]:
    """The tricks ``hand`` should take in each strain (each suit as trumps, then ``NT``), kept for
    the hands met last: a seat bids several times on one hand, and a search's rollouts bid on the
    same sampled hands once per candidate (the auction's heuristic was most of a Five Hundred
    search's time). A pure function of the hand, so the cache changes no choice."""
    held, ranks = set(hand), _suit_ranks(hand)
    estimates = {suit: _trump_tricks(held, ranks, suit) for suit in SUITS}
    estimates["NT"] = notrump_tricks(hand)
    return estimates


def trump_tricks(hand: list[str] | tuple[str, ...], trump: str) -> float:
    """The tricks a hand should take with ``trump`` as trumps (counted honours, length, side aces)."""
    return _trump_tricks(set(hand), _suit_ranks(hand), trump)


def _suit_ranks(hand: list[str] | tuple[str, ...]) -> dict[str, set[str]]:
    """The ranks ``hand`` holds in each printed suit (the joker in none)."""
    return {suit: {c[:-1] for c in hand if c[-1] == suit and c != "JK"} for suit in SUITS}


def _trump_tricks(held: set[str], ranks: dict[str, set[str]], trump: str) -> float:
    """trump_tricks from the hand's cards and each printed suit's ranks (a single pack: a card
    at most once), made once per hand for all four trumps: the search's auction inference bids
    on thousands of sampled hands a second."""
    twin = TWIN[trump]
    left = "J" in ranks[twin]  # the left bower, a trump
    n = len(ranks[trump]) + ("JK" in held) + left
    tricks = 0.0
    ladder = ["JK", "J" + trump, "J" + twin, "A" + trump, "K" + trump, "Q" + trump]
    for place, card in enumerate(ladder):
        if card in held:
            guarded = n >= place + 1 or place < 2
            tricks += 1.0 if guarded else 0.5
    tricks += max(0, n - 4) * 0.8  # long trumps take tricks once the others are drawn
    for suit in SUITS:
        if suit == trump:
            continue
        side = ranks[suit] - {"J"} if suit == twin and left else ranks[suit]
        if "A" in side:
            tricks += 0.9
            if "K" in side:
                tricks += 0.6
        elif "K" in side and len(side) >= 2:
            tricks += 0.4
        if not side and n >= 4:
            tricks += 0.4  # a void to ruff in
    return tricks


def notrump_tricks(hand: list[str] | tuple[str, ...]) -> float:
    tricks = 1.0 if "JK" in hand else 0.0
    for suit in SUITS:
        cards = sorted((c for c in hand if c != "JK" and c[-1] == suit), key=lambda c: -RANK[c[:-1]])
        ranks = [c[:-1] for c in cards]
        top = 0
        for expected in ("A", "K", "Q"):
            if expected in ranks:
                top += 1
            else:
                break
        tricks += top * 0.95
        if top and len(cards) >= 5:
            tricks += (len(cards) - 4) * 0.6
        elif "K" in ranks and "A" not in ranks and len(cards) >= 2:
            tricks += 0.4
    return tricks - 0.5  # no trumps punishes every hole


def misere_hand(hand: list[str]) -> bool:
    """Low cards everywhere: at most two cards above 9 (the kitty discard can take three)."""
    if "JK" in hand:
        return False
    high = [c for c in hand if RANK[c[:-1]] >= RANK["10"]]
    return len(high) <= 2 and all(RANK[c[:-1]] <= RANK["9"] for c in hand if c not in high)
