"""Deals a seat could be facing: what :meth:`GameState.resample` is built from (pure, no I/O).

An engine describes what one seat does not know about the current deal as a :class:`Layout`: the
unknown cards, the *slots* they may go to (another seat's current hand, or a pool: an unseen
kitty, the stock, the contractor's discards), and for each card the slots it may go to (a seat
that showed a void takes no card of that effective suit). :func:`deal_uniform` fills the slots
uniformly over every filling that respects those masks — exactly, by counting the fillings per
class of interchangeable cards. The engine then rebuilds the hand from its start on that deal and
replays the actions the seat saw (:func:`replay`), filling in the actions hidden from it (a
discard, a declined nomination) from the plan its ``build`` made; a sample whose observation differs
from the seat's real one (any constraint the layout does not express) is rejected and dealt again.
Rejecting from a uniform proposal over a superset of the consistent deals leaves the result uniform
over the consistent deals, so the masks only make it fast, never wrong.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from arena.errors import IllegalActionError
from arena.games.base import FixedDecks, SeededDecks

if TYPE_CHECKING:
    from arena.games.base import GameState

MAX_TRIES = 20000  # deals tried before resample gives up (a consistent deal always exists)
WITH_HANDS_TRIES = 2000  # fillings of the pools (and hidden actions) with_hands tries before it says the hands are impossible


class ResampleError(RuntimeError):
    """No consistent deal was found (a bug in an engine's layout, never the bot's fault)."""


@dataclass
class Layout:
    """What ``seat`` does not know about the current deal (see the module docstring)."""

    seat: int
    cards: list[str]  # the unknown cards; a card of which two copies are unknown is listed twice
    sizes: list[int]  # how many cards each slot takes (sum == len(cards))
    owners: list[int | None]  # the seat whose current hand each slot is, None for a pool
    allowed: list[int]  # per card, the bitmask of the slots it may go to
    # (slots, rng) -> (the state at the start of the hand dealt from them, a plan for hidden actions)
    build: Callable[[list[list[str]], random.Random], tuple["GameState", Any]]
    # (sample, plan, next visible (seat, action id) or None) -> the hidden action the sample takes
    # now, or None: called before each visible action and, at the end, while the observations differ
    hidden: Callable[["GameState", Any, "tuple[int, int] | None"], int | None]
    # (actor, action id) -> whether ``seat`` saw that action of this deal
    visible: Callable[[int, int], bool]
    # Compare the sample's observation with the real one (False: the engine guarantees that a deal
    # respecting the masks and replaying without an illegal action is consistent; the conformance
    # kit still compares them)
    check: bool = True
    # Cards seat knows are in another seat's current hand (an exposed hand, a gift it gave): not in
    # ``cards``, added back by ``build``; ``with_hands`` takes them out of the hands it is given
    fixed: dict[int, list[str]] = field(default_factory=dict)


def deal_uniform(cards: Sequence[str], sizes: Sequence[int], allowed: Sequence[int],
                 rng: random.Random) -> list[list[str]]:
    """Put ``cards`` into slots of ``sizes``, card i only into a slot of ``allowed[i]``, uniformly
    over every such filling (cards are told apart by position, so two copies of a card are two
    cards). Raises ResampleError when no filling exists."""
    groups: dict[int, list[str]] = {}
    for card, mask in zip(cards, allowed):
        groups.setdefault(mask, []).append(card)
    order = sorted(groups)
    counter = _counter((tuple(sizes), tuple((m, len(groups[m])) for m in order)))
    rem = tuple(len(groups[m]) for m in order)
    if counter.count(0, rem) == 0:
        raise ResampleError(f"no filling of slots {list(sizes)} respects the masks {counter.classes}")
    pools = [list(groups[m]) for m in order]
    for pool in pools:
        rng.shuffle(pool)  # then each slot takes the next cards of each class: a uniform subset
    slots: list[list[str]] = []
    for slot in range(len(sizes)):
        column = counter.pick(slot, rem, rng)
        here: list[str] = []
        for c, take in enumerate(column):
            if take:
                here.extend(pools[c][-take:])
                del pools[c][-take:]
        rng.shuffle(here)  # a slot's order (a deck position, a discard order) uniform too
        slots.append(here)
        rem = tuple(r - t for r, t in zip(rem, column))
    return slots


def count_fillings(sizes: Sequence[int], allowed: Sequence[int]) -> int:
    """How many fillings :func:`deal_uniform` chooses from (for tests and the conformance kit)."""
    counts: dict[int, int] = {}
    for mask in allowed:
        counts[mask] = counts.get(mask, 0) + 1
    order = sorted(counts)
    return _counter((tuple(sizes), tuple((m, counts[m]) for m in order))).count(0, tuple(counts[m] for m in order))


class _Counter:
    """Counts the fillings slot by slot, over classes of interchangeable cards (the same allowed
    mask): ``count(j, rem)`` is the number of ways to fill slots j.. from ``rem`` cards left per
    class — the sum, over how many of each class slot j takes, of the ways to choose them (a
    product of binomials) times the count for the slots after — memoized; ``pick`` chooses slot
    j's counts with probability proportional to the fillings they lead to, so a walk over the slots
    is a uniform filling."""

    def __init__(self, sizes: tuple[int, ...], classes: tuple[tuple[int, int], ...]):
        self.sizes, self.classes = sizes, classes
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.picks: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]] = {}

    def columns(self, slot: int, rem: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every way slot ``slot`` can take its size from the classes allowed in it."""
        size = self.sizes[slot]
        tops = [r if mask >> slot & 1 else 0 for (mask, _), r in zip(self.classes, rem)]
        out: list[tuple[int, ...]] = []
        n = len(tops)

        def walk(c: int, left: int, column: list[int]) -> None:
            if c == n - 1:
                if left <= tops[c]:
                    out.append(tuple(column + [left]))
                return
            for here in range(min(left, tops[c]), -1, -1):
                column.append(here)
                walk(c + 1, left - here, column)
                column.pop()

        if n:
            walk(0, size, [])
        elif size == 0:
            out.append(())
        return out

    def count(self, slot: int, rem: tuple[int, ...]) -> int:
        if slot == len(self.sizes):
            return 0 if any(rem) else 1
        key = (slot, rem)
        found = self.memo.get(key)
        if found is None:
            found = 0
            for column in self.columns(slot, rem):
                rest = self.count(slot + 1, tuple(r - t for r, t in zip(rem, column)))
                if rest:
                    found += _ways(rem, column) * rest
            self.memo[key] = found
        return found

    def pick(self, slot: int, rem: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
        table = self.picks.get((slot, rem))
        if table is None:  # made once per (slot, rem): a search bot resamples one position many times
            columns, cumulative, total = [], [], 0
            for column in self.columns(slot, rem):
                rest = self.count(slot + 1, tuple(r - t for r, t in zip(rem, column)))
                if rest:
                    total += _ways(rem, column) * rest
                    columns.append(column)
                    cumulative.append(total)
            table = self.picks[slot, rem] = (columns, cumulative)
        columns, cumulative = table
        if len(columns) == 1:
            return columns[0]
        return columns[bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))]


