"""A hand-written strategy for 56 (docs/games/fifty_six.md). It sees only observations.

Bidding: it values each strain by its jacks and nines, its card points and its trump length
(plus what its partners' bid forms promised), and bids the cheapest legal amount in the best
strain while that stays within its estimate. The form tells the partner what it holds (§8.3):
``bid 30 H`` holds the jack of hearts, ``bid H 30`` is strong hearts without the jack,
``bid +2 H`` is two high hearts and no other heart, ``bid 30 NT`` is jacks in two suits,
``noes`` says it holds none of the suit last named. It doubles an opponent's bid that its own
valuation says the opponents cannot make, and redoubles a doubled bid of its side that it
expects to make with room to spare.

Play: it counts the cards still unseen and the suits each player has shown out of, cashes sure
winners, draws trumps when its side declared, gives points to a partner whose card will hold,
wins point-rich tricks with the cheapest card that holds, and otherwise throws its least
valuable card.
"""

from __future__ import annotations

import functools
import random
from collections import Counter, defaultdict
from typing import Any

from arena.players.base import MatchInfo, Player

SUITS = "SCDH"
ORDER = ("7", "8", "Q", "K", "10", "A", "9", "J")  # strength low to high (§4.2)
STRENGTH = {rank: i for i, rank in enumerate(ORDER)}
POINTS = {"J": 3, "9": 2, "A": 1, "10": 1}

# Expected points of the side that names a strain, from the bidder's hand: a linear fit on
# self-play deals (heuristic players on every seat, a random strain named at 28). BASE depends on
# the share of the seats the side holds and on the hand size; the rest are per card.
BASE = {(12, 2): 15.0, (8, 2): 20.0, (8, 3): 7.0, (8, 4): 5.0}  # (hand size, teams at the table)
PER_POINT = 0.15
PER_TRUMP = 2.0
PER_TRUMP_JACK = 3.5
PER_TRUMP_NINE = 2.5
PER_SIDE_JACK = 3.0
NT_BONUS = 4.8
NT_PER_JACK = 3.0
PARTNER_PROMISE = {"number_suit": 5.5, "suit_number": 3.5, "number_nt": 3.0}  # plus_suit: 3 a card
BID_MARGIN = 4.5  # the fit's error is about 8 points; a lost contract costs twice a made one
DOUBLE_MARGIN = 6.0


def split(token: str) -> tuple[str, str]:
    return token[:-1], token[-1]


def points(token: str) -> int:
    return POINTS.get(token[:-1], 0)


def strength(token: str) -> int:
    return STRENGTH[token[:-1]]


STRAINS = (*SUITS, "NT")


@functools.lru_cache(maxsize=4096)
def hand_values(hand: tuple[str, ...], hand_size: int, teams: int) -> tuple[float, ...]:
    """The hand's own part of :meth:`Strategy.estimates` (S C D H NT, before a partner's promises),
    kept for the hands met last: a seat calls several times on one hand, and a search's rollouts and
    its auction inference call on the same sampled hands again and again (most of a 56 auction
    decision's time). A pure function of its arguments, so the cache changes no choice."""
    total = sum(points(t) for t in hand)
    by_suit = {s: [t for t in hand if t[-1] == s] for s in SUITS}
    jacks = {s: sum(1 for t in by_suit[s] if t[:-1] == "J") for s in SUITS}
    nines = {s: sum(1 for t in by_suit[s] if t[:-1] == "9") for s in SUITS}
    base = BASE.get((hand_size, teams), 56.0 / teams - 13)
    base += PER_POINT * total
    values = []
    for s in SUITS:
        side_jacks = sum(jacks[o] for o in SUITS if o != s)
        values.append(base + PER_TRUMP * len(by_suit[s]) + PER_TRUMP_JACK * jacks[s] + PER_TRUMP_NINE * nines[s]
                      + PER_SIDE_JACK * side_jacks)
    values.append(base + NT_BONUS + NT_PER_JACK * sum(jacks.values()))
    return tuple(values)


