"""Every ready tournament file in tournaments/ is valid and, played briefly, ranks `heuristic`
above `random` on its board (the bundled bots' promise for every game the project plays)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from arena import board
from arena.tournaments import config as tconfig
from arena.tournaments import runner, schedule
from tests import ready_support

FILES = sorted((Path(__file__).parent.parent / "tournaments").glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_ready_tournament_runs_and_ranks_heuristic_first(path, tmp_path):
    from arena.plugins import get_registry

    registry = get_registry()
    data = tomllib.loads(path.read_text())
    config = tconfig.parse(data, str(path), registry)
    assert {"heuristic", "random"} <= {b.bot for b in config.bots}
    assert config.seed is None  # a ready file deals from each run's secret (docs/tournaments.md)
    assert schedule.build(config, registry.game(config.game, config.options))
    # the same file, briefly: one deal set or a few (of its former public seed), in this process
    brief = tconfig.parse(ready_support.brief(data, isolation="inprocess", seed=ready_support.ready_seed(path),
                                              deal_sets=ready_support.deal_sets(path)), str(path), registry)
    store = runner.run(brief, registry, tmp_path / "r.db", executor="inline", progress=False)
    rows = board.board_data(store)["bots"]
    store.close()
    order = [row["bot"] for row in rows]
    assert order.index("heuristic") < order.index("random"), rows
    assert all(not row["faults"] for row in rows)


SEARCH_FILES = [p for p in FILES if p.stem.startswith("search_")]


def test_every_bundled_game_and_player_count_has_a_ready_search_file():
    """Issue #20's comparisons: search, heuristic and random at 2 s a decision, for every game and
    the player counts the other ready files play."""
    from arena.plugins import get_registry

    registry = get_registry()
    cells = set()
    for path in SEARCH_FILES:
        data = tomllib.loads(path.read_text())
        config = tconfig.parse(data, str(path), registry)
        assert [b.bot for b in config.bots] == ["search", "heuristic", "random"], path
        assert config.time_control.per_decision == 2.0, path
        cells.add((config.game, config.options["players"]))
    others = {(c.game, c.options["players"]) for c in
              (tconfig.parse(tomllib.loads(p.read_text()), str(p), registry) for p in FILES if p not in SEARCH_FILES)}
    assert others <= cells


def test_every_bundled_game_has_a_ready_tournament():
    from arena.plugins import get_registry

    games = {tomllib.loads(p.read_text())["tournament"]["game"] for p in FILES}
    bundled = {name for name, cls in get_registry().games.items() if not cls.__module__.startswith("tests.")}
    assert bundled <= games
