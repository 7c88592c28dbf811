"""arena.envs: every registered game, at every player count and option value, as a PettingZoo AEC
environment (docs/learning.md): PettingZoo's own API and seed tests, tensors that show a seat only
its own view, and rewards that agree with the arena's result of the same match."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import arena.envs as envs  # noqa: E402
from arena.envs.aec import side_reward  # noqa: E402
from arena.errors import OptionError  # noqa: E402
from arena.plugins import get_registry  # noqa: E402
from arena.testing import cases, parametrize  # noqa: E402
from arena.testing.conformance import option_values  # noqa: E402

# Random play rarely reaches Bid Euchre's 32 points (random contracts are mostly set): a lower
# target lets a whole match end within the test's budget.
QUICK = {"bid_euchre": {"target_score": 8}}


def options_of(case) -> dict:
    return {"players": case.players, **QUICK.get(case.game, {})}


def random_action(observation: dict, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(observation["action_mask"]).tolist())


@parametrize()
def test_pettingzoo_api_and_seeding(case):
    api_test(envs.env(case.game, **options_of(case)), num_cycles=100, verbose_progress=False)
    seed_test(lambda: envs.env(case.game, **options_of(case)), num_cycles=100)


@parametrize()
def test_same_seed_same_deals_and_observations(case):
    first, second = envs.env(case.game, players=case.players), envs.env(case.game, players=case.players)
    first.reset(seed=5)
    second.reset(seed=5)
    assert first.unwrapped.state.deals == second.unwrapped.state.deals
    for agent in first.agents:
        assert np.array_equal(first.observe(agent)["observation"], second.observe(agent)["observation"])
    second.reset(seed=6)
    assert first.unwrapped.state.deals != second.unwrapped.state.deals
    first.reset()  # no seed: the next match of seed 5's sequence, not the same one again
    assert first.unwrapped.state.deals != second.unwrapped.state.deals
    second.reset(seed=5)
    assert first.unwrapped.state.deals != second.unwrapped.state.deals


@parametrize()
def test_tensor_shows_a_seat_only_its_own_view(case):
    """At random points of random play, every seat's tensor is unchanged on a state the seat could
    equally be facing (other hidden cards, drawn by the game's resample) and equals the encoding of
    the arena's own observation for that seat."""
    env = envs.env(case.game, **options_of(case))
    raw = env.unwrapped
    env.reset(seed=1)
    rng = random.Random(1)
    try:
        raw.state.resample(0, rng)
        resamples = True
    except NotImplementedError:  # the game has no resample: the second check still runs
        resamples = False
    for step in range(300):
        if raw.state.is_over():
            break
        for agent in env.agents:
            seen = env.observe(agent)
            if resamples and step % 7 == 0:
                real = raw.state
                raw.state = raw.sample_state(agent, rng)
                try:
                    other = env.observe(agent)
                finally:
                    raw.state = real
                changed = np.flatnonzero(seen["observation"] != other["observation"])
                assert not changed.size, (f"{agent}'s tensor changed with cards hidden from it, at"
                                          f" {[segment_at(raw.encoder, i) for i in changed]}")
                assert np.array_equal(seen["action_mask"], other["action_mask"])
            expected = raw.encoder.encode(raw.state.observation(raw.seat_of[agent]))
            assert np.array_equal(seen["observation"], expected), f"{agent}'s tensor is not its observation's"
        env.step(random_action(env.observe(env.agent_selection), rng))


def segment_at(encoder, index: int) -> str:
    segment = next(s for s in encoder.segments if s.start <= index < s.start + s.size)
    return f"{segment.name}[{index - segment.start}]"


@parametrize()
def test_whole_match_rewards_agree_with_the_arenas_result(case):
    env = envs.env(case.game, **options_of(case))
    env.reset(seed=11)
    raw = env.unwrapped
    rng = random.Random(11)
    actions, rewards, ends = [], {}, {}
    for agent in env.agent_iter(max_iter=50_000):
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent], ends[agent] = reward, (terminated, truncated)
            env.step(None)
            continue
        assert reward == 0  # rewards come at the end of the match only
        actions.append(random_action(observation, rng))
        env.step(actions[-1])
    assert not env.agents, "the match did not end"
    # The arena's own match: the same seed, the same actions.
    state = get_registry().game(case.game, options_of(case)).new_match(seed=raw.match_seed)
    for action in actions:
        state.apply_id(action)
    result = state.result()
    assert result["over"] and result == raw.state.result()
    assert ends == {agent: (True, False) for agent in raw.possible_agents}
    game = raw.game
    for agent, seat in raw.seat_of.items():
        assert rewards[agent] == side_reward(game, result["scores"], game.side_of(seat))
    best = max(rewards.values())
    assert {game.side_of(raw.seat_of[a]) for a, r in rewards.items() if r == best} == set(result["winners"])


