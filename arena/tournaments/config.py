"""The tournament file (TOML): read it, check every key before any match starts, and say exactly
what is wrong — the key, what was expected, what was found.

```toml
[tournament]
name = "five-hundred-demo"
game = "five_hundred"
format = "round_robin"        # or "gauntlet" (then: challenger = "<bot name>")
deal_sets = 4
# seed = 2026                 # only for the same deals in every fresh run: then they are public
                              # (whoever reads the file knows every card); without it each run
                              # deals from a secret kept in its results database (arena.deals)
parallel = 2                  # matches at once; default: one per core
isolation = "sandbox"         # or "process", "inprocess": a registered isolation level (default:
                              # sandbox if a bot is not bundled with the arena, else process)

[limits]                      # a sandboxed bot's resources (arena.players.limits; defaults suit the bundled bots)
cpu_seconds = 60
address_space = "1 GiB"

[options]                     # the game's options
defence_cap = 490

[time_control]                # seconds
per_decision = 2.0
bank = 60.0
increment = 0.5

[faults]                      # forfeit or substitute per fault kind
timeout = "substitute"
max_faults = 3

[[bots]]
name = "heuristic"            # the name on the board (default: the bot)
bot = "heuristic"             # an installed bot, or a gRPC address / launched command
settings = {}                 # passed to the bot's factory
```
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from arena import tomlfile
from arena.errors import ArenaError, OptionError, UnknownGameError
from arena.players.seats import check_seat
from arena.referee.clock import TimeControl
from arena.referee.faults import FaultPolicy

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

FORMATS = ("round_robin", "gauntlet")
BOT_KEYS = {"name", "bot", "settings"}  # the keys of a [[bots]] table
SECTIONS: dict[str, set[str] | None] = {
    "tournament": {"name", "game", "format", "challenger", "deal_sets", "seed", "parallel", "isolation"},
    "options": None,  # checked by the game
    "time_control": {"per_decision", "bank", "increment"},
    "faults": {"illegal", "malformed", "timeout", "crash", "max_faults"},
    "limits": None,  # checked by arena.players.limits
    "bots": BOT_KEYS,
}


class TournamentFileError(ArenaError):
    """The tournament file is malformed; the message names the file and the key."""


@dataclass(frozen=True)
class BotEntry:
    name: str  # the name on the board
    bot: str  # what make_host accepts: an installed bot's name, a gRPC address, a command
    settings: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "settings": dict(self.settings)}


@dataclass(frozen=True)
class TournamentConfig:
    name: str
    game: str
    options: Mapping[str, Any]
    bots: tuple[BotEntry, ...]
    format: str = "round_robin"
    challenger: str | None = None
    deal_sets: int = 2
    seed: int | str | None = None  # a public seed (the same deals in every run); None: a secret per run
    parallel: int = 0  # 0: one per core
    isolation: str = "process"
    time_control: TimeControl = field(default_factory=TimeControl)
    policy: FaultPolicy = field(default_factory=FaultPolicy)
    limits: Mapping[str, int] = field(default_factory=dict)  # the [limits] given (the rest: the defaults)

    def as_dict(self) -> dict[str, Any]:
        """Everything that decides the schedule and the results (``parallel`` does not)."""
        return {
            "name": self.name,
            "game": self.game,
            "options": dict(self.options),
            "bots": [bot.as_dict() for bot in self.bots],
            "format": self.format,
            "challenger": self.challenger,
            "deal_sets": self.deal_sets,
            "seed": self.seed,
            "isolation": self.isolation,
            "time_control": self.time_control.as_dict(),
            "faults": self.policy.as_dict(),
            # only when given, so that the fingerprint of a file without it is what it was
            **({"limits": dict(self.limits)} if self.limits else {}),
        }

    def fingerprint(self) -> str:
        return hashlib.sha256(json.dumps(self.as_dict(), sort_keys=True).encode()).hexdigest()[:16]

    def workers(self) -> int:
        return self.parallel or os.cpu_count() or 1


def load(path: str | Path, registry: "Registry | None" = None) -> TournamentConfig:
    """Read and check a tournament file. With ``registry``, games, options and bots are checked too."""
    data = tomlfile.read(path, "tournament file", TournamentFileError)
    return parse(data, str(path), registry)


def parse(data: Mapping[str, Any], where: str = "tournament file", registry: "Registry | None" = None) -> TournamentConfig:
    def fail(key: str, message: str) -> TournamentFileError:
        return TournamentFileError(f"{where}: {key}: {message}")

    for section in data:
        if section not in SECTIONS:
            raise fail(section, f"unknown section; sections: {', '.join(SECTIONS)}")
    for section, keys in SECTIONS.items():
        value = data.get(section, [] if section == "bots" else {})
        if section == "bots":
            continue
        if not isinstance(value, dict):
            raise fail(f"[{section}]", "expected a table")
        if keys is not None:
            for key in value:
                if key not in keys:
                    raise fail(f"[{section}] {key}", f"unknown key; keys: {', '.join(sorted(keys))}")

    head = data.get("tournament", {})
    if "game" not in head:
        raise fail("[tournament] game", "missing; name an installed game (see `arena games`)")
    game = _typed(head, "game", str, fail, "[tournament]")
    name = _typed(head, "name", str, fail, "[tournament]", default=Path(where).stem)
    fmt = _typed(head, "format", str, fail, "[tournament]", default="round_robin")
    if fmt not in FORMATS:
        raise fail("[tournament] format", f"expected one of {', '.join(FORMATS)}, got {fmt!r}")
    deal_sets = _typed(head, "deal_sets", int, fail, "[tournament]", default=2)
    if deal_sets < 1:
        raise fail("[tournament] deal_sets", f"expected a whole number >= 1, got {deal_sets}")
    seed = head.get("seed")  # None: each run deals from its own secret (arena.deals)
    if seed is not None and (not isinstance(seed, (int, str)) or isinstance(seed, bool)):
        raise fail("[tournament] seed", f"expected an integer or a string (a public seed: whoever reads the file "
                                        f"knows every deal), got {seed!r}")
    parallel = _typed(head, "parallel", int, fail, "[tournament]", default=0)
    if not 0 <= parallel <= 1024:
        raise fail("[tournament] parallel", f"expected a whole number from 0 (one per core) to 1024, got {parallel}")
    isolation = _typed(head, "isolation", str, fail, "[tournament]", default=None)
    if isolation is not None and registry is not None and isolation not in registry.isolations:
        raise fail("[tournament] isolation", f"expected one of {', '.join(registry.isolations)}, got {isolation!r}")

    bots_data = data.get("bots", [])
    if not isinstance(bots_data, list) or not bots_data:
        raise fail("[[bots]]", "expected at least two [[bots]] tables")
    bots: list[BotEntry] = []
    for index, entry in enumerate(bots_data):
        key = f"bots[{index}]"
        if not isinstance(entry, dict):
            raise fail(key, "expected a table")
        for item in entry:
            if item not in BOT_KEYS:
                raise fail(f"{key}.{item}", f"unknown key; keys: {', '.join(sorted(BOT_KEYS))}")
        if "bot" not in entry:
            raise fail(f"{key}.bot", "missing; name an installed bot (see `arena bots`) or a gRPC address")
        bot = _typed(entry, "bot", str, fail, key, sep=".")
        display = _typed(entry, "name", str, fail, key, default=bot, sep=".")
        settings = entry.get("settings", {})
        if not isinstance(settings, dict):
            raise fail(f"{key}.settings", "expected a table")
        if any(b.name == display for b in bots):
            raise fail(f"{key}.name", f"{display!r} is already the name of another bot; give each a unique name")
        bots.append(BotEntry(display, bot, settings))
    if len(bots) < 2:
        raise fail("[[bots]]", f"a tournament needs at least two bots, found {len(bots)}")

    challenger = head.get("challenger")
    if fmt == "gauntlet":
        if not isinstance(challenger, str) or challenger not in {b.name for b in bots}:
            raise fail("[tournament] challenger", f"a gauntlet needs the name of one of its bots, got {challenger!r}")
    elif challenger is not None:
        raise fail("[tournament] challenger", "only a gauntlet has a challenger")

    try:
        from arena.players.limits import parse_limits

        limits = {key: value for key, value in parse_limits(data.get("limits", {})).as_dict().items()
                  if key in data.get("limits", {})}
    except ArenaError as exc:
        raise TournamentFileError(f"{where}: {exc}") from None
    if isolation is None:  # untrusted bots are sandboxed unless the file says otherwise
        from arena.players.trust import default_isolation
        from arena.plugins import get_registry

        isolation = default_isolation([b.bot for b in bots], registry if registry is not None else get_registry())

    try:
        time_control = TimeControl.from_dict(data.get("time_control", {}))
        policy = FaultPolicy.from_dict(data.get("faults", {}))
    except ArenaError as exc:
        section = "[time_control]" if "time control" in str(exc) else "[faults]"
        raise fail(section, str(exc)) from None

    config = TournamentConfig(
        name=name,
        game=game,
        options=dict(data.get("options", {})),
        bots=tuple(bots),
        format=fmt,
        challenger=challenger,
        deal_sets=deal_sets,
        seed=seed,
        parallel=parallel,
        isolation=isolation,
        time_control=time_control,
        policy=policy,
        limits=limits,
    )
    if registry is not None:
        check_against(config, registry, fail)
    return config


def with_isolation(config: TournamentConfig, isolation: str, registry: "Registry") -> TournamentConfig:
    """``config`` at another isolation level (``arena run --isolation``), its bots checked at it."""
    import dataclasses

    changed = dataclasses.replace(config, isolation=isolation)
    for index, entry in enumerate(changed.bots):
        try:
            check_seat(registry, entry.bot, changed.game, isolation)
        except ArenaError as exc:
            raise TournamentFileError(f"--isolation {isolation}: bots[{index}].bot: {exc}") from None
    return changed


def check_against(config: TournamentConfig, registry: "Registry", fail: Any) -> None:
    """Check the game, its options and the bots against the installed plugins."""
    try:
        game = registry.game(config.game, config.options)
    except UnknownGameError as exc:
        raise fail("[tournament] game", str(exc)) from None
    except OptionError as exc:
        raise fail("[options]", str(exc)) from None
    # resolve the options so the stored tournament holds every option, defaults included
    object.__setattr__(config, "options", dict(game.options))
    from arena.tournaments.schedule import MAX_MATCHES, count

    matches = count(config, game)
    if matches > MAX_MATCHES:
        raise fail("[tournament] deal_sets", f"the schedule would hold {matches} matches ({len(config.bots)} bots, "
                   f"{config.deal_sets} deal sets); at most {MAX_MATCHES} are allowed: fewer bots or deal sets")
    for index, entry in enumerate(config.bots):
        try:  # the seat kind checks its name; remote and launched bots are reached when their match starts
            check_seat(registry, entry.bot, config.game, config.isolation)
        except ArenaError as exc:
            raise fail(f"bots[{index}].bot", str(exc)) from None


def _typed(table: Mapping[str, Any], key: str, kind: type, fail: Any, where: str, default: Any = None, sep: str = " ") -> Any:
    if key not in table:
        return default
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = {str: "a string", int: "a whole number"}[kind]
        raise fail(f"{where}{sep}{key}", f"expected {expected}, got {value!r}")
    return value
