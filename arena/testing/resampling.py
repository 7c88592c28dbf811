"""The conformance kit's checks of ``GameState.resample`` (docs/game-interface.md, "Resampling").

Run for every game whose states implement ``resample`` (a game whose ``resample`` raises
NotImplementedError passes them untested), at seeded random points of seeded random playouts:

``resample``          never contradicts the seat: the sample's observation of the seat equals the real
                      one, the seat to act has the same legal actions, the sample's record replays to
                      the sample (its deal and history are a legal match, not a patched state), and
                      playing on the sample leaves the real state as it was.
``resample_blind``    never depends on the true hidden cards: two hidden cards swapped between two
                      other hands (a swap ``with_hands`` accepts: the same constraints) give the same
                      distribution of who holds each of them (chi-square test of homogeneity).
``resample_uniform``  in small positions (few hidden cards, every action of the deal seen by the seat),
                      every consistent deal — every split of the hidden cards among the other hands
                      that ``with_hands`` accepts — is drawn as often as the deals of the physical
                      cards that give it (equally often without repeated cards; a split giving two
                      copies of a card to two seats stands for two deals), and no other (chi-square
                      goodness of fit at a fixed seed, a generous bound).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations
from typing import Any, Callable, Iterator, NoReturn

from arena.errors import IllegalActionError
from arena.games.base import Game, GameState

RESAMPLE_CHECKS = ("resample", "resample_blind", "resample_uniform")
TIME_KEYS = ("time_left", "bank_left")  # added by the referee, never by the engine
P_FAIL = 1e-6  # a chi-square p-value below this fails (seeded runs: stable, not flaky)
POINTS = 12  # positions tried per player count
SAMPLES = 150  # samples of each of the two states compared (blind)
BLIND_SWAPS = 2  # swaps compared per player count
PER_CANDIDATE = 40  # samples per consistent deal (uniform)
MAX_CANDIDATES = 30


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable of ``df`` degrees of freedom (regularized upper gamma)."""
    if x <= 0:
        return 1.0
    a, z = df / 2.0, x / 2.0
    if z < a + 1:  # series for the lower gamma
        term = total = 1.0 / a
        k = a
        while term > total * 1e-15:
            k += 1
            term *= z / k
            total += term
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    # continued fraction for the upper gamma (Lentz)
    b = z + 1 - a
    c, d = 1e300, 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(-z + a * math.log(z) - math.lgamma(a)) * h


def strip(obs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obs.items() if k not in TIME_KEYS}


def implements_resample(state: GameState) -> bool:
    try:
        state.resample(state.current_player() or 0, random.Random(0))
    except NotImplementedError:
        return False
    return True


def positions(game: Game, seed: Any, points: int) -> Iterator[tuple[str, GameState]]:
    """Seeded random playouts, yielding (where, state) at random decisions (the first of each)."""
    rng = random.Random(f"resample/{seed}")
    match = 0
    found = 0
    while found < points and match < points * 4:
        state = game.new_match(seed=f"resample/{seed}/{match}")
        decisions = 0
        while not state.is_over() and decisions < 300 and found < points:
            if rng.random() < 0.08:
                found += 1
                yield (f"match {match} (seed 'resample/{seed}/{match}'), hand {len(state.deals) - 1},"
                       f" action {len(state.deals[-1]['actions'])}, phase {state.phase!r}"), state
            state.apply_id(rng.choice(state.legal_action_ids()))
            decisions += 1
        match += 1


def check_resampling(game: Game, names: Any, seed: Any, fail: Callable[[str, str], NoReturn]) -> None:
    """Run the checks of ``names`` (of RESAMPLE_CHECKS) on ``game``; ``fail(check, what)`` raises."""
    names = [n for n in RESAMPLE_CHECKS if n in names]
    first = game.new_match(seed=f"resample/{seed}/0")
    if not names or not implements_resample(first):
        return
    from arena.records import replay

    swaps = 0
    for where, state in positions(game, seed, POINTS):
        real_record = state.record()
        for seat in range(game.players):
            aux = random.Random(f"{where}/{seat}")
            if "resample" in names:
                _check_consistent(game, state, seat, aux, where, fail, replay)
            if "resample_blind" in names and swaps < BLIND_SWAPS:
                swaps += _check_blind(state, seat, aux, where, fail)
            if "resample_uniform" in names:
                _check_uniform(state, seat, aux, where, fail)
        mid = _started_mid_match(game, state) if "resample" in names else None
        if mid is not None:  # the same position in a match started at this hand by start_hand
            to_act = mid.current_player()
            if to_act is not None:
                # (its record does not replay on its own: a record holds no starting scores)
                _check_consistent(game, mid, to_act, random.Random(f"{where}/mid"), where + " (started mid-match)",
                                  fail, None)
        if state.record() != real_record:
            fail(names[0], f"at {where}: resampling changed the real state's record")


