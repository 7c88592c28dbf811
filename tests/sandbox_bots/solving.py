"""A bot that plays 56's last tricks with the exact solver (arena.solver), for tests/test_solver.py's
sandbox test: it uses only the arena's runtime, as a sandboxed bot must.

Near the end of a hand it deals the other seats a hand consistent with what it saw (each seat gets
the cards it played and random unseen ones; a deal that the public history refutes, a seat playing
off a suit it then holds, is drawn again), solves that deal and plays the best card. 56 suits it:
every action is public and no card is dealt during the hand. A bot for any game would build its
sample as the search bot does (bots/search/proxy.py, then ``state.resample``: docs/solver.md).
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from typing import Any, Mapping

from arena.errors import IllegalActionError
from arena.games.base import Game, GameState
from arena.players.base import MatchInfo, Player
from arena.solver import SolveTimeout, solve

SOLVE_FROM = 3  # cards in hand: a solve from here takes milliseconds
TRIES = 200  # deals drawn to find one the history does not refute


class Solving(Player):
    def __init__(self, settings: Mapping[str, Any], seed: int):
        self.rng = random.Random(seed)
        self.solved = self.missed = 0

    def start_match(self, info: MatchInfo) -> None:
        plugin = importlib.import_module(f"arena.games.{info.game}.plugin")
        self.game: Game = next(cls(info.options) for cls in plugin.arena_register_games() if cls.name == info.game)
        self.seat = info.seat
        self.pack = self.game.new_match(seed=0).deals[0]["deck"]  # any deck: the pack's cards
        from arena import fast  # the compiled fast path, in the arena's runtime the sandbox shows
        print(f"fast path: {fast.available()} {fast.why_unavailable() or ''}", flush=True)

    def act(self, observation: dict[str, Any]) -> str:
        legal = observation["legal_actions"]
        if len(legal) > 1 and len(observation["hand"]) <= SOLVE_FROM and legal[0].startswith("play "):
            state = self.sample(observation)
            if state is not None:
                try:
                    values = solve(state, seconds=5.0)
                except SolveTimeout:
                    values = {}
                if values:
                    self.solved += 1
                    print(f"solved {self.solved}: {values}", flush=True)
                    return max(legal, key=lambda action: values[action])
            self.missed += 1
        return legal[0]

    def sample(self, observation: Mapping[str, Any]) -> GameState | None:
        """A full state of this hand that gives this seat what it saw, or None."""
        history = [(int(seat), str(action)) for seat, action in observation["history"]]
        played: dict[int, list[str]] = {s: [] for s in observation["active_seats"]}
        for seat, action in history:
            if action.startswith("play "):
                played[seat].append(action[5:])
        dealt = len(observation["hand"]) + len(played[self.seat])
        unseen = Counter(self.pack) - Counter(observation["hand"]) - Counter(c for cards in played.values() for c in cards)
        for _ in range(TRIES):
            pool = list(unseen.elements())
            self.rng.shuffle(pool)
            hands = {self.seat: list(observation["hand"]) + played[self.seat]}
            for seat in played:
                if seat != self.seat:
                    need = dealt - len(played[seat])
                    hands[seat], pool = played[seat] + pool[:need], pool[need:]
            state = self.game.start_hand(observation["dealer"], self.game.deck_for(observation["dealer"], hands))
            try:
                for _, action in history:
                    state.apply(action)
            except IllegalActionError:
                continue
            return state
        return None


def make(settings: Mapping[str, Any], seed: int) -> Solving:
    return Solving(settings, seed)
