"""arena.envs.vector_env: N matches stepped together give exactly what N separate AEC environments
give for the same seeds (match i of seed s is the AEC environment reset with seed s + i) and the
same actions; the same seed gives the same run; finished matches restart in the step that ends
them."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402

import arena.envs as envs  # noqa: E402
from arena.envs.aec import agent_name  # noqa: E402
from arena.errors import IllegalActionError  # noqa: E402

GAMES = ("five_hundred", "fifty_six", "all_fours", "bid_euchre")  # each at its default player count
# Short matches, so each of the few environments ends and restarts several times within the test:
# a hand limit truncates; Five Hundred's random bids often end a match by the rules first.
OPTIONS = {"max_hands": 2}
N = 3


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal id per row: the largest of a uniform draw over the legal ids."""
    return np.argmax(mask * rng.random(mask.shape), axis=1)


@pytest.mark.parametrize("game", GAMES)
def test_the_vector_env_equals_separate_aec_envs(game):
    vector = envs.vector_env(game, N, **OPTIONS)
    singles = [envs.env(game, **OPTIONS) for _ in range(N)]
    obs, mask, to_act = vector.reset(seed=100)
    for i, single in enumerate(singles):
        single.reset(seed=100 + i)
    rng = np.random.default_rng(0)
    ended = [0] * N
    ended_by_rules = 0
    for _ in range(5000):
        for i, single in enumerate(singles):
            agent = single.unwrapped.agent_selection
            assert agent == agent_name(int(to_act[i]))
            seen = single.observe(agent)
            assert np.array_equal(obs[i], seen["observation"]) and np.array_equal(mask[i], seen["action_mask"])
        actions = random_actions(mask, rng)
        obs, mask, to_act, rewards, done = vector.step(actions)
        for i, single in enumerate(singles):
            single.step(int(actions[i]))
            raw = single.unwrapped
            assert bool(done[i]) == raw.state.is_over()
            if done[i]:
                assert rewards[i].tolist() == [raw.rewards[agent_name(seat)] for seat in range(raw.game.players)]
                assert bool(vector.truncated[i]) == all(raw.truncations.values()) != all(raw.terminations.values())
                ended[i] += 1
                ended_by_rules += not vector.truncated[i]
                single.reset()  # no seed: the next match of the same sequence, as the vector env does
            else:
                assert not rewards[i].any()
        if min(ended) >= 3:
            break
    assert min(ended) >= 3, f"matches ended per env: {ended}"
    if game == "five_hundred":
        assert ended_by_rules, "no match ended by the rules: only truncation was compared"


def run(vector, seed: int, steps: int) -> list[tuple[np.ndarray, ...]]:
    rng = np.random.default_rng(seed)
    _, mask, _ = out = vector.reset(seed=seed)
    seen = [out]
    for _ in range(steps):
        out = vector.step(random_actions(mask, rng))
        mask = out[1]
        seen.append(out)
    return seen


def same(first, second) -> bool:
    return all(np.array_equal(a, b) for x, y in zip(first, second) for a, b in zip(x, y))


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_run(game):
    vector = envs.vector_env(game, 4, **OPTIONS)
    first = run(vector, 7, 150)
    assert any(out[4].any() for out in first[1:]), "no match ended: auto-reset was not exercised"
    assert same(first, run(envs.vector_env(game, 4, **OPTIONS), 7, 150))
    assert same(first, run(vector, 7, 150))  # a reset with the seed starts the sequence again
    assert not same(first, run(vector, 8, 150))
    assert len(set(vector.match_seeds)) == 4  # the matches are not copies of one another


def test_a_finished_match_restarts_in_the_step_that_ends_it():
    vector = envs.vector_env("five_hundred", 2, max_hands=1)
    obs, mask, to_act = vector.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(2000):
        seeds = list(vector.match_seeds)
        obs, mask, to_act, rewards, done = vector.step(random_actions(mask, rng))
        if done.any():
            break
    else:
        pytest.fail("no match ended")
    i = int(np.flatnonzero(done)[0])
    assert vector.match_seeds[i] != seeds[i]
    state = vector.states[i]
    assert state.deals[0]["actions"] == [] and not state.is_over()  # a fresh match, nothing played yet
    assert np.array_equal(obs[i], vector.encoder.encode(state.observation(int(to_act[i]))))
    assert np.flatnonzero(mask[i]).tolist() == sorted(state.legal_action_ids())
    assert rewards[i].any() and abs(float(rewards[i].sum())) < 1e-3 * (1 + np.abs(rewards[i]).sum())
    assert not rewards[~done].any()


def test_an_illegal_action_raises_and_moves_no_match():
    vector = envs.vector_env("bid_euchre", 3, copy=False)
    _, mask, _ = vector.reset(seed=1)
    before = [len(state.deals[-1]["actions"]) for state in vector.states]
    actions = np.argmax(mask, axis=1)
    actions[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(IllegalActionError):
        vector.step(actions)
    assert [len(state.deals[-1]["actions"]) for state in vector.states] == before
    with pytest.raises(ValueError):
        vector.step(actions[:2])


def test_the_guide_s_example_runs():
    from pathlib import Path

    guide = Path(__file__).resolve().parent.parent / "docs" / "learning.md"
    section = guide.read_text(encoding="utf-8").split("## Many matches at once", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(compile(example, str(guide), "exec"), scope)
    assert scope["obs"].shape == (64, scope["vector"].observation_size)
