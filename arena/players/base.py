"""The player interface: what a bot implements, whatever hosts it (in-process, a subprocess, gRPC).

A bot never sees a game state. It is told when a match starts (:class:`MatchInfo`), asked for one
action string per decision given an observation (JSON-ready data that includes ``legal_actions``
and ``time_left``), and told when each hand and the match end.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class MatchInfo:
    """What a bot is told when a match starts."""

    game: str
    options: Mapping[str, Any]
    seat: int
    seating: tuple[str, ...]  # the bot name in each seat
    time_control: Mapping[str, Any] = field(default_factory=dict)  # seconds; see arena.referee
    match_id: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": dict(self.options),
            "seat": self.seat,
            "seating": list(self.seating),
            "time_control": dict(self.time_control),
            "match_id": self.match_id,
        }


class Player(abc.ABC):
    """A bot. Only :meth:`act` is required; the notifications default to doing nothing."""

    def start_match(self, info: MatchInfo) -> None:
        """A match starts; ``info`` gives the game, its options, this bot's seat and the seating."""

    @abc.abstractmethod
    def act(self, observation: dict[str, Any]) -> str:
        """Answer one action string, chosen from ``observation["legal_actions"]``."""

    def end_hand(self, result: dict[str, Any]) -> None:
        """A hand ended; ``result`` holds its score changes and what became public."""

    def end_match(self, result: dict[str, Any]) -> None:
        """The match ended; ``result`` holds the scores, the winner and how the match ended."""

    def close(self) -> None:
        """Release what the player holds (processes, connections). Called once, at the end."""


BotFactory = Callable[[Mapping[str, Any], int], Player]
# How strong a bot plays, as a bot declares it for people (BotSpec.strength); the page words them.
STRENGTHS = ("easiest", "easy", "medium", "hard", "hardest")


@dataclass(frozen=True)
class BotSpec:
    """A bot as a plugin registers it.

    ``factory(settings, seed)`` makes a fresh player for one match; ``settings`` come from the
    tournament file or ``--bot-option``, ``seed`` makes any randomness reproducible. ``games`` lists
    the games it plays (None: every game). For people (the browser page): ``titles``, its plain
    name per language code (``{"en": "Steady", "hi": "..."}``; none: the page shows ``name``), and
    ``strength``, one of :data:`STRENGTHS` (the page says it in the reader's language; "" unsaid).
    """

    name: str
    factory: BotFactory
    summary: str = ""
    games: tuple[str, ...] | None = None
    titles: Mapping[str, str] = field(default_factory=dict)
    strength: str = ""

    def plays(self, game: str) -> bool:
        return self.games is None or game in self.games
