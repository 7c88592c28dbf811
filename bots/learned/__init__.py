"""``learned``: a Bid Euchre bot whose moves come from a trained network (docs/learning.md).

The network (:mod:`bots.learned.model`, weights in ``weights.npz`` beside this file) predicts, from
the seat's own observation encoded as in training (:mod:`bots.learned.features`), the hand margin
of each action id when the heuristic plays on; the bot plays the best legal one, the heuristic's
own choice counted a little higher (a bonus per kind of decision, bids, trump, gifts or card
plays, that the trainer picked on held-out data), so it leaves the heuristic only where the
network sees a gain, and never in a kind of decision where it gained nothing there. Trained by :mod:`bots.learned.train`,
which the bot never imports.

It plays Bid Euchre only (the registry refuses it for other games). With options other than
those it was trained with (``max_hands`` aside: a harness limit), it plays the heuristic's moves
and says so once on standard error: the network's values mean nothing for other rules.

Settings: ``weights`` (a ``.npz`` file from the trainer; default the bundled one) and ``prefer``
(one bonus for every kind of decision, in the network's units, a sixth of a point; default the
ones stored with the weights).
"""

from __future__ import annotations

import os

# One BLAS thread, set before numpy loads: a decision is a few small products, threads only cost
# (start-up, and the sandbox's process limit), and one thread keeps training reproducible.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import functools  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Mapping, Sequence  # noqa: E402

import numpy as np  # noqa: E402

from arena.players.base import BotSpec, MatchInfo, Player  # noqa: E402
from arena.plugins import hookimpl  # noqa: E402

from bots.heuristic import HeuristicBot  # noqa: E402
from bots.learned.features import GAME, KINDS, Features, bundled_game, kind_of, layout, rules  # noqa: E402
from bots.learned.model import MLP, WeightsError  # noqa: E402

# the bundled code this bot runs besides its own: a sandbox shows it (arena/players/sandbox.py)
SANDBOX_USES = ("bots.heuristic",)

WEIGHTS = Path(__file__).with_name("weights.npz")
SETTINGS = ("weights", "prefer")
NEVER = 1e9  # a bonus that keeps the heuristic's choice (the trainer's NEVER)


@functools.lru_cache(maxsize=8)
def load(path: str) -> MLP:
    """The weights at ``path``, read once per process (every seat and match shares them)."""
    return MLP.load(path)


def choose(values: np.ndarray, legal: Sequence[int], preferred: int, prefer: float) -> int:
    """The legal id with the best value, ``preferred`` (the heuristic's choice) counted ``prefer``
    higher; the earliest legal id on a tie."""
    scored = [float(values[i]) + (prefer if i == preferred else 0.0) for i in legal]
    return legal[int(np.argmax(scored))]


def unusable(game: Any, model: MLP) -> str | None:
    """Why ``model`` cannot value ``game``'s decisions (another game or other rules), or None."""
    meta = model.meta
    if game.name != GAME or meta.get("game") != GAME:
        return f"its network plays {GAME} only, not {game.name!r}"
    if meta.get("layout") != layout(game):
        return f"its network was not trained for {GAME}'s actions and cards"
    if rules(game) != meta.get("rules"):
        changed = sorted(k for k, v in rules(game).items() if meta.get("rules", {}).get(k) != v)
        return f"its network was trained for {GAME} at {meta.get('rules')}; options {', '.join(changed)} differ"
    return None


class LearnedBot(Player):
    def __init__(self, settings: Mapping[str, Any], seed: int):
        unknown = sorted(set(settings) - set(SETTINGS))
        if unknown:
            raise ValueError(f"learned: unknown setting(s) {', '.join(unknown)}; it takes {', '.join(SETTINGS)}")
        self.path = str(settings.get("weights") or WEIGHTS)
        self.model = load(self.path)
        stored = self.model.meta.get("prefer", {})
        self.prefer: dict[str, float] = {kind: float(stored.get(kind, NEVER)) for kind in KINDS}
        if "prefer" in settings:
            try:
                self.prefer = dict.fromkeys(KINDS, float(settings["prefer"]))
            except (TypeError, ValueError):
                raise ValueError(f"learned: prefer must be a number, not {settings['prefer']!r}") from None
        self.heuristic = HeuristicBot(seed)
        self.features: Features | None = None
        self.network = False  # False: the heuristic's moves (options the network was not trained for)

    def start_match(self, info: MatchInfo) -> None:
        if info.game != GAME:
            raise ValueError(f"learned plays {GAME} only, not {info.game!r}")
        game = bundled_game(GAME, info.options)
        meta = self.model.meta
        if meta.get("game") != GAME or meta.get("layout") != layout(game):
            raise WeightsError(f"learned: {self.path} was not trained for {GAME}'s actions and cards")
        why = unusable(game, self.model)
        self.network = why is None
        if why is not None:
            print(f"learned: {why}, so it plays the heuristic's moves", file=sys.stderr)
        self.features = Features(game, meta["divisors"])
        self.heuristic.start_match(info)

    def act(self, observation: dict[str, Any]) -> str:
        own = self.heuristic.act(observation)
        legal = observation["legal_actions"]
        if not self.network or len(legal) < 2 or self.features is None:
            return own
        features = self.features
        prefer = self.prefer[kind_of(own)]
        if prefer >= NEVER:  # a kind of decision where the network gained nothing on held-out data
            return own
        ids = [features.game.action_id(a) for a in legal]
        mine = features.game.action_id(own)
        values = self.model.forward(features.inputs(features.raw(observation)[None, :], np.array([mine])))[0]
        return str(features.game.action_string(choose(values, ids, mine, prefer)))

    def end_hand(self, result: dict[str, Any]) -> None:
        self.heuristic.end_hand(result)

    def end_match(self, result: dict[str, Any]) -> None:
        self.heuristic.end_match(result)


def make(settings: Mapping[str, Any], seed: int) -> LearnedBot:
    return LearnedBot(settings, seed)


@hookimpl
def arena_register_bots() -> list[BotSpec]:
    return [BotSpec("learned", make, "Bid Euchre: a network trained on heuristic rollouts picks the move; settings weights, prefer",
                    (GAME,), titles={"en": "Learner", "hi": "सीखा हुआ", "gu": "શીખેલો"}, strength="medium")]
