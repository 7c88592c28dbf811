"""The plugin manager and the registry of installed games and bots.

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

from arena.errors import PluginError, UnknownBotError, UnknownGameError
from arena.games.base import Game
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
    """The installed games and bots, by name."""

    def __init__(self, pm: pluggy.PluginManager):
        self.pm = pm
        self.games: dict[str, type[Game]] = {}
        self.bots: dict[str, BotSpec] = {}
        for impl, result in _results(pm, "arena_register_games"):
            for game in result or []:
                if not (isinstance(game, type) and issubclass(game, Game)):
                    raise PluginError(f"plugin {impl} registered {game!r}, which is not a Game subclass")
                _add(self.games, game.name, game, impl, "game")
        for impl, result in _results(pm, "arena_register_bots"):
            for bot in result or []:
                if not isinstance(bot, BotSpec):
                    raise PluginError(f"plugin {impl} registered {bot!r}, which is not a BotSpec")
                _add(self.bots, bot.name, bot, impl, "bot")

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
        raise PluginError(f"two plugins register a {kind} named {name!r} (the second is {plugin!r})")
    table[name] = item


@functools.cache
def get_registry() -> Registry:
    """The registry of the installed plugins (loaded once per process)."""
    return Registry(get_plugin_manager())
