"""The plugin manager and the registry of everything plugins register: games, bots, seat kinds,
isolation levels, executors, rating systems and commands.

As in pluggy's own example host: add the specs, load the ``trick_arena`` entry points, check that
every hook implementation matches a spec. Built-ins have no back door: the bundled games and bots
are entry points of this distribution.
"""

from __future__ import annotations

import functools
import importlib
import os
from typing import Any, Iterable, Mapping

import pluggy

from arena.errors import ArenaError, PluginError, UnknownBotError, UnknownGameError
from arena.games.base import Game
from arena.kinds import Command, ExecutorKind, Isolation, RatingSystem, SeatKind
from arena.players.base import BotSpec, Player
from arena.plugins import hookspecs


ENV_PLUGINS = "TRICK_ARENA_PLUGINS"  # extra plugin modules, comma-separated (e.g. a bot not yet packaged)


def get_plugin_manager(load_entry_points: bool = True, plugins: Iterable[object] = ()) -> pluggy.PluginManager:
    """A plugin manager with the specs, the installed entry points, the modules named in
    ``$TRICK_ARENA_PLUGINS`` and any extra ``plugins``."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    if load_entry_points:
        try:
            pm.load_setuptools_entrypoints(hookspecs.PROJECT)
        except Exception as exc:  # a broken third-party plugin must say who it is
            raise PluginError(f"a {hookspecs.PROJECT} entry point failed to load: {exc!r}") from exc
        for name in filter(None, (n.strip() for n in os.environ.get(ENV_PLUGINS, "").split(","))):
            try:
                module = importlib.import_module(name)
            except Exception as exc:
                raise PluginError(f"{ENV_PLUGINS}: plugin module {name!r} failed to import: {exc!r}") from exc
            if pm.get_plugin(name) is None and not pm.is_registered(module):
                pm.register(module, name=name)
    for plugin in plugins:
        pm.register(plugin)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"plugin {exc.plugin!r} implements a hook that does not exist: {exc}") from exc
    return pm


class Registry:
    """Everything the installed plugins register, by name. Each registration is checked here, and
    a bad one names the plugin at fault."""

    def __init__(self, pm: pluggy.PluginManager):
        self.pm = pm
        self.games: dict[str, type[Game]] = {}
        self.bots: dict[str, BotSpec] = {}
        self.seat_kinds: dict[str, SeatKind] = {}
        self.isolations: dict[str, Isolation] = {}
        self.executors: dict[str, ExecutorKind] = {}
        self.commands: dict[str, Command] = {}
        self.rating_systems: dict[str, RatingSystem] = {}
        for impl, result in _results(pm, "arena_register_games"):
            for game in result or []:
                if not (isinstance(game, type) and issubclass(game, Game)):
                    raise PluginError(f"plugin {impl} registered {game!r}, which is not a Game subclass")
                _add(self.games, game.name, game, impl, "game")
        tables: list[tuple[str, dict, type[Any], str]] = [  # each class has a str name
            ("arena_register_bots", self.bots, BotSpec, "bot"),
            ("arena_register_seat_kinds", self.seat_kinds, SeatKind, "seat kind"),
            ("arena_register_isolations", self.isolations, Isolation, "isolation level"),
            ("arena_register_executors", self.executors, ExecutorKind, "executor"),
            ("arena_register_commands", self.commands, Command, "command"),
            ("arena_register_rating_systems", self.rating_systems, RatingSystem, "rating system"),
        ]
        for hook, table, cls, kind in tables:
            for impl, result in _results(pm, hook):
                for item in result or []:
                    if not isinstance(item, cls):
                        raise PluginError(f"plugin {impl} registered {item!r} as {'an' if kind[0] in 'aeiou' else 'a'} {kind}, which is not an {cls.__module__}.{cls.__name__}")
                    _add(table, item.name, item, impl, kind)
        prefixes: dict[str, str] = {}
        for kind_ in self.seat_kinds.values():
            for prefix in kind_.prefixes:
                if not prefix or prefix in prefixes:
                    raise PluginError(f"seat kind {kind_.name!r} claims the prefix {prefix!r}, "
                                      f"{'which is empty' if not prefix else 'already that of ' + repr(prefixes[prefix])}")
                prefixes[prefix] = kind_.name

    def game(self, name: str, options: Mapping[str, Any] | None = None) -> Game:
        """A configured game; unknown names and bad options raise errors that say what is accepted."""
        try:
            cls = self.games[name]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise UnknownGameError(f"unknown game {name!r}; installed games: {known}") from None
        return cls(options)

    def bot(self, name: str) -> BotSpec:
        try:
            return self.bots[name]
        except KeyError:
            known = ", ".join(sorted(self.bots)) or "none"
            raise UnknownBotError(f"unknown bot {name!r}; installed bots: {known}") from None

    def make_bot(self, name: str, settings: Mapping[str, Any] | None = None, seed: int = 0) -> Player:
        return self.bot(name).factory(dict(settings or {}), seed)

    def isolation(self, name: str) -> Isolation:
        return _named(self.isolations, name, "isolation level")

    def executor(self, name: str) -> ExecutorKind:
        return _named(self.executors, name, "executor")

    def rating_system(self, name: str) -> RatingSystem:
        return _named(self.rating_systems, name, "rating system")


def _named(table: Mapping[str, Any], name: str, kind: str) -> Any:
    try:
        return table[name]
    except KeyError:
        raise ArenaError(f"unknown {kind} {name!r}; {kind}s: {', '.join(table) or 'none'}") from None


def _results(pm: pluggy.PluginManager, hook_name: str):
    """Call a registration hook once per plugin, so that errors can name the plugin."""
    hook = getattr(pm.hook, hook_name)
    for impl in hook.get_hookimpls():
        try:
            result = impl.function()
        except Exception as exc:
            raise PluginError(f"plugin {impl.plugin_name!r} failed in {hook_name}: {exc!r}") from exc
        yield impl.plugin_name, result


def _add(table: dict, name: str, item: object, plugin: str, kind: str) -> None:
    if name in table:
        raise PluginError(f"two plugins register the {kind} {name!r} (the second is {plugin!r})")
    table[name] = item


@functools.cache
def get_registry() -> Registry:
    """The registry of the installed plugins (loaded once per process)."""
    return Registry(get_plugin_manager())