def _started_mid_match(game: Game, state: GameState) -> GameState | None:
    """``state``'s position rebuilt by ``game.start_hand`` from this hand's deck and the scores
    before it, then this hand's actions (None for the first hand, or where start_hand needs match
    bookkeeping the kit does not know, such as 56's knocked-out teams): a search bot's proxy state,
    whose samples must keep its scores too."""
    if len(state.deals) < 2 or not state.deal_results or state.is_over():
        return None
    deal = state.deals[-1]
    try:
        mid = game.start_hand(deal["dealer"], deal["deck"], state.deal_results[-1]["scores"])
        for _, action in deal["actions"]:
            mid.apply_id(action)
    except (NotImplementedError, TypeError, ValueError, IllegalActionError):
        return None
    return mid


def _check_consistent(game: Game, state: GameState, seat: int, aux: random.Random, where: str,
                      fail: Callable[[str, str], NoReturn], replay: Any) -> None:
    real = strip(state.observation(seat))
    for k in range(3):
        try:
            sample = state.resample(seat, random.Random(f"{where}/{seat}/{k}"))
        except Exception as exc:
            fail("resample", f"at {where}: resample({seat}) raised {exc!r}")
        seen = strip(sample.observation(seat))
        if seen != real:
            diff = sorted(key for key in set(seen) | set(real) if seen.get(key) != real.get(key))
            fail("resample", f"at {where}: the sample's observation({seat}) differs from the real one at {diff}:"
                             f" {[(key, real.get(key), seen.get(key)) for key in diff[:2]]}")
        if state.current_player() == seat and sample.legal_action_ids() != state.legal_action_ids():
            fail("resample", f"at {where}: seat {seat}'s legal actions differ in the sample")
        if replay is not None:
            try:
                again = replay(sample.record(), lambda name, options: type(game)(options)).state
            except Exception as exc:
                fail("resample", f"at {where}: the sample's record (for seat {seat}) does not replay: {exc}")
            for other in range(game.players):
                if strip(again.observation(other)) != strip(sample.observation(other)):
                    fail("resample", f"at {where}: the sample (for seat {seat}) is not the state its record replays"
                                     f" to: observation({other}) differs (a patched state, not a dealt one)")
        before = state.observation(seat)
        for _ in range(5):
            if sample.is_over():
                break
            sample.apply_id(aux.choice(sample.legal_action_ids()))
        if state.observation(seat) != before:
            fail("resample", f"at {where}: playing on the sample changed the real state")


def _hands(state: GameState, seats: list[int]) -> dict[int, list[str]]:
    return {s: list(state.observation(s)["hand"]) for s in seats}


def _blind(state: GameState, seats: list[int]) -> bool:
    """Whether a seat does not see its own hand (blind misère before a look): the kit cannot tell
    its cards from its observation, so it makes no claim here."""
    sizes = state.observation(seats[0])["hand_sizes"] if seats else []
    return any(len(state.observation(s)["hand"]) != sizes[s] for s in seats)


def _others(state: GameState, seat: int) -> list[int]:
    """The other seats (a seat sitting out this deal may still hold cards)."""
    return [s for s in range(state.game.players) if s != seat]


def _check_blind(state: GameState, seat: int, aux: random.Random, where: str,
                 fail: Callable[[str, str], NoReturn]) -> int:
    """Compare one swap if there is one here (1), else 0."""
    if state.phase == "over":
        return 0
    others = _others(state, seat)
    if _blind(state, list(range(state.game.players))):
        return 0
    hidden = state.hidden_cards(seat)
    hands = _hands(state, others)
    pool = sorted(hidden - {c for h in hands.values() for c in h})  # hidden in no hand: a kitty, the stock
    pairs: list[tuple[int, int | None]] = [(a, b) for a, b in combinations(others, 2)]
    if pool:
        pairs += [(a, None) for a in others]  # a hand and the pool
    aux.shuffle(pairs)
    for a, b in pairs[:3]:
        theirs = hands[b] if b is not None else pool
        xs = [c for c in hands[a] if c in hidden and c not in theirs]
        ys = [c for c in theirs if c in hidden and c not in hands[a]]
        if not xs or not ys:
            continue
        x, y = aux.choice(xs), aux.choice(ys)
        swapped_hands = {s: list(h) for s, h in hands.items()}
        swapped_hands[a][swapped_hands[a].index(x)] = y
        if b is not None:
            swapped_hands[b][swapped_hands[b].index(y)] = x
        swapped = state.with_hands(seat, swapped_hands, random.Random(f"{where}/swap"))
        if swapped is None:
            continue  # not the same constraints (a void): no claim
        tables = []
        for source in (state, swapped):
            counts: Counter[tuple[int | None, int | None]] = Counter()
            for k in range(SAMPLES):
                sample = source.resample(seat, random.Random(f"{where}/{seat}/blind/{k}/{source is state}"))
                held = _hands(sample, others)
                counts[next((s for s in others if x in held[s]), None),
                       next((s for s in others if y in held[s]), None)] += 1
            tables.append(counts)
        cells = sorted(set(tables[0]) | set(tables[1]), key=str)
        stat = 0.0
        for cell in cells:
            row = tables[0][cell] + tables[1][cell]
            for t in tables:
                expected = row / 2
                stat += (t[cell] - expected) ** 2 / expected
        p = chi2_sf(stat, max(1, len(cells) - 1))
        if p < P_FAIL:
            fail("resample_blind", f"at {where}: swapping hidden {x} (seat {a}) and {y} ({'the pool' if b is None else f'seat {b}'}) changes what"
                                   f" resample({seat}) draws: who holds them {dict(tables[0])} vs {dict(tables[1])}"
                                   f" (chi-square p={p:.2g})")
        return 1
    return 0


