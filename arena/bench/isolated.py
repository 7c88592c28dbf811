"""Bots in processes of their own (``ProcessHost``) against the raw round trip of a pipe.

* ``isolated.decisions_per_s``: whole matches with the ``random`` bot isolated in every seat; the
  clock runs over ``Referee.play()`` only (each seat's process is started before it, as a
  tournament worker starts them, and that start-up is reported on its own as
  ``isolated.startup_ms``). Notifications (start, each hand's end, the match's end) are part of the
  matches, so they are in the rate.
* ``isolated.pipe_round_trips_per_s``: a process started the same way echoes a message of the size
  of the average decision request of those matches (``isolated.request_bytes``: what the arena
  writes per decision, which for the ``random`` bot is its legal actions and clock, never the
  observation it does not read) over the same kind of pipe
  (``send_bytes``/``recv_bytes``, a short answer back): the ceiling of any isolated bot.
* ``isolated.with_startup_decisions_per_s``: the match rate with the start-up of the bot processes
  counted in, what a tournament sees.
* ``isolated.one_cpu.*``: the pipe and the matches again with every process of both kept to one
  CPU, as in a tournament worker (``arena.tournaments.executors``). Where a hand-over between CPUs
  is slow (virtual machines) the free-placement pipe is several times slower than this one, and
  the plain ``isolated.ratio`` compares the arena with that slower pipe; these compare like with like.
* ``isolated.one_cpu.reused_*``: a diagnostic, not a way the arena plays: the same matches with each
  seat's process kept from one match to the next. The arena starts fresh processes for every match
  (a process kept would remember the deals of a duplicate set), and a fresh process's first
  decisions cost far more than later ones (its memory, shared with the fork server, is copied as it
  is touched; its caches are cold); random Five Hundred ends in one or two hands, so those first
  decisions weigh on every match. The gap between the two rates is that cost.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import time
from typing import TYPE_CHECKING, Any

from arena.bench.common import Figures, Settings, interleave

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

TARGET = 0.5
HANDS_PER_MATCH = 20


def _echo(conn: Any) -> None:
    """The child of the raw pipe figure: answer every message with a short one."""
    answer = pickle.dumps(("ok", "play 10H"))
    while True:
        try:
            conn.recv_bytes()
        except (EOFError, OSError):
            return
        conn.send_bytes(answer)


def pipe_rate(conn: Any, payload: bytes, seconds: float) -> float:
    send, recv = conn.send_bytes, conn.recv_bytes
    count = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        send(payload)
        recv()
        count += 1
        if count % 64 == 0 and time.perf_counter() >= end:
            return count / (time.perf_counter() - start)


class _Sizes:
    """Records the pickled size of the decision requests a host sends (for the calibration match)."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.total = self.count = 0

    def start(self, info: Any, timeout: float) -> None:
        self.inner.start(info, timeout)

    def decide(self, observation: Any, timeout: float) -> tuple[Any, float]:
        self.total += len(pickle.dumps(("act", observation), protocol=pickle.HIGHEST_PROTOCOL))
        self.count += 1
        return self.inner.decide(observation, timeout)

    def notify(self, event: str, payload: Any, timeout: float) -> None:
        self.inner.notify(event, payload, timeout)

    def close(self) -> None:
        self.inner.close()


def sized_match(registry: "Registry", game: Any, wrapper: Any) -> int:
    """Play one match of in-process random bots, each host wrapped in ``wrapper`` (a :class:`_Sizes`);
    the mean size it measured per decision."""
    from arena.matches import MatchSpec, open_hosts, referee_for

    spec = MatchSpec.single(game.name, ["random"] * game.players, seed="bench/size", options=game.options)
    with open_hosts(registry, spec, game) as inner:
        hosts = [wrapper(host) for host in inner]
        referee_for(spec, game, hosts).play()
    return round(sum(h.total for h in hosts) / max(1, sum(h.count for h in hosts)))


def request_size(registry: "Registry", game: Any) -> int:
    """The mean pickled size of a whole observation's decision request in a match of random bots
    (played in-process): what every isolated decision carried before the arena sent only what a
    bot reads (arena/players/isolated.py, "observations")."""
    return sized_match(registry, game, _Sizes)


def message_size(registry: "Registry", game: Any) -> int:
    """The mean bytes the arena now writes to isolated random bots per decision (one match)."""
    from arena.matches import MatchSpec, open_hosts, referee_for

    spec = MatchSpec.single(game.name, ["random"] * game.players, seed="bench/size", options=game.options,
                            isolation="process")
    with open_hosts(registry, spec, game) as hosts:
        result = referee_for(spec, game, hosts).play()
        sent = sum(getattr(host, "sent_bytes", 0) for host in hosts)  # ProcessHosts
    return round(sent / max(1, sum(times["decisions"] for times in result.think_times)))


