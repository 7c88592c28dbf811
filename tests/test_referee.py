"""The referee: clocks, legality, the fault policy, isolation (issue: the referee)."""

from __future__ import annotations

import os

import pytest

from arena.matches import MatchSpec, play_match
from arena.players.seats import make_host
from arena.players.hosts import InProcessHost
from arena.records import replay
from arena.referee import FaultPolicy, Referee, TimeControl
from arena.referee.clock import Clock
from bots.random_bot import RandomBot

MODES = ["inprocess", "process"]
FAULTS = {
    "illegal": "illegal",
    "garbage": "malformed",
    "sleepy": "timeout",
    "endless": "timeout",
    "raising": "crash",
    "suicidal": "crash",
}


def _play(registry, names, *, isolation="inprocess", policy=None, per_decision=0.5, settings=None, seed=1, game=None):
    game = game or registry.game("toy", {"target": 6})
    spec = MatchSpec.single(game.name, names, seed=seed, options=game.options, isolation=isolation,
                            settings=[(settings or {}).get(seat) or {} for seat in range(len(names))],
                            time_control=TimeControl(per_decision), policy=policy, bot_seeds=range(len(names)))
    return play_match(spec, registry)


def test_a_normal_match_records_every_decision_and_replays(registry):
    result = _play(registry, ["random", "random"])
    assert result.termination.how == "normal"
    assert result.winners == [result.ranking.index(0)]
    record = result.record
    for hand in record["hands"]:
        assert len(hand["times"]) == len(hand["actions"])
    asked = sum(t is not None for hand in record["hands"] for t in hand["times"])
    assert asked == sum(times["decisions"] for times in result.think_times)
    again = replay(record, make_game=registry.game)
    assert again.state.scores() == result.scores
    assert [row["scores"] for row in again.hands] == [row["scores"] for row in result.hands]


@pytest.mark.parametrize("isolation", MODES)
@pytest.mark.parametrize("bad", sorted(FAULTS))
def test_every_misbehaving_bot_forfeits_by_default(registry, bad, isolation):
    per_decision = 0.3
    result = _play(registry, [f"bad-{bad}", "random"], isolation=isolation, per_decision=per_decision)
    assert result.termination.how == "forfeit"
    fault = result.termination.forfeit
    assert fault.seat == 0 and fault.kind.value == FAULTS[bad]
    assert result.ranking == [1, 0] and result.winners == [1]
    assert result.record["termination"]["fault"]["kind"] == FAULTS[bad]
    assert result.record["faults"][0]["message"]
    if bad in ("illegal", "garbage"):
        assert result.record["faults"][0]["answer"] is not None


@pytest.mark.parametrize("isolation", MODES)
@pytest.mark.parametrize("bad", ["illegal", "garbage", "raising", "endless"])
def test_substitute_plays_a_random_legal_action_then_forfeits_at_the_limit(registry, bad, isolation):
    policy = FaultPolicy.uniform("substitute", max_faults=3)
    result = _play(registry, [f"bad-{bad}", "random"], isolation=isolation, policy=policy, per_decision=0.2,
                   settings={0: {"after": 1}})
    assert [f.kind.value for f in result.faults] == [FAULTS[bad]] * 3
    assert [f.response.value for f in result.faults] == ["substitute", "substitute", "forfeit"]
    assert all(f.substituted for f in result.faults[:2])
    assert result.termination.how == "forfeit" and result.winners == [1]
    # the substituted actions are in the record, and the record replays up to the forfeit
    replayed = replay(result.record, make_game=registry.game)
    assert replayed.state.scores() == result.scores


def test_an_isolated_bot_is_replaced_after_a_crash_and_plays_on(registry):
    policy = FaultPolicy.uniform("substitute", max_faults=50)
    result = _play(registry, ["bad-suicidal", "random"], isolation="process", policy=policy,
                   settings={0: {"after": 2}})
    assert result.faults and all(f.kind.value == "crash" for f in result.faults)
    # after each crash a fresh process answers again: it plays two good decisions before the next crash
    assert result.termination.how in ("normal", "forfeit")
    assert os.getpid()  # the arena process carries on


def test_the_substitute_is_seeded(registry):
    policy = FaultPolicy.uniform("substitute", max_faults=99)
    first = _play(registry, ["bad-garbage", "random"], policy=policy, seed=5)
    second = _play(registry, ["bad-garbage", "random"], policy=policy, seed=5)
    assert [f.substituted for f in first.faults] == [f.substituted for f in second.faults]
    assert [h["actions"] for h in first.record["hands"]] == [h["actions"] for h in second.record["hands"]]


def test_clock_bank_and_increment():
    clock = Clock(TimeControl(per_decision=2.0, bank=3.0, increment=0.5))
    assert clock.allowed() == 2.0
    clock.charge(1.5)  # bank 3.0 - 1.5 + 0.5 = 2.0
    assert clock.bank == pytest.approx(2.0)
    clock.charge(1.9)  # 2.0 - 1.9 + 0.5 = 0.6
    assert clock.allowed() == pytest.approx(0.6)
    assert clock.decisions == 2 and clock.used == pytest.approx(3.4)


@pytest.mark.parametrize("isolation", MODES)
def test_a_bot_over_its_bank_times_out(registry, isolation):
    game = registry.game("toy", {"target": 6})
    hosts = [make_host(registry, "bad-sleepy", game="toy", seed=0, isolation=isolation), InProcessHost(RandomBot(1))]
    result = Referee(game, hosts, ["bad-sleepy", "random"], time_control=TimeControl(5.0, bank=0.2)).play()
    assert result.termination.forfeit.kind.value == "timeout"


def test_observations_carry_the_time_left(registry):
    seen = []

    class Watcher(RandomBot):
        def act(self, observation):
            seen.append(observation)
            return super().act(observation)

    game = registry.game("toy", {"target": 2})
    Referee(game, [InProcessHost(Watcher(0)), InProcessHost(RandomBot(1))], ["w", "r"],
            time_control=TimeControl(1.5, bank=10.0)).play()
    assert seen and seen[0]["time_left"] == 1.5 and seen[0]["bank_left"] == 10.0
    assert all(obs["seat"] == 0 for obs in seen)


def test_times_are_rounded_exactly_as_round_does():
    """The referee's quick rounding of thinking times gives the very float ``round(x, 6)`` gives."""
    import math
    import random as stdlib_random

    from arena.referee.match import _round6

    rng = stdlib_random.Random(6)
    values = [0.0, -0.0, 1e-7, 5e-7, 0.0000005, 0.0000015, 2.5e-6, 0.1234565, 1.0000005, 999.9999995,
              1e3, 1e9, 1e12, -1.5, math.inf, -math.inf]
    values += [rng.random() * 10 ** rng.randint(-7, 4) for _ in range(100_000)]
    values += [n / 1e6 + 5e-7 for n in range(0, 10_000_000, 997)]  # ties in decimal, near ties in binary
    for value in values:
        assert repr(_round6(value)) == repr(round(value, 6)), value
    assert math.isnan(_round6(math.nan))


def test_a_factory_a_bot_process_cannot_import_is_refused_in_the_arena_with_why():
    from arena.errors import ArenaError
    from arena.players.isolated import ProcessHost

    with pytest.raises(ArenaError, match=r"<lambda> cannot run in a process of its own.*top level of its module"):
        ProcessHost(lambda settings, seed: RandomBot(seed))

    def nested(settings, seed):
        return RandomBot(seed)

    with pytest.raises(ArenaError, match=r"<locals>\.nested cannot run in a process of its own"):
        ProcessHost(nested)
