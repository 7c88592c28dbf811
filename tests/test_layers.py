"""The arena's modules stand in layers (docs/architecture.md), and no import runs against them.

The import graph is read from the source (``ast``), not from ``sys.modules``: every import counts,
at the top of a module or inside a function, so a lazy import cannot hide an upward dependency.
Two kinds of import are not dependencies of the running code and are left out: those under
``if TYPE_CHECKING:`` (read by mypy only) and those under ``if __name__ == "__main__":`` (a module
run as a program is a top-level entry point, like ``arena`` itself).
"""

from __future__ import annotations

import ast
import sys
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Lowest first. A module belongs to the layer of the longest prefix that names it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base: the cards, the games and the plugin kinds", (
        "arena", "arena.errors", "arena.kinds", "arena.cards", "arena.options", "arena.deals", "arena.tomlfile",
        "arena.sqlite_shared", "arena.results", "arena.rating", "arena.bradley_terry", "arena.rating_systems", "arena.account", "arena.protogen",
        "arena.v1", "arena.games", "arena.solver", "arena.fast")),
    ("seats and referee", ("arena.players", "arena.referee", "arena.wire")),
    ("matches and records", ("arena.matches", "arena.records", "arena.store")),
    ("plugins: the registry", ("arena.plugins",)),
    ("services", ("arena.tournaments", "arena.comparison", "arena.ladder", "arena.web", "arena.board", "arena.standings",
                  "arena.replays", "arena.testing", "arena.docsamples", "arena.envs")),
    ("commands", ("arena.commandline", "arena.cli", "arena.bench", "arena.players.serve_command",
                  "arena.comparison.command", "arena.replays.commands", "arena.web.command", "arena.ladder.command",
                  "arena.ladder.submit_command")),
]


def modules(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for path in sorted((root / "arena").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _not_run(test: ast.expr) -> bool:
    text = ast.unparse(test)
    return "TYPE_CHECKING" in text or text in ("__name__ == '__main__'", '__name__ == "__main__"')


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The arena modules ``name`` imports when it runs (at any depth of its code)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(node) for branch in ast.walk(tree) if isinstance(branch, ast.If) and _not_run(branch.test)
               for statement in branch.body for node in ast.walk(statement)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(target: str) -> str | None:
        while target and target not in known:
            target = target.rpartition(".")[0]
        return target or None

    found: set[str | None] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {resolve(alias.name) for alias in node.names if alias.name.split(".")[0] == "arena"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "arena":
                continue
            for alias in node.names:  # `from arena.players import seats` imports the module arena.players.seats
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else resolve(target))
    found.discard(None)
    found.discard(name)
    return {module for module in found if module is not None}


@functools.cache
def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def layer_of(module: str) -> int:
    best, level = -1, None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, level = len(prefix), index
    assert level is not None, f"{module} is in no layer: name it in tests/test_layers.py and docs/architecture.md"
    return level


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the import cycles, each as the modules in it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph)))
    try:
        for node in graph:
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return [component for component in found if len(component) > 1]


# Upward imports not yet removed, each with why; the test fails when one is gone, so that it leaves this list too.
KNOWN_UPWARD: dict[tuple[str, str], str] = {}


def upward_imports() -> set[tuple[str, str]]:
    return {(module, other) for module, others in import_graph().items() for other in others
            if layer_of(other) > layer_of(module)}


def test_no_module_imports_a_higher_layer():
    def named(module: str) -> str:
        return f"{module} ({LAYERS[layer_of(module)][0]})"

    upward = sorted(upward_imports() - set(KNOWN_UPWARD))
    assert not upward, "imports against the layers:\n" + "\n".join(f"{named(a)} imports {named(b)}" for a, b in upward)


def test_the_known_upward_imports_are_still_there():
    assert set(KNOWN_UPWARD) <= upward_imports(), "an upward import was removed: take it off KNOWN_UPWARD"


def test_no_import_cycle_spans_two_layers():
    spanning = [cycle for cycle in strongly_connected(import_graph()) if len({layer_of(module) for module in cycle}) > 1]
    assert not spanning, f"import cycles across layers: {spanning}"


def test_the_plugin_kinds_import_nothing_of_the_arena_but_its_errors():
    assert import_graph()["arena.kinds"] <= {"arena.errors"}


def test_every_module_is_in_a_layer():
    for module in import_graph():
        layer_of(module)


def test_an_import_inside_a_function_counts_and_one_for_type_checking_does_not(tmp_path):
    (tmp_path / "arena" / "games").mkdir(parents=True)
    for name in ("arena/__init__.py", "arena/games/__init__.py", "arena/cli.py", "arena/matches.py"):
        (tmp_path / name).write_text("")
    (tmp_path / "arena" / "games" / "late.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from arena.matches import MatchSpec\n"
        "def main():\n    from ..cli import run\n")
    graph = import_graph(tmp_path)
    assert graph["arena.games.late"] == {"arena.cli"}
    assert layer_of("arena.cli") > layer_of("arena.games.late")
