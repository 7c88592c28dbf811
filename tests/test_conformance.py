"""The conformance kit (arena.testing) over every registered game at every player count, and proof
that it catches each fault of the deliberately broken toy games (tests/plugins/leaky_game.py).

The games come from the registry (the bundled entry points plus the test plugins conftest loads),
so a newly installed game is tested without editing this file. One pass of random play per game
and player count runs the in-process checks side by side; each check is reported as its own test,
so a failing check does not hide the others. $ARENA_CONFORMANCE_DECISIONS asks for longer playouts.
"""

from __future__ import annotations

import functools

import pytest

from arena import testing
from arena.games.base import MatchEnd
from arena.plugins import get_registry
from arena.plugins.manager import Registry, get_plugin_manager
from arena.testing import IN_PROCESS, ConformanceError, cases, check, check_game, run_checks
from arena.testing.cards import CardNames
from tests.plugins import leaky_game, toy_game


@functools.cache
def _results(game: str, players: int) -> dict:
    return run_checks(game, players)


def _passes(game: str, name: str, **kwargs) -> None:
    try:
        check(game, name, **kwargs)
    except ConformanceError as failure:
        pytest.fail(str(failure), pytrace=False)


@pytest.mark.parametrize("name", IN_PROCESS)
@testing.parametrize()
def test_every_registered_game_passes(case, name):
    failure = _results(case.game, case.players)[name]
    if failure is not None:
        pytest.fail(str(failure), pytrace=False)


@pytest.mark.parametrize("name", testing.RESAMPLE_CHECKS)
@testing.parametrize()
def test_every_registered_game_resamples_what_a_seat_could_be_facing(case, name):
    try:
        testing.check_resample(case.game, players=case.players, checks=[name])
    except ConformanceError as failure:
        pytest.fail(str(failure), pytrace=False)


@testing.parametrize()
def test_every_registered_game_plays_the_same_under_any_hash_seed(case):
    _passes(case.game, "hash_seeds", players=case.players)


@pytest.mark.parametrize("game", sorted(get_registry().games))
def test_every_option_value_of_every_registered_game_plays(game):
    _passes(game, "options")


def test_the_cases_are_every_registered_game_at_every_player_count():
    registry = Registry(get_plugin_manager(plugins=[leaky_game]))
    found = {(case.game, case.players) for case in cases(registry)}
    for name, cls in registry.games.items():
        assert {(name, count) for count in cls().describe()["players"]} <= found
    assert ("leaky_toy", 2) in found and ("toy", 2) in found
    assert str(testing.Case("toy", 2)) == "toy-2"


def test_the_toy_game_passes_every_check_in_one_call():
    check_game(toy_game.ToyGame, decisions=300)


# -- every fault is caught, by the check meant for it and no other --------------------------------

FAULTS = {
    leaky_game.LeakyGame: {"hidden"},
    leaky_game.HintingGame: {"hidden"},
    leaky_game.MutatingGame: {"illegal"},
    leaky_game.ShallowCloneGame: {"clones"},
    leaky_game.UnsortedGame: {"actions"},
    leaky_game.UnreplayableGame: {"records"},
    leaky_game.UnvocalGame: {"vocabulary"},
    leaky_game.UntoldGame: {"hidden", "vocabulary"},
    leaky_game.HashyGame: set(),  # (the hash-seed check catches it, below)
    leaky_game.BrokenOptionGame: set(),  # (the option check catches it, below)
    leaky_game.StockToyGame: set(),  # a correct resample (the resample checks pass, below)
    leaky_game.PeekingGame: set(),  # (the resample checks catch it, below)
    leaky_game.VoidlessGame: set(),
}


@pytest.mark.parametrize("game", list(FAULTS), ids=[cls.name for cls in FAULTS])
def test_each_fault_fails_its_check(game):
    results = run_checks(game, 2, decisions=400)
    failed = {name for name, failure in results.items() if failure is not None}
    assert failed == FAULTS[game], {name: str(failure) for name, failure in results.items() if failure}
    for name in failed:
        failure = results[name]
        assert isinstance(failure, AssertionError) and failure.check == name and failure.game == game.name
        assert f"conformance check {name!r} failed: game {game.name!r}, players=2" in str(failure)


def test_a_leaked_card_is_named_with_where_it_shows():
    with pytest.raises(ConformanceError) as caught:
        check(leaky_game.LeakyGame, "hidden", decisions=100)
    failure = caught.value
    assert (failure.match, failure.hand, failure.action_index) == (0, 0, 0)
    # the same match, as the message says how to make it: the card is the other seat's lowest
    state = leaky_game.LeakyGame().new_match(seed="conformance/0/0")
    other = toy_game.PACK[min(c for c in range(8) if state.hands[1 - failure.seat] >> c & 1)]
    assert failure.card == other and other in state.hidden_cards(failure.seat)
    assert failure.path == "['opponent_lowest']"
    assert f"observation({failure.seat}) shows {other!r} at observation['opponent_lowest']" in str(failure)
    assert "seed 'conformance/0/0'" in str(failure) and "hand 0, action 0" in str(failure)


def test_a_card_leaked_inside_an_action_string_is_caught():
    with pytest.raises(ConformanceError) as caught:
        check(leaky_game.HintingGame, "hidden", decisions=100)
    failure = caught.value
    assert failure.path.startswith("['hints'][0] (in 'play ") and failure.card in toy_game.PACK
    assert f"(in 'play {failure.card}')" in str(failure)


