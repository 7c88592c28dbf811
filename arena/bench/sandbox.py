"""The ``sandbox`` isolation level (bubblewrap) against ``process``: what a sandbox costs.

* ``sandbox.startup_ms.python`` and ``sandbox.startup_ms.cmd``: the median time from asking for a
  host to a bot ready to play (told its match: ``make_host`` and ``Host.start``), over
  :data:`STARTS` starts (:data:`QUICK_STARTS` with ``--quick``) of the ``random`` plugin bot and of
  ``cmd:python -m arena.players.serve random`` (a launched program on a Unix socket) in a sandbox;
  ``sandbox.process_startup_ms.*``: the same two under ``process``, measured in the same loop, the
  baseline (its fork server started beforehand, as a tournament worker has it running). A sandbox is a
  fresh bubblewrap and a fresh interpreter each time (never the fork server), so its start-up is an
  interpreter's plus the namespaces and binds.
* ``sandbox.decisions_per_s.process`` and ``sandbox.decisions_per_s.sandbox``: whole matches (the
  ``--game``, :data:`HANDS_PER_MATCH` hands) with the ``random`` bot in every seat under each
  level, the clock over ``Referee.play()`` only (the bots started before it, as a tournament worker
  starts them); ``sandbox.ratio``: sandbox over process, per repetition (the two interleaved).
* ``sandbox.with_startup_decisions_per_s``: the sandboxed matches with their start-up counted in.

Where the sandbox cannot run (bubblewrap missing, no namespaces) the group is skipped and says why.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import TYPE_CHECKING, Any

from arena.bench.common import Figures, Settings, interleave

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

STARTS = 10
QUICK_STARTS = 1
HANDS_PER_MATCH = 20
BOT = "random"


def _command() -> str:
    return f"cmd:{sys.executable} -m arena.players.serve {BOT}"


def startup_seconds(registry: "Registry", game: Any, bot: str, isolation: str) -> float:
    """Seconds from asking for ``bot``'s host to the bot told its match (then it is closed)."""
    from arena.players.base import MatchInfo
    from arena.players.seats import make_host

    begin = time.perf_counter()
    host = make_host(registry, bot, game=game.name, seed=0, isolation=isolation)
    try:
        host.start(MatchInfo(game.name, dict(game.options), 0, (bot,) * game.players, {}, "bench"), 60.0)
        return time.perf_counter() - begin
    finally:
        host.close()


def match_rate(registry: "Registry", game: Any, isolation: str, seconds: float, seed: int) -> tuple[int, float, float]:
    """(decisions, seconds inside Referee.play, seconds starting the bots) of matches under ``isolation``."""
    from arena.matches import MatchSpec, open_hosts, referee_for

    decisions = matches = 0
    playing = starting = 0.0
    while matches == 0 or playing < seconds:
        spec = MatchSpec.single(game.name, [BOT] * game.players, seed=f"bench/sandbox/{seed}/{matches}",
                                index=matches, options=game.options, isolation=isolation)
        begin = time.perf_counter()
        with open_hosts(registry, spec, game) as hosts:
            ready = time.perf_counter()
            result = referee_for(spec, game, hosts).play()
            done = time.perf_counter()
        assert result.termination.how != "forfeit", result.termination
        starting += ready - begin
        playing += done - ready
        matches += 1
        decisions += int(sum(times["decisions"] for times in result.think_times))
    return decisions, playing, starting


def unavailable(registry: "Registry") -> str:
    """Why the sandbox cannot run here ("" when it can)."""
    if "sandbox" not in registry.isolations:
        return "no isolation level named sandbox is registered"
    try:
        from arena.players.sandbox import check_available

        check_available()
    except Exception as exc:  # ArenaError: bubblewrap missing or refused; say it as it is
        return str(exc)
    return ""


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    why = unavailable(registry)
    if why:
        figures.skipped["sandbox"] = why
        return
    game = registry.game(settings.game, {"max_hands": HANDS_PER_MATCH})
    starts = QUICK_STARTS if settings.quick else STARTS
    paths = {"python": BOT, "cmd": _command()}
    startup_seconds(registry, game, BOT, "process")  # the fork server starts once per arena, not per bot
    for label, bot in paths.items():
        times: dict[str, list[float]] = {"sandbox": [], "process": []}
        for run in range(starts):  # interleaved, so that load hits both alike
            for isolation in ("sandbox", "process") if run % 2 == 0 else ("process", "sandbox"):
                times[isolation].append(startup_seconds(registry, game, bot, isolation))
        figures.add(f"sandbox.startup_ms.{label}", 1000 * statistics.median(times["sandbox"]), "ms",
                    f"a {'plugin bot' if label == 'python' else 'cmd: program'} in a fresh sandbox, until "
                    f"ready to play (median of {starts})")
        figures.add(f"sandbox.process_startup_ms.{label}", 1000 * statistics.median(times["process"]), "ms",
                    f"the same under process isolation (median of {starts})")
    rates: dict[tuple[int, str], float] = {}

    def measure(isolation: str):
        def step(run: int) -> None:
            decisions, playing, starting = match_rate(registry, game, isolation, settings.seconds, run)
            rates[run, isolation] = decisions / playing
            figures.add(f"sandbox.decisions_per_s.{isolation}", decisions / playing, "decisions/s",
                        f"{game.title}: whole matches of {BOT} bots under {isolation} (Referee.play only)")
            if isolation == "sandbox":
                figures.add("sandbox.with_startup_decisions_per_s", decisions / (playing + starting), "decisions/s",
                            f"{game.title}: the sandboxed matches, their start-up counted in")
        return step

    interleave(settings.repeat, measure("process"), measure("sandbox"))
    for run in range(settings.repeat):
        figures.ratio("sandbox.ratio", rates[run, "sandbox"], rates[run, "process"],
                      "sandboxed decisions/s over process-isolated decisions/s (same bot, same run)")
