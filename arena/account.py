"""A readable hand-by-hand account of a match, for people (``arena play`` and ``arena verify``)."""

from __future__ import annotations

from typing import Any, Iterable


def _compact(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_compact(v)}" for k, v in value.items() if v is not None)
    if isinstance(value, list):
        return "[" + " ".join(_compact(v) for v in value) + "]"
    return str(value)


def hand_line(index: int, dealer: Any, result: dict[str, Any]) -> str:
    """One line per deal entry, from the shared hand-result keys (docs/game-interface.md): what was
    played for, how the hand ended, the tricks won per side, the score changes and the scores."""
    parts = [f"Hand {index + 1:>2} (dealer {dealer})"]
    if result.get("contract") is not None:
        parts.append(f"contract {_compact(result['contract'])}")
    if result.get("end") is not None:
        parts.append(str(result["end"]))
    if result.get("tricks_won") is not None:
        parts.append(f"tricks {_compact(result['tricks_won'])}")
    if result.get("changes") is not None:
        parts.append(f"change {_compact(result['changes'])}")
    parts.append(f"scores {_compact(result['scores'])}")
    return " | ".join(parts)


def action_lines(actions: Iterable[tuple[int, str]], times: list[float | None] | None, width: int = 100) -> list[str]:
    """The actions of one hand with each decision's time (``*`` marks a forced action not asked)."""
    items = []
    for position, (seat, action) in enumerate(actions):
        spent = times[position] if times and position < len(times) else None
        when = "*" if spent is None else f"{spent * 1000:.1f}ms"
        items.append(f"{seat}:{action} ({when})")
    lines, line = [], "    "
    for item in items:
        if len(line) + len(item) + 2 > width and line.strip():
            lines.append(line.rstrip())
            line = "    "
        line += item + "  "
    if line.strip():
        lines.append(line.rstrip())
    return lines


def print_record(record: dict[str, Any], hands: list[dict[str, Any]], verbose: bool = True, out=print) -> None:
    """Print an account of ``record`` using the replayed results ``hands``."""
    for index, entry in enumerate(record["hands"]):
        if index < len(hands):
            out(hand_line(index, entry.get("dealer"), hands[index]))
        else:
            out(f"Hand {index + 1:>2} (dealer {entry.get('dealer')}) | unfinished")
        if verbose:
            for line in action_lines(entry["actions"], entry.get("times")):
                out(line)
