"""The hostile bot as a plugin (``sandbox-attacker``): load it with ``$TRICK_ARENA_PLUGINS`` or
``Registry(get_plugin_manager(plugins=[plugin]))``; a bot process imports only its factory
(``tests.hostile.attacker:make``)."""

from __future__ import annotations

from arena.players.base import BotSpec
from arena.plugins import hookimpl
from tests.hostile.attacker import make

NAME = "sandbox-attacker"


@hookimpl
def arena_register_bots() -> list[BotSpec]:
    return [BotSpec(NAME, make, "hostile: plays legal moves and attacks the arena (tests/hostile)")]
