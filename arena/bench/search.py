"""The search bot's costs: rollouts per second and the ``search`` bot's decisions per second.

For every bundled game with its default options, at a dozen positions of seeded random playouts
(the engines group's :func:`resample_positions`), from a deal the seat to act could be facing:

* ``heuristic_rollouts_per_s``, ``random_rollouts_per_s`` and ``fast_rollouts_per_s``: the hand
  played out to its end (``clone``, then ``apply_id`` of the rollout policy's choice for every
  seat; ``fast``: the card play from the compiled fast path, replayed, with the target of issue
  #35, 10,000 a second; left out where the extension is not built), the work a ``search`` decision
  repeats for every sample and candidate action;
* ``solve_rollouts_per_s``: the same with ``rollout = solve`` (the heuristic, then the rest of the
  hand solved exactly once the card play has :data:`SOLVE_ENDGAME` cards in hand: Bid Euchre's whole
  card play, Five Hundred's last five tricks, All Fours' last three), where the solver's value is the
  rollout's (not 56) and the extension is built;
* ``decisions_per_s``: whole decisions of the ``search`` bot (the proxy state rebuilt from the
  observation, the samples drawn with auction inference, every candidate rolled out), with
  :data:`SAMPLES` samples and no clock limit, so the figure is its speed at a fixed amount of work.
* ``match_samples_per_s``: the samples a ``search`` bot in seat 0 draws and rolls out per second
  of its decisions along one seeded hand of heuristic matches, at :data:`MATCH_SAMPLES` a decision
  and no clock limit: what a decision within its time sees, the proxy kept from one decision to
  the next as in a match; also for Five Hundred for 6 (``five_hundred_6``). Where a played card the
  proxy gave another hand is swapped in (56, Five Hundred for 6), ``proxy_ms`` and
  ``redraw_proxy_ms``: the proxy's time a decision with the swap and with a redraw instead,
  alternated, and their ratio ``redraw_over_swap``. With the extension, ``play_inference_ms`` and
  ``python_play_inference_ms``: a sample's inference from the play (``play_weight`` below 1) at the
  hand's card-play decisions, the heuristic's cards from its compiled play and from Python,
  alternated, and their ratio ``play_inference_speedup``.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from arena import fast
from arena.bench.common import Figures, Settings
from arena.bench.engines import RESAMPLE_POSITIONS, bench_game, bundled_games, resample_positions

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

SAMPLES = 8  # samples per decision of the decisions_per_s figure
MATCH_SAMPLES = 32  # samples per decision of the match_samples_per_s figure
KINDS = ("heuristic", "python", "random", "fast", "solve")  # the rollout policies measured
# "python": heuristic rollouts with compiled = false, measured in the games where the heuristic's card
# play is compiled (bots/heuristic/compiled.py), for the ratio of the two side by side
COMPILED_PLAY = ("five_hundred", "fifty_six", "all_fours", "bid_euchre")  # bots.heuristic.compiled.POLICIES
SOLVE_ENDGAME = {"five_hundred": 5, "all_fours": 3, "bid_euchre": 6}  # rollout = solve: cards in hand solved
TARGETS = {"fast": 10_000.0}  # issue #35: search rollouts at 10,000 a second or more in every game
COMPILED_NOTE = "; its card play the heuristic's, compiled (bots/heuristic/compiled.py)"
PYTHON_NOTE = " (heuristic rollouts with compiled = false: the heuristic's card play in Python)"
FAST_NOTE = ("; the card play from the compiled fast path's partner policy (arena.fast.playout),"
             " replayed by the engine, which scores the hand")


def rollouts(game: Any, positions: list[tuple[Any, int]], kind: str, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Rollouts of the hand from resampled positions for ``seconds``: (rollouts, elapsed)."""
    from bots.search import parse_settings
    from bots.search.pimc import Searcher
    from bots.heuristic import HeuristicBot

    settings = parse_settings({"samples": 1, "rollout": "heuristic" if kind == "python" else kind,
                               "compiled": kind != "python", "endgame": SOLVE_ENDGAME.get(game.name, 0)})
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    share = seconds / len(positions)
    for state, seat in positions:
        searcher = Searcher(game, seat, settings, game.options, rng, HeuristicBot)
        searcher.deadline = time.monotonic() + 3600  # a rollout's solve is not cut short here
        sample = state.resample(seat, rng)
        before = sample.scores()
        legal = sample.legal_action_ids()
        end = time.perf_counter() + share
        while True:
            searcher._rollout(sample, rng.choice(legal), before, game.side_of(seat))
            count += 1
            if time.perf_counter() >= end:
                break
    return count, time.perf_counter() - start


