"""The referee's overhead: whole matches of random in-process bots against the bare engine loop.

**The bare engine loop** is what any harness of string-speaking bots must ask of the engine, and
nothing more: for each decision it takes the legal action strings, lets a seeded random choice pick
one (a forced action, the only legal one, is applied without a choice, as the referee applies it
without asking the bot), and applies the string. It builds no observation, keeps no clock, calls no
host, judges nothing and writes no record. Its choices are those of the referee's random bots (the
same seeds, drawn in the same order), so both loops play exactly the same games: the same deals,
the same actions, the same number of decisions.

**The referee** plays the same games (same options, same kind of seeds) with the bundled ``random``
bot in every seat, in this process (``InProcessHost``, with its ``SIGALRM`` deadline, as a
tournament worker runs it): each decision builds the seat's observation, asks the bot, times the
answer, judges it and applies it; each hand's result and the match's are sent to every seat; the
game record is written at the end. The clock runs over ``Referee(...)`` and ``play()``: making the
bots (their factories: the random bot seeds a Mersenne Twister) is the bots' business, as the start
of their processes is for isolated bots.

A decision is one question to a bot (forced actions are not asked, and not counted, on either
side). The ratio is referee decisions/s over bare decisions/s, per game, measured side by side.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from arena.bench.common import Figures, Settings, interleave
from arena.bench.engines import bundled_games
from arena.matches import MatchSpec, open_hosts, referee_for
from arena.referee import TimeControl

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

HANDS_PER_MATCH = 20  # the max_hands harness limit of these matches (random Bid Euchre never ends)
TARGET = 0.8
CONTROL = TimeControl(5.0)


def referee_game(registry: "Registry", name: str) -> Any:
    return registry.game(name, {"max_hands": HANDS_PER_MATCH})


def match_spec(game: Any, seed: int, match: int) -> MatchSpec:
    """Match ``match`` of a loop seeded ``seed``: random bots in every seat (both loops use its seeds)."""
    return MatchSpec.single(game.name, ["random"] * game.players, seed=f"bench/{seed}/{match}", index=match,
                            options=game.options, time_control=CONTROL)


def bare_loop(game: Any, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """(decisions asked, matches, elapsed) of the bare engine loop.

    It plays the very games the referee loop plays: the same deals, and for each seat a
    ``random.Random`` seeded as that seat's random bot is, drawing as the bot draws (once per
    decision it is asked, never for a forced action). Making the generators is not timed, as
    making the bots is not.
    """
    decisions = matches = 0
    playing = 0.0
    end = time.perf_counter() + seconds
    while True:
        spec = match_spec(game, seed, matches)
        choosers = [random.Random(s).choice for s in spec.bot_seeds]
        begin = time.perf_counter()
        state = game.new_match(seed=spec.deal_seed)
        while not state.is_over():
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
            else:
                state.apply(choosers[state.current_player()](legal))
                decisions += 1
        playing += time.perf_counter() - begin
        matches += 1
        if time.perf_counter() >= end:
            return decisions, matches, playing


def referee_loop(registry: "Registry", game: Any, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """(decisions asked, matches, elapsed) of whole refereed matches of in-process random bots."""
    decisions = matches = 0
    start = time.perf_counter()
    end = start + seconds
    playing = 0.0
    while True:
        spec = match_spec(game, seed, matches)
        with open_hosts(registry, spec, game) as hosts:
            begin = time.perf_counter()
            result = referee_for(spec, game, hosts).play()
            playing += time.perf_counter() - begin
        matches += 1
        decisions += int(sum(times["decisions"] for times in result.think_times))  # counts, in a dict[str, float]
        if time.perf_counter() >= end:
            return decisions, matches, playing


def add_to(totals: dict, key: tuple[int, str], decisions: int, elapsed: float) -> None:
    """Sum one game's decisions and seconds into ``totals[key]`` (the four games' combined ratio)."""
    total = totals.setdefault(key, [0, 0.0])
    total[0] += decisions
    total[1] += elapsed


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    totals: dict[tuple[int, str], list[float]] = {}
    for name in bundled_games(registry):
        game = referee_game(registry, name)
        referee_loop(registry, game, min(0.05, settings.seconds))  # warm up
        rates: dict[tuple[int, str], float] = {}

        def bare(run: int, name: str = name, game: Any = game) -> None:
            decisions, _, elapsed = bare_loop(game, settings.seconds, seed=run)
            rates[run, "bare"] = decisions / elapsed
            figures.add(f"referee.{name}.bare_decisions_per_s", decisions / elapsed, "decisions/s",
                        f"{game.title}: the bare engine loop (strings, random choice, forced actions not counted)")
            add_to(totals, (run, "bare"), decisions, elapsed)

        def refereed(run: int, name: str = name, game: Any = game) -> None:
            decisions, _, elapsed = referee_loop(registry, game, settings.seconds, seed=run)
            rates[run, "referee"] = decisions / elapsed
            figures.add(f"referee.{name}.decisions_per_s", decisions / elapsed, "decisions/s",
                        f"{game.title}: whole matches of in-process random bots through the referee")
            add_to(totals, (run, "referee"), decisions, elapsed)

        interleave(settings.repeat, bare, refereed)
        for run in range(settings.repeat):
            figures.ratio(f"referee.{name}.ratio", rates[run, "referee"], rates[run, "bare"],
                          f"{game.title}: referee decisions/s over the bare engine loop's", TARGET)
    for run in range(settings.repeat):
        # All games together: the time each loop needs for one decision of every game, averaged.
        referee_rate = totals[run, "referee"][0] / totals[run, "referee"][1]
        bare_rate = totals[run, "bare"][0] / totals[run, "bare"][1]
        figures.ratio("referee.ratio", referee_rate, bare_rate,
                      "all four games: referee decisions/s over the bare engine loop's", TARGET)