def match_rate(registry: "Registry", game: Any, seconds: float, seed: int,
               reuse: bool = False) -> tuple[int, float, float, int]:
    """(decisions, seconds inside Referee.play, seconds starting the bot processes, matches);
    ``reuse``: the first match's processes play every match (the diagnostic of the module's doc)."""
    from arena.matches import MatchSpec, open_hosts, referee_for

    def spec(match: int) -> MatchSpec:
        return MatchSpec.single(game.name, ["random"] * game.players, seed=f"bench/{seed}/{match}",
                                index=match, options=game.options, isolation="process")

    decisions = matches = 0
    playing = starting = 0.0
    with contextlib.ExitStack() as kept:
        begin = time.perf_counter()
        shared = kept.enter_context(open_hosts(registry, spec(0), game)) if reuse else None
        starting += time.perf_counter() - begin
        while matches == 0 or playing < seconds:
            begin = time.perf_counter()
            with contextlib.nullcontext(shared) if shared is not None else open_hosts(registry, spec(matches), game) as hosts:
                ready = time.perf_counter()
                try:
                    result = referee_for(spec(matches), game, hosts).play()
                finally:
                    done = time.perf_counter()
            assert result.termination.how != "forfeit", result.termination
            starting += ready - begin
            playing += done - ready
            matches += 1
            decisions += int(sum(times["decisions"] for times in result.think_times))  # counts, in a dict[str, float]
    return decisions, playing, starting, matches


@contextlib.contextmanager
def one_cpu(*pids: int):
    """Keep this process and ``pids`` to one CPU (processes started meanwhile inherit it or, bot
    processes, take it from the arena); restore every affinity afterwards."""
    before = {pid: os.sched_getaffinity(pid) for pid in (0, *pids)}
    cpu = min(before[0])
    for pid in before:
        os.sched_setaffinity(pid, {cpu})
    try:
        yield
    finally:
        for pid, cpus in before.items():
            os.sched_setaffinity(pid, cpus)


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    from arena.players.isolated import _CONTEXT

    game = registry.game(settings.game, {"max_hands": HANDS_PER_MATCH})
    size = message_size(registry, game)  # the raw pipe carries what a decision carries
    payload = b"x" * size
    parent, child = _CONTEXT.Pipe()
    process = _CONTEXT.Process(target=_echo, args=(child,), daemon=True, name="bench:echo")
    process.start()
    child.close()
    rates: dict[tuple[int, str], float] = {}
    try:
        pipe_rate(parent, payload, 0.05)  # warm up

        def pipe(run: int) -> None:
            rate = pipe_rate(parent, payload, settings.seconds)
            rates[run, "pipe"] = rate
            figures.add("isolated.pipe_round_trips_per_s", rate, "round trips/s",
                        f"raw round trips over a pipe to another process, {size} B out, a short answer back")

        def isolated(run: int) -> None:
            decisions, playing, starting, matches = match_rate(registry, game, settings.seconds, run)
            rates[run, "isolated"] = decisions / playing
            figures.add("isolated.decisions_per_s", decisions / playing, "decisions/s",
                        f"{game.title}: whole matches of isolated random bots (Referee.play only)")
            figures.add("isolated.with_startup_decisions_per_s", decisions / (playing + starting), "decisions/s",
                        f"{game.title}: the same, counting the start of the bot processes")
            figures.add("isolated.startup_ms", 1000 * starting / (matches * game.players), "ms",
                        "starting one isolated bot process, until it answers")

        def pipe_one_cpu(run: int) -> None:
            with one_cpu(process.pid):
                rate = pipe_rate(parent, payload, settings.seconds)
            rates[run, "pipe_one"] = rate
            figures.add("isolated.one_cpu.pipe_round_trips_per_s", rate, "round trips/s",
                        "the raw round trips, both processes kept to one CPU")

        def isolated_one_cpu(run: int) -> None:
            with one_cpu(process.pid):
                decisions, playing, _, _ = match_rate(registry, game, settings.seconds, run)
            rates[run, "isolated_one"] = decisions / playing
            figures.add("isolated.one_cpu.decisions_per_s", decisions / playing, "decisions/s",
                        f"{game.title}: the isolated matches, the arena and its bots kept to one CPU")

        def reused_one_cpu(run: int) -> None:
            with one_cpu(process.pid):
                decisions, playing, _, _ = match_rate(registry, game, settings.seconds, run, reuse=True)
            rates[run, "reused_one"] = decisions / playing
            figures.add("isolated.one_cpu.reused_decisions_per_s", decisions / playing, "decisions/s",
                        f"{game.title}: the same with each seat's process kept from match to match (a diagnostic)")

        steps = [pipe, isolated]
        if hasattr(os, "sched_setaffinity"):
            steps += [pipe_one_cpu, isolated_one_cpu, reused_one_cpu]
        interleave(settings.repeat, *steps)
    finally:
        parent.close()
        process.join(5)
        if process.is_alive():
            process.kill()
    figures.add("isolated.request_bytes", size, "bytes",
                "mean bytes the arena writes to a bot per decision in those matches (the pipe figures' message)")
    figures.add("isolated.observation_bytes", request_size(registry, game), "bytes",
                "mean pickled decision request with the whole observation (what each decision carried before)")
    for run in range(settings.repeat):
        figures.ratio("isolated.ratio", rates[run, "isolated"], rates[run, "pipe"],
                      "isolated decisions/s over raw pipe round trips/s", TARGET)
        if (run, "pipe_one") in rates:
            figures.ratio("isolated.one_cpu.ratio", rates[run, "isolated_one"], rates[run, "pipe_one"],
                          "the same ratio with everything on one CPU (as in a tournament worker)", TARGET)
            figures.ratio("isolated.one_cpu.reused_ratio", rates[run, "reused_one"], rates[run, "pipe_one"],
                          "the same with processes kept from match to match (what fresh processes cost)")