def decisions(game: Any, positions: list[tuple[Any, int]], seconds: float, compiled: bool = True) -> tuple[int, float]:
    """Whole ``search`` decisions (fresh bot each, the observation alone) for ``seconds``."""
    from arena.players.base import MatchInfo
    from bots.search import SearchBot

    count = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for state, seat in positions:
            if len(state.legal_action_ids()) < 2:
                continue
            bot = SearchBot({"samples": SAMPLES, "seconds": 60.0, "compiled": compiled}, count)
            bot.start_match(MatchInfo(game.name, dict(game.options), seat, ()))
            obs = state.observation(seat)
            obs["time_left"], obs["bank_left"] = 120.0, None
            bot.act(obs)
            count += 1
            if time.perf_counter() >= end:
                return count, time.perf_counter() - start


def match_observations(game: Any, seed: int = 0) -> list[dict[str, Any]]:
    """Seat 0's observations with a choice in one seeded hand of heuristic matches, in order."""
    from arena.players.base import MatchInfo
    from bots.heuristic import HeuristicBot

    players = [HeuristicBot(seed + seat) for seat in range(game.players)]
    for seat, player in enumerate(players):
        player.start_match(MatchInfo(game.name, dict(game.options), seat, ()))
    state = game.new_match(seed=f"bench-{seed}")
    seen = []
    while not state.is_over():
        seat = state.current_player()
        obs = state.observation(seat)
        obs["time_left"], obs["bank_left"] = 120.0, None
        if seat == 0 and len(obs["legal_actions"]) > 1:
            seen.append(dict(obs))
        state.apply(players[seat].act(obs))
    return seen


def match_samples(game: Any, observations: list[dict[str, Any]], samples: int) -> tuple[int, float]:
    """A fresh ``search`` bot deciding at each of ``observations`` in turn (its proxy kept from one
    decision to the next, as in a match), ``samples`` a decision: (samples, seconds deciding)."""
    from arena.players.base import MatchInfo
    from bots.search import SearchBot

    bot = SearchBot({"samples": samples, "seconds": 60.0, "seed": 0}, 0)
    bot.start_match(MatchInfo(game.name, dict(game.options), 0, ()))
    drawn = 0
    start = time.perf_counter()
    for obs in observations:
        bot.act(dict(obs))
        drawn += bot.searcher.stats.last_samples
    return drawn, time.perf_counter() - start


def proxy_seconds(game: Any, observations: list[dict[str, Any]]) -> float:
    """The time a search bot's proxy takes to follow ``observations`` (rebuilt and mended at each)."""
    from bots.search.proxy import ProxyBuilder

    builder = ProxyBuilder(game, 0, random.Random(0))
    start = time.perf_counter()
    for obs in observations:
        builder.observe(obs)
    return time.perf_counter() - start


def inference_ms(game: Any, observations: list[dict[str, Any]], compiled: bool, draws: int) -> float:
    """Milliseconds the play inference (``play_weight`` below 1: every other seat's bids and card
    plays judged by the heuristic on the sample's deal) takes a sample, at seat 0's card-play
    decisions along ``observations``, ``draws`` samples each; ``compiled``: the heuristic's cards
    from its compiled play, else from the Python heuristic."""
    from arena.players.base import MatchInfo
    from bots.search import SearchBot

    bot = SearchBot({"seconds": 60.0, "seed": 0, "play_weight": 0.5, "compiled": compiled}, 0)
    bot.start_match(MatchInfo(game.name, dict(game.options), 0, ()))
    searcher, rng, kinds = bot.searcher, random.Random(0), game.page()["phases"]
    spent, count = 0.0, 0
    for obs in observations:
        proxy = searcher.proxy.observe(obs)  # followed at every decision, as in a match
        if kinds.get(obs["phase"]) != "play":
            continue
        samples = [proxy.resample(0, rng) for _ in range(draws)]
        if not count:
            searcher._disagreements(samples[0], obs)  # untimed: the judge's players made and started
        start = time.perf_counter()
        for sample in samples:
            searcher._disagreements(sample, obs)
        spent, count = spent + time.perf_counter() - start, count + draws
    if not count:
        raise ValueError(f"{game.name}: seat 0 has no card-play decision along the bench's hand")
    return 1000 * spent / count


