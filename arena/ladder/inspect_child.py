"""The process inside an inspection sandbox: ``python -S -B -m arena.ladder.inspect_child MODULE...``.

It imports each plugin module of a submitted package (named by its ``trick_arena`` entry points),
calls its ``arena_register_bots`` hook and prints, as its last line, ``MARKER`` and a JSON list of
``{"name", "factory", "games"}`` (or ``{"error"}``). The submitted code runs only here, never in
the arena's process.
"""

from __future__ import annotations

import importlib
import json
import sys
import traceback
from typing import Any

MARKER = "ARENA-INSPECT "


def inspect(modules: list[str]) -> dict[str, Any]:
    from arena.players.base import BotSpec
    from arena.players.isolated import factory_path

    bots: list[dict[str, Any]] = []
    for name in modules:
        try:
            module = importlib.import_module(name)
            hook = getattr(module, "arena_register_bots", None)
            specs = hook() if callable(hook) else []
        except BaseException as exc:  # the package's code: anything may happen
            lines = traceback.format_exception_only(type(exc), exc)
            return {"error": f"importing its plugin module {name!r} raised {lines[-1].strip()}"}
        for spec in specs or []:
            if not isinstance(spec, BotSpec):
                return {"error": f"the plugin module {name!r} registered {type(spec).__name__}, not a BotSpec"}
            try:
                path = factory_path(spec.factory)
            except Exception as exc:
                return {"error": f"bot {spec.name!r}: {exc}"}
            bots.append({"name": spec.name, "factory": path, "games": list(spec.games) if spec.games else None})
    return {"bots": bots}


def main(argv: list[str]) -> int:
    found = inspect(argv[1:])
    sys.stdout.flush()
    print("\n" + MARKER + json.dumps(found), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
