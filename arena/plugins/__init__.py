"""The plugin system (pluggy): hook specifications and the registry of games and bots."""

from arena.plugins.hookspecs import hookimpl
from arena.plugins.manager import Registry, get_plugin_manager, get_registry

__all__ = ["Registry", "get_plugin_manager", "get_registry", "hookimpl"]
