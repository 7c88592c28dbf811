"""docs/plugins.md cannot drift from the code (as datasette's test_docs does for its hooks): every
hook specification has a section titled with its name, and every bundled seat kind, isolation
level, executor and command is named in it."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from arena.plugins import hookspecs

DOC = (Path(__file__).resolve().parents[1] / "docs" / "plugins.md").read_text(encoding="utf-8")
HEADINGS = re.findall(r"^## `(\w+)\(", DOC, flags=re.M)


def _hooks() -> list[str]:
    return [name for name, value in inspect.getmembers(hookspecs, inspect.isfunction)
            if name.startswith("arena_") and hasattr(value, "trick_arena_spec")]


def test_every_hook_has_a_section_and_every_section_a_hook():
    hooks = _hooks()
    assert len(hooks) == 7
    assert sorted(HEADINGS) == sorted(hooks)


def test_the_bundled_extensions_are_named(registry):
    bundled = {"grpc", "cmd", "human", "pybot"}  # seat kinds: by prefix below
    for kind in registry.seat_kinds.values():
        if kind.name in bundled:
            assert all(f"`{prefix}" in DOC for prefix in kind.prefixes), kind
    for name in ("inprocess", "process", "sandbox"):
        assert f"`{name}`" in DOC and name in registry.isolations
    for name in ("local", "inline", "ray"):
        assert f"`{name}`" in DOC and name in registry.executors
    for name in ("games", "bots", "play", "run", "board", "verify", "bench", "match", "serve-bot", "serve", "ladder",
                 "register", "submit", "retire"):
        assert f"`{name}`" in DOC and name in registry.commands


def test_the_rating_system_sample_is_the_toy_one_file():
    """The sample under arena_register_rating_systems is tests/plugins/toy_rating.py's code, which
    tests/test_extension_points.py runs."""
    section = DOC.split("## `arena_register_rating_systems(")[1].split("\n## ")[0]
    sample = section.split("```python\n")[1].split("```")[0]
    toy = (Path(__file__).resolve().parent / "plugins" / "toy_rating.py").read_text(encoding="utf-8")
    assert sample.strip() and toy.rstrip().endswith(sample.rstrip()) and "from arena.kinds import" in sample
