"""A hand-written All Fours strategy that sees only observations.

Trumps: each suit is valued by our expected lead in High, Low and Jack, the unseen trumps being
with the partner, an opponent or in the stock in proportion to the cards each holds. The eldest
begs when a beg (half a chance of the give-one point, half of a run: kicks for the dealer and
another suit) beats standing, and always when one point wins; the dealer runs the pack unless
its trumps are worth more than the point it gives, and always when the point would hand the
opponents the game. Cards: a small expected-value estimate per legal card — the points at stake
in the trick (game count, and the jack of trumps, whose capture swings ``hang_jack_points + 1``)
times the chance that our side ends up taking it, given the unseen cards the players still to
play may hold (voids inferred from the tricks), less a cost for spending trumps and high cards.
So it captures the jack and the tens, feeds a partner who is winning, and keeps its own ten back
when the trick is not ours.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from arena.players.base import MatchInfo, Player

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK = {r: i for i, r in enumerate(RANKS)}
COUNT = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}
DECK = tuple(r + s for s in "SCDH" for r in RANKS)
COUNT_WEIGHT = 0.08  # one game-count point in scoring points: a ten is worth most of the Game point


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> int:
    return RANK[card[:-1]]


class Strategy(Player):
    """The heuristic bot for ``all_fours``; the attributes set in ``__init__`` are its tuning knobs."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.hang = 3
        self.beg_margin = 0.0
        self.run_kicks = 0.6
        self.trump_cost = 0.5
        self.trump_lead = 0.5
        self.plain_lead = 0.5
        self.raise_discount = 0.4
        self.count_weight = COUNT_WEIGHT

    def start_match(self, info: MatchInfo) -> None:
        self.hang = int(info.options.get("hang_jack_points", 3))

    def act(self, observation: dict[str, Any]) -> str:
        legal = observation["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        phase = observation["phase"]
        if phase == "stand_or_beg":
            return "beg" if self._should_beg(observation) else "stand"
        if phase == "give_or_run":
            return "run" if self._should_run(observation) else "give one"
        lawful = observation.get("lawful_actions") or legal  # penalize mode: never revoke
        cards = [action.split()[1] for action in lawful if action.startswith("play ")]
        return "play " + self._choose_card(observation, cards)

    # -- trumps ----------------------------------------------------------------------------------
    def _suit_value(self, obs: dict[str, Any], trump: str) -> float:
        """Our expected lead in High, Low and Jack (plus a little per trump held) with ``trump`` as trumps.

        Each unseen trump is with the partner, an opponent or in the stock in proportion to the
        cards each holds; the highest (lowest) one in play decides High (Low).
        """
        hand = obs["hand"]
        n = obs["players"]
        seen = set(hand) | set(obs["turn_ups"])
        pool = 52 - len(seen)
        mine = sorted((rank(c) for c in hand if suit(c) == trump))
        unseen = [r for r in range(13) if RANKS[r] + trump not in seen]
        partner = len(hand) / pool if n == 4 else 0.0
        rivals = len(hand) * (2 if n == 4 else 1) / pool

        def first_in_play(ranks: list[int]) -> float:
            ours = theirs = 0.0
            none = 1.0
            for _ in ranks:
                ours += none * partner
                theirs += none * rivals
                none *= 1.0 - partner - rivals
            return ours - theirs + (none if mine else 0.0)

        value = 0.0
        if mine:
            value += first_in_play([r for r in unseen if r > mine[-1]])
            value += first_in_play([r for r in unseen if r < mine[0]])
        else:
            value += 2 * first_in_play(unseen)
        if RANK["J"] in mine:
            value += 0.6
        elif RANK["J"] in unseen:
            value += 0.6 * (partner - rivals)
        return value + 0.15 * len(mine)

    def _other_suits(self, obs: dict[str, Any]) -> float:
        return sum(self._suit_value(obs, t) for t in "SCDH" if t != obs["proposed_suit"]) / 3

    def _should_beg(self, obs: dict[str, Any]) -> bool:
        side, target = obs["side"], obs["target_score"]
        ours, theirs = obs["scores"][side], obs["scores"][1 - side]
        if ours + 1 >= target:
            return True  # the dealer must run the pack or give us the game
        kicks = self.run_kicks * (2.5 if theirs >= target - 3 else 1.0)  # a run gives the dealer kicks
        here = self._suit_value(obs, obs["proposed_suit"])
        # The dealer gives one (a point, same trumps) or runs (kicks for them, another suit).
        beg = 0.5 * (1 + here) + 0.5 * (self._other_suits(obs) - kicks)
        return beg > here + self.beg_margin

    def _should_run(self, obs: dict[str, Any]) -> bool:
        side, target = obs["side"], obs["target_score"]
        ours, theirs = obs["scores"][side], obs["scores"][1 - side]
        if theirs + 1 >= target:
            return True  # giving one would hand them the game
        kicks = self.run_kicks * (2.0 if ours >= target - 3 else 1.0)
        # Giving one costs a point; a run brings kicks (about half a point per turn-up) and another suit.
        return self._other_suits(obs) + kicks > self._suit_value(obs, obs["proposed_suit"]) - 1

    # -- card play -------------------------------------------------------------------------------
    def _value(self, card: str, trump: str) -> float:
        value = COUNT.get(card[:-1], 0) * self.count_weight
        if card[:-1] == "J" and suit(card) == trump:
            value += self.hang + 1
        return value

    @staticmethod
    def _beats(card: str, best: str, trump: str) -> bool:
        if suit(card) == trump:
            return suit(best) != trump or rank(card) > rank(best)
        return suit(best) != trump and suit(card) == suit(best) and rank(card) > rank(best)

    def _choose_card(self, obs: dict[str, Any], cards: list[str]) -> str:
        if len(cards) == 1:
            return cards[0]
        trump, me, n = obs["trump"], obs["seat"], obs["players"]
        trick = obs["trick"]
        seen = set(obs["hand"]) | set(obs["turn_ups"]) | {c for _, c in trick}
        voids: dict[int, set[str]] = {seat: set() for seat in range(n)}
        for done in obs["tricks"] + [{"cards": trick}]:
            played = done["cards"]
            seen |= {c for _, c in played}
            if played:
                led = suit(played[0][1])
                for seat, card in played[1:]:
                    if suit(card) != led and (led == trump or suit(card) != trump):
                        voids[seat].add(led)  # did not follow (nor trump a plain lead): void in the led suit
        unseen = [c for c in DECK if c not in seen]
        leader = trick[0][0] if trick else me
        after = [(leader + k) % n for k in range(len(trick) + 1, n)]
        sizes = obs["hand_sizes"]
        pool = max(1, len(unseen))

        held: dict[tuple[str, tuple[int, ...]], float] = {}

        def chance(card: str, seats: list[int]) -> float:
            """The chance that an unseen card is held by one of ``seats`` (none of them void in its suit)."""
            key = (card[-1], tuple(seats))
            if key not in held:
                held[key] = min(1.0, sum(sizes[s] for s in seats if card[-1] not in voids[s]) / pool)
            return held[key]

        ranks: dict[str, list[int]] = {s: [] for s in "SCDH"}  # the unseen cards' ranks, by suit
        for u in unseen:
            ranks[u[-1]].append(rank(u))
        beaters: dict[str, Counter[str]] = {}  # per card: how many unseen cards of each suit beat it
        known: dict[tuple[str, int], float] = {}

        def beat_chance(card: str, seat: int) -> float:
            """The chance that ``seat`` holds a card that beats ``card``. (Search rolls this bot
            out thousands of times a decision: the beaters are counted once per card, and the
            product is taken factor by factor as before, so every value is the same float.)"""
            key = (card, seat)
            if key in known:
                return known[key]
            suits = beaters.get(card)
            if suits is None:  # as _beats: a higher trump beats a trump; any trump or a higher card of its suit, a plain card
                high = rank(card)
                suits = beaters[card] = Counter({trump: sum(r > high for r in ranks[trump])} if card[-1] == trump else
                                                {trump: len(ranks[trump]), card[-1]: sum(r > high for r in ranks[card[-1]])})
            void = voids[seat]
            factor = 1.0 - min(1.0, sizes[seat] / pool)
            p = 1.0
            for s, count in suits.items():
                if s not in void:
                    for _ in range(count):
                        p *= factor
            known[key] = 1.0 - p
            return known[key]

        def we_win(card: str, side: int) -> float:
            """The chance that our side takes the trick now won by ``card`` for ``side``, the others
            still to play each beating the winning card when they can."""
            ours = 1.0 if side == mine else 0.0
            raised = 1.0  # an opponent passing an opponents' trick may raise the bar for us
            for seat in after:
                p = beat_chance(card, seat)
                if seat % 2 == mine:
                    ours += (1.0 - ours) * p * raised
                else:
                    ours *= 1.0 - p
                    raised *= self.raise_discount
            return ours

        at_stake = 0.0  # summed left to right, not by sum(), whose float algorithm changed in Python 3.12:
        for _, c in trick:  # the compiled copy (arena/fast/_heuristic.h) adds in this order
            at_stake += self._value(c, trump)
        best_seat, best = None, None
        for seat, card in trick:
            if best is None or self._beats(card, best, trump):
                best_seat, best = seat, card
        mine = me % 2
        standing = we_win(best, best_seat % 2) if best is not None and best_seat is not None else 0.0

        scored = []
        for card in cards:
            value = self._value(card, trump)
            if best is None or self._beats(card, best, trump):
                p = we_win(card, mine)
                ev = (2 * p - 1) * (at_stake + value)
                if not trick:
                    ev += self._lead_bonus(card, trump, unseen, after, chance) * p
            else:
                ev = (2 * standing - 1) * (at_stake + value)
            cost = 0.02 * rank(card)
            if suit(card) == trump:
                cost += self.trump_cost + 0.03 * rank(card)
            scored.append((ev - cost, -rank(card), card))
        return max(scored)[2]

    def _lead_bonus(self, card: str, trump: str, unseen: list[str], after: list[int], chance) -> float:
        """What the others are likely to drop on a lead that holds: trumps pulled, or counters followed."""
        led = suit(card)
        factor = self.trump_lead if led == trump else self.plain_lead
        total = 0.0  # left to right, as at_stake
        for u in unseen:
            if suit(u) == led:
                total += self._value(u, trump) * chance(u, after)
        return factor * total
