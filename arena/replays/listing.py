"""A tournament's games, one row each: what ``arena matches`` lists and the board's match list shows."""

from __future__ import annotations

from typing import Any

from arena.results import row_of
from arena.store import Store


def match_row(spec: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    row = row_of(spec, result)
    sides = list(row.sides) or None  # None outside a lineup
    winners = result.get("winners") or []
    names = [sides[w] if sides and w < len(sides) else f"side {w}" for w in winners]
    faults = result.get("faults") or []
    return {
        "index": spec["index"],
        "deal_set": spec.get("deal_set", 0),
        "rotation": spec.get("rotation", 0),
        "lineup": list(spec.get("lineup") or []),
        "sides": sides,
        "seats": list(spec["seats"]),
        "scores": list(row.scores),
        "winner": ", ".join(names) if names else None,
        "termination": row.termination,
        "faults": len(faults),
        "fault_kinds": sorted({f["kind"] for f in faults}),
        # the level its bots ran at: the result says (since the sandbox level), else its specification
        "isolation": result.get("isolation") or spec.get("isolation") or "inprocess",
    }


def match_rows(store: Store) -> list[dict[str, Any]]:
    """Every finished match of the store, in schedule order."""
    return [match_row(spec, result) for spec, result in store.results()]


def file_stem(index: int) -> str:
    """The name of match ``index``'s files: ``match-0001`` (a replay page, a record)."""
    return f"match-{index:04d}"


def table(rows: list[dict[str, Any]]) -> str:
    from arena.replays.text import columns

    grid = [["match", "deal set", "sides (side 0 first)", "scores", "winner", "faults", "end", "isolation"]]
    for row in rows:
        sides = " / ".join(row["sides"]) if row["sides"] else ", ".join(row["seats"])
        faults = str(row["faults"]) + (f" ({', '.join(row['fault_kinds'])})" if row["fault_kinds"] else "")
        grid.append([str(row["index"]), str(row["deal_set"]), sides, " ".join(map(str, row["scores"])),
                     row["winner"] or "none", faults, row["termination"], row.get("isolation", "")])
    return "\n".join(columns(grid, indent=""))
