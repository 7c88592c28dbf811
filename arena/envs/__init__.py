"""The arena's games as PettingZoo AEC environments (docs/learning.md), for reinforcement learning.

``env("five_hundred", players=3)`` makes one for any registered game, a plugin's included, with
PettingZoo's usual wrappers; ``raw_env`` without them. ``vector_env("bid_euchre", 64)`` steps 64
matches in one call, for self-play training. Needs the ``rl`` extra (pettingzoo,
gymnasium, numpy); nothing else in the arena imports this package but the bench group that
measures it (arena/bench/envs.py, inside its run).

The environments (and pettingzoo) are imported lazily, on first use of a name of this package, so
that ``arena.envs.encoding`` (numpy only) can be imported without the ``rl`` extra: a trained
bot encodes its observations with it (bots/learned, docs/learning.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from arena.plugins import get_registry

if TYPE_CHECKING:
    from arena.envs.aec import TrickGameEnv
    from arena.envs.encoding import ObservationEncoder
    from arena.envs.vector import VectorTrickGameEnv

__all__ = ["env", "raw_env", "vector_env", "TrickGameEnv", "VectorTrickGameEnv", "ObservationEncoder"]

_LAZY = {"TrickGameEnv": "arena.envs.aec", "VectorTrickGameEnv": "arena.envs.vector",
         "ObservationEncoder": "arena.envs.encoding"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'arena.envs' has no attribute {name!r}")


def raw_env(game_name: str, **options: Any) -> TrickGameEnv:
    """The environment of ``game_name`` configured by ``options`` (the game's own, ``players``
    among them; bad ones raise the game's OptionError)."""
    from arena.envs.aec import TrickGameEnv

    return TrickGameEnv(get_registry().game(game_name, options))


def env(game_name: str, **options: Any) -> Any:
    """``raw_env`` in PettingZoo's checks: an action outside the action space and calls out of
    order (``step`` before ``reset``) fail loudly. ``env.unwrapped`` is the :class:`TrickGameEnv`."""
    from pettingzoo.utils import wrappers

    wrapped: Any = wrappers.AssertOutOfBoundsWrapper(raw_env(game_name, **options))
    return wrappers.OrderEnforcingWrapper(wrapped)


def vector_env(game_name: str, num_envs: int, copy: bool = True, **options: Any) -> VectorTrickGameEnv:
    """``num_envs`` matches of ``game_name`` configured by ``options``, stepped together and
    restarted as they end (:class:`VectorTrickGameEnv`). ``copy=False`` returns its own arrays,
    overwritten by the next call, instead of copies."""
    from arena.envs.vector import VectorTrickGameEnv

    return VectorTrickGameEnv(get_registry().game(game_name, options), num_envs, copy=copy)
