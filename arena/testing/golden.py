"""Golden playthroughs: one recorded random match per game and player count, with every seat's
observation at every decision, checked in and compared with what the engine does now.

A golden file (``<game>-<players>.json``) holds one seeded random match, cut to two hands by the
``max_hands`` option where the game has it (else to the first GOLDEN_DECISIONS decisions): the
record, and per decision the seat to act, the action, and each seat's observation (as the
changes from that seat's previous observation, to keep the file small). Any change in deals, legal
actions, observations or results shows as a difference; when it is intended, regenerate::

    .venv/bin/python -m arena.testing.golden --write tests/golden

(``--check`` compares instead of writing; both cover every registered game and player count, so
the same plugins must be loaded: ``$TRICK_ARENA_PLUGINS`` as the test suite sets it.)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from arena.plugins import get_registry
from arena.testing.conformance import _json_difference, cases

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

FORMAT = "trick-arena-golden/1"
GOLDEN_HANDS = 2  # the max_hands of a golden match, where the game has that option
GOLDEN_DECISIONS = 150  # the cut of a golden match of a game without max_hands
SAFETY_DECISIONS = 2000  # (a golden match with max_hands never gets near this)
_NAME = re.compile(r"^(?P<game>.+)-(?P<players>\d+)\.json$")


def file_name(game: str, players: int) -> str:
    return f"{game}-{players}.json"


def regenerate_command(directory: str | Path = "tests/golden") -> str:
    """The exact command that rewrites the golden files (with the plugins this process has)."""
    python = Path(sys.executable)
    try:
        python = python.relative_to(Path.cwd())
    except ValueError:
        pass
    directory = Path(directory)
    try:
        directory = directory.resolve().relative_to(Path.cwd())
    except ValueError:
        pass
    plugins = os.environ.get("TRICK_ARENA_PLUGINS")
    prefix = f"TRICK_ARENA_PLUGINS={shlex.quote(plugins)} " if plugins else ""
    return f"{prefix}{python} -m arena.testing.golden --write {directory}"


def playthrough(game_name: str, players: int, registry: "Registry | None" = None) -> dict[str, Any]:
    """Play the golden match of a game at a player count: its record and every decision's observations."""
    registry = registry if registry is not None else get_registry()
    table = registry.games[game_name].option_table.names()
    options: dict[str, Any] = {"players": players}
    limit = GOLDEN_DECISIONS
    if "max_hands" in table:
        options["max_hands"] = GOLDEN_HANDS
        limit = SAFETY_DECISIONS
    game = registry.game(game_name, options)
    seed = f"golden/{game_name}-{players}"
    state = game.new_match(seed=seed)
    rng = random.Random(seed)
    decisions: list[dict[str, Any]] = []
    while not state.is_over() and len(decisions) < limit:
        seat = state.current_player()
        action = rng.choice(sorted(state.legal_actions()))  # by string: ids may be renumbered
        decisions.append({
            "hand": len(state.deals) - 1, "action_index": len(state.deals[-1]["actions"]), "seat": seat,
            "observations": [_plain(state.observation(s)) for s in range(players)], "action": action,
        })
        state.apply(action)
    decisions.append({"hand": len(state.deals) - 1, "action_index": len(state.deals[-1]["actions"]),
                      "seat": state.current_player(), "over": state.is_over(),
                      "observations": [_plain(state.observation(s)) for s in range(players)]})
    return {"format": FORMAT, "game": game_name, "players": players, "options": dict(game.options), "seed": seed,
            "record": _plain(state.record()), "decisions": decisions}


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


# -- the file: observations as changes --------------------------------------------------------

