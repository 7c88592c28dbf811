"""A small multilayer perceptron in numpy: the forward pass the bot runs and the backward pass
the trainer runs, with weights saved to and loaded from an ``.npz`` file.

One output per action id: the predicted hand margin (scaled) of taking that action, for the
heuristic playing every seat afterwards. numpy only, so the bot needs no new dependency and runs
in the sandbox as the arena's own runtime does (docs/learning.md says why not torch).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = 1  # the .npz layout; a file of another format is refused


class WeightsError(ValueError):
    """A weights file that cannot be used (what, where, why)."""


class MLP:
    """Dense layers with ReLU between them; ``params`` is [W0, b0, W1, b1, ...] (float32)."""

    def __init__(self, params: list[np.ndarray], meta: dict[str, Any] | None = None):
        self.params = params
        self.meta = dict(meta or {})

    @classmethod
    def init(cls, sizes: list[int], seed: int, meta: dict[str, Any] | None = None) -> "MLP":
        """He-initialised weights for layer sizes ``sizes`` (input first), from ``seed``."""
        rng = np.random.default_rng(seed)
        params: list[np.ndarray] = []
        for n_in, n_out in zip(sizes[:-1], sizes[1:]):
            params.append((rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)).astype(np.float32))
            params.append(np.zeros(n_out, np.float32))
        return cls(params, meta)

    def forward(self, x: np.ndarray) -> np.ndarray:
        for i in range(0, len(self.params), 2):
            x = x @ self.params[i] + self.params[i + 1]
            if i + 2 < len(self.params):
                x = np.maximum(x, 0)
        return x

    def forward_backward(self, x: np.ndarray, grad_out: Any) -> tuple[np.ndarray, list[np.ndarray]]:
        """The output and, given ``grad_out(output) -> (loss, dLoss/doutput)``, the loss's
        gradient for every parameter (returned as (loss, grads))."""
        acts = [x]
        for i in range(0, len(self.params), 2):
            x = x @ self.params[i] + self.params[i + 1]
            if i + 2 < len(self.params):
                x = np.maximum(x, 0)
            acts.append(x)
        loss, g = grad_out(x)
        grads: list[np.ndarray] = [np.empty(0)] * len(self.params)
        for i in range(len(self.params) - 2, -1, -2):
            layer_in = acts[i // 2]
            grads[i] = layer_in.T @ g
            grads[i + 1] = g.sum(axis=0)
            if i > 0:
                g = (g @ self.params[i].T) * (layer_in > 0)
        return loss, grads

    def save(self, path: str | Path) -> None:
        meta = dict(self.meta, format=FORMAT, layers=len(self.params) // 2)
        arrays: dict[str, Any] = {f"p{i}": p for i, p in enumerate(self.params)}
        arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> "MLP":
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("format") != FORMAT:
                    raise WeightsError(f"learned: {path}: weights format {meta.get('format')!r}, this bot reads {FORMAT}")
                params = [np.asarray(data[f"p{i}"], np.float32) for i in range(2 * int(meta["layers"]))]
        except WeightsError:
            raise
        except Exception as exc:  # a missing, truncated or foreign file
            raise WeightsError(f"learned: cannot read weights {path}: {type(exc).__name__}: {exc}") from None
        for i in range(0, len(params) - 2, 2):
            if params[i].shape[1] != params[i + 2].shape[0] or params[i + 1].shape != (params[i].shape[1],):
                raise WeightsError(f"learned: {path}: layer {i // 2} shapes {params[i].shape} and {params[i + 2].shape} do not chain")
        return cls(params, meta)