def _splits(cards: list[str], sizes: list[int]) -> Iterator[list[list[str]]]:
    """Every distinct way to split a multiset of cards into hands of ``sizes``."""
    if not sizes:
        if not cards:
            yield []
        return
    first, rest = sizes[0], sizes[1:]
    seen = set()
    for chosen in combinations(range(len(cards)), first):
        hand = sorted(cards[i] for i in chosen)
        left = [cards[i] for i in range(len(cards)) if i not in chosen]
        key = tuple(hand)
        if key in seen:
            continue
        seen.add(key)
        for tail in _splits(left, rest):
            yield [hand] + tail


def _copies(cards: list[str], split: list[list[str]]) -> int:
    """How many deals of the physical cards give this split: with two copies of a card, a split
    that gives them to two seats stands for two deals, to one seat for one."""
    total = Counter(cards)
    out = 1
    for card, n in total.items():
        ways = math.factorial(n)
        placed = 0
        for hand in split:
            k = hand.count(card)
            placed += k
            ways //= math.factorial(k)
        out *= ways // math.factorial(n - placed)
    return out


def _check_uniform(state: GameState, seat: int, aux: random.Random, where: str,
                   fail: Callable[[str, str], NoReturn]) -> None:
    if state.phase == "over":
        return
    obs = state.observation(seat)
    if len(obs["history"]) != len(state.deals[-1]["actions"]):
        return  # the seat did not see every action: deals are not equally likely by count alone
    others = _others(state, seat)
    if _blind(state, list(range(state.game.players))):
        return
    hands = _hands(state, others)
    held = [c for s in others for c in hands[s]]
    pool = sorted(state.hidden_cards(seat) - set(held))  # hidden, in nobody's hand (a kitty, the stock)
    cards = sorted(held + pool)
    sizes = [len(hands[s]) for s in others]
    total = math.comb(len(cards), sum(sizes)) * math.factorial(sum(sizes))
    if total > 10 ** 6:
        return
    candidates: list[list[list[str]]] = []
    for split in _splits(cards, sizes + ([len(cards) - sum(sizes)] if pool else [])):
        if len(candidates) > MAX_CANDIDATES:
            return
        candidates.append(split[:len(others)])
    consistent = []
    weights = []
    for split in candidates:
        trial = state.with_hands(seat, dict(zip(others, split)), random.Random(f"{where}/uniform"))
        if trial is not None:
            consistent.append(tuple(tuple(h) for h in split))
            weights.append(_copies(cards, split))
    if not consistent:
        fail("resample_uniform", f"at {where}: with_hands({seat}) accepts no split of the hidden cards, not even"
                                 f" the real one {hands}")
    if len(consistent) < 2:
        return
    n = PER_CANDIDATE * len(consistent)
    counts: Counter[tuple[tuple[str, ...], ...]] = Counter()
    for k in range(n):
        sample = state.resample(seat, random.Random(f"{where}/{seat}/uniform/{k}"))
        got = _hands(sample, others)
        key = tuple(tuple(sorted(got[s])) for s in others)
        if key not in consistent:
            fail("resample_uniform", f"at {where}: resample({seat}) drew hands {dict(zip(others, key))}, which no"
                                     f" consistent deal gives (consistent: {len(consistent)})")
        counts[key] += 1
    stat = 0.0
    for c, w in zip(consistent, weights):
        expected = n * w / sum(weights)
        stat += (counts[c] - expected) ** 2 / expected
    p = chi2_sf(stat, len(consistent) - 1)
    if p < P_FAIL:
        fail("resample_uniform", f"at {where}: resample({seat}) does not draw the {len(consistent)} consistent deals"
                                 f" as often as their deals: {sorted(counts.values())} of {n} (chi-square p={p:.2g})")
