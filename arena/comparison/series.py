"""A series of A against B on duplicate deal sets, stopped by a sequential test (``arena match``).

**The schedule** is a round robin of the two bots, built by :mod:`arena.tournaments.schedule`:
every lineup of A and B over the game's sides that holds both (two sides: A against B; three
sides: A alone against two sides of B, and B alone against two sides of A; four sides: also two
against two), each played once on every deal set for every rotation over the sides. So a deal set
is ``lineups x sides`` matches on the same cards (two for a two-sided game), in which each bot has
held every side's cards in every lineup.

**One observation per deal set**, and only once every match of the deal set is stored:

- ``margin`` bins (the default, three bins): the deal set's duplicate margin of A is, per lineup,
  half of A's margin minus B's margin as :func:`arena.rating.statistics_of` computes them (a
  side's final score minus the mean of the other sides' scores, averaged over the rotations),
  averaged over the lineups; with two sides this is exactly A's margin on the board. The deal set
  is a win for A (score 1) if that margin is above zero, a draw (½) if it is zero, a loss (0) if
  below.
- ``matches`` bins (``2 m + 1`` bins for a deal set of ``m`` matches; five with two sides, the
  pentanomial of fishtest's game pairs): in each match A scores 1 if its place (its best side's)
  is ahead of B's, ½ if level, 0 if behind; the observation is A's total over the deal set.

Swapping the names A and B turns every observation into its mirror image (the set of lineups is
closed under the swap), so with two equal bots A's expected score per deal set is exactly ½.

**The test** (:mod:`arena.comparison.sprt`) is run on the observations in deal-set order, from
the stored results: it counts the deal sets 0, 1, 2, ... until a bound is reached or the budget
of deal sets is counted. Deal sets are played in batches; deal sets of the last batch beyond the
stop are stored but not counted. Because nothing depends on the order matches finished in, an
interrupted and resumed series reaches the very verdict of an uninterrupted one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping

from arena import __version__, rating
from arena.comparison import sprt
from arena.deals import Deals
from arena.errors import ArenaError
from arena.matches import MatchSpec
from arena.store import Store
from arena.tournaments import schedule
from arena.tournaments.runner import log_dir
from arena.tournaments.config import TournamentConfig

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

BINNINGS = ("margin", "matches")
TOLERANCE = 1e-9  # a margin this close to zero is a draw (margins are means of whole scores)


@dataclass(frozen=True)
class Series:
    """A series: the two bots' round robin (``config``; its ``deal_sets`` is ignored), the test,
    the binning and the budget of deal sets."""

    config: TournamentConfig
    test: sprt.SPRT
    bins: str = "margin"
    max_deal_sets: int = 1000

    def __post_init__(self) -> None:
        if self.bins not in BINNINGS:
            raise ArenaError(f"bins must be one of {', '.join(BINNINGS)}, not {self.bins!r}")
        if self.max_deal_sets < 1:
            raise ArenaError(f"the budget must be at least one deal set, not {self.max_deal_sets}")
        if len(self.config.bots) != 2:
            raise ArenaError(f"a series is between two bots, not {len(self.config.bots)}")

    @property
    def a(self) -> str:
        return self.config.bots[0].name

    @property
    def b(self) -> str:
        return self.config.bots[1].name

    def as_dict(self) -> dict[str, Any]:
        """What decides the games and the verdict, as stored in the database (the budget aside: a
        series may be resumed with a larger one)."""
        config = self.config.as_dict()
        del config["deal_sets"]
        return {**config, "series": {**self.test.as_dict(), "bins": self.bins}}

    def fingerprint(self) -> str:
        return "series-" + hashlib.sha256(json.dumps(self.as_dict(), sort_keys=True).encode()).hexdigest()[:16]

    def matches_per_deal_set(self, game: Any) -> int:
        names = [bot.name for bot in self.config.bots]
        return len(schedule.lineups(names, game.num_sides, self.config.format, self.config.challenger)) * game.num_sides

    def bin_count(self, per_set: int) -> int:
        return 3 if self.bins == "margin" else 2 * per_set + 1

    def specs(self, game: Any, first: int, count: int, deals: Deals | None = None) -> list[MatchSpec]:
        """The matches of deal sets ``first .. first + count - 1`` (the same as a tournament of
        ``first + count`` deal sets schedules for them), seeded by ``deals`` (the series' secret)."""
        config = dataclasses.replace(self.config, deal_sets=first + count)
        per_set = self.matches_per_deal_set(game)
        return schedule.build(config, game, deals)[first * per_set:]


@dataclass(frozen=True)
class Observation:
    deal_set: int
    outcome: int  # the bin
    margin: float  # A's duplicate margin on the deal set


def observe(series: Series, matches: list[tuple[dict[str, Any], dict[str, Any]]], bins: int) -> tuple[int, float]:
    """The bin and the duplicate margin of one complete deal set's matches."""
    a, b = series.a, series.b
    by_lineup: dict[tuple[str, ...], list] = {}
    for spec, result in matches:
        by_lineup.setdefault(tuple(spec["lineup"]), []).append((spec, result))
    margins = []
    for group in by_lineup.values():
        stats, _ = rating.statistics_of(group, [a, b])
        margins.append((stats[a].margins[0] - stats[b].margins[0]) / 2)
    margin = sum(margins) / len(margins)
    if series.bins == "margin":
        return (2 if margin > TOLERANCE else 0 if margin < -TOLERANCE else 1), margin
    points = 0
    for spec, result in matches:  # in half points
        places = rating.match_places(spec, result)
        points += 2 if places[a] < places[b] else 1 if places[a] == places[b] else 0
    return points, margin


def observations(series: Series, results: Iterable[tuple[dict[str, Any], dict[str, Any]]], per_set: int,
                 start: int = 0) -> Iterator[Observation]:
    """The observations of the stored deal sets ``start``, ``start + 1``, ... as long as each is
    complete (``results`` in schedule order, from deal set ``start`` on)."""
    bins = series.bin_count(per_set)
    current, group = start, []
    for spec, result in results:  # in schedule order: deal set by deal set
        if spec["deal_set"] != current:
            return  # deal set ``current`` is not complete: nothing after it counts yet
        group.append((spec, result))
        if len(group) == per_set:
            outcome, margin = observe(series, group, bins)
            yield Observation(current, outcome, margin)
            current, group = current + 1, []


class Tally:
    """What :func:`evaluate` has read so far, so that the next look reads only the new deal sets:
    the observations of the complete deal sets, and the test's decision on them."""

    def __init__(self) -> None:
        self.observations: list[Observation] = []
        self.decision: sprt.Decision | None = None


def evaluate(series: Series, store: Store, per_set: int, tally: Tally | None = None) -> dict[str, Any]:
    """Where the series stands, from the stored results: the test's decision, the estimate, and
    what is stored. With ``tally``, deal sets already read into it are not read again."""
    tally = tally or Tally()
    known = len(tally.observations)
    new = list(observations(series, store.results_from(known * per_set), per_set, start=known))
    tally.observations += new
    stored = tally.observations
    bins = series.bin_count(per_set)
    if tally.decision is not None and tally.decision.observations == known:  # it stopped at the end of what was read
        decision = sprt.sequential(series.test, (o.outcome for o in new), bins, series.max_deal_sets, tally.decision)
    else:
        decision = sprt.sequential(series.test, (o.outcome for o in stored), bins, series.max_deal_sets)
    tally.decision = decision
    counted = stored[:decision.observations]
    margin, low, high = rating.mean_interval([o.margin for o in counted])
    if decision.verdict is not None:
        stopped = decision.verdict
    elif decision.observations >= series.max_deal_sets:
        stopped = "budget"
    else:
        stopped = None
    return {
        "a": series.a,
        "b": series.b,
        "game": series.config.game,
        "bins": series.bins,
        "deal_sets": decision.observations,
        "games": decision.observations * per_set,
        "counts": list(decision.counts),
        "llr": decision.llr,
        "lower": series.test.lower,
        "upper": series.test.upper,
        **series.test.as_dict(),
        "verdict": decision.verdict,
        "stopped": stopped,
        "max_deal_sets": series.max_deal_sets,
        **sprt.estimate(decision.counts),
        "margin": margin,
        "margin_ci": None if low is None else [low, high],
        "stored_deal_sets": len(stored),
        "not_counted": len(stored) - decision.observations,
    }


def progress_line(state: Mapping[str, Any]) -> str:
    """One line: deal sets and games counted, the bins, the estimate, LOS and the LLR with its bounds."""
    if state["bins"] == "margin":  # the bins are loss, draw, win
        label, counts = "W-D-L", "-".join(map(str, reversed(state["counts"])))
    else:
        label, counts = f"bins 0..{len(state['counts']) - 1}", "-".join(map(str, state["counts"]))
    if state["score"] is None:
        estimate = "no deal set yet"
    else:
        low, high = state["elo_ci"]
        estimate = (f"score {state['score']:.3f} ({state['score_ci'][0]:.3f}-{state['score_ci'][1]:.3f})  "
                    f"Elo {_elo(state['elo'])} ({_elo(low)} to {_elo(high)})  LOS {state['los']:.1%}")
    margin = "" if state["margin"] is None else f"  margin {state['margin']:+.1f}"
    return (f"deal sets {state['deal_sets']} ({state['games']} games)  {label} {counts}  {estimate}{margin}  "
            f"LLR {state['llr']:.2f} [{state['lower']:.2f}, {state['upper']:.2f}]")


def verdict_line(state: Mapping[str, Any]) -> str:
    a, b = state["a"], state["b"]
    h0, h1 = _elo(state["elo0"]), _elo(state["elo1"])
    if state["stopped"] == "H1":
        return (f"H1 accepted after {state['deal_sets']} deal sets: {a} is stronger than {b} "
                f"(Elo {h1} per deal set rather than {h0}; LLR {state['llr']:.2f} >= {state['upper']:.2f})")
    if state["stopped"] == "H0":
        return (f"H0 accepted after {state['deal_sets']} deal sets: {a} is not shown stronger than {b} "
                f"(Elo {h0} per deal set rather than {h1}; LLR {state['llr']:.2f} <= {state['lower']:.2f})")
    if state["stopped"] == "budget":
        return (f"no verdict: the budget of {state['max_deal_sets']} deal sets ran out with LLR {state['llr']:.2f} "
                f"between {state['lower']:.2f} and {state['upper']:.2f}")
    return f"no verdict yet after {state['deal_sets']} deal sets"


def _elo(value: float) -> str:
    if value == float("inf"):
        return "+inf"
    if value == float("-inf"):
        return "-inf"
    return f"{value:+.0f}"


def run(series: Series, registry: "Registry", db: str | Path, *, executor: str = "local", workers: int | None = None,
        batch: int | None = None, fresh: bool = False, executor_options: Mapping[str, Any] | None = None,
        report: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play the series, batch by batch of ``batch`` deal sets, until the test stops it or the budget
    is spent; store every match; resume from ``db`` if it holds this series. Returns the final state
    (:func:`evaluate`); ``report`` is called with a progress line after each batch."""
    kind = registry.executor(executor)
    if fresh and Path(db).exists():
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
    game = registry.game(series.config.game, series.config.options)
    per_set = series.matches_per_deal_set(game)
    workers = workers or series.config.workers()
    batch = batch or max(2, 2 * workers)
    say = report or (lambda line: None)
    store = Store(db)
    logs = str(log_dir(db))  # each bot's output, per match (capped), as arena run keeps it
    runner = None
    tally = Tally()
    try:
        store.begin_tournament(series.config.name, series.fingerprint(), series.as_dict(), [],
                               Deals.of(series.config.seed))  # a new series' secret; a resumed one keeps its own
        store.note_version(__version__)  # shown in the board's settings, as a tournament's
        deals = store.deals() or Deals(public_seed=series.config.seed)  # none stored: a series seeded before secrets
        state = evaluate(series, store, per_set, tally)
        if state["stored_deal_sets"] or store.counts()[1]:
            say(f"resuming from {db}: " + progress_line(state))
        while state["stopped"] is None:
            pending = [MatchSpec.from_dict(spec) for spec in store.pending()]
            if pending:
                first = pending[0].deal_set
                todo = [spec for spec in pending if spec.deal_set < first + batch]
            else:
                scheduled = store.counts()[1] // per_set
                count = min(batch, series.max_deal_sets - state["deal_sets"])
                todo = series.specs(game, scheduled, count, deals)
                store.add_matches([spec.as_dict() for spec in todo])
            if runner is None:
                runner = kind.make(workers, dict(executor_options or {}))
            todo = [dataclasses.replace(spec, log_dir=logs) for spec in todo]  # as arena run keeps them
            for spec, outcome in runner.run(todo):
                store.save(spec.index, outcome["result"], outcome["record"])
            state = evaluate(series, store, per_set, tally)
            say(progress_line(state))
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: stop now, not after the matches under way
        if runner is not None:
            getattr(runner, "stop", runner.close)()
            runner = None
        raise
    finally:
        if runner is not None:
            runner.close()
        store.close()
    return state
