"""What every group of figures shares: the settings of a run, the figures it collects, time-bounded
loops, and the description of the machine.

A *figure* is one number the suite reports (``engines.bid_euchre.ids.hands_per_s``). Each group
measures its figures ``repeat`` times, interleaving the things it compares, so that load from other
programs on the machine hits both sides of a ratio alike; a figure's value is the median of its
runs. A ratio is computed per repetition from two figures measured side by side, and its value is
the median of those per-run ratios (never a ratio of two medians taken at different moments).
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable


@dataclass(frozen=True)
class Settings:
    """How long and how often to measure. ``quick`` is for the tests: short, and no 1000-match run."""

    seconds: float = 1.0  # length of one measurement
    repeat: int = 3  # repetitions of every figure (its value is the median)
    quick: bool = False
    game: str = "bid_euchre"  # the game of the isolated-bot and gRPC figures (its matches are long)
    tournament_matches: int = 1000  # the tournament whose peak memory is measured (0: skip)
    speedup_matches: int = 200  # matches per measurement of the tournament speed-up
    workers: int = 0  # "one per core" (0: os.cpu_count())

    @classmethod
    def quick_settings(cls, **overrides: Any) -> "Settings":
        values: dict[str, Any] = dict(seconds=0.15, repeat=1, quick=True, tournament_matches=0, speedup_matches=6)
        values.update(overrides)
        return cls(**values)

    @property
    def cores(self) -> int:
        return self.workers or os.cpu_count() or 1


@dataclass
class Figure:
    key: str
    unit: str
    what: str
    runs: list[float] = field(default_factory=list)
    target: float | None = None  # for ratios with a target: the least acceptable value

    @property
    def median(self) -> float | None:
        return statistics.median(self.runs) if self.runs else None

    @property
    def met(self) -> bool | None:
        if self.target is None or self.median is None:
            return None
        return self.median >= self.target

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"median": _round(self.median), "runs": [_round(v) for v in self.runs],
                                "unit": self.unit, "what": self.what}
        if self.target is not None:
            data["target"] = self.target
            data["met"] = self.met
        return data


class Figures:
    """The figures of one run, in the order they were first added."""

    def __init__(self) -> None:
        self.figures: dict[str, Figure] = {}
        self.notes: list[str] = []
        self.skipped: dict[str, str] = {}  # group -> why (it cannot run here: a missing package)
        self.failed: dict[str, str] = {}  # group -> why (it broke while it ran: the arena's fault)

    def add(self, key: str, value: float, unit: str, what: str, target: float | None = None) -> Figure:
        figure = self.figures.get(key)
        if figure is None:
            figure = self.figures[key] = Figure(key, unit, what, target=target)
        figure.runs.append(float(value))
        return figure

    def ratio(self, key: str, top: float, bottom: float, what: str, target: float | None = None) -> Figure:
        return self.add(key, top / bottom if bottom else 0.0, "ratio", what, target)

    def median(self, key: str) -> float | None:
        figure = self.figures.get(key)
        return figure.median if figure else None

    def as_dict(self) -> dict[str, Any]:
        return {key: figure.as_dict() for key, figure in self.figures.items()}


def _round(value: float | None) -> float | None:
    if value is None:
        return None
    if value == 0 or abs(value) >= 100:
        return round(value, 1)
    return float(f"{value:.4g}")


def for_seconds(seconds: float, step: Callable[[], Any], at_least: int = 1) -> tuple[int, float]:
    """Call ``step`` until ``seconds`` have passed (at least ``at_least`` times): (calls, elapsed)."""
    calls = 0
    start = time.perf_counter()
    end = start + seconds
    while calls < at_least or time.perf_counter() < end:
        step()
        calls += 1
    return calls, time.perf_counter() - start


def interleave(repeat: int, *measurements: Callable[[int], None]) -> None:
    """Run each measurement once per repetition, alternating their order between repetitions."""
    for run in range(repeat):
        ordered: Iterable[Callable[[int], None]] = measurements if run % 2 == 0 else reversed(measurements)
        for measure in ordered:
            measure(run)


def machine() -> dict[str, Any]:
    """The machine the figures were measured on."""
    info: dict[str, Any] = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.release()}",
        "machine": platform.machine(),
        "cores": os.cpu_count(),
    }
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    return info
