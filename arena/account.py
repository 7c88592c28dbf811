"""A readable hand-by-hand account of a match, for people (``arena play`` and ``arena verify``)."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping


def compact(value: Any, drop_false: bool = False) -> str:
    """A result or contract value in one short line: dicts as ``key value`` pairs, None left out
    (and False too with ``drop_false``, as the replays show them)."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {compact(v, drop_false)}" for k, v in value.items()
                         if v is not None and not (drop_false and v is False))
    if isinstance(value, list):
        return "[" + " ".join(compact(v, drop_false) for v in value) + "]"
    return str(value)


def hand_result(result: Mapping[str, Any], per_side: Callable[[Any], str] | None = None) -> str:
    """The one hand-result printer, from the shared hand-result keys (docs/game-interface.md): what
    was played for, how the hand ended, the tricks won per side, the score changes and the scores.
    Without ``per_side``, the terse line of ``arena play`` (values as lists, ``|`` between parts);
    with it, the replays' sentence: each per-side value shown by ``per_side`` (the sides named)."""
    named = per_side is not None
    show = per_side or compact
    parts = []
    if result.get("contract") is not None:
        parts.append(f"contract {compact(result['contract'], drop_false=named)}")
    if result.get("end") is not None:
        parts.append(str(result["end"]))
    tricks = result.get("tricks_won")
    if tricks is not None and (not named or isinstance(tricks, list)):
        parts.append(f"{'tricks won' if named else 'tricks'} {show(tricks)}")
    if result.get("changes") is not None:
        parts.append(f"{'changes' if named else 'change'} {show(result['changes'])}")
    parts.append(f"scores {show(result.get('scores'))}")
    return ("; " if named else " | ").join(parts)


def hand_line(index: int, dealer: Any, result: Mapping[str, Any]) -> str:
    """One line per deal entry of ``arena play`` and ``arena verify``: the hand, then its result."""
    return f"Hand {index + 1:>2} (dealer {dealer}) | " + hand_result(result)


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