def test_an_illegal_action_that_changes_the_state_is_caught():
    with pytest.raises(ConformanceError, match=r"raised IllegalActionError but changed the state:.*actions_offered"):
        check(leaky_game.MutatingGame, "illegal", decisions=100)


def test_a_clone_sharing_the_original_s_lists_is_caught():
    with pytest.raises(ConformanceError, match="changed the original|changed a clone made before"):
        check(leaky_game.ShallowCloneGame, "clones", decisions=100)


def test_unsorted_legal_ids_are_caught():
    with pytest.raises(ConformanceError, match="not sorted"):
        check(leaky_game.UnsortedGame, "actions", decisions=100)


def test_a_record_that_does_not_replay_is_caught():
    with pytest.raises(ConformanceError, match="check 'records' failed"):
        check(leaky_game.UnreplayableGame, "records", decisions=100)


def test_a_missing_shared_key_and_missing_methods_are_named():
    with pytest.raises(ConformanceError, match=r"lacks the shared keys \['hand_sizes'\]"):
        check(leaky_game.UnvocalGame, "vocabulary", decisions=100)
    with pytest.raises(ConformanceError, match=r"hidden_cards\(0\) is not implemented"):
        check(leaky_game.UntoldGame, "hidden", decisions=100)
    with pytest.raises(ConformanceError, match=r"match_end\(\) is not implemented"):
        check(leaky_game.UntoldGame, "vocabulary", decisions=100)


def test_play_that_depends_on_the_hash_seed_is_caught():
    with pytest.raises(ConformanceError, match="plays differently under PYTHONHASHSEED"):
        check(leaky_game.HashyGame, "hash_seeds", players=2)


def test_an_option_value_that_cannot_play_is_caught():
    with pytest.raises(ConformanceError, match=r"options=\{'variant': 'broken'.*ZeroDivisionError"):
        check(leaky_game.BrokenOptionGame, "options")


def test_a_registered_faulty_game_fails_by_name():
    registry = Registry(get_plugin_manager(plugins=[leaky_game]))
    with pytest.raises(ConformanceError, match="'leaky_toy'"):
        check("leaky_toy", "hidden", registry=registry, decisions=50)


def test_the_option_sweep_plays_each_value():
    option = {o.name: o for o in toy_game.ToyGame.option_table}
    assert testing.option_values(option["target"]) == [1, 50, 3]
    assert testing.option_values(option["max_hands"]) == [1]  # no maximum, default none
    assert testing.option_values(option["players"]) == [2]


# -- what the hidden-card check counts as a card ----------------------------------------------------

def test_cards_are_found_in_lists_and_in_actions_but_bids_are_not_cards():
    names = CardNames(["10H", "7H", "9S", "JK"],
                      ["pass", "bid 7H", "bid 10H", "bid 6NT", "play 7H", "play 10H", "play 9S", "play JK",
                       "play JK H", "discard 9S"])
    assert names.ambiguous == {"7H", "10H"}  # also tricks-and-suit bids
    assert names.shown({"hand": ["10H"], "trick": [[0, "7H"]]}) == {"10H", "7H"}
    assert names.shown({"contract": {"bid": "10H"}, "history": [[1, "bid 7H"], [2, "pass"]]}) == set()
    assert names.shown({"history": [[1, "discard 9S"], [2, "play JK H"]]}) == {"9S", "JK"}
    assert names.shown({"turn_up": "9S", "note": "seat 2 holds JK"}) == {"9S", "JK"}
    assert names.shown({"text": 'a "quoted" 9S'}) == {"9S"}
    assert list(names.where({"tricks": [{"cards": [[0, "play 10H"]]}]}, "10H")) == [
        "['tricks'][0]['cards'][0][1] (in 'play 10H')"]


def test_the_toy_game_says_how_its_match_ended():
    state = toy_game.ToyGame({"max_hands": 1}).new_match(seed=1)
    while not state.is_over():
        assert state.match_end() is None
        state.apply(state.legal_actions()[0])
    assert state.match_end() in (MatchEnd.TARGET, MatchEnd.HAND_LIMIT)
    assert state.result()["end"] == state.match_end().value


# -- the resample checks ------------------------------------------------------------------------------

def test_a_correct_resampler_passes_the_resample_checks():
    testing.check_resample(leaky_game.StockToyGame, players=2)


def test_a_resampler_that_returns_the_true_deal_is_caught():
    with pytest.raises(ConformanceError, match=r"check 'resample_blind' failed.*swapping hidden .* changes what"):
        testing.check_resample(leaky_game.PeekingGame, players=2, checks=["resample_blind"])
    with pytest.raises(ConformanceError, match=r"check .resample_uniform. failed.*as often as their deals"):
        testing.check_resample(leaky_game.PeekingGame, players=2, checks=["resample_uniform"])
    testing.check_resample(leaky_game.PeekingGame, players=2, checks=["resample"])  # it never contradicts


def test_a_resampler_that_ignores_voids_is_caught():
    with pytest.raises(ConformanceError, match=r"check 'resample' failed.*record .* does not replay.*illegal"):
        testing.check_resample(leaky_game.VoidlessGame, players=2, checks=["resample"])
    with pytest.raises(ConformanceError, match=r"check 'resample_uniform' failed.*which no consistent deal gives"):
        testing.check_resample(leaky_game.VoidlessGame, players=2, checks=["resample_uniform"])


def test_a_game_without_resample_passes_the_resample_checks_untested():
    testing.check_resample(toy_game.ToyGame, players=2)