def _delta(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """``new`` as changes from ``old``: keys set, lists appended to, keys deleted."""
    if old is None:
        return {"set": new}
    delta: dict[str, Any] = {}
    for key, value in new.items():
        if key in old and old[key] == value:
            continue
        before = old.get(key)
        if isinstance(before, list) and isinstance(value, list) and len(value) > len(before) \
                and value[:len(before)] == before:
            delta.setdefault("append", {})[key] = value[len(before):]
        else:
            delta.setdefault("set", {})[key] = value
    gone = [key for key in old if key not in new]
    if gone:
        delta["del"] = gone
    return delta


def _undelta(old: dict[str, Any] | None, delta: dict[str, Any]) -> dict[str, Any]:
    new = dict(old or {})
    for key in delta.get("del", []):
        new.pop(key, None)
    for key, items in delta.get("append", {}).items():
        new[key] = list(new[key]) + items
    new.update(delta.get("set", {}))
    return new


def _common(deltas: list[dict[str, Any]]) -> dict[str, Any]:
    """The changes every seat's delta shares (public information), taken out of each."""
    common: dict[str, Any] = {}
    if len(deltas) < 2:
        return common
    for kind in ("set", "append"):
        for key, value in list(deltas[0].get(kind, {}).items()):
            if all(kind in d and key in d[kind] and d[kind][key] == value for d in deltas[1:]):
                common.setdefault(kind, {})[key] = value
                for d in deltas:
                    del d[kind][key]
    gone = deltas[0].get("del", [])
    shared = [key for key in gone if all(key in d.get("del", []) for d in deltas[1:])]
    if shared:
        common["del"] = shared
        for d in deltas:
            d["del"] = [key for key in d["del"] if key not in shared]
    for d in deltas:
        for kind in ("set", "append", "del"):
            if kind in d and not d[kind]:
                del d[kind]
    return common


def dumps(play: dict[str, Any]) -> str:
    """The file's text: one line per decision; observations as changes, those of every seat once."""
    previous: list[dict[str, Any] | None] = [None] * play["players"]
    lines = []
    for decision in play["decisions"]:
        row = {k: v for k, v in decision.items() if k != "observations"}
        deltas = [_delta(previous[s], obs) for s, obs in enumerate(decision["observations"])]
        row["common"] = _common(deltas) if previous[0] is not None else {}
        row["observations"] = deltas
        previous = list(decision["observations"])
        lines.append(json.dumps(row, separators=(",", ":")))
    head = {k: v for k, v in play.items() if k not in ("record", "decisions")}
    return ("{" + json.dumps(head)[1:-1] + ",\n"
            + '"record": ' + json.dumps(play["record"], separators=(",", ":")) + ",\n"
            + '"decisions": [\n' + ",\n".join(lines) + "\n]}\n")


def loads(text: str) -> dict[str, Any]:
    data = json.loads(text)
    previous: list[dict[str, Any] | None] = [None] * data["players"]
    for decision in data["decisions"]:
        common = decision.pop("common", {})
        decision["observations"] = [_undelta(_undelta(previous[s], common), d) if previous[s] is not None
                                    else _undelta(None, d) for s, d in enumerate(decision["observations"])]
        previous = decision["observations"]
    return data


# -- comparing ----------------------------------------------------------------------------------

def first_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """Where the engine's playthrough first departs from the golden one, or None."""
    for key in ("format", "game", "players", "options", "seed"):
        if expected.get(key) != actual.get(key):
            return f"{key}: the file has {expected.get(key)!r}, the engine {actual.get(key)!r}"
    for number, (old, new) in enumerate(zip(expected["decisions"], actual["decisions"])):
        where = f"hand {new['hand']}, action {new['action_index']} (decision {number}, seat {new['seat']} to act)"
        for key in ("hand", "action_index", "seat", "over"):
            if old.get(key) != new.get(key):
                return f"{where}: {key}: the file has {old.get(key)!r}, the engine {new.get(key)!r}"
        for seat, (a, b) in enumerate(zip(old["observations"], new["observations"])):
            if a != b:
                return f"{where}: observation of seat {seat}: {_json_difference(a, b, 'observation')} (file != engine)"
        if old.get("action") != new.get("action"):
            return (f"{where}: the random player chose {new.get('action')!r}, the file has {old.get('action')!r}"
                    " (the legal actions changed)")
    if len(expected["decisions"]) != len(actual["decisions"]):
        return f"the file has {len(expected['decisions'])} decisions, the engine {len(actual['decisions'])}"
    if expected["record"] != actual["record"]:
        return f"the record: {_json_difference(expected['record'], actual['record'], 'record')} (file != engine)"
    return None


def check_directory(directory: str | Path, registry: "Registry | None" = None) -> list[str]:
    """Every problem with the golden files of ``directory``: differences, missing and stale files."""
    directory = Path(directory)
    registry = registry if registry is not None else get_registry()
    wanted = {file_name(case.game, case.players): case for case in cases(registry)}
    problems = []
    present = {path.name for path in directory.glob("*.json") if _NAME.match(path.name)}
    for name in sorted(present - set(wanted)):
        match = _NAME.match(name)
        assert match is not None
        problems.append(f"{directory / name}: no registered game {match['game']!r} plays with {match['players']}"
                        " players (a stale golden file)")
    for name, case in sorted(wanted.items()):
        if name not in present:
            problems.append(f"{directory / name}: missing (the registered game {case.game!r} at {case.players} players"
                            " has no golden file)")
            continue
        problem = compare_file(directory / name, registry)
        if problem:
            problems.append(problem)
    return problems


def compare_file(path: str | Path, registry: "Registry | None" = None) -> str | None:
    path = Path(path)
    try:
        expected = loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"{path}: cannot be read as a golden file: {exc!r}"
    try:
        actual = playthrough(expected["game"], expected["players"], registry)
    except Exception as exc:
        return f"{path}: the engine cannot play the golden match: {exc!r}"
    difference = first_difference(expected, actual)
    return f"{path}: first difference at {difference}" if difference else None


def write_directory(directory: str | Path, registry: "Registry | None" = None) -> Iterator[Path]:
    """(Re)write the golden file of every registered game and player count; remove stale ones."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    registry = registry if registry is not None else get_registry()
    wanted = set()
    for case in cases(registry):
        path = directory / file_name(case.game, case.players)
        wanted.add(path.name)
        path.write_text(dumps(playthrough(case.game, case.players, registry)), encoding="utf-8")
        yield path
    for path in directory.glob("*.json"):
        if _NAME.match(path.name) and path.name not in wanted:
            path.unlink()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arena.testing.golden", description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="DIR", help="(re)write the golden files of every registered game")
    mode.add_argument("--check", metavar="DIR", help="compare the golden files with the engines")
    args = parser.parse_args(argv)
    if args.write:
        for path in write_directory(args.write):
            print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")
        return 0
    problems = check_directory(args.check)
    for problem in problems:
        print(problem)
    if problems:
        print(f"\nIf the changes are intended, regenerate with:\n  {regenerate_command(args.check)}")
        return 1
    print("the golden files match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