def _ways(rem: tuple[int, ...], column: tuple[int, ...]) -> int:
    out = 1
    for r, t in zip(rem, column):
        if t:
            out *= comb(r, t)
    return out


@lru_cache(maxsize=1024)
def _counter(key: tuple[tuple[int, ...], tuple[tuple[int, int], ...]]) -> _Counter:
    return _Counter(*key)


def replay(real: "GameState", layout: Layout, slots: list[list[str]], rng: random.Random,
           target: Mapping[str, Any]) -> "GameState | None":
    """The hand rebuilt on a deal (``layout.build``) with the actions ``layout.seat`` saw and the
    hidden ones filled in; None when that deal does not give the seat's observation ``target``."""
    seat = layout.seat
    sample, plan = layout.build(slots, rng)
    hidden = layout.hidden
    try:
        for actor, action in real.deals[-1]["actions"]:
            if not layout.visible(actor, action):
                continue
            step = (actor, action)
            while (extra := hidden(sample, plan, step)) is not None:
                sample.apply_id(extra)
            if sample.current_player() != actor:
                return None
            sample.apply_id(action)
        while True:
            if not layout.check or sample.observation(seat) == target:
                return sample
            extra = hidden(sample, plan, None)
            if extra is None:
                return None
            sample.apply_id(extra)
    except IllegalActionError:
        return None


def resample(real: "GameState", layout: Layout, rng: random.Random,
             target: Mapping[str, Any] | None = None) -> "GameState":
    """A uniform consistent sample (see the module docstring); ``target`` is the seat's real
    observation (made here if not given)."""
    return draw(real, layout, rng, target)[1]


