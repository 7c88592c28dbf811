"""A small tournament played for the board tests (the comparing board, and the HTML board in a
real browser): three bots over 3 deal sets of the toy game, one of them making illegal moves, so
that the board has substitutions and fault rows to show."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.store import Store
from arena.tournaments import config as tconfig
from arena.tournaments import runner

TOURNAMENT = """
[tournament]
name = "board-check"
game = "toy"
deal_sets = 3
seed = 5
isolation = "inprocess"

[[bots]]
bot = "random"

[[bots]]
name = "random-2"
bot = "random"

[[bots]]
name = "misfit"
bot = "bad-illegal"
settings = { after = 3 }

[faults]
illegal = "substitute"
max_faults = 2
"""


def play(folder: Path, registry: Any) -> Store:
    """The tournament played into ``folder``/r.db (inline: one process); the store is left open."""
    path = folder / "t.toml"
    path.write_text(TOURNAMENT)
    return runner.run(tconfig.load(path, registry), registry, folder / "r.db", executor="inline", progress=False)
