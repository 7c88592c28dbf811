"""The sequential probability ratio test of ``arena match``, on one outcome per deal set.

Each deal set gives one observation in one of ``n`` **bins** with values ``0, 1/(n-1), ..., 1``
(A's score on that deal set: 1 a win, 0 a loss). The hypotheses are about the expected score ``s``
of A per deal set, given in logistic Elo: ``s = 1 / (1 + 10^(-elo/400))``; H0: ``elo = elo0``,
H1: ``elo = elo1``.

The test is the generalised SPRT (GSPRT) on the multinomial of the bins, as fishtest runs on game
pairs: the log-likelihood ratio is ``N * sum_i f_i * log(p1_i / p0_i)``, where ``f`` is the
observed frequency of each bin and ``p0``, ``p1`` are the distributions closest to it (maximum
likelihood) whose expectation is ``s0`` and ``s1``. That maximum is ``p_i = f_i / (1 + x (a_i - s))``
with ``x`` the root of ``sum_i f_i (a_i - s) / (1 + x (a_i - s)) = 0`` (a Lagrange multiplier),
found here by a safeguarded Newton iteration. An empty bin counts as 0.001 of an observation, so
that the root exists from the first observation on. The test stops when the LLR reaches
``log((1 - beta) / alpha)`` (H1) or ``log(beta / (1 - alpha))`` (H0), Wald's bounds.

Plain Python: no numpy or scipy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

EMPTY_BIN = 1e-3  # what an empty bin counts for in the LLR (as fishtest regularises)
Z95 = 1.959963984540054


def score_of_elo(elo: float) -> float:
    """The expected score of a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float) -> float:
    """The logistic Elo difference of an expected score (±inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def bin_values(bins: int) -> list[float]:
    return [i / (bins - 1) for i in range(bins)]


def _multiplier(pdf: Sequence[tuple[float, float]]) -> float:
    """The root ``x`` of ``sum p a / (1 + x a) = 0`` for a distribution of values ``a`` around 0."""
    low = -1.0 / max(a for a, _ in pdf)  # 1 + x a > 0 for every a: x in (low, high)
    high = -1.0 / min(a for a, _ in pdf)
    x = 0.0
    for _ in range(200):
        f = sum(p * a / (1 + x * a) for a, p in pdf)
        if abs(f) < 1e-13:
            break
        slope = -sum(p * a * a / (1 + x * a) ** 2 for a, p in pdf)  # f decreases in x
        if f > 0:
            low = x
        else:
            high = x
        step = x - f / slope
        x = step if low < step < high else (low + high) / 2
    return x


def llr(counts: Sequence[float], s0: float, s1: float) -> float:
    """The generalised log-likelihood ratio of H1 (expected score ``s1``) against H0 (``s0``)
    for ``counts`` observations in bins valued ``0 .. 1`` evenly."""
    n = sum(counts)
    if n == 0:
        return 0.0
    values = bin_values(len(counts))
    regular = [c if c > 0 else EMPTY_BIN for c in counts]
    total = sum(regular)
    freq = [c / total for c in regular]
    total_llr = 0.0
    shifts = []
    for s in (s0, s1):
        x = _multiplier([(a - s, f) for a, f in zip(values, freq)])
        shifts.append([1 + x * (a - s) for a in values])  # p_i = f_i / shift_i
    for f, shift0, shift1 in zip(freq, shifts[0], shifts[1]):
        total_llr += f * (math.log(shift0) - math.log(shift1))
    return n * total_llr


@dataclass(frozen=True)
class SPRT:
    """The test's settings: the two hypotheses in logistic Elo and the error rates."""

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        from arena.errors import ArenaError

        if not 0 < self.alpha < 1 or not 0 < self.beta < 1 or self.alpha + self.beta >= 1:
            raise ArenaError(f"the error rates must be in (0, 1) and add to less than 1: "
                             f"alpha {self.alpha}, beta {self.beta}")
        if not self.elo0 < self.elo1:
            raise ArenaError(f"H1 must be above H0: elo0 {self.elo0} is not below elo1 {self.elo1}")
        if not (-2000 < self.elo0 and self.elo1 < 2000):
            raise ArenaError(f"the hypotheses must be within ±2000 Elo: elo0 {self.elo0}, elo1 {self.elo1}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        return llr(counts, score_of_elo(self.elo0), score_of_elo(self.elo1))

    def verdict(self, value: float) -> str | None:
        """``"H1"`` at or above the upper bound, ``"H0"`` at or below the lower one, else None."""
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None

    def as_dict(self) -> dict[str, float]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}


@dataclass(frozen=True)
class Decision:
    """Where the test stands after ``observations`` deal sets (in order)."""

    observations: int
    counts: tuple[int, ...]
    llr: float
    verdict: str | None  # "H0", "H1", or None (no bound reached yet, or the budget ran out)


def sequential(test: SPRT, outcomes: Iterable[int], bins: int, budget: int | None = None,
               start: Decision | None = None) -> Decision:
    """Run the test on ``outcomes`` (bin indices, in order) until a bound is reached, the outcomes
    end, or ``budget`` of them have been counted. Later outcomes are not counted. With ``start``
    (an earlier decision without a verdict), ``outcomes`` are those that follow its observations."""
    counts = list(start.counts) if start is not None else [0] * bins
    value, verdict, n = (start.llr, start.verdict, start.observations) if start is not None else (0.0, None, 0)
    if verdict is not None:
        return start  # type: ignore[return-value]
    for outcome in outcomes:
        if budget is not None and n >= budget:
            break
        counts[outcome] += 1
        n += 1
        value = test.llr(counts)
        verdict = test.verdict(value)
        if verdict is not None:
            break
    return Decision(n, tuple(counts), value, verdict)


def _wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if p <= 0 else low), (1.0 if p >= 1 else high)  # exactly, not by rounding


def estimate(counts: Sequence[int]) -> dict[str, Any]:
    """A's mean score per deal set with its 95% interval, the same in logistic Elo, and the
    likelihood of superiority (the probability that the true score is above ½, normal
    approximation with the observed variance). The interval is Wilson's score interval, which treats
    the score as a proportion: the largest variance a score in [0, 1] with this mean can have, so it
    is conservative with draws or middle bins, and it stays informative when every deal set is won.
    A fixed-sample estimate: after a sequential stop it leans towards the verdict."""
    n = sum(counts)
    if n == 0:
        return {"score": None, "score_ci": None, "elo": None, "elo_ci": None, "los": None}
    values = bin_values(len(counts))
    mean = sum(a * c for a, c in zip(values, counts)) / n
    var = sum(c * (a - mean) ** 2 for a, c in zip(values, counts)) / n
    se = math.sqrt(var / n)
    low, high = _wilson(mean, n)
    if se > 0:
        los = 0.5 * math.erfc(-(mean - 0.5) / (se * math.sqrt(2)))
    else:
        los = 1.0 if mean > 0.5 else 0.0 if mean < 0.5 else 0.5
    return {"score": mean, "score_ci": [low, high], "elo": elo_of_score(mean),
            "elo_ci": [elo_of_score(low), elo_of_score(high)], "los": los}
