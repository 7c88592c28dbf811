"""Golden playthroughs (arena.testing.golden): each registered game at each player count still plays
its checked-in random match exactly — the same deals, legal actions, observations and results.

An intended change is accepted by regenerating the files with the command the failure prints.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena import testing
from arena.plugins.manager import Registry, get_plugin_manager
from arena.testing import golden
from tests.plugins import toy_game

GOLDEN = Path(__file__).parent / "golden"


def _fail(problems: list[str]) -> None:
    pytest.fail("\n".join(problems) + f"\n\nIf the change is intended, regenerate the golden files with:\n"
                f"  {golden.regenerate_command(GOLDEN)}", pytrace=False)


@testing.parametrize()
def test_each_registered_game_replays_its_golden_playthrough(case):
    path = GOLDEN / golden.file_name(case.game, case.players)
    if not path.exists():
        _fail([f"{path}: missing (the registered game {case.game!r} at {case.players} players has no golden file)"])
    problem = golden.compare_file(path)
    if problem:
        _fail([problem])


def test_no_golden_file_is_stale():
    problems = [p for p in golden.check_directory(GOLDEN) if "stale" in p]
    if problems:
        _fail(problems)


# -- the comparison reports what it should ---------------------------------------------------------

def _toy_registry() -> Registry:
    return Registry(get_plugin_manager(load_entry_points=False, plugins=[toy_game]))


def test_a_changed_observation_is_reported_with_where(tmp_path):
    registry = _toy_registry()
    play = golden.playthrough("toy", 2, registry)
    assert golden.loads(golden.dumps(play)) == play  # the file's change encoding is exact
    play["decisions"][5]["observations"][1]["scores"] = [9, 9]
    path = tmp_path / "toy-2.json"
    path.write_text(golden.dumps(play))
    problem = golden.compare_file(path, registry)
    decision = play["decisions"][5]
    assert problem is not None and str(path) in problem
    assert (f"hand {decision['hand']}, action {decision['action_index']} (decision 5, seat {decision['seat']} to act):"
            " observation of seat 1: observation['scores']") in problem


def test_a_changed_record_and_changed_play_are_reported(tmp_path):
    registry = _toy_registry()
    play = golden.playthrough("toy", 2, registry)
    changed = golden.loads(golden.dumps(play))
    changed["record"]["hands"][0]["result"]["scores"] = [99, 0]
    assert golden.first_difference(changed, play).startswith("the record: record['hands'][0]['result']['scores']")
    changed = golden.loads(golden.dumps(play))
    changed["decisions"][3]["action"] = "play XX"
    assert "the random player chose" in golden.first_difference(changed, play)


def test_missing_and_stale_files_are_reported_and_rewritten(tmp_path):
    registry = _toy_registry()
    (tmp_path / "chess-2.json").write_text("{}")
    problems = golden.check_directory(tmp_path, registry)
    assert any("chess-2.json" in p and "stale" in p for p in problems)
    assert any("toy-2.json: missing" in p for p in problems)
    written = list(golden.write_directory(tmp_path, registry))
    assert [p.name for p in written] == ["toy-2.json"] and not (tmp_path / "chess-2.json").exists()
    assert golden.check_directory(tmp_path, registry) == []


def test_the_regeneration_command_is_one_command():
    command = golden.regenerate_command(GOLDEN)
    assert command.endswith("-m arena.testing.golden --write tests/golden")
    assert "TRICK_ARENA_PLUGINS=" in command  # the suite's plugins (the toy game has a golden file too)