@parametrize()
def test_a_hand_limit_truncates(case):
    """A match the ``max_hands`` option cuts is truncated, not terminated: the first seed and
    policy (random, or always the lowest legal id: in Five Hundred random bids end the match in
    one hand, passing does not) whose first hand does not end the match by the rules."""
    env = envs.env(case.game, players=case.players, max_hands=1)
    for seed in range(20):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while not env.unwrapped.state.is_over():
            observation = env.observe(env.agent_selection)
            env.step(random_action(observation, rng) if seed % 2 else int(np.argmax(observation["action_mask"])))
        if env.unwrapped.state.unfinished:
            break
    else:
        pytest.fail("every match ended by the rules within one hand")
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert set(env.rewards) == set(env.possible_agents)


@pytest.mark.parametrize("name", sorted(get_registry().games))
def test_every_option_value_makes_a_working_env(name):
    """Each option value (the conformance kit's sweep) at the first player count that accepts it."""
    game_cls = get_registry().games[name]
    counts = [case.players for case in cases() if case.game == name]
    for option in game_cls.option_table:
        for value in option_values(option):
            for players in ([value] if option.name == "players" else counts):
                try:
                    env = envs.env(name, **{"players": players, option.name: value})
                except OptionError:
                    continue
                env.reset(seed=0)
                rng = random.Random(0)
                for _ in range(60):
                    if env.unwrapped.state.is_over():
                        break
                    seen = env.observe(env.agent_selection)
                    assert env.observation_space(env.agent_selection).contains(seen), (option.name, value)
                    env.step(random_action(seen, rng))
                break
            else:
                pytest.fail(f"{name}: {option.name}={value!r} refused at every player count")


# The bench group that measures the environments, which imports them inside its run (skipped
# without the rl extra): the arena and `arena bench` still load without these packages.
MEASURES_THE_ENVIRONMENTS = Path("arena", "bench", "envs.py")
# The trained bot encodes its observations exactly as its training did, with the encoder: that
# module alone (numpy, which the core install has), never the environments or pettingzoo; the
# package imports its environments lazily so that this import does not need the rl extra.
ENCODES_OBSERVATIONS = Path("bots", "learned")
THE_ENCODER_ONLY = "from arena.envs.encoding import ObservationEncoder"


def test_nothing_else_in_the_arena_imports_the_environments():
    root = Path(__file__).resolve().parent.parent
    for path in [*root.joinpath("arena").rglob("*.py"), *root.joinpath("bots").rglob("*.py")]:
        if "envs" in path.relative_to(root).parts:
            continue
        text = path.read_text()
        if path.relative_to(root) == MEASURES_THE_ENVIRONMENTS:
            assert not [line for line in text.splitlines() if line.startswith(("import ", "from ")) and
                        ("arena.envs" in line or "pettingzoo" in line or "numpy" in line)], path
            continue
        if path.relative_to(root).is_relative_to(ENCODES_OBSERVATIONS):
            assert "pettingzoo" not in text, path
            assert not [line for line in text.splitlines() if "arena.envs" in line and
                        not line.startswith(THE_ENCODER_ONLY)], path
            continue
        assert "pettingzoo" not in text and "arena.envs" not in text, path


def test_the_guide_s_example_runs(capsys):
    guide = Path(__file__).resolve().parent.parent / "docs" / "learning.md"
    example = guide.read_text(encoding="utf-8").split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(example, str(guide), "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert sorted(line.split()[0] for line in printed) == ["player_0", "player_1", "player_2"]  # each its reward
