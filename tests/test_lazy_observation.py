"""Observations built on first use (issue: benchmarks): a bot sees exactly what the engine's
``observation(seat)`` gives, in the same order, whenever it reads it; and the fast paths added for
speed give the same results as the plain ones."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

from arena.games.base import shuffle
from arena.players import pipe
from arena.players.hosts import InProcessHost
from arena.plugins import get_registry
from arena.referee import Referee, TimeControl
from arena.referee.observation import LazyObservation
from bots.random_bot import RandomBot

GAMES = sorted(get_registry().games)  # every registered game (conftest has loaded the test plugins)
CLOCK = ("time_left", "bank_left")


def _lazy(state, seat):
    return LazyObservation.make(state, seat, legal_actions=state.legal_actions(), time_left=1.5, bank_left=None)


@pytest.mark.parametrize("name", GAMES)
def test_a_lazy_observation_is_the_engines_observation(registry, name):
    game = registry.game(name, {"max_hands": 3} if "max_hands" in registry.games[name].option_table.names() else {})
    rng = random.Random(3)
    for match in range(3):
        state = game.new_match(seed=match)
        while not state.is_over():
            seat = state.current_player()
            full = state.observation(seat)
            expected = {**full, "time_left": 1.5, "bank_left": None}
            lazy = _lazy(state, seat)
            assert lazy["legal_actions"] == full["legal_actions"]
            assert not lazy.built
            assert json.dumps(lazy) == json.dumps(expected)  # same keys, values and order
            assert lazy.built and lazy == expected and list(lazy) == list(expected)
            state.apply_id(rng.choice(state.legal_action_ids()))


def test_the_dict_interface_builds_it_first(registry):
    state = registry.game("bid_euchre").new_match(seed=1)
    seat = state.current_player()
    full = {**state.observation(seat), "time_left": 1.5, "bank_left": None}
    for use in (len, list, dict, repr, lambda o: o.get("hand"), lambda o: "hand" in o, lambda o: o["hand"],
                lambda o: list(o.items()), lambda o: o.copy(), lambda o: pickle.loads(pickle.dumps(o)),
                copy.deepcopy, copy.copy, lambda o: {**o}, lambda o: o | {}):
        lazy = _lazy(state, seat)
        use(lazy)
        assert lazy.built and dict(lazy) == full
    plain = pickle.loads(pickle.dumps(_lazy(state, seat)))
    assert type(plain) is dict and plain == full
    lazy = _lazy(state, seat)
    lazy["mine"] = 1  # a bot's own key survives the build, after the engine's
    assert list(lazy)[-1] == "mine" and lazy.get("absent", 7) == 7
    with pytest.raises(KeyError):
        _lazy(state, seat)["absent"]


def test_a_kept_observation_shows_the_state_of_its_decision(registry):
    """A bot that keeps observations unread and reads them after the match sees each as it was."""
    game = registry.game("bid_euchre", {"max_hands": 2})
    truth: list[str] = []

    def record_truth(state, seat, action, elapsed):  # the observation each asked decision was made from
        if elapsed is not None:
            truth.append(json.dumps(before.observation(seat)))
        before.apply(action)

    class Keeper(RandomBot):
        def __init__(self, seed, kept):
            super().__init__(seed)
            self.kept = kept

        def act(self, observation):
            self.kept.append(observation)  # not read beyond legal_actions now
            return super().act(observation)

    kept: list = []
    hosts = [InProcessHost(Keeper(seat, kept)) for seat in range(4)]
    referee = Referee(game, hosts, ["k"] * 4, seed=4, time_control=TimeControl(5.0), on_action=record_truth)
    before = referee.state.clone()  # the state one action behind the referee's
    referee.play()
    assert len(kept) == len(truth) > 20
    for observation, expected in zip(kept, truth):
        assert json.dumps({k: v for k, v in observation.items() if k not in CLOCK}) == expected


def test_the_inline_shuffle_is_randoms():
    for seed in range(300):
        for size in (2, 24, 25, 33, 43, 48, 53, 54):
            mine, theirs = list(range(size)), list(range(size))
            shuffle(random.Random(f"{seed}/deal/{size}"), mine)
            random.Random(f"{seed}/deal/{size}").shuffle(theirs)
            assert mine == theirs


@pytest.mark.parametrize("answer", ["play 10H", "", "é\u2028", "\udc80", None, True, 3, 2.5, [1, "x"], {"a": 1}, object()])
def test_the_isolated_wire_never_unpickles_what_a_bot_sends(answer):
    kind, value = pipe.decode(pipe.answer(answer))
    if answer is None or type(answer) in (str, bool, int, float):
        assert kind == "ok" and value == answer and type(value) is type(answer)
    else:
        assert kind == "garbage" and value == repr(answer)[:200]
    assert pipe.decode(pickle.dumps(("ok", "play 10H")))[0] == "garbage"  # a pickle is not an answer
