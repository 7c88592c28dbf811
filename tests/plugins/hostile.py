"""Bots written by a hostile (or careless) author, for the hardening tests (issue 22).

Each attacks the arena rather than the game: raw bytes on its process's pipe, huge answers, printing
to the arena's standard output, reaching into the live engine state, a factory that raises.
"""

from __future__ import annotations

import os
import random
import struct
import sys
from typing import Any

from arena.players.base import BotSpec, Player
from arena.plugins import hookimpl
from tests.hostile import dealspy


class _Legal(Player):
    def __init__(self, settings: dict[str, Any], seed: int):
        self.settings = settings
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, Any]) -> Any:
        return self.rng.choice(observation["legal_actions"])


class RawBytesBot(_Legal):
    """Isolated: writes ``settings["raw"]`` (latin-1 text: one byte per character), framed as an
    answer, straight onto its process's pipe (whose descriptor it finds in its caller's frame),
    ahead of the answer its process then writes."""

    def act(self, observation):
        raw = self.settings.get("raw", "j{").encode("latin-1")
        frame = sys._getframe(1)
        while frame is not None and "fd" not in frame.f_locals:  # up to the bot process's loop
            frame = frame.f_back
        if frame is None:
            raise RuntimeError("no pipe found")
        os.write(frame.f_locals["fd"], struct.pack("!I", len(raw)) + raw)
        return "anything"


class HugeBot(_Legal):
    """Answers a string of ``settings["size"]`` characters (default 20 MiB)."""

    def act(self, observation):
        return "x" * int(self.settings.get("size", 20 * 1024 * 1024))


class HugeRaiseBot(_Legal):
    """Raises an exception whose message is 20 MiB long."""

    def act(self, observation):
        raise RuntimeError("y" * (20 * 1024 * 1024))


class PrintingBot(_Legal):
    """Prints to its standard output (and error) at every decision, then plays legally."""

    def act(self, observation):
        print("{not json: a bot's chatter")
        print("chatter on stderr", file=sys.stderr)
        return super().act(observation)


class CheatingBot(_Legal):
    """In-process, in the toy game: finds the live engine state behind the observation and gives its
    own side a winning score."""

    def act(self, observation):
        for state in _states_behind(observation):
            side = observation["seat"] % 2 if "seat" in observation else 0
            state.points[side] = 999
        return super().act(observation)


def _states_behind(observation: Any) -> list[Any]:
    found = []
    for name in ("_state", "state"):
        try:
            value = object.__getattribute__(observation, name)
        except AttributeError:
            continue
        if value is not None and hasattr(value, "points"):
            found.append(value)
    return found


class ScoreTamperBot(_Legal):
    """In-process: changes the scores of the hand results it is sent (end_hand)."""

    def end_hand(self, result):
        scores = result.get("scores")
        if isinstance(scores, list) and scores:
            scores[0] = 999


def raising_factory(settings: dict[str, Any], seed: int) -> Player:
    raise RuntimeError("this factory is broken")


LAMBDA_FACTORY = lambda settings, seed: _Legal(settings, seed)  # noqa: E731 (a lambda: cannot be imported)

BOTS = {
    "raw-bytes": RawBytesBot,
    "huge": HugeBot,
    "huge-raise": HugeRaiseBot,
    "printing": PrintingBot,
    "cheating": CheatingBot,
    "tamper": ScoreTamperBot,
    "broken-factory": raising_factory,
    "lambda": LAMBDA_FACTORY,
    "deal-spy": dealspy.make,  # rebuilds the deal from its own seed (tests/hostile/dealspy.py)
}


@hookimpl
def arena_register_bots():
    return [BotSpec(f"hostile-{name}", bot, f"hostile: {name}") for name, bot in BOTS.items()]
