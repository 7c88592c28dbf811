"""The ladder file (``arena ladder --config ladder.toml``, TOML): which ladders run, each checked
before any match starts; errors name the file and the key, like the tournament file's.

```toml
[[ladder]]
game = "five_hundred"         # an installed game
players = 4                   # its player count (default: the game's); the ladder is "five_hundred/4"
deal_sets_per_pairing = 1     # duplicate deal sets played by each pairing chosen in a round
options = { max_hands = 6 }   # the game's options (max_hands keeps a match short)
time_control = { per_decision = 2.0, bank = 60.0, increment = 0.5 }
faults = { timeout = "substitute", max_faults = 3 }
limits = { cpu_seconds = 60 } # a sandboxed bot's resources (docs/security.md)
```

Without a file: one ladder per installed game at its default player count, default options.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from arena import tomlfile
from arena.errors import ArenaError, OptionError, UnknownGameError
from arena.referee.clock import TimeControl
from arena.referee.faults import FaultPolicy

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

LADDER_KEYS = {"game", "players", "options", "deal_sets_per_pairing", "time_control", "faults", "limits"}


class LadderFileError(ArenaError):
    """The ladder file is malformed; the message names the file and the key."""


@dataclass(frozen=True)
class LadderEntry:
    game: str
    players: int
    options: Mapping[str, Any]  # every option of the game, defaults included (players among them)
    sides: int
    deal_sets_per_pairing: int = 1
    time_control: TimeControl = field(default_factory=TimeControl)
    policy: FaultPolicy = field(default_factory=FaultPolicy)
    limits: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The ladder's name: "GAME/PLAYERS"."""
        return f"{self.game}/{self.players}"

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "options": dict(self.options), "sides": self.sides,
                "deal_sets_per_pairing": self.deal_sets_per_pairing, "time_control": self.time_control.as_dict(),
                "faults": self.policy.as_dict(), "limits": dict(self.limits)}


@dataclass(frozen=True)
class LadderConfig:
    ladders: tuple[LadderEntry, ...]

    def ladder(self, key: str) -> LadderEntry | None:
        return next((entry for entry in self.ladders if entry.key == key), None)

    def as_dict(self) -> dict[str, Any]:
        return {"ladders": [entry.as_dict() for entry in self.ladders]}


def default(registry: "Registry") -> LadderConfig:
    """One ladder per installed game at its default player count."""
    return LadderConfig(tuple(_entry({"game": name}, registry, "default ladders", "ladder") for name in sorted(registry.games)))


def load(path: str | Path, registry: "Registry") -> LadderConfig:
    data = tomlfile.read(path, "ladder file", LadderFileError)
    return parse(data, str(path), registry)


def parse(data: Mapping[str, Any], where: str, registry: "Registry") -> LadderConfig:
    for section in data:
        if section != "ladder":
            raise LadderFileError(f"{where}: {section}: unknown section; the file holds [[ladder]] tables only")
    tables = data.get("ladder")
    if not isinstance(tables, list) or not tables:
        raise LadderFileError(f"{where}: [[ladder]]: expected at least one [[ladder]] table")
    entries: list[LadderEntry] = []
    for index, table in enumerate(tables):
        key = f"ladder[{index}]"
        if not isinstance(table, dict):
            raise LadderFileError(f"{where}: {key}: expected a table")
        entry = _entry(table, registry, where, key)
        if any(other.key == entry.key for other in entries):
            raise LadderFileError(f"{where}: {key}: the ladder {entry.key} is already listed; list each game "
                                  "and player count once")
        entries.append(entry)
    return LadderConfig(tuple(entries))


def _entry(table: Mapping[str, Any], registry: "Registry", where: str, key: str) -> LadderEntry:
    def fail(item: str, message: str) -> LadderFileError:
        return LadderFileError(f"{where}: {key}.{item}: {message}")

    for item in table:
        if item not in LADDER_KEYS:
            raise fail(item, f"unknown key; keys: {', '.join(sorted(LADDER_KEYS))}")
    if "game" not in table:
        raise fail("game", "missing; name an installed game (see `arena games`)")
    game_name = table["game"]
    if not isinstance(game_name, str):
        raise fail("game", f"expected a string, got {game_name!r}")
    for item in ("options", "time_control", "faults", "limits"):
        if not isinstance(table.get(item, {}), dict):
            raise fail(item, "expected a table")
    options = dict(table.get("options", {}))
    if "players" in options:
        raise fail("options.players", "give the player count as the ladder's `players` key")
    players = table.get("players")
    if players is not None:
        if not isinstance(players, int) or isinstance(players, bool):
            raise fail("players", f"expected a whole number, got {players!r}")
        options["players"] = players
    try:
        game = registry.game(game_name, options)
    except UnknownGameError as exc:
        raise fail("game", str(exc)) from None
    except OptionError as exc:
        raise fail("players" if "players" in str(exc) and players is not None else "options", str(exc)) from None
    deal_sets = table.get("deal_sets_per_pairing", 1)
    if not isinstance(deal_sets, int) or isinstance(deal_sets, bool) or not 1 <= deal_sets <= 100:
        raise fail("deal_sets_per_pairing", f"expected a whole number from 1 to 100, got {deal_sets!r}")
    try:
        time_control = TimeControl.from_dict(table.get("time_control", {}))
    except ArenaError as exc:
        raise fail("time_control", str(exc)) from None
    try:
        policy = FaultPolicy.from_dict(table.get("faults", {}))
    except ArenaError as exc:
        raise fail("faults", str(exc)) from None
    from arena.players.limits import parse_limits

    given = table.get("limits", {})
    try:
        limits = {k: v for k, v in parse_limits(given).as_dict().items() if k in given}
    except ArenaError as exc:
        raise fail("limits", str(exc)) from None
    return LadderEntry(game=game_name, players=game.players, options=dict(game.options), sides=game.num_sides,
                       deal_sets_per_pairing=deal_sets, time_control=time_control, policy=policy, limits=limits)
