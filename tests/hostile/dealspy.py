"""A hostile bot that rebuilds the deal from its own seed, as the red team of issue 31 did.

At its first decision it brute-forces the seed of the run from its own seat seed with the arena's
own formula (``crc32("{seed}/match/{m}/seat/{seat}")`` over small seeds and match numbers, and the
ladder's ``"{seed}/{ladder}/{round}/{n}"`` deal seeds), tries every deal seed that could follow
(and its own seed itself), and deals each candidate with the arena's own code
(``game.new_match(seed, SeededDecks(seed))``) until one gives exactly its own hand. Then it knows
every other hand. It writes one line to its standard error (the arena keeps it in the bot's log)::

    DEALSPY {"seat": 0, "found": "2026/dealset/0", "predicted": {"1": ["AS", ...]}}

When nothing matches, ``found`` is null and ``predicted`` is the other hands of a deal of its own
random seed: a guess at chance level. Then it plays the first legal action.

It imports only the arena (never the test suite), so a ladder can take this file as a submission.
"""

from __future__ import annotations

import json
import random
import sys
import zlib
from typing import Any

from arena.games.base import SeededDecks
from arena.players.base import MatchInfo, Player

PREFIX = "DEALSPY"
SMALL_SEEDS = range(0, 5000)  # "seed = 2026", "--seed 7", the default 0: operators pick small numbers
MATCHES = range(0, 64)  # match numbers of a tournament's or series' first deal sets
LADDER_SEEDS, ROUNDS, NUMBERS = range(0, 40), range(1, 25), range(0, 12)


def _game(info: MatchInfo) -> Any:
    """The game, from the arena's own bundled engine (a sandbox has no plugin registry to ask)."""
    import importlib

    plugin = importlib.import_module(f"arena.games.{info.game}.plugin")
    (cls,) = [cls for cls in plugin.arena_register_games() if cls.name == info.game]
    return cls(dict(info.options))


def seed_prefixes(info: MatchInfo, seed: int) -> list[tuple[str, int]]:
    """Every (run seed, match number) whose seat seed for this seat is ``seed``."""
    seat, found = info.seat, []
    for run_seed in SMALL_SEEDS:
        for match in MATCHES:
            if zlib.crc32(f"{run_seed}/match/{match}/seat/{seat}".encode()) == seed:
                found.append((str(run_seed), match))
    ladder = f"{info.game}/{len(info.seating)}"
    if "players" in info.options:
        ladder = f"{info.game}/{info.options['players']}"
    for run_seed in LADDER_SEEDS:
        for round_ in ROUNDS:
            for number in NUMBERS:
                prefix = f"{run_seed}/{ladder}/{round_}/{number}"
                for rotation in range(len(info.seating)):
                    if zlib.crc32(f"{prefix}/match/{rotation}/seat/{seat}".encode()) == seed:
                        found.append((prefix, rotation))
    return found


def candidate_deal_seeds(info: MatchInfo, seed: int) -> list[Any]:
    """The deal seeds that could be this match's: its own seed as one, and those its run seed gives."""
    candidates: list[Any] = [seed, str(seed)]
    for prefix, match in seed_prefixes(info, seed):
        candidates.append(prefix if "/" in prefix else (int(prefix) if prefix.isdigit() else prefix))
        candidates += [f"{prefix}/dealset/{d}" for d in range(match + 1)]
    return candidates


def rebuild(game: Any, seat: int, hand: list[str], candidates: list[Any]) -> tuple[Any, Any] | None:
    """(deal seed, first state) of the first candidate whose deal gave ``seat`` every card of
    ``hand`` (it may have played some already: a forced card is played without asking it)."""
    for deal_seed in candidates:
        state = game.new_match(seed=deal_seed, decks=SeededDecks(deal_seed))
        if len(hand) >= 3 and set(hand) <= set(state.observation(seat)["hand"]):
            return deal_seed, state
    return None


class DealSpy(Player):
    def __init__(self, settings: dict[str, Any], seed: int):
        self.seed = seed
        self.info: MatchInfo | None = None
        self.done = False

    def start_match(self, info: MatchInfo) -> None:
        self.info = info

    def act(self, observation: dict[str, Any]) -> Any:
        if not self.done and self.info is not None and observation.get("hands_played", 0) == 0:
            self.done = True
            self._spy(observation)
        return observation["legal_actions"][0]

    def _spy(self, observation: dict[str, Any]) -> None:
        info = self.info
        game = _game(info)
        seat = info.seat
        found = rebuild(game, seat, list(observation["hand"]), candidate_deal_seeds(info, self.seed))
        if found is None:
            guess = random.getrandbits(64)
            state, shown = game.new_match(seed=guess, decks=SeededDecks(guess)), None
        else:
            shown, state = found
        predicted = {str(other): list(state.observation(other)["hand"])
                     for other in range(game.players) if other != seat}
        print(f"{PREFIX} " + json.dumps({"seat": seat, "found": shown, "predicted": predicted}),
              file=sys.stderr, flush=True)


def make(settings: dict[str, Any], seed: int) -> DealSpy:
    return DealSpy(settings, seed)
