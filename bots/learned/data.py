"""Training data: decisions met in Bid Euchre matches, each legal action valued by rollouts.

Matches are played with the ``heuristic`` in every seat. At a sampled decision of the seat to act, its own observation is encoded
(never the hidden state) and every legal action is valued: applied to a clone of the TRUE state,
and the hand rolled out to its end with the heuristic in every seat (bots/search/pimc.py's
``Policy``). The value is the side's hand margin (``pimc.margin``) divided by :data:`SCALE`.
Rolling out from the true state, the values average over the hidden cards as they really lie
behind that observation, so the network learns the heuristic's Q-values with no determinisation
bias, and the bot playing their argmax is one step of policy improvement over the heuristic.

Work is cut in shards, each a fixed number of matches from its own seed, so the data does not
depend on how many worker processes made it (at most 2 here; the machine has 2 cores).
"""

from __future__ import annotations

import multiprocessing
import random
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import numpy as np

from arena.games.base import GameState

from bots.heuristic import HeuristicBot
from bots.learned.features import GAME, Features, bundled_game
from bots.search.pimc import Policy, margin

SCALE = 6.0  # hand margins (points) to about +-1: 6 tricks a hand; a made moon is 24


def heuristic_policy(game: Any, options: Mapping[str, Any], rng: random.Random) -> Policy:
    return Policy(game, "heuristic", options, rng, lambda seat: HeuristicBot(1009 * (seat + 1)))


def rollout(state: GameState, action: int, policy: Policy, side: int) -> float:
    """The side's hand margin after ``action`` and the heuristic in every seat to the hand's end."""
    before = state.scores()
    state = state.clone()
    hands = len(state.deal_results)
    state.apply_id(action)
    while not state.is_over() and len(state.deal_results) == hands:
        state.apply_id(policy.choose(state))
    return margin(state.scores(), before, side)


def learned_players(game: Any, options: Mapping[str, Any], weights: str) -> Callable[[GameState], int]:
    """The ``learned`` bot with ``weights`` in every seat, choosing from the seat's observation."""
    from arena.players.base import MatchInfo

    from bots.learned import LearnedBot

    bots = [LearnedBot({"weights": weights}, 1009 * (seat + 1)) for seat in range(game.players)]
    for seat, bot in enumerate(bots):
        bot.start_match(MatchInfo(GAME, dict(options), seat, ("learned",) * game.players))

    def choose(state: GameState) -> int:
        seat = state.current_player()
        assert seat is not None
        return int(game.action_id(bots[seat].act(state.observation(seat))))

    return choose


def shard(index: int, seed: int, matches: int, rate: float, options: Mapping[str, Any],
          players: str | None = None) -> dict[str, np.ndarray]:
    """The decisions of ``matches`` matches from ``seed`` and the shard ``index``, each sampled
    with probability ``rate``: inputs (raw encoder tensors, int16), targets (one per action id,
    NaN where illegal) and the heuristic's own choice. The matches are played by the heuristic,
    or with ``players`` (a weights file) by the learned bot in every seat: a second round of
    data from the positions the learned bot reaches (the values stay the heuristic's rollouts)."""
    game = bundled_game(GAME, options)
    features = Features(game)
    rng = random.Random(f"learned-data/{seed}/{index}")
    policy = heuristic_policy(game, options, rng)
    act: Callable[[GameState], int] = policy.choose
    if players is not None:
        act = learned_players(game, options, players)
    xs: list[np.ndarray] = []
    ts: list[np.ndarray] = []
    hs: list[int] = []
    for _ in range(matches):
        state = game.new_match(seed=rng.getrandbits(62))
        while not state.is_over():
            legal = state.legal_action_ids()
            seat = state.current_player()
            assert seat is not None
            if len(legal) > 1 and rng.random() < rate:
                xs.append(features.raw(state.observation(seat)).astype(np.int16))
                target = np.full(game.num_actions, np.nan, np.float32)
                side = game.side_of(seat)
                for action in legal:
                    target[action] = rollout(state, action, policy, side) / SCALE
                ts.append(target)
                hs.append(policy.choose(state))
            state.apply_id(act(state) if len(legal) > 1 else legal[0])
    width = features.encoder.size
    return {"x": np.array(xs, np.int16).reshape(-1, width), "target": np.array(ts, np.float32).reshape(-1, game.num_actions),
            "heuristic": np.array(hs, np.int16)}


def _run(job: tuple[int, int, int, float, dict[str, Any], str, str | None]) -> tuple[int, int, float]:
    index, seed, matches, rate, options, out, players = job
    start = time.perf_counter()
    arrays = shard(index, seed, matches, rate, options, players)
    stored: dict[str, Any] = arrays
    np.savez_compressed(Path(out) / f"shard_{index:04d}.npz", **stored)
    return index, len(arrays["x"]), time.perf_counter() - start


def generate(out: Path, shards: int, matches: int, seed: int, rate: float, workers: int = 2,
             options: Mapping[str, Any] | None = None, log: Callable[[str], None] = print,
             players: str | None = None) -> None:
    """Write ``shards`` shard files into ``out`` (those already there are kept: a run can resume)."""
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(i, seed, matches, rate, dict(options or {}), str(out), players) for i in range(shards)
            if not (out / f"shard_{i:04d}.npz").exists()]
    start, rows = time.perf_counter(), 0
    done: Iterable[tuple[int, int, float]]
    if workers <= 1:
        done = map(_run, jobs)
    else:
        pool = multiprocessing.get_context("fork").Pool(min(workers, 2))
        done = pool.imap_unordered(_run, jobs)
    for n, (index, count, seconds) in enumerate(done, 1):
        rows += count
        log(f"data: shard {index} ({count} decisions, {seconds:.1f} s); {n}/{len(jobs)} shards, "
            f"{rows} decisions, {time.perf_counter() - start:.0f} s")
    if workers > 1:
        pool.close()
        pool.join()


def load(out: Path, shards: int | None = None) -> dict[str, np.ndarray]:
    """The first ``shards`` shard files of ``out`` (all when None), concatenated in shard order."""
    files = sorted(out.glob("shard_*.npz")) if shards is None else [out / f"shard_{i:04d}.npz" for i in range(shards)]
    missing = [f.name for f in files if not f.exists()]
    if not files or missing:
        raise FileNotFoundError(f"learned: data files missing in {out}: {', '.join(missing) or 'shard_*.npz'}")
    parts = [dict(np.load(f)) for f in files]
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
