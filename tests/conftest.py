"""Shared fixtures: a registry that also holds the test plugins (the toy game, misbehaving bots)."""

from __future__ import annotations

import pytest

from arena.plugins.manager import Registry, get_plugin_manager
from tests.plugins import misbehaving, toy_game


@pytest.fixture(scope="session")
def registry() -> Registry:
    """The installed plugins plus the test plugins, registered the way a third party's would be."""
    return Registry(get_plugin_manager(plugins=[toy_game, misbehaving]))
