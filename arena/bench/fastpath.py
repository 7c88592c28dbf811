"""The compiled fast path (arena.fast, docs/fastpath.md): its differential check at full count, and
its speed beside the Python engines'.

* ``fastpath.check.*``: :func:`arena.fast.check.check` on :data:`POSITIONS` positions (quick:
  :data:`QUICK_POSITIONS`) shared by every game, player count and play-changing option: the
  positions, finished tricks and replayed playouts compared, the mismatches (0 is the only good
  figure) and the positions checked per second;
* ``fastpath.hands.*``: :func:`arena.fast.check.check_hands` on :data:`HANDS` whole Bid Euchre hands
  (quick: :data:`QUICK_HANDS`) in every configuration that changes a hand, the engine's and the
  compiled hand's (``arena/fast/_hand.h``) side by side: the hands and decisions compared, the
  mismatches (0 is the only good figure);
* ``fastpath.heuristic.*``: :func:`bots.heuristic.compiled.differences` on :data:`HEURISTIC_POSITIONS`
  card-play positions (quick: :data:`QUICK_HEURISTIC_POSITIONS`) of every configuration of every
  game: the compiled heuristic's card (``arena/fast/_heuristic.h``) against the Python
  heuristic's, one position in eight the whole rest of the hand: the positions and the mismatches
  (0 is the only good figure);
* per game with its default options, at :data:`SPEED_POSITIONS` card-play positions of seeded random
  playouts, measured side by side in each repetition:
  ``legal.python_per_s`` (the engine's ``_legal_ids()``), ``legal.fast_per_s`` (the extension's
  ``legal`` on the position read once) and ``legal.fast_read_per_s`` (``arena.fast.legal_ids(state)``,
  reading the state each time); ``playout.python_per_s`` (a clone of the state played to the
  hand's end with random ``apply_id``), ``playout.fast_per_s`` (``arena.fast.playouts``: many from
  the position in C) and ``playout.fast_api_per_s`` (``arena.fast.playout(state, seed)``, one call
  each, the position read each time); and the ratios fast over Python.

Without the extension the group is skipped, and says why.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from arena import fast
from arena.bench.common import Figures, Settings, interleave
from arena.bench.engines import bench_game, bundled_games

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

POSITIONS = 1_000_000
QUICK_POSITIONS = 20_000
SPEED_POSITIONS = 200
HANDS = 100_000
HEURISTIC_POSITIONS = 200_000
QUICK_HEURISTIC_POSITIONS = 4_000
QUICK_HANDS = 2_000
BATCH = 200  # fast playouts per call of arena.fast.playouts


def play_positions(game: Any, count: int, seed: int = 0) -> list[tuple[Any, fast.Position]]:
    """(state, its fast position) at ``count`` card-play decisions of seeded random matches."""
    rng = random.Random(f"fastpath/{seed}")
    found: list[tuple[Any, fast.Position]] = []
    match = 0
    while len(found) < count:
        state = game.new_match(seed=f"bench/fastpath/{seed}/{match}")
        match += 1
        while not state.is_over() and len(found) < count:
            if fast.supports(state) and rng.random() < 0.25:
                found.append((state.clone(), fast.position(state)))
            state.apply_id(rng.choice(state.legal_action_ids()))
    return found


def _rate(seconds: float, step: Any, items: list[Any]) -> float:
    """Calls of ``step`` per second over ``items`` in turn, for about ``seconds``."""
    calls = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for item in items:
            step(item)
        calls += len(items)
        now = time.perf_counter()
        if now >= end:
            return calls / (now - start)


def python_playout(item: tuple[Any, fast.Position], rng: random.Random = random.Random(0)) -> None:
    state = item[0].clone()
    hands = len(state.deal_results)
    while len(state.deal_results) == hands and not state.is_over():
        state.apply_id(rng.choice(state.legal_action_ids()))


def run(registry: "Registry", settings: Settings, figures: Figures) -> None:
    if not fast.available():
        figures.skipped["fastpath"] = str(fast.why_unavailable())
        return
    from arena.fast import _play
    from arena.fast.check import check, check_hands

    count = QUICK_POSITIONS if settings.quick else POSITIONS
    start = time.perf_counter()
    report = check(count, seed="bench")
    elapsed = time.perf_counter() - start
    what = f"{len(report.by_config)} configurations of the four games"
    figures.add("fastpath.check.positions", report.positions, "positions",
                f"card-play positions whose legal plays were compared with the engines' ({what})")
    figures.add("fastpath.check.tricks", report.tricks, "tricks", "finished tricks whose winner and points were compared")
    figures.add("fastpath.check.playouts", report.playouts, "playouts",
                f"fast playouts replayed in the engine ({report.plays_replayed} plays), results compared")
    figures.add("fastpath.check.mismatches", report.mismatch_count, "mismatches",
                "disagreements with the engines (must be 0): " + ("; ".join(report.mismatches[:3]) or "none"))
    figures.add("fastpath.check.positions_per_s", report.positions / elapsed, "positions/s",
                "the check's speed (the engines' random play and the comparisons)")
    hands = check_hands(QUICK_HANDS if settings.quick else HANDS, seed="bench")
    figures.add("fastpath.hands.hands", hands.hands, "hands",
                "whole Bid Euchre hands played by the engine and in C from the same decks, with the same choices "
                f"(ended: {dict(hands.ends)})")
    figures.add("fastpath.hands.decisions", hands.decisions, "decisions",
                "their decisions whose seat, phase and legal actions were compared")
    figures.add("fastpath.hands.mismatches", hands.mismatch_count, "mismatches",
                "disagreements with the engine (must be 0): " + ("; ".join(hands.mismatches[:3]) or "none"))
    from bots.heuristic.compiled import differences
    compared, found = differences(QUICK_HEURISTIC_POSITIONS if settings.quick else HEURISTIC_POSITIONS, seed="bench")
    figures.add("fastpath.heuristic.positions", compared, "positions",
                "card-play positions of every game where the compiled heuristic's card was compared with the Python "
                "heuristic's (one in eight: the whole rest of the hand)")
    figures.add("fastpath.heuristic.mismatches", len(found), "mismatches",
                "disagreements with the Python heuristic (must be 0): " + ("; ".join(found[:3]) or "none"))

    seconds = settings.seconds
    for name in bundled_games(registry):
        game = bench_game(registry, name)
        items = play_positions(game, 20 if settings.quick else SPEED_POSITIONS)
        rates: dict[tuple[int, str], float] = {}
        who = f"{game.title} ({game.players} players)"

        def legal_python(run: int, items: list[Any] = items, name: str = name, who: str = who) -> None:
            rates[run, "lp"] = _rate(seconds, lambda item: item[0]._legal_ids(), items)
            figures.add(f"fastpath.{name}.legal.python_per_s", rates[run, "lp"], "positions/s",
                        f"{who}: the engine's legal plays (_legal_ids) per second")

        def legal_fast(run: int, items: list[Any] = items, name: str = name, who: str = who) -> None:
            legal = _play.legal
            rates[run, "lf"] = _rate(seconds, lambda item: legal(item[1].rules, item[1].hands[item[1].turn], item[1].led,
                                                                 item[1].cards, item[1].suits_led), items)
            figures.add(f"fastpath.{name}.legal.fast_per_s", rates[run, "lf"], "positions/s",
                        f"{who}: the extension's legal plays per second (the position read once)")
            rate = _rate(seconds, lambda item: fast.legal_ids(item[0]), items)
            figures.add(f"fastpath.{name}.legal.fast_read_per_s", rate, "positions/s",
                        f"{who}: arena.fast.legal_ids(state) per second (reading the state each time)")

        def playout_python(run: int, items: list[Any] = items, name: str = name, who: str = who) -> None:
            rates[run, "pp"] = _rate(seconds, python_playout, items)
            figures.add(f"fastpath.{name}.playout.python_per_s", rates[run, "pp"], "playouts/s",
                        f"{who}: random playouts of the rest of the hand per second (clone, apply_id)")

        def playout_fast(run: int, items: list[Any] = items, name: str = name, who: str = who) -> None:
            rates[run, "pf"] = BATCH * _rate(seconds, lambda item: fast.playouts(item[0], BATCH, run, pos=item[1]), items)
            figures.add(f"fastpath.{name}.playout.fast_per_s", rates[run, "pf"], "playouts/s",
                        f"{who}: random playouts per second in C (arena.fast.playouts, {BATCH} a call)")
            rate = _rate(seconds, lambda item: fast.playout(item[0], run), items)
            figures.add(f"fastpath.{name}.playout.fast_api_per_s", rate, "playouts/s",
                        f"{who}: arena.fast.playout(state, seed) per second, one a call (the state read each time)")

        interleave(settings.repeat, legal_python, legal_fast, playout_python, playout_fast)
        for run in range(settings.repeat):
            figures.ratio(f"fastpath.{name}.legal.fast_over_python", rates[run, "lf"], rates[run, "lp"],
                          f"{who}: legal plays per second, the extension's over the engine's")
            figures.ratio(f"fastpath.{name}.playout.fast_over_python", rates[run, "pf"], rates[run, "pp"],
                          f"{who}: random playouts per second, in C over the Python engine's")
