"""Toy games that break the game interface on purpose, one fault each, so that the tests can show
the conformance kit (arena.testing) catches every fault (tests/test_conformance.py).

Each is the toy game of toy_game.py with one thing wrong. The suite does not load this plugin
(registering these games would make the registry-wide conformance tests fail, as they should);
tests register it for their own duration.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from arena.games import resample
from arena.games.base import GameState
from arena.options import Option, OptionTable
from arena.plugins import hookimpl
from tests.plugins.toy_game import PACK, ToyGame, ToyState


def _cards(mask: int) -> list[str]:
    return [PACK[c] for c in range(8) if mask >> c & 1]


class LeakyState(ToyState):
    """Shows each seat the lowest card of the other seat's hand."""

    def observation(self, seat: int) -> dict[str, Any]:
        obs = super().observation(seat)
        other = _cards(self.hands[1 - seat])
        obs["opponent_lowest"] = other[0] if other else None
        return obs


class HintingState(ToyState):
    """Suggests a play to the seat not to act: the other seat's first legal play (an action string)."""

    def observation(self, seat: int) -> dict[str, Any]:
        obs = super().observation(seat)
        obs["hints"] = [self.legal_actions()[0]] if not self.over and seat != self.turn else []
        return obs


class MutatingState(ToyState):
    """Counts every action offered, legal or not, and shows the count: an illegal action changes it."""

    offered = 0

    def apply(self, action: str) -> None:
        self.offered += 1
        super().apply(action)

    def apply_id(self, action_id: int) -> None:
        self.offered += 1
        super().apply_id(action_id)

    def observation(self, seat: int) -> dict[str, Any]:
        return {**super().observation(seat), "actions_offered": self.offered}


class ShallowCloneState(ToyState):
    """A clone that shares the original's lists (hands, points, the record)."""

    def clone(self) -> "ShallowCloneState":
        return copy.copy(self)


class UnsortedState(ToyState):
    """Lists its legal action ids from the highest down."""

    def _legal_ids(self) -> list[int]:
        return sorted(super()._legal_ids(), reverse=True)


class UnreplayableState(ToyState):
    """Deals from a shuffle of its own, seeded by the match's seed, not from the deck it records:
    a replay, which has only the recorded decks, deals other hands."""

    def _deal(self) -> None:
        super()._deal()
        seed = getattr(self.decks, "seed", None)
        if seed is not None:
            own = random.Random(f"{seed}/{len(self.deals)}").sample(range(8), 8)
            self.hands = [sum(1 << c for c in own[:4]), sum(1 << c for c in own[4:])]


class HashyState(ToyState):
    """Lets the iteration order of a set of strings (which PYTHONHASHSEED changes) decide the deal."""

    def _deal(self) -> None:
        super()._deal()
        first = PACK.index(next(iter(set(PACK))))  # the first card of the set: hash order
        if first % 2:
            self.hands = [self.hands[1], self.hands[0]]


class BrokenOptionGame(ToyGame):
    """A ``variant`` option whose value ``broken`` crashes at the second trick."""

    name = "broken_option_toy"
    option_table = OptionTable("broken_option_toy", ToyGame.option_table.options + (
        Option("variant", "plain", "choice", "plain, or broken", choices=("plain", "broken")),))

    def new_state(self, decks) -> "BrokenOptionState":
        return BrokenOptionState(self, decks)


class BrokenOptionState(ToyState):
    def _apply(self, card: int) -> None:
        if self.game.options["variant"] == "broken" and sum(self.won) == 1 and len(self.trick) == 1:
            raise ZeroDivisionError("the broken variant")
        super()._apply(card)


class UnvocalState(ToyState):
    """Leaves out one shared key of the observation, "hand_sizes"."""

    def observation(self, seat: int) -> dict[str, Any]:
        obs = super().observation(seat)
        del obs["hand_sizes"]
        return obs


class UntoldState(ToyState):
    """Says neither which cards are hidden nor how the match ended (the base class's defaults)."""

    hidden_cards = GameState.hidden_cards
    match_end = GameState.match_end


