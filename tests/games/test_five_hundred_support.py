"""Helpers for the Five Hundred tests: deck orders that deal chosen hands, scripted hands.

(A test module by name only so that it stays among this game's files; its own checks are small.)

``plan_hand`` builds one deal and the actions that reach a chosen position: the auction calls are
given; the contract is read from a dry run of the engine; then ``tricks`` (one winner per trick) are
filled with cards so that every play is legal and each trick goes to the wanted seat. The tricks are
built from the last to the first, so a seat only discards off-suit when none of its later cards
(nor its ``held`` cards at the target point) is of the led suit.
"""

from __future__ import annotations

import random
from typing import Sequence

from arena.cards import normalize_card
from arena.games.base import FixedDecks, SeededDecks
from arena.games.five_hundred import FiveHundredGame
from arena.games.five_hundred.cards import SUITS, context_index
from arena.games.five_hundred.dealing import deck_for


def cards(text: str) -> list[str]:
    return [normalize_card(t) for t in text.replace(",", " ").split()]


def game(**options) -> FiveHundredGame:
    return FiveHundredGame(options)


def dry_run(g: FiveHundredGame, dealer: int, calls: Sequence[str], partners: str | None = None):
    """The state after ``calls`` on an arbitrary deck: who holds which contract."""
    st = g.new_match(decks=FixedDecks([g.pack.tokens], dealer))
    for call in calls:
        st.apply(call)
    if partners is not None:
        st.apply(partners)
    return st


def plan_hand(g: FiveHundredGame, dealer: int, calls: Sequence[str], *, tricks: Sequence = (),
              held: dict[int, Sequence[str]] | None = None, voids: dict[int, str] | None = None,
              kitty: Sequence[str] | None = None, nominate: str | None = None,
              partners: str | None = None, seed: int = 0) -> tuple[list[str], list[str]]:
    """(deck, actions) of one hand. ``tricks``: a winner seat, or (winner, suit letter), per trick
    to play; ``held``: cards a seat holds after those tricks (the rest is filled at random, avoiding
    the suits in ``voids``); ``nominate``: "S".."H" or "none" when the contractor holds JK."""
    pack = g.pack
    n = g.players
    st = dry_run(g, dealer, calls, partners)
    bid, c, members = st.bid, st.contractor, st.members
    assert bid is not None, "the calls must end the auction"
    nom = None if nominate in (None, "none") else SUITS.index(nominate)
    ctx = pack.contexts[context_index(bid.strain, nom)]
    eff = {t: ctx.eff[pack.index[t]] for t in pack.tokens}
    value = ctx.value
    sitting = {s for s in members if s != c} if bid.misere else set()
    active = [s for s in range(n) if s not in sitting]
    forced = bid.misere and nom is None

    def order_of(leader: int) -> list[int]:
        order = [leader]
        while len(order) < len(active):
            nxt = (order[-1] + 1) % n
            while nxt in sitting:
                nxt = (nxt + 1) % n
            order.append(nxt)
        return order

    want = [(t, None) if isinstance(t, int) else (t[0], SUITS.index(t[1])) for t in tricks]
    k = len(want)
    held = {s: list(v) for s, v in (held or {}).items()}
    voids = voids or {}
    used = {t for v in held.values() for t in v} | set(kitty or ())
    demand = [len(active) * sum(1 for _, s in want if s == suit) for suit in range(4)]
    free_size = (3 if kitty is None else 0) + 10 * len(sitting) + (10 if n == 2 else 0)
    for restart in range(200):
        rng = random.Random(f"{seed}/{restart}")
        parts = _split(rng, pack.tokens, used, held, voids, active, k, free_size, eff, len(active), demand)
        if parts is None:
            continue
        hands, free, pool = parts
        built = _build_tricks(rng, pool, hands, want, order_of, c, eff, value, pack, forced, len(active))
        if built is not None:
            break
    else:
        raise AssertionError("cannot build the planned tricks")
    for trick in built:
        for seat, t in trick:
            hands[seat].append(t)
    free.sort(key=lambda t: t != "JK")  # a free joker goes to the kitty (and so to the discards)
    if kitty is None:
        kitty, free = free[:3], free[3:]
    for s in sorted(sitting):
        hands[s], free = free[:10], free[10:]
    dead, free = (free[:10], free[10:]) if n == 2 else ([], free)
    assert not free, f"cards left over: {free}"
    deck = deck_for(g, dealer, hands, kitty=kitty, dead=dead)
    actions = list(calls)
    if partners is not None:
        actions.append(partners)
    if not bid.sans_kitty:
        actions += [f"discard {t}" for t in kitty]
    if bid.strain == 4 and "JK" in hands[c] and "JK" not in kitty:
        assert nominate is not None, "the contractor holds JK: say what to nominate"
        actions.append(f"nominate {nominate}")
    for trick in built:
        actions += [f"play {t}" for _, t in trick]
    return deck, actions


