"""N matches of one configured game stepped together, for self-play training (docs/learning.md).

Every call returns, for each match, the tensor and action mask of the seat to act, so one policy
plays every seat (turn-based self-play). A match that ends is started afresh in the same call:
that step returns its final rewards and ``done``, and the next match's first observation.

It drives the ``GameState``s directly, as :class:`arena.envs.aec.TrickGameEnv` does, without the
PettingZoo bookkeeping (agent dicts, wrappers, dead steps), and encodes straight into preallocated
arrays. Match ``i`` of ``reset(seed=s)`` follows exactly the match sequence of a ``TrickGameEnv``
reset with ``seed=s + i`` and then reset without a seed after each match (gymnasium's vector
environments seed their copies ``s + i`` too), so the two give the same observations and rewards
for the same actions.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from gymnasium.utils import seeding

from arena.envs.aec import side_reward
from arena.envs.encoding import ObservationEncoder
from arena.games.base import Game, GameState, MatchEnd


class VectorTrickGameEnv:
    """``num_envs`` independent matches of ``game``, each restarted when it ends."""

    def __init__(self, game: Game, num_envs: int, copy: bool = True):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.game = game
        self.num_envs = num_envs
        self.players = game.players
        self.num_actions = game.num_actions
        self.encoder = ObservationEncoder(game)
        self.observation_size = self.encoder.size
        # copy=False hands out the arrays themselves, overwritten by the next call (no copy per step)
        self.copy = copy
        self._side_of = [game.side_of(seat) for seat in range(game.players)]
        self._rows = np.arange(num_envs)
        self._obs = np.zeros((num_envs, self.observation_size), np.float32)
        self._mask = np.zeros((num_envs, self.num_actions), np.int8)
        self._to_act = np.zeros(num_envs, np.int64)
        self._rewards = np.zeros((num_envs, self.players), np.float32)
        self._done = np.zeros(num_envs, bool)
        self.truncated = np.zeros(num_envs, bool)  # of the last step's done: cut by max_hands, not the rules
        self.match_seeds = [0] * num_envs  # the seed of each current match's deals
        self.states: list[GameState] = []
        self._seeds: list[np.random.Generator] = []

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """New matches: match ``i`` draws its match seeds from ``seed + i`` (a random seed each
        when ``seed`` is None). Returns (observations [N, D] float32, masks [N, A] int8, seats to
        act [N])."""
        self._seeds = [seeding.np_random(None if seed is None else seed + i)[0] for i in range(self.num_envs)]
        self.states = [self._new_match(i) for i in range(self.num_envs)]
        for i, state in enumerate(self.states):
            self._observe(i, state)
        return self._out(self._obs), self._out(self._mask), self._out(self._to_act)

    def step(self, actions: Sequence[int] | np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply each match's action id (for its seat to act). Returns (observations, masks, seats
        to act, rewards [N, players] float32, done [N] bool); rewards are zero but where a match
        ended, which is then already replaced by a new one. An illegal id raises the game's
        IllegalActionError before any match moves."""
        if not self.states:
            raise RuntimeError("reset() first")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or ((actions < 0) | (actions >= self.num_actions)).any():
            raise ValueError(f"actions must be {self.num_envs} ids in [0, {self.num_actions})")
        illegal = np.flatnonzero(self._mask[self._rows, actions] == 0)
        if illegal.size:  # the game names the refused action and the legal ones, and changes nothing
            i = int(illegal[0])
            self.states[i].apply_id(int(actions[i]))
            raise AssertionError("the game accepted an action its legal ids leave out")
        self._rewards.fill(0)
        self._done.fill(False)
        self.truncated.fill(False)
        for i, action in enumerate(actions.tolist()):
            state = self.states[i]
            state.apply_id(action)
            if state.is_over():
                self._finish(i, state)
                state = self.states[i] = self._new_match(i)
            self._observe(i, state)
        out = self._out
        return out(self._obs), out(self._mask), out(self._to_act), out(self._rewards), out(self._done)

    def _new_match(self, i: int) -> GameState:
        """Match ``i``'s next match. One over before any decision (All Fours' kick can win a low
        target score) gives nothing to act on: it is passed over for the next seed."""
        while True:
            self.match_seeds[i] = int(self._seeds[i].integers(2**63))
            state = self.game.new_match(seed=self.match_seeds[i])
            if not state.is_over():
                return state

    def _observe(self, i: int, state: GameState) -> None:
        seat = state.current_player()
        assert seat is not None, "a match not over has a seat to act"
        self._to_act[i] = seat
        self.encoder.encode_into(state.observation(seat), self._obs[i])
        mask = self._mask[i]
        mask.fill(0)
        mask[state.legal_action_ids()] = 1

    def _finish(self, i: int, state: GameState) -> None:
        scores = state.scores()
        for seat, side in enumerate(self._side_of):
            self._rewards[i, seat] = side_reward(self.game, scores, side)
        self._done[i] = True
        self.truncated[i] = bool(state.unfinished) or state.match_end() == MatchEnd.HAND_LIMIT

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array
