"""Shared fixtures: the test plugins (a toy game, misbehaving bots) are loaded the way a user loads
an unpackaged plugin, through $TRICK_ARENA_PLUGINS, so that worker and bot processes see them too."""

from __future__ import annotations

import os

import pytest

os.environ["TRICK_ARENA_PLUGINS"] = "tests.plugins.toy_game,tests.plugins.misbehaving,tests.plugins.hostile"

from arena.plugins import get_registry  # noqa: E402
from arena.plugins.manager import Registry  # noqa: E402


@pytest.fixture(scope="session")
def registry() -> Registry:
    """The installed plugins plus the test plugins."""
    return get_registry()