class Strategy(Player):
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.seat = 0

    def start_match(self, info: MatchInfo) -> None:
        self.seat = info.seat

    # -- the decision ------------------------------------------------------------------------
    def act(self, observation: dict[str, Any]) -> str:
        legal = observation["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        if observation["phase"] == "auction":
            choice = self.call(observation, legal)
        else:
            choice = self.play(observation, legal)
        return choice if choice in legal else legal[0]

    # -- auction -----------------------------------------------------------------------------
    def partners(self, obs: dict[str, Any]) -> set[int]:
        sides = obs["seat_sides"]
        return {s for s in obs["active_seats"] if sides[s] == obs["side"] and s != obs["seat"]}

    def teams_at_table(self, obs: dict[str, Any]) -> int:
        sides = obs["seat_sides"]
        return len({sides[s] for s in obs["active_seats"]})

    def estimates(self, obs: dict[str, Any]) -> dict[str, float]:
        """Expected points of my side for each strain it might name (S C D H NT)."""
        # Points a partner's bids promise, per strain. A form says the same thing however often it
        # is repeated, so each partner counts once per strain, by its strongest promise (summing
        # them made every raise in a bidding war look like new strength: both sides climbed to 56
        # and redoubled, and lost nearly every such contract).
        strongest: dict[tuple[int, str], float] = {}
        partners = self.partners(obs)
        for seat, action in obs["history"]:
            if seat in partners and action.startswith("bid"):
                form, strain = self.describe(action)
                worth = 3.0 * int(action.split()[1]) if form == "plus_suit" else PARTNER_PROMISE.get(form, 0.0)
                strongest[seat, strain] = max(worth, strongest.get((seat, strain), 0.0))
        promised: defaultdict[str, float] = defaultdict(float)
        for (_, strain), worth in strongest.items():
            promised[strain] += worth
        own = hand_values(tuple(obs["hand"]), obs["hand_size"], self.teams_at_table(obs))
        return {strain: value + promised[strain] for strain, value in zip(STRAINS, own)}

    def opponents_expect(self, obs: dict[str, Any]) -> float:
        """What the side holding the bid should take, judged from my hand alone."""
        hand = obs["hand"]
        n = len(obs["active_seats"])
        their_share = 56.0 * len(self.partners(obs) | {obs["seat"]}) / n  # sides are the same size
        return their_share + 4.0 - 0.7 * (sum(points(t) for t in hand) - 56.0 / n)

    @staticmethod
    def describe(action: str) -> tuple[str, str]:
        """The (form, strain) of a bid string."""
        words = action.split()[1:]
        if words[0].startswith("+"):
            return ("plus_noes", "NT") if words[1] == "noes" else ("plus_suit", words[1])
        if words[0] in SUITS:
            return "suit_number", words[0]
        if words[1] == "noes":
            return "number_noes", "NT"
        return ("number_nt", "NT") if words[1] == "NT" else ("number_suit", words[1])

    def call(self, obs: dict[str, Any], legal: list[str]) -> str:
        auction = obs["auction"]
        high = auction["high_bid"]
        mine = high is not None and high["side"] == obs["side"]
        values = self.estimates(obs)
        strain = max(values, key=values.__getitem__)
        value = values[strain]
        if mine:
            if "redouble" in legal and values.get(high["strain"], value) >= high["amount"] + 8:
                return "redouble"
            return "pass"
        current = high["amount"] if high else 0
        amount = max(28, current + 1)
        if amount <= 56 and value - BID_MARGIN >= amount:
            bid = self.bid_string(obs, legal, strain, amount, current)
            if bid is not None:
                return bid
        if "double" in legal and high is not None:
            if high["amount"] >= self.opponents_expect(obs) + DOUBLE_MARGIN:
                return "double"
        return "pass"

    def bid_string(self, obs, legal, strain: str, amount: int, current: int) -> str | None:
        hand = obs["hand"]
        if strain == "NT":
            last_suit = None
            for _, action in obs["history"]:
                if action.startswith("bid"):
                    form, named = self.describe(action)
                    if named in SUITS:
                        last_suit = named
            if last_suit is not None and not any(t[-1] == last_suit for t in hand):
                plus = f"bid +{amount - current} noes" if current else ""
                for text in (plus, f"bid {amount} noes"):
                    if text in legal:
                        return text
            return f"bid {amount} NT" if f"bid {amount} NT" in legal else None
        cards = [t for t in hand if t[-1] == strain]
        high = [t for t in cards if t[:-1] in ("J", "9")]
        if current and cards and len(high) == len(cards) and current + len(high) <= 56:
            text = f"bid +{len(high)} {strain}"
            if text in legal and current + len(high) <= self.estimates(obs)[strain] - BID_MARGIN:
                return text
        if any(t[:-1] == "J" for t in cards):
            text = f"bid {amount} {strain}"
        else:
            text = f"bid {strain} {amount}"
        return text if text in legal else None

    # -- play --------------------------------------------------------------------------------
    def unseen(self, obs: dict[str, Any]) -> Counter:
        """Cards not in my hand and not yet played this hand."""
        ranks = ORDER if len(obs["active_seats"]) == 8 else ORDER[2:]
        left = Counter({r + s: 2 for s in SUITS for r in ranks})
        left.subtract(obs["hand"])
        for trick in obs["tricks"]:
            left.subtract(card for _, card in trick["cards"])
        left.subtract(card for _, card in obs["trick"])
        return +left

    def voids(self, obs: dict[str, Any]) -> dict[int, set[str]]:
        out: dict[int, set[str]] = {}
        for cards in [t["cards"] for t in obs["tricks"]] + ([obs["trick"]] if obs["trick"] else []):
            led = cards[0][1][-1]
            for seat, card in cards[1:]:
                if card[-1] != led:
                    out.setdefault(seat, set()).add(led)
        return out

    def play(self, obs: dict[str, Any], legal: list[str]) -> str:
        cards = [a.split()[1] for a in legal]
        trump = obs["trump"] if obs["trump"] != "NT" else None  # no trump suit
        unseen = self.unseen(obs)
        voids = self.voids(obs)
        partners = self.partners(obs)
        trick = obs["trick"]
        active = obs["active_seats"]
        me = obs["seat"]
        i = active.index(me)
        order = active[i:] + active[:i]
        to_come = order[1: len(active) - len(trick)]
        opponents_to_come = [s for s in to_come if s not in partners]
        if not trick:
            return "play " + self.lead(obs, cards, trump, unseen, voids, partners, active)

        led = trick[0][1][-1]
        best_seat, best = self.best(trick, trump)
        trick_points = sum(points(c) for _, c in trick)

        def beats(card: str, other: str) -> bool:
            if card[-1] == other[-1]:
                return strength(card) > strength(other)
            return card[-1] == trump

        def holds(card: str) -> bool:
            """Whether ``card``, now best, stays best against the players still to come."""
            for seat in opponents_to_come:
                for other in unseen:
                    if other[-1] == card[-1] and strength(other) > strength(card):
                        if other[-1] == led or other[-1] == trump:
                            return False
                if card[-1] != trump and trump is not None and led in voids.get(seat, set()):
                    if any(o[-1] == trump for o in unseen):
                        return False
            return True

        if best_seat in partners and holds(best):
            # Partner wins: give it points, keeping my own sure winners.
            def gift(c: str) -> tuple:
                keep = c[-1] == trump or (points(c) == 3 and self.master(c, unseen))
                return (0 if keep else points(c), -strength(c))

            return "play " + max(cards, key=gift)
        winners = [c for c in cards if beats(c, best)]
        if winners:
            safe = [c for c in winners if holds(c)]
            worth = trick_points + max(points(c) for c in winners) >= 2 or not opponents_to_come
            if safe and (worth or trick_points >= 1):
                return "play " + min(safe, key=lambda c: (c[-1] == trump, points(c), strength(c)))
            if not opponents_to_come:
                return "play " + min(winners, key=lambda c: (c[-1] == trump, points(c), strength(c)))
        return "play " + self.throw(cards, trump, unseen)

    @staticmethod
    def best(trick: list[list], trump: str | None) -> tuple[int, str]:
        best_seat, best = trick[0]
        for seat, card in trick[1:]:
            if card[-1] == best[-1]:
                if strength(card) > strength(best):
                    best_seat, best = seat, card
            elif card[-1] == trump:
                best_seat, best = seat, card
        return best_seat, best

    @staticmethod
    def master(card: str, unseen: Counter) -> bool:
        """No unseen card of its suit ranks above it (an unseen equal card played later loses)."""
        return not any(o[-1] == card[-1] and strength(o) > strength(card) for o in unseen)

    def throw(self, cards: list[str], trump: str | None, unseen: Counter) -> str:
        """The least valuable card: no points, not a trump, from a short suit, low."""
        counts = Counter(c[-1] for c in cards)
        return min(cards, key=lambda c: (points(c), c[-1] == trump, self.master(c, unseen), counts[c[-1]], strength(c)))

    def lead(self, obs, cards, trump, unseen, voids, partners, active) -> str:
        contract = obs["contract"] or {}
        declaring = contract.get("side") == obs["side"]
        opponents = [s for s in active if s not in partners and s != obs["seat"]]
        trumps_out = sum(n for c, n in unseen.items() if c[-1] == trump) if trump else 0
        my_trumps = [c for c in cards if c[-1] == trump]
        # Draw trumps with a master trump when my side declared and opponents may hold trumps.
        if declaring and trump and trumps_out and my_trumps:
            masters = [c for c in my_trumps if self.master(c, unseen)]
            if masters:
                return max(masters, key=strength)
        # Cash sure winners in side suits that no opponent can ruff.
        def ruffable(suit: str) -> bool:
            return bool(trump) and trumps_out > 0 and any(suit in voids.get(s, set()) for s in opponents)

        masters = [c for c in cards if c[-1] != trump and self.master(c, unseen) and not ruffable(c[-1])]
        if masters:
            return max(masters, key=lambda c: (points(c), strength(c)))
        # Lead toward a partner who has shown strength, else a low card of a long suit.
        counts = Counter(c[-1] for c in cards)
        plain = [c for c in cards if c[-1] != trump] or cards
        return min(plain, key=lambda c: (points(c), -counts[c[-1]], strength(c)))