def start(g: FiveHundredGame, decks: Sequence[Sequence[str]], dealer: int, scores: Sequence[int] | None = None):
    st = g.new_match(decks=FixedDecks(decks, dealer, then=SeededDecks("next deals")))
    if scores is not None:
        st.total = list(scores)  # a position's starting scores (test set-up)
    return st


def run(g: FiveHundredGame, dealer: int, calls: Sequence[str], scores: Sequence[int] | None = None, **plan):
    """Play one planned hand from ``dealer`` and return the state where the plan stops."""
    deck, actions = plan_hand(g, dealer, calls, **plan)
    st = start(g, [deck], dealer, scores)
    for action in actions:
        st.apply(action)
    return st


def legal_cards(st) -> set[str]:
    return {a.removeprefix("play ") for a in st.legal_actions()}


def _imbalance(cards_, eff, size: int, demand=(0, 0, 0, 0)) -> int:
    """How far the cards are from splitting into same-suit tricks of ``size`` cards (and from
    holding ``demand[s]`` cards of each suit s that planned tricks must be led in)."""
    count = [0] * 5
    for t in cards_:
        count[eff[t]] += 1
    short = sum(max(0, d - x) for d, x in zip(demand, count))
    return sum(x % size for x in count[:4]) + 100 * count[4] + 100 * ("JK" in cards_) + 10 * short


def _split(rng, tokens, used, held, voids, active, k, free_size, eff, size, demand):
    """Complete the held hands and pick the free cards (kitty, sat-out and dead hands) so that the
    cards left for the planned tricks split into same-suit tricks as nearly as possible."""
    best = None
    for _ in range(300):
        pool = [t for t in tokens if t not in used]
        rng.shuffle(pool)
        hands = {}
        for s in active:
            hand = list(held.get(s, ()))
            for t in list(pool):
                if len(hand) >= 10 - k:
                    break
                if (t != "JK" or not free_size) and (SUITS + "-")[eff[t]] not in voids.get(s, ""):
                    hand.append(t)
                    pool.remove(t)
            if len(hand) != 10 - k:
                return None
            hands[s] = hand
        pool.sort(key=lambda t: t != "JK")
        free, pool = pool[:free_size], pool[free_size:]
        score = _imbalance(pool, eff, size, demand)
        if best is None or score < best[0]:
            best = (score, hands, free, pool)
            if score == 0:
                break
    return best[1:]


def _build_tricks(rng, pool, hands, want, order_of, contractor, eff, value, pack, forced, size):
    """The planned tricks, built from the last to the first (see the module docstring)."""
    later = {s: list(h) for s, h in hands.items()}
    pool = [t for t in pool if not (t == "JK" and eff[t] == 4)]  # never lead a suitless joker here
    built = []
    for i in range(len(want) - 1, -1, -1):
        leader = contractor if i == 0 else want[i - 1][0]
        winner, suit = want[i]
        order = order_of(leader)
        candidates = []
        for _attempt in range(3000):
            if len(candidates) >= 40:
                break
            s_led = suit if suit is not None else eff[rng.choice(pool)]
            lead_options = [t for t in pool if eff[t] == s_led]
            if not lead_options:
                continue
            chosen = [rng.choice(lead_options)]
            for seat in order[1:]:
                same = [t for t in pool if eff[t] == s_led and t not in chosen]
                void_ok = all(eff[t] != s_led for t in later[seat]) and not (forced and "JK" in later[seat])
                other = [t for t in pool if eff[t] != s_led and t not in chosen] if void_ok else []
                if same and (not other or rng.random() < 0.5):
                    chosen.append(rng.choice(same))
                elif other:
                    chosen.append(rng.choice(other))
                else:
                    break
            if len(chosen) < len(order):
                continue
            vals = [value[s_led][pack.index[t]] for t in chosen]
            if order[vals.index(max(vals))] != winner:
                continue
            rest = [t for t in pool if t not in chosen]
            candidates.append((_imbalance(rest, eff, size), chosen))
        if not candidates:
            return None
        _, chosen = min(candidates, key=lambda x: x[0])
        for seat, t in zip(order, chosen):
            pool.remove(t)
            later[seat].append(t)
        built.append(list(zip(order, chosen)))
    built.reverse()
    return built
