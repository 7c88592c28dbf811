"""Train the ``learned`` bot: ``python -m bots.learned.train`` (docs/learning.md, "A trained bot").

1. Data (:mod:`bots.learned.data`): decisions from heuristic-played Bid Euchre matches, every
   legal action valued by a heuristic rollout from the true state. Shards already in
   ``OUT/data`` are kept, so a stopped run resumes.
2. A small MLP (:mod:`bots.learned.model`) learns those values: one output per action id, the
   squared error taken on the legal actions only, Adam, a cosine learning rate, fixed seeds.
   numpy only and one BLAS thread, so the same command gives the same weights.
3. Checkpoints after each quarter of the epochs (``OUT/checkpoint-25.npz`` ... ``-100``) for a
   learning curve, and the validation figures of each in ``OUT/train.log``.

The arena never imports this module; the bot (:mod:`bots.learned`) only reads the weights.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from bots.learned import data as data_module
from bots.learned.features import DIVISORS, GAME, KINDS, Features, bundled_game, layout, rules
from bots.learned import NEVER
from bots.learned.model import MLP

# bonuses for the heuristic's own choice tried on validation, per kind of decision (network units:
# a sixth of a point); NEVER keeps the heuristic's choice always
PREFERENCES = (0.0, 0.02, 0.05, 0.1, 0.2, 0.5, NEVER)


class Adam:
    def __init__(self, params: list[np.ndarray], lr: float, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        self.params, self.lr, self.b1, self.b2, self.eps = params, lr, beta1, beta2, eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[np.ndarray], lr: float) -> None:
        self.t += 1
        c1, c2 = 1 - self.b1 ** self.t, 1 - self.b2 ** self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= (lr * (m / c1) / (np.sqrt(v / c2) + self.eps)).astype(np.float32)


def masked_mse(target: np.ndarray) -> Callable[[np.ndarray], tuple[float, np.ndarray]]:
    """The loss on the legal actions (the targets that are not NaN) and its gradient."""
    legal = ~np.isnan(target)
    filled = np.where(legal, target, 0).astype(np.float32)
    count = max(int(legal.sum()), 1)

    def grad(out: np.ndarray) -> tuple[float, np.ndarray]:
        diff = (out - filled) * legal
        return float((diff * diff).sum() / count), (2.0 / count) * diff

    return grad


def advantages(values: np.ndarray, heuristic: np.ndarray) -> np.ndarray:
    """Each legal action's value less the value of the heuristic's choice on the same deal.

    The values of one decision share its deal: how good the cards are moves them all alike, and
    dwarfs the differences between actions, which are all the bot needs. Taking the difference
    on the same rollout deal (common random numbers) removes that shared part, so the network
    learns where and by how much an action beats the heuristic's, and predicts about zero where
    the data does not tell."""
    return values - values[np.arange(len(values)), heuristic][:, None]


def choices(pred: np.ndarray, target: np.ndarray, heuristic: np.ndarray, prefer: np.ndarray) -> np.ndarray:
    """The action the bot takes: the best predicted legal action, the heuristic's own choice
    counted ``prefer`` (per decision) higher (the bot's rule, :func:`bots.learned.choose`)."""
    scored = np.where(np.isnan(target), -np.inf, pred)
    scored[np.arange(len(scored)), heuristic] += prefer
    return scored.argmax(axis=1)


def evaluate(model: MLP, x: np.ndarray, target: np.ndarray, heuristic: np.ndarray, features: Features) -> dict[str, Any]:
    """Validation figures: the loss and, per kind of decision, the rollout value (in points) the
    bot's choice gains over the heuristic's per decision, for each bonus of :data:`PREFERENCES`;
    the bonus of each kind is the one that gains most there (the larger on a tie: the safer)."""
    pred = np.concatenate([model.forward(features.inputs(x[i:i + 4096], heuristic[i:i + 4096]))
                           for i in range(0, len(x), 4096)])
    loss, _ = masked_mse(target)(pred)
    rows = np.arange(len(x))
    kinds = features.kinds[heuristic]
    out: dict[str, Any] = {"loss": loss, "decisions": len(x), "kinds": {}, "prefer": {}}
    total = 0.0
    for k, kind in enumerate(KINDS):
        mine = kinds == k
        if not mine.any():
            continue
        figures = {}
        for prefer in PREFERENCES:
            chosen = choices(pred[mine], target[mine], heuristic[mine], np.full(int(mine.sum()), prefer))
            gain = float(np.mean(target[mine][np.arange(int(mine.sum())), chosen]) * data_module.SCALE)
            figures[prefer] = (gain, float(np.mean(chosen != heuristic[mine])))
        best = max(PREFERENCES, key=lambda p: (round(figures[p][0], 6), p))
        out["prefer"][kind] = best
        out["kinds"][kind] = {"decisions": int(mine.sum()), "gain": figures[best][0], "changed": figures[best][1],
                              "gain_at_0": figures[0.0][0], "changed_at_0": figures[0.0][1]}
        total += figures[best][0] * int(mine.sum())
    out["gain"] = total / len(x)
    return out


def describe(figures: dict[str, Any]) -> str:
    return (f"val loss {figures['loss']:.4f}, gain {figures['gain']:+.4f} pts/decision; "
            + "; ".join(f"{kind} ({k['decisions']}): prefer {figures['prefer'][kind]} gain {k['gain']:+.4f} "
                        f"changed {k['changed']:.1%} (at 0: {k['gain_at_0']:+.4f}, {k['changed_at_0']:.1%})"
                        for kind, k in figures["kinds"].items()))


def probe(model: MLP, x: np.ndarray, heuristic: np.ndarray, features: Features) -> list[float]:
    """The network's outputs on the data's first decision (shard 0's first row), rounded. The
    tests encode that decision afresh and check that the bot's network still gives these: a
    change in the encoding, the scaling or the weights since training shows there."""
    return [round(float(v), 5) for v in model.forward(features.inputs(x[:1], heuristic[:1]))[0]]


def train(data: dict[str, np.ndarray], out: Path, *, hidden: list[int], epochs: int, batch: int, lr: float, seed: int,
          validation: float, meta: dict[str, Any], log: Callable[[str], None]) -> MLP:
    game = bundled_game(GAME, meta["options"])
    features = Features(game, meta["divisors"])
    n = len(data["x"])
    cut = n - max(1, int(n * validation))  # the last shards: decisions of other matches than training's
    x, heuristic = data["x"], data["heuristic"].astype(np.int64)
    target = advantages(data["target"], heuristic)
    model = MLP.init([x.shape[1] + target.shape[1], *hidden, target.shape[1]], seed, meta)
    adam = Adam(model.params, lr)
    rng = np.random.default_rng(seed)
    steps_per_epoch = math.ceil(cut / batch)
    total = epochs * steps_per_epoch
    marks = {round(epochs * q / 4): q * 25 for q in (1, 2, 3, 4)}
    start = time.perf_counter()
    step = 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(cut)
        losses = []
        for i in range(0, cut, batch):
            idx = np.sort(order[i:i + batch])
            loss, grads = model.forward_backward(features.inputs(x[idx], heuristic[idx]), masked_mse(target[idx]))
            adam.step(grads, lr * 0.5 * (1 + math.cos(math.pi * step / total)))
            losses.append(loss)
            step += 1
        figures = evaluate(model, x[cut:], target[cut:], heuristic[cut:], features)
        model.meta.update(prefer=figures["prefer"], epochs_done=epoch)
        log(f"train: epoch {epoch}/{epochs} train loss {np.mean(losses):.4f} {describe(figures)}; "
            f"{time.perf_counter() - start:.0f} s")
        if epoch in marks:
            model.meta["validation"] = figures
            model.meta["probe"] = probe(model, x, heuristic, features)
            model.save(out / f"checkpoint-{marks[epoch]}.npz")
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.learned.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("build/learned"), help="data, checkpoints and log (default build/learned)")
    parser.add_argument("--shards", type=int, default=200, help="data shards (default 200)")
    parser.add_argument("--matches", type=int, default=40, help="matches per shard (default 40)")
    parser.add_argument("--rate", type=float, default=0.35, help="share of decisions sampled (default 0.35)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the data and of the training (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="data processes, at most 2 (default 2)")
    parser.add_argument("--hidden", default="128,128", help="hidden layer sizes (default 128,128)")
    parser.add_argument("--epochs", type=int, default=8, help="passes over the data (default 8)")
    parser.add_argument("--batch", type=int, default=512, help="decisions per step (default 512)")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's first learning rate (default 0.001)")
    parser.add_argument("--validation", type=float, default=0.05, help="share of the data held out (default 0.05)")
    parser.add_argument("--onpolicy", type=Path, help="weights of a learned bot that plays the matches of a second round of data")
    parser.add_argument("--onpolicy-shards", type=int, default=0, help="shards of that second round (default 0: none)")
    parser.add_argument("--onpolicy-seed", type=int, default=2, help="seed of the second round's matches (default 2)")
    parser.add_argument("--install", action="store_true", help="copy the final weights to bots/learned/weights.npz")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    logfile = (args.out / "train.log").open("a")

    def log(line: str) -> None:
        print(line, flush=True)
        logfile.write(line + "\n")
        logfile.flush()

    options: dict[str, Any] = {}
    log(f"learned: {' '.join(sys.argv)}")
    start = time.perf_counter()
    data_module.generate(args.out / "data", args.shards, args.matches, args.seed, args.rate, args.workers, options, log)
    data = data_module.load(args.out / "data", args.shards)
    if args.onpolicy_shards:
        if args.onpolicy is None:
            parser.error("--onpolicy-shards needs --onpolicy WEIGHTS (the bot that plays the second round)")
        second = args.out / "data-onpolicy"
        data_module.generate(second, args.onpolicy_shards, args.matches, args.onpolicy_seed, args.rate, args.workers,
                             options, log, players=str(args.onpolicy.resolve()))
        more = data_module.load(second, args.onpolicy_shards)  # after the first round: the held-out part is from it
        data = {key: np.concatenate([data[key], more[key]]) for key in data}
    log(f"data: {len(data['x'])} decisions, {int((~np.isnan(data['target'])).sum())} valued actions; "
        f"{time.perf_counter() - start:.0f} s so far")
    meta = {"game": GAME, "options": options, "rules": rules(bundled_game(GAME, options)), "layout": layout(bundled_game(GAME, options)), "divisors": DIVISORS,
            "decisions": int(len(data["x"])), "shards": args.shards, "matches": args.matches, "rate": args.rate,
            "seed": args.seed, "hidden": args.hidden, "epochs": args.epochs,
            "onpolicy_shards": args.onpolicy_shards, "onpolicy_seed": args.onpolicy_seed}
    hidden = [int(h) for h in args.hidden.split(",")]
    model = train(data, args.out, hidden=hidden, epochs=args.epochs, batch=args.batch, lr=args.lr, seed=args.seed,
                  validation=args.validation, meta=meta, log=log)
    log(f"done in {time.perf_counter() - start:.0f} s; prefer {model.meta['prefer']}")
    if args.install:
        target = Path(__file__).with_name("weights.npz")
        shutil.copyfile(args.out / "checkpoint-100.npz", target)
        log(f"installed {target}")
    print(json.dumps(model.meta.get("validation", {})))
    return 0


if __name__ == "__main__":
    sys.exit(main())