def draw(real: "GameState", layout: Layout, rng: random.Random,
         target: Mapping[str, Any] | None = None) -> tuple[list[list[str]], "GameState"]:
    """A uniform consistent sample and the slots it was dealt from (for a caller that then moves
    from deal to deal, as the search bot's chain does)."""
    if target is None:
        target = real.observation(layout.seat) if layout.check else {}
    for _ in range(MAX_TRIES):
        slots = deal_uniform(layout.cards, layout.sizes, layout.allowed, rng)
        sample = replay(real, layout, [list(slot) for slot in slots], rng, target)
        if sample is not None:
            return slots, sample
    raise ResampleError(f"{real.game.name}: no consistent deal for seat {layout.seat} in {MAX_TRIES} tries")


def with_hands(real: "GameState", layout: Layout, hands: Mapping[int, Sequence[str]],
               rng: random.Random, tries: int = WITH_HANDS_TRIES) -> "GameState | None":
    """The state in which each other seat ``s`` holds ``hands[s]`` now (the rest of the unknown cards
    in the pools, at random), consistent with what ``layout.seat`` knows; None if there is none in
    ``tries`` fillings of the pools (one is enough when every hand is given and nothing is hidden)."""
    rest = list(layout.cards)
    slots: list[list[str]] = [[] for _ in layout.sizes]
    for index, owner in enumerate(layout.owners):
        if owner is None or owner not in hands:  # (a hand not given goes with the pools)
            continue
        given = list(hands[owner])
        for card in layout.fixed.get(owner, ()):
            if card not in given:
                return None
            given.remove(card)
        if len(given) != layout.sizes[index]:
            return None
        for card in given:
            if card not in rest:
                return None
            rest.remove(card)
        slots[index] = given
    pools = [i for i, owner in enumerate(layout.owners) if owner is None or owner not in hands]
    target = real.observation(layout.seat)
    for _ in range(tries):  # the pools and the hidden actions (gifts, a kitty) are drawn afresh
        rng.shuffle(rest)
        start = 0
        for index in pools:
            slots[index] = rest[start:start + layout.sizes[index]]
            start += layout.sizes[index]
        found = replay(real, layout, [list(slot) for slot in slots], rng, target)
        if found is not None:
            return found
    return None


def hand_decks(dealer: int, deck: Sequence[str], then: Any = None, rng: random.Random | None = None,
               checked: bool = True) -> Any:
    """The deck source of a match started mid-way: ``deck`` for its first deal, then ``then`` (by
    default seeded shuffles from ``rng``, or a random seed). ``checked=False`` skips the check that
    ``deck`` is the pack (for decks built from one, as resampling does; its kit check replays them)."""
    if then is None:
        then = SeededDecks(rng.getrandbits(63) if rng is not None else random.randrange(2**63))
    if not checked:
        return _Dealt(list(deck), dealer, then)
    return FixedDecks([list(deck)], dealer, then=then)


class _Dealt:
    """A deck source whose first deck is trusted to be the pack (see :func:`hand_decks`)."""

    def __init__(self, deck: list[str], dealer: int, then: Any):
        self.first, self.dealer, self.then = deck, dealer, then

    def deck(self, index: int, pack: Sequence[str]) -> list[str]:
        return self.first if index == 0 else self.then.deck(index, pack)

    def first_dealer(self, players: int) -> int:
        return self.dealer


def graft(sample: "GameState", real: "GameState") -> None:
    """Give ``sample`` (started at this hand) the earlier deal entries of ``real``: the same hand
    index, last result, record and ``max_hands`` count."""
    sample.deals[:0] = real.deals[:-1]
    sample.deal_results[:0] = real.deal_results


def suit_voids(tricks: Iterable[tuple[int, Sequence[tuple[int, int]]]], follows: Callable[[int, int], bool],
               names: Sequence[str]) -> dict[int, list[str]]:
    """``{seat: [suits]}`` from tricks given as (led suit, ((seat, card), ...)): a card played to a
    lead of suit L that ``follows(card, L)`` says does not follow shows the seat holds no L."""
    found: dict[int, set[int]] = {}
    for led, cards in tricks:
        for seat, card in cards[1:]:
            if not follows(card, led):
                found.setdefault(seat, set()).add(led)
    return {seat: [names[s] for s in sorted(suits)] for seat, suits in sorted(found.items())}