def run_match_samples(registry: "Registry", settings: Settings, figures: Figures, name: str,
                      options: dict[str, Any], label: str) -> None:
    """The in-match samples a second of one configuration; where its proxy is mended by a swap
    (56, Five Hundred for 5 or 6), also the proxy's time with a swap and with a redraw, alternated."""
    game = registry.game(name, {**options, "max_hands": 1})
    observations = match_observations(game)
    samples = 4 if settings.quick else MATCH_SAMPLES
    title = f"{game.title}{' for ' + str(options['players']) if options else ''}"
    for run in range(settings.repeat):
        count, elapsed = match_samples(game, observations, samples)
        figures.add(f"search.{label}.match_samples_per_s", count / elapsed, "samples/s",
                    f"{title}: a search bot's samples per second of its decisions along a hand of heuristic"
                    f" matches ({samples} a decision, its proxy kept from decision to decision)")
        if fast.available():
            spent = {}
            for compiled in (True, False) if run % 2 == 0 else (False, True):  # alternated, as below
                spent[compiled] = inference_ms(game, observations, compiled, samples)
            figures.add(f"search.{label}.play_inference_ms", spent[True], "ms",
                        f"{title}: the play inference (play_weight < 1) of one sample at a card-play decision,"
                        " the heuristic's cards from its compiled play")
            figures.add(f"search.{label}.python_play_inference_ms", spent[False], "ms",
                        f"{title}: the same with compiled = false (the Python heuristic's cards)")
            figures.add(f"search.{label}.play_inference_speedup", spent[False] / spent[True], "x",
                        f"{title}: the play inference's time with the Python heuristic over the compiled one, side by side")
        if not game.swap_played_cards:
            continue
        spent = {}
        for swap in (True, False) if run % 2 == 0 else (False, True):  # alternated: neither always first
            game.swap_played_cards = swap
            spent[swap] = proxy_seconds(game, observations) / len(observations)
        game.swap_played_cards = True
        figures.add(f"search.{label}.proxy_ms", 1000 * spent[True], "ms",
                    f"{title}: the search bot's proxy rebuilt and mended per decision, a played card swapped in")
        figures.add(f"search.{label}.redraw_proxy_ms", 1000 * spent[False], "ms",
                    f"{title}: the same with every mend a redraw")
        figures.add(f"search.{label}.redraw_over_swap", spent[False] / spent[True], "x",
                    f"{title}: the proxy's time with redraws over its time with swaps, side by side")


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    for name in bundled_games(registry):
        game = bench_game(registry, name)
        positions = resample_positions(game, RESAMPLE_POSITIONS, seed=1)
        for run in range(settings.repeat):
            for kind in KINDS:
                if kind in ("fast", "solve", "python") and not fast.available() or kind == "solve" and name not in SOLVE_ENDGAME \
                        or kind == "python" and name not in COMPILED_PLAY:
                    continue  # it would measure the heuristic again (the rollout falls back to it)
                count, elapsed = rollouts(game, positions, kind, settings.seconds, seed=run)
                figures.add(f"search.{name}.{kind}_rollouts_per_s", count / elapsed, "rollouts/s",
                            f"{game.title}: hands played out from a resampled position with the {kind}"
                            " policy in every seat (clone, apply_id)" + FAST_NOTE * (kind == "fast")
                            + COMPILED_NOTE * (kind == "heuristic" and name in COMPILED_PLAY and fast.available())
                            + PYTHON_NOTE * (kind == "python")
                            + (f"; solved exactly from {SOLVE_ENDGAME.get(name)} cards in hand" if kind == "solve" else ""),
                            target=TARGETS.get(kind))
            count, elapsed = decisions(game, positions, settings.seconds)
            figures.add(f"search.{name}.decisions_per_s", count / elapsed, "decisions/s",
                        f"{game.title}: search bot decisions at {SAMPLES} samples (proxy, inference, rollouts"
                        " of every candidate), at most one per position per pass")
            if name in COMPILED_PLAY and fast.available():
                count, elapsed = decisions(game, positions, settings.seconds, compiled=False)
                figures.add(f"search.{name}.python_decisions_per_s", count / elapsed, "decisions/s",
                            f"{game.title}: the same with compiled = false (the heuristic's card play in Python)")
        run_match_samples(registry, settings, figures, name, {}, name)
    run_match_samples(registry, settings, figures, "five_hundred", {"players": 6}, "five_hundred_6")
