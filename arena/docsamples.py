"""The sample observations of docs/writing-a-bot.md, printed from real decisions.

``python -m arena.docsamples`` prints the section; ``--write`` puts it into the guide (between its
two markers); ``--check`` writes nothing and exits 1 when the guide's samples are not what the
games send now (tests/test_docsamples.py runs it). Each sample is what a bot in a seeded match of
the game saw at its second asked decision of the play (the first where a card may already lie on
the table): every key of the observation, exactly as the engine builds it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "writing-a-bot.md"
BEGIN = "<!-- observation samples: printed by `python -m arena.docsamples --write`; do not edit by hand -->"
END = "<!-- end of observation samples -->"
SEED = 1
PER_DECISION = 5.0


def bundled_games(registry: "Registry") -> list[str]:
    """The games that come with the arena (not other plugins that happen to be installed)."""
    return sorted(name for name in registry.games if type(registry.game(name)).__module__.startswith("arena.games."))


def sample(registry: "Registry", game_name: str, seed: int = SEED) -> tuple[int, dict[str, Any]]:
    """(seat, observation) of the second asked decision of the play in a seeded match of seeded
    random bots (the first asked decision when the match has fewer)."""
    from arena.players.hosts import InProcessHost
    from arena.referee import Referee, TimeControl
    from bots.random_bot import RandomBot

    first: list[tuple[int, dict[str, Any]]] = []
    plays: list[tuple[int, dict[str, Any]]] = []

    class Watcher(RandomBot):
        def __init__(self, seat: int):
            super().__init__(seed=seat)
            self.seat = seat

        def act(self, observation: dict[str, Any]) -> str:
            is_play = all(action.startswith("play ") for action in observation["legal_actions"])
            if not first or (is_play and len(plays) < 2):
                (plays if is_play else first).append((self.seat, json.loads(json.dumps(observation))))
            return super().act(observation)

    game = registry.game(game_name)
    hosts = [InProcessHost(Watcher(seat)) for seat in range(game.players)]
    Referee(game, hosts, [f"random{seat}" for seat in range(game.players)], seed=seed,
            time_control=TimeControl(PER_DECISION, None, 0.0)).play()
    return plays[1] if len(plays) >= 2 else plays[0] if plays else first[0]


def _show(observation: dict[str, Any]) -> str:
    """One key per line, each value as compact JSON: readable, and exactly what the bot got."""
    lines = [f" {json.dumps(key)}: {json.dumps(value, separators=(', ', ': '))}" for key, value in observation.items()]
    return "{\n" + ",\n".join(lines) + "\n}"


def section(registry: "Registry | None" = None) -> str:
    """The guide's section between the markers (the markers included)."""
    if registry is None:
        from arena.plugins import get_registry

        registry = get_registry()
    parts = [BEGIN]
    for name in bundled_games(registry):
        game = registry.game(name)
        seat, observation = sample(registry, name)
        parts.append(f"\n**{game.title}** (`{name}`, default options, seed {SEED}; seat {seat}, "
                     f"a decision of the play):\n\n```json\n{_show(observation)}\n```")
    parts.append("\n" + END)
    return "\n".join(parts)


def replaced(text: str, new_section: str) -> str:
    """``text`` with the part between the markers replaced by ``new_section``."""
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{GUIDE}: the markers of the samples are missing ({BEGIN!r} ... {END!r})")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + new_section + tail


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arena.docsamples", description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help=f"put the samples into {GUIDE.name}")
    what.add_argument("--check", action="store_true", help=f"exit 1 when {GUIDE.name}'s samples are out of date")
    args = parser.parse_args(argv)
    new_section = section()
    if not (args.write or args.check):
        print(new_section)
        return 0
    text = GUIDE.read_text(encoding="utf-8")
    updated = replaced(text, new_section)
    if args.check:
        if updated != text:
            print(f"{GUIDE}: the sample observations are out of date: run python -m arena.docsamples --write",
                  file=sys.stderr)
            return 1
        return 0
    GUIDE.write_text(updated, encoding="utf-8")
    print(f"wrote the samples into {GUIDE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
