"""Bots that misbehave on purpose, one per fault the referee must survive (issue: the referee).

Each misbehaves after ``after`` good decisions (a setting, default 0 = at once), so tests can also
check what happens mid-match.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from typing import Any

from arena.players.base import BotSpec, Player
from arena.plugins import hookimpl


class _Misbehaving(Player):
    def __init__(self, settings: dict[str, Any], seed: int):
        self.after = int(settings.get("after", 0))
        self.decisions = 0
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, Any]) -> Any:
        self.decisions += 1
        if self.decisions > self.after:
            return self.misbehave(observation)
        return self.rng.choice(observation["legal_actions"])

    def misbehave(self, observation: dict[str, Any]) -> Any:
        raise NotImplementedError


class IllegalBot(_Misbehaving):
    """Answers a well-formed action of the game that is not legal now."""

    def misbehave(self, observation):
        for card in ("AS", "AH", "QS", "9H", "10S"):
            if f"play {card}" not in observation["legal_actions"]:
                return f"play {card}"
        return "play 10H"


class SleepyBot(_Misbehaving):
    """Sleeps past its limit, then answers."""

    def misbehave(self, observation):
        time.sleep(observation["time_left"] + 0.3)
        return observation["legal_actions"][0]


class EndlessBot(_Misbehaving):
    """Never returns: an endless busy loop that even swallows exceptions."""

    def misbehave(self, observation):
        while True:
            try:
                while True:
                    pass
            except Exception:
                pass


class RaisingBot(_Misbehaving):
    """Raises an exception."""

    def misbehave(self, observation):
        raise RuntimeError("this bot is broken")


class SuicidalBot(_Misbehaving):
    """Kills its own process. In-process that would be the arena, so there it calls sys.exit()
    (the strongest exit a Python bot can make that the arena can survive); isolated, it sends
    itself SIGKILL."""

    def misbehave(self, observation):
        if os.environ.get("ARENA_BOT_PROCESS") == "1":
            os.kill(os.getpid(), signal.SIGKILL)
        sys.exit(3)


class GarbageBot(_Misbehaving):
    """Answers garbage: not an action string (alternating types)."""

    def misbehave(self, observation):
        return [None, "", "   ", 42, b"play AS", "fold everything", {"play": "AS"}][self.decisions % 7]


# A bot class is its own factory: ``IllegalBot(settings, seed)`` has the plugin signature.
BOTS = {
    "illegal": IllegalBot,
    "sleepy": SleepyBot,
    "endless": EndlessBot,
    "raising": RaisingBot,
    "suicidal": SuicidalBot,
    "garbage": GarbageBot,
}


@hookimpl
def arena_register_bots():
    return [BotSpec(f"bad-{name}", bot, f"misbehaves: {name}") for name, bot in BOTS.items()]
