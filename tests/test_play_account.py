"""`arena play` prints one line per hand from the shared hand-result keys: in every registered game
and player count, the tricks each side won this hand (never the list of tricks), the change and
the scores (docs/game-interface.md, "One vocabulary")."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from arena.plugins import get_registry

CASES = [(name, players) for name, cls in sorted(get_registry().games.items())
         for players in cls().describe()["players"]]
LINE = re.compile(r"^Hand +\d+ \(dealer \d+\) \| .*\| tricks \[(?P<tricks>[\d ]+)\] \| change \[[-\d ]+\] \| scores \[[-\d ]+\]$")


@pytest.mark.parametrize("game, players", CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_hand_lines_show_tricks_won_per_side(game, players):
    seats = ",".join(["random"] * players)
    done = subprocess.run([sys.executable, "-m", "arena.cli", "play", game, "--seats", seats, "--seed", "4",
                           "--option", f"players={players}", "--option", "max_hands=3", "--brief"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("Hand")]
    assert lines
    sides = get_registry().game(game, {"players": players}).num_sides
    for line in lines:
        match = LINE.match(line)
        if match is None:  # only a hand with no trick count at all (e.g. still unfinished) may differ
            assert "| tricks" not in line, line
            continue
        counts = [int(n) for n in match["tricks"].split()]
        assert len(counts) == sides, line
