"""Matches are reproducible: the same seed gives the same game in any process.

Python randomises string hashing per process, so code that lets the iteration order of a set of
strings decide anything (a tie in max(), a choice) plays differently from run to run. Each game is
played by the bundled bots in processes with different hash seeds; the records must be identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SCRIPT = """
import json, sys
from arena.plugins import get_registry
from arena.players.seats import make_host
from arena.referee import Referee, TimeControl
registry = get_registry()
game = registry.game(sys.argv[1], json.loads(sys.argv[2]))
out = []
for seed in range(int(sys.argv[3])):
    names = [("heuristic" if (seat + seed) % 2 else "random") for seat in range(game.players)]
    hosts = [make_host(registry, n, game=game.name, seed=seed * 10 + s) for s, n in enumerate(names)]
    result = Referee(game, hosts, names, seed=seed, time_control=TimeControl(30.0)).play()
    out.append([hand["actions"] for hand in result.record["hands"]])
print(json.dumps(out))
"""

GAMES = [
    ("five_hundred", {"max_hands": 40}),
    ("five_hundred", {"players": 3, "max_hands": 40}),
    ("fifty_six", {"players": 6, "max_hands": 40}),
    ("all_fours", {"max_hands": 40}),
    ("bid_euchre", {"max_hands": 40}),
]


@pytest.mark.parametrize("game, options", GAMES, ids=[f"{g}-{o.get('players', 4)}" for g, o in GAMES])
def test_the_same_seed_plays_the_same_game_under_any_hash_seed(game, options):
    runs = []
    for hash_seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run([sys.executable, "-c", SCRIPT, game, json.dumps(options), "6"],
                              capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1] == runs[2]