class StockToyState(ToyState):
    """The toy with three cards each and a two-card stock nobody sees, and a correct resample:
    the base for the two faulty resamplers below (it passes the resample checks itself)."""

    def _deal(self) -> None:
        super()._deal()
        deck = self.deals[-1]["deck"]
        first = 1 - self.dealer
        self.hands = [0, 0]
        for i, card in enumerate(deck[:6]):
            self.hands[(first + i) % 2] |= 1 << PACK.index(card)
        self.stock = [PACK.index(card) for card in deck[6:]]

    def hidden_cards(self, seat: int) -> frozenset[str]:
        return frozenset(_cards(self.hands[1 - seat]) + [PACK[c] for c in self.stock])

    def _all_tricks(self) -> list[list[list]]:
        return [t["cards"] for t in self.tricks] + ([[[s, PACK[c]] for s, c in self.trick]] if self.trick else [])

    def voids(self) -> dict[int, list[str]]:
        found: dict[int, set[str]] = {}
        for cards in self._all_tricks():
            for seat, card in cards[1:]:
                if card[-1] != cards[0][1][-1]:
                    found.setdefault(seat, set()).add(cards[0][1][-1])
        return {seat: sorted(suits) for seat, suits in sorted(found.items())}

    def _resample_layout(self, seat: int) -> resample.Layout:
        other = 1 - seat
        cards = sorted(_cards(self.hands[other]) + [PACK[c] for c in self.stock])
        void = self.voids().get(other, [])
        played: dict[int, list[str]] = {0: [], 1: []}
        for trick in self._all_tricks():
            for s, card in trick:
                played[s].append(card)
        own = _cards(self.hands[seat])
        start = list(self.deal_results[-1]["scores"]) if self.deal_results else [0, 0]
        dealer = self.dealer
        size = bin(self.hands[other]).count("1")

        def build(slots: list[list[str]], rng: random.Random) -> tuple[GameState, None]:
            sample = type(self)(self.game, resample.hand_decks(dealer, _deck(dealer, {other: slots[0] + played[other],
                                                                                      seat: own + played[seat]},
                                                                             slots[1]), rng=rng))
            sample.points = list(start)
            resample.graft(sample, self)
            return sample, None

        return resample.Layout(seat, cards, [size, len(cards) - size], [other, None],
                               [0b10 if c[-1] in void else 0b11 for c in cards],
                               build, lambda sample, plan, step: None, lambda actor, action: True)


def _deck(dealer: int, hands: dict[int, list[str]], stock: list[str]) -> list[str]:
    first = 1 - dealer
    return [hands[(first + i) % 2][i // 2] for i in range(6)] + list(stock)


class PeekingState(StockToyState):
    """Resamples by returning the true state: it never contradicts the seat, but it depends on the
    true hidden cards (every sample is the real deal)."""

    def resample(self, seat: int, rng: random.Random) -> GameState:
        return self.clone()


class VoidlessState(StockToyState):
    """Deals the other hand afresh from the unknown cards (its hand and the stock) ignoring the voids
    it showed, and rewrites the deck to match without replaying the hand."""

    def resample(self, seat: int, rng: random.Random) -> GameState:
        sample = self.clone()
        other = 1 - seat
        size = bin(self.hands[other]).count("1")
        pool = _cards(self.hands[other]) + [PACK[c] for c in self.stock]
        rng.shuffle(pool)
        sample.hands[other] = sum(1 << PACK.index(c) for c in pool[:size])
        sample.stock = [PACK.index(c) for c in pool[size:]]
        played: dict[int, list[str]] = {0: [], 1: []}
        for trick in self._all_tricks():
            for s, card in trick:
                played[s].append(card)
        sample.deals[-1]["deck"] = _deck(self.dealer, {other: pool[:size] + played[other],
                                                       seat: _cards(self.hands[seat]) + played[seat]}, pool[size:])
        return sample


def _game(name: str, state: type[ToyState]) -> type[ToyGame]:
    return type(f"{state.__name__[:-5]}Game", (ToyGame,), {
        "name": name, "__doc__": state.__doc__, "__module__": __name__,
        "new_state": lambda self, decks: state(self, decks),
    })


LeakyGame = _game("leaky_toy", LeakyState)
HintingGame = _game("hinting_toy", HintingState)
MutatingGame = _game("mutating_toy", MutatingState)
ShallowCloneGame = _game("shallow_clone_toy", ShallowCloneState)
UnsortedGame = _game("unsorted_toy", UnsortedState)
UnreplayableGame = _game("unreplayable_toy", UnreplayableState)
HashyGame = _game("hashy_toy", HashyState)
UnvocalGame = _game("unvocal_toy", UnvocalState)
UntoldGame = _game("untold_toy", UntoldState)
StockToyGame = _game("stock_toy", StockToyState)
PeekingGame = _game("peeking_toy", PeekingState)
VoidlessGame = _game("voidless_toy", VoidlessState)

FAULTY = [LeakyGame, HintingGame, MutatingGame, ShallowCloneGame, UnsortedGame, UnreplayableGame, HashyGame,
          BrokenOptionGame, UnvocalGame, UntoldGame, PeekingGame, VoidlessGame]


@hookimpl
def arena_register_games():
    return list(FAULTY)
