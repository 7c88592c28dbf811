"""The plugin system: entry points, registration through hooks, clear errors for bad plugins."""

import types
from importlib.metadata import entry_points

import pytest

from arena.errors import PluginError, UnknownBotError, UnknownGameError
from arena.players.base import BotSpec
from arena.plugins import get_registry, hookimpl
from arena.plugins.manager import Registry, get_plugin_manager
from tests.plugins import toy_game


def test_bundled_plugins_come_from_entry_points():
    registry = get_registry()
    assert {"random", "heuristic"} <= set(registry.bots)
    registered = []
    for entry in entry_points(group="trick_arena"):  # every game of every installed entry point
        games = getattr(entry.load(), "arena_register_games", lambda: [])()
        registered += games
        for game in games:
            assert registry.games[game.name] is game, entry
    assert len(registered) >= 4  # (the bundled games, at least)


def test_unknown_names_list_what_is_installed(registry):
    with pytest.raises(UnknownGameError, match="installed games: .*toy"):
        registry.game("chess")
    with pytest.raises(UnknownBotError, match="installed bots: .*random"):
        registry.bot("stockfish")


def test_a_misspelt_hook_fails_loudly():
    plugin = types.ModuleType("typo_plugin")

    @hookimpl
    def arena_register_game():  # missing "s"
        return []

    plugin.arena_register_game = arena_register_game
    with pytest.raises(PluginError, match="arena_register_game"):
        get_plugin_manager(load_entry_points=False, plugins=[plugin])


def test_duplicate_names_and_bad_registrations_name_the_plugin():
    twin = types.ModuleType("twin")
    twin.arena_register_games = hookimpl(lambda: [toy_game.ToyGame])
    with pytest.raises(PluginError, match="two plugins register the game 'toy'"):
        Registry(get_plugin_manager(load_entry_points=False, plugins=[toy_game, twin]))
    bad = types.ModuleType("bad")
    bad.arena_register_bots = hookimpl(lambda: ["not a spec"])
    with pytest.raises(PluginError, match="bad.*not an arena.players.base.BotSpec"):
        Registry(get_plugin_manager(load_entry_points=False, plugins=[bad]))


def test_a_third_party_bot_is_registered_like_the_bundled_ones():
    plugin = types.ModuleType("third_party")
    plugin.arena_register_bots = hookimpl(lambda: [BotSpec("mine", lambda settings, seed: None, "x", ("toy",))])
    registry = Registry(get_plugin_manager(plugins=[plugin]))
    assert registry.bot("mine").plays("toy") and not registry.bot("mine").plays("five_hundred")
    assert "random" in registry.bots
