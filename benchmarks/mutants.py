"""Mutants of game records and tournament files: does the arena answer every one with a one-line
error (or a verdict), never a traceback? (issue 22)

    python benchmarks/mutants.py [--count 1000] [--seed 0]

Records: real records of every game (played here by random bots), each mutated by one to three
edits of its JSON tree (a value replaced by another type, a huge integer, deep nesting, a key
removed, an action repeated or dropped, a deck holding a list, ...) or of its bytes (cut short,
invalid UTF-8). Each is verified as ``arena verify FILE --json`` does, in this process.
Tournament files: the bundled ones (tournaments/*.toml) mutated by line, value and byte edits;
each is checked as ``arena run`` checks it before its first match (the file, the game, the bots,
the size of the schedule). A traceback is any exception other than the arena's own errors; the
first few are printed. tests/test_fuzz.py runs this at a lower count.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import random
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
HUGE_INT = "__a 5000-digit integer__"  # written into the text as such (Python will not convert it)


def base_records() -> list[dict[str, Any]]:
    """One record of each installed game (random bots, a fixed seed)."""
    from arena.players.seats import make_host
    from arena.plugins import get_registry
    from arena.referee import Referee

    registry = get_registry()
    records = []
    for name in sorted(registry.games):
        game = registry.game(name, {})
        hosts = [make_host(registry, "random", game=name, seed=seat) for seat in range(game.players)]
        records.append(Referee(game, hosts, ["random"] * game.players, seed=7).play().record)
    return records


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if len(path) > 6:  # not into the deep nesting a mutation made
        return found
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:70]):
            found += _paths(item, path + (index,))
    return found


def _get(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


def _set(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def _odd_value(rng: random.Random) -> Any:
    choices: list[Callable[[], Any]] = [
        lambda: None, lambda: True, lambda: -1, lambda: 0, lambda: 10**9, lambda: HUGE_INT, lambda: 1.5,
        lambda: float("inf"), lambda: "", lambda: "play AS", lambda: "x" * 300, lambda: [], lambda: [[]],
        lambda: {}, lambda: {"a": 1}, lambda: [0, "bid 7S"], lambda: ["AS", ["KH"]], lambda: "\ud800",
        lambda: _nested(rng.choice([50, 500, 5000])),
    ]
    return rng.choice(choices)()


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def mutate_record(record: dict[str, Any], rng: random.Random) -> bytes:
    data = copy.deepcopy(record)
    for _ in range(rng.randint(1, 3)):
        paths = _paths(data)
        path = rng.choice(paths)
        target = _get(data, path)
        edit = rng.randrange(6)
        if edit == 0 or not path:
            data = _set(data, path, _odd_value(rng))
        elif edit == 1 and isinstance(_get(data, path[:-1]), dict):
            del _get(data, path[:-1])[path[-1]]
        elif edit == 2 and isinstance(target, list) and target:
            target.insert(rng.randrange(len(target) + 1), copy.deepcopy(rng.choice(target)))
        elif edit == 3 and isinstance(target, list) and target:
            del target[rng.randrange(len(target))]
        elif edit == 4 and isinstance(target, list) and len(target) > 1:
            i, j = rng.randrange(len(target)), rng.randrange(len(target))
            target[i], target[j] = target[j], target[i]
        else:
            data = _set(data, path, _odd_value(rng))
        if not isinstance(data, (dict, list)):
            break
    try:
        text = json.dumps(data).replace(json.dumps(HUGE_INT), "9" * 5000).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError):
        text = b"[" * 100000
    byte_edit = rng.randrange(10)
    if byte_edit == 0:
        text = text[: rng.randrange(len(text) + 1)]
    elif byte_edit == 1:
        at = rng.randrange(len(text) + 1)
        text = text[:at] + bytes([rng.choice([0xFF, 0xC3, 0x80, 0x00])]) + text[at:]
    return text


def base_tournament_files() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted((ROOT / "tournaments").glob("*.toml"))]


TOML_VALUES = ['inf', 'nan', '-inf', '1e300', '-1', '0', '1000000000', '9223372036854775807', '""', '"x"',
               'true', '[]', '[1, "a"]', '{}', '{ a = 1 }', '1979-05-27', '"grpc://localhost"', '"cmd:"',
               '"cmd:\'unbalanced"', '"grpc://h:1/p"', '"random"', '"substitute"', '0.0001', '"\\u0000"']


def mutate_tournament(text: str, rng: random.Random) -> bytes:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        edit = rng.randrange(6)
        index = rng.randrange(len(lines)) if lines else 0
        if edit == 0 and lines:
            del lines[index]
        elif edit == 1 and lines and "=" in lines[index]:
            key = lines[index].split("=", 1)[0]
            lines[index] = f"{key}= {rng.choice(TOML_VALUES)}"
        elif edit == 2 and lines:
            lines.insert(index, lines[rng.randrange(len(lines))])
        elif edit == 3:
            lines.insert(index, rng.choice(["[[bots]]", 'bot = "random"', "[tournament]", "[faults]",
                                            "deal_sets = 1000000000", "per_decision = inf", "[options]",
                                            'x = "' + "y" * 50 + '"', "[time_control]", "parallel = 100000"]))
        elif edit == 4:
            lines.extend(f'[[bots]]\nname = "b{i}"\nbot = "random"' for i in range(60))
        else:
            pass
    data = "\n".join(lines).encode("utf-8")
    byte_edit = rng.randrange(8)
    if byte_edit == 0:
        data = data[: rng.randrange(len(data) + 1)]
    elif byte_edit == 1:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + b"\xff\xfe" + data[at:]
    return data


def verify_outcome(path: Path) -> tuple[int, str, str]:
    """``arena verify PATH --json`` in this process: (exit status, stdout, stderr)."""
    from arena.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["verify", str(path), "--json"])
    return code, out.getvalue(), err.getvalue()


def check_tournament(path: Path) -> None:
    """What ``arena run`` does with a file before its first match."""
    from arena.plugins import get_registry
    from arena.tournaments import config as tournament_config
    from arena.tournaments import schedule

    registry = get_registry()
    config = tournament_config.load(path, registry)
    schedule.count(config, registry.game(config.game, config.options))


def run(count: int, seed: int, show: int = 3) -> dict[str, int]:
    from arena.errors import ArenaError

    rng = random.Random(seed)
    figures = {"records": 0, "record_tracebacks": 0, "record_bad_output": 0, "tournament_files": 0,
               "tournament_tracebacks": 0}
    records = base_records()
    files = base_tournament_files()
    shown = 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mutant"
        for number in range(count):
            path.write_bytes(mutate_record(rng.choice(records), rng))
            figures["records"] += 1
            try:
                code, out, err = verify_outcome(path)
                if code not in (0, 1) or "ok" not in json.loads(out):
                    figures["record_bad_output"] += 1
            except Exception:
                figures["record_tracebacks"] += 1
                if shown < show:
                    shown += 1
                    print(f"record mutant {number}:\n{traceback.format_exc(limit=-4)}", file=sys.stderr)
        for number in range(count):
            path.write_bytes(mutate_tournament(rng.choice(files), rng))
            figures["tournament_files"] += 1
            try:
                check_tournament(path)
            except ArenaError:
                pass
            except Exception:
                figures["tournament_tracebacks"] += 1
                if shown < 2 * show:
                    shown += 1
                    print(f"tournament mutant {number}:\n{traceback.format_exc(limit=-4)}", file=sys.stderr)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="mutants of each kind (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    figures = run(args.count, args.seed)
    print(json.dumps(figures))
    return 0 if not figures["record_tracebacks"] and not figures["tournament_tracebacks"] else 1


if __name__ == "__main__":
    sys.exit(main())
