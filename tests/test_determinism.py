"""Matches are reproducible: the same seed gives the same game in any process.

Python randomises string hashing per process, so code that lets the iteration order of a set of
strings decide anything (a tie in max(), a choice) plays differently from run to run. Each game is
played by the bundled bots in processes with different hash seeds; the records must be identical.
Every registered game at every player count; the engines alone are checked the same way by the
conformance kit's hash-seed check (tests/test_conformance.py), which this test's runner comes from.
"""

from __future__ import annotations

import json

from arena import testing
from arena.testing import outputs_under_hash_seeds

SCRIPT = """
import json, sys
from arena.plugins import get_registry
from arena.players.seats import make_host
from arena.referee import Referee, TimeControl
registry = get_registry()
game = registry.game(sys.argv[1], json.loads(sys.argv[2]))
bot = "heuristic" if registry.bot("heuristic").plays(game.name) else "random"
out = []
for seed in range(int(sys.argv[3])):
    names = [(bot if (seat + seed) % 2 else "random") for seat in range(game.players)]
    hosts = [make_host(registry, n, game=game.name, seed=seed * 10 + s) for s, n in enumerate(names)]
    result = Referee(game, hosts, names, seed=seed, time_control=TimeControl(30.0)).play()
    out.append([hand["actions"] for hand in result.record["hands"]])
print(json.dumps(out))
"""
MATCHES = 3
MAX_HANDS = 20


@testing.parametrize()
def test_the_same_seed_plays_the_same_game_under_any_hash_seed(registry, case):
    options = {"players": case.players}
    if "max_hands" in registry.games[case.game].option_table.names():
        options["max_hands"] = MAX_HANDS
    runs = [json.loads(out) for out in outputs_under_hash_seeds(SCRIPT, [case.game, json.dumps(options), str(MATCHES)])]
    assert runs[0] == runs[1] == runs[2]
