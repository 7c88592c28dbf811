"""Decision time of the ``learned`` bot: ``python -m bots.learned.measure [MATCHES]``.

Plays MATCHES whole Bid Euchre matches in this process, the learned bot in seats 0 and 2 and the
heuristic in 1 and 3, and prints the learned bot's time per decision (``act``, the heuristic's own
call included) and the heuristic's, as median and 99th percentile in milliseconds. Decisions with
one legal action count too: the bot answers them without the network.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from arena.players.base import MatchInfo

from bots.heuristic import HeuristicBot
from bots.learned import LearnedBot
from bots.learned.features import GAME, bundled_game


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(matches: int) -> dict[str, Any]:
    game = bundled_game(GAME, {})
    lineup = ("learned", "heuristic", "learned", "heuristic")
    times: dict[str, list[float]] = {"learned": [], "heuristic": []}
    for seed in range(matches):
        players = [LearnedBot({}, seat) if lineup[seat] == "learned" else HeuristicBot(seat) for seat in range(4)]
        for seat, player in enumerate(players):
            player.start_match(MatchInfo(GAME, {}, seat, lineup))
        state = game.new_match(seed=seed)
        while not state.is_over():
            seat = state.current_player()
            observation = state.observation(seat)
            start = time.perf_counter()
            action = players[seat].act(observation)
            times[lineup[seat]].append(time.perf_counter() - start)
            state.apply_id(game.action_id(action))
    return {name: {"decisions": len(t), "median_ms": 1000 * statistics.median(t), "p99_ms": 1000 * percentile(t, 0.99)}
            for name, t in times.items()}


if __name__ == "__main__":
    for name, figures in measure(int(sys.argv[1]) if len(sys.argv) > 1 else 20).items():
        print(f"{name}: {figures['decisions']} decisions, median {figures['median_ms']:.3f} ms, p99 {figures['p99_ms']:.3f} ms")
