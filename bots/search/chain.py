"""Deals drawn in proportion to the inference's weight by a Markov chain (setting ``chain``).

Weighting independent draws by the others' bids and plays that the heuristic would not have made
(``play_weight``) leaves nearly all the weight on a few deals once a dozen cards are played: the
effective number of samples collapses. A Metropolis chain moves from one deal to the next instead,
swapping two unknown cards between two places both may go (two other hands, or a hand and an
unseen kitty: the masks of the seat's :class:`arena.games.resample.Layout`), and takes the swap
with probability ``min(1, new weight / old weight)``. The swap is its own reverse, equally likely
either way, so the chain's deals come in proportion to their weight among the consistent deals, and
each is used with weight 1.
"""

from __future__ import annotations

import math
import random
from typing import Callable

from arena.games import resample
from arena.games.base import GameState


class DealChain:
    """A chain of the deals ``seat`` could be facing in ``real``, weighted by ``log_weight``."""

    def __init__(self, real: GameState, seat: int, rng: random.Random,
                 log_weight: Callable[[GameState], float]):
        self.real, self.rng, self.log_weight = real, rng, log_weight
        self.layout, self.target = real.resample_layout(seat)
        self.mask = dict(zip(self.layout.cards, self.layout.allowed))  # copies of a card share a mask
        self.slots, self.sample = resample.draw(real, self.layout, rng, self.target)
        self.value = log_weight(self.sample)
        self.proposed = self.taken = 0

    def _deal(self, slots: list[list[str]]) -> GameState | None:
        return resample.replay(self.real, self.layout, [list(slot) for slot in slots], self.rng, self.target)

    def step(self) -> None:
        """Propose one swap and take it or not."""
        slots, rng = self.slots, self.rng
        filled = [i for i, slot in enumerate(slots) if slot]
        if len(filled) < 2:
            return
        a, b = rng.sample(filled, 2)
        i, j = rng.randrange(len(slots[a])), rng.randrange(len(slots[b]))
        x, y = slots[a][i], slots[b][j]
        if x == y or not (self.mask[x] >> b & 1 and self.mask[y] >> a & 1):
            return  # a card where it may not go: the chain stays (the reverse is refused alike)
        swapped = [list(slot) for slot in slots]
        swapped[a][i], swapped[b][j] = y, x
        self.proposed += 1
        sample = self._deal(swapped)
        if sample is None:  # a constraint the masks do not hold (the replay's check)
            return
        value = self.log_weight(sample)
        if value >= self.value or rng.random() < math.exp(value - self.value):
            self.slots, self.sample, self.value = swapped, sample, value
            self.taken += 1
