"""One match of a registered game as a PettingZoo AEC environment (docs/learning.md).

The environment drives a ``GameState`` the way the referee does (the seat to act, its legal action
ids, ``apply_id``), without clocks or bots. Each agent sees only its seat's observation, encoded by
:class:`arena.envs.encoding.ObservationEncoder`; the action mask is the legal action ids. The match
state stays on the raw environment (``env.unwrapped.state``) for search.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from arena.envs.encoding import ObservationEncoder
from arena.games.base import Game, GameState, MatchEnd


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class TrickGameEnv(AECEnv):
    """A whole match (deal after deal until the game's end) of one configured game."""

    metadata = {"render_modes": [], "is_parallelizable": False}

    def __init__(self, game: Game):
        super().__init__()
        self.game = game
        self.metadata = {**self.metadata, "name": f"trick_arena_{game.name}_{game.players}p"}
        self.encoder = ObservationEncoder(game)
        self.possible_agents = [agent_name(seat) for seat in range(game.players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        mask = spaces.Box(0, 1, (game.num_actions,), np.int8)
        tensor = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        # one object per agent, made once: PettingZoo expects the same space on every call
        self._observation_spaces = {a: spaces.Dict({"observation": tensor, "action_mask": mask}) for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self._seeds: np.random.Generator | None = None
        self.state: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new match. Its deals come from a match seed drawn from ``seed``'s generator: the same
        seed gives the same deals; later resets without a seed go on drawing from it."""
        if seed is not None or self._seeds is None:
            self._seeds, _ = seeding.np_random(seed)
        self.match_seed = int(self._seeds.integers(2**63))
        self.state = self.game.new_match(seed=self.match_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None  # PettingZoo's bookkeeping of removing finished agents
        self.agent_selection = self.possible_agents[0]  # kept only if the match is over at once
        self.agent_selection = self._to_act()
        if self.state.is_over():  # e.g. All Fours' kick can win a low target_score on the deal
            self._finish()
            self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None, "reset() first"
        seat = self.seat_of[agent]
        mask = np.zeros(self.game.num_actions, np.int8)
        if self.state.current_player() == seat:
            mask[self.state.legal_action_ids()] = 1
        return {"observation": self.encoder.encode(self.state.observation(seat)), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the action id for the agent to act; an illegal id raises the arena's
        IllegalActionError and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_id(int(action))
        if self.state.is_over():
            self._finish()
        else:
            self.agent_selection = self._to_act()
        self._accumulate_rewards()

    def _finish(self) -> None:
        """The match is over: every agent gets its side's reward and is done (truncated when a
        harness limit, the ``max_hands`` option, stopped it rather than the rules)."""
        assert self.state is not None
        cut = self.state.unfinished or self.state.match_end() == MatchEnd.HAND_LIMIT
        for agent, seat in self.seat_of.items():
            self.rewards[agent] = side_reward(self.game, self.state.scores(), self.game.side_of(seat))
            self.terminations[agent] = not cut
            self.truncations[agent] = cut
            self.infos[agent] = {"result": self.state.result()}

    def _to_act(self) -> str:
        assert self.state is not None
        seat = self.state.current_player()
        return agent_name(seat) if seat is not None else self.agent_selection

    def sample_state(self, agent: str, rng: random.Random) -> GameState:
        """A full state drawn uniformly from those ``agent`` could be facing now (the game's own
        ``resample``; a game without one raises NotImplementedError). For search, not for play."""
        assert self.state is not None
        return self.state.resample(self.seat_of[agent], rng)

    def render(self) -> None:
        """No rendering: ``arena show`` draws a match from ``state.record()``."""

    def close(self) -> None:
        pass


def side_reward(game: Game, scores: list[int], side: int) -> float:
    """A side's score less the mean score of the other sides: zero-sum over the sides."""
    others = [score for other, score in enumerate(scores) if other != side]
    return float(scores[side] - sum(others) / len(others)) if others else 0.0
