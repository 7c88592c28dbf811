"""The learned bot's input: the ObservationEncoder tensor of a seat's own observation, scaled.

Training and play both go through :class:`Features`, so the bot sees its observations exactly as
the network was trained on them. The input also holds a one-hot of the heuristic's choice (:meth:`Features.inputs`). The scale puts every input near [0, 1]: counts and one-hots as
they are, the unbounded segments (scores, tricks, deal counts) divided by a fixed figure.
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

import numpy as np

from arena.envs.encoding import ObservationEncoder  # numpy only: the package loads its environments lazily

GAME = "bid_euchre"
# segment -> divisor (the others are counts of a few or one-hots, left as they are)
DIVISORS = {"scores": 32.0, "hand_sizes": 6.0, "tricks_won": 6.0, "tricks_won_by_seat": 6.0,
            "hand_index": 20.0, "hands_played": 20.0}
HARNESS_OPTIONS = ("max_hands",)  # options that change no rule


def bundled_game(name: str, options: Mapping[str, Any]) -> Any:
    """The bundled game ``name`` with ``options``, from its own plugin module: not through the
    registry, which loads every plugin, and a sandbox shows this bot only its own code."""
    plugin = importlib.import_module(f"arena.games.{name}.plugin")
    for cls in plugin.arena_register_games():
        if cls.name == name:
            return cls(dict(options))
    raise ValueError(f"learned: no bundled game {name!r}")


def layout(game: Any) -> list[str]:
    """What fixes the meaning of each input and output: the encoder's segments, the action
    strings and the card order. Weights are only usable for a game with the same layout (checked
    when the bot starts)."""
    encoder = ObservationEncoder(game)
    segments = [f"{s['name']} {s['start']} {s['size']}" for s in encoder.describe()]
    return [f"size {encoder.size}", *segments, *encoder.actions, *encoder.cards]


KINDS = ("auction", "trump", "give", "play", "other")  # what a decision is, by its actions' verb
VERB_KIND = {"pass": "auction", "bid": "auction", "trump": "trump", "give": "give", "play": "play"}


def kind_of(action: str) -> str:
    """The kind of decision an action string belongs to (the bot's ``prefer`` is per kind)."""
    return VERB_KIND.get(action.split(" ", 1)[0], "other")


def rules(game: Any) -> dict[str, Any]:
    """The configured game's options that change the rules (its normalised options, less the harness's):
    weights trained under some rules are used under those only."""
    return {k: v for k, v in dict(game.options).items() if k not in HARNESS_OPTIONS}


class Features:
    def __init__(self, game: Any, divisors: Mapping[str, float] = DIVISORS):
        self.game = game
        self.encoder = ObservationEncoder(game)
        self.scale = np.ones(self.encoder.size, np.float32)
        for segment in self.encoder.segments:
            if segment.name in divisors:
                self.scale[segment.start:segment.start + segment.size] = 1.0 / float(divisors[segment.name])
        self.num_actions = game.num_actions
        self.kinds = np.array([KINDS.index(kind_of(a)) for a in self.encoder.actions], np.int64)  # per action id

    def raw(self, observation: Mapping[str, Any]) -> np.ndarray:
        """The encoder's tensor (whole numbers: stored compactly as int16 in the training data)."""
        return self.encoder.encode(observation)

    def scaled(self, raw: np.ndarray) -> np.ndarray:
        return raw.astype(np.float32) * self.scale

    def inputs(self, raw: np.ndarray, heuristic: np.ndarray) -> np.ndarray:
        """The network's input for a batch: the scaled tensors ``raw`` [n, size] and a one-hot
        of the heuristic's choice ``heuristic`` [n] (a function of the observation too). Knowing
        that choice, the network need not learn the heuristic's policy to say where it can do
        better: it predicts each action's gain over that choice, zero for the choice itself."""
        out = np.zeros((len(raw), self.encoder.size + self.num_actions), np.float32)
        out[:, :self.encoder.size] = raw
        out[:, :self.encoder.size] *= self.scale
        out[np.arange(len(raw)), self.encoder.size + np.asarray(heuristic, np.int64)] = 1
        return out

    def mask(self, observation: Mapping[str, Any]) -> np.ndarray:
        """The legal action ids of ``observation`` as a boolean vector."""
        out = np.zeros(self.num_actions, bool)
        for action in observation["legal_actions"]:
            out[self.game.action_id(action)] = True
        return out
