"""Testing game engines: the conformance kit and the golden playthroughs.

For a game author's own pytest (see docs/game-interface.md, "Testing a new game")::

    from arena.testing import check_game
    from my_package.game import MyGame

    def test_my_game_conforms():
        check_game(MyGame)            # every check, every player count; AssertionError on failure

or one test per check and player count::

    import pytest
    from arena.testing import CHECKS, check, player_counts

    @pytest.mark.parametrize("players", player_counts(MyGame))
    @pytest.mark.parametrize("name", CHECKS)
    def test_my_game(name, players):
        check(MyGame, name, players=players)

``cases()`` / ``parametrize()`` give every registered game at every player count; ``run_checks``
runs the in-process checks in one pass and returns each one's first failure (or None).
"""

from arena.testing.conformance import (CHECKS, DECISIONS, IN_PROCESS, Case, ConformanceError, cases, check,
                                       check_game, check_hash_seeds, check_resample, check_options, option_values,
                                       outputs_under_hash_seeds, parametrize, player_counts, random_records,
                                       run_checks)
from arena.testing.resampling import RESAMPLE_CHECKS

__all__ = [
    "CHECKS", "DECISIONS", "IN_PROCESS", "Case", "ConformanceError", "cases", "check", "check_game",
    "check_hash_seeds", "check_options", "check_resample", "option_values", "outputs_under_hash_seeds", "parametrize",
    "player_counts", "random_records", "run_checks", "RESAMPLE_CHECKS",
]
