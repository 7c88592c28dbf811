"""The brief form of a ready tournament file that the tests play: one deal set (unless told), and, when it seats
the `search` bot (whose ready clock is 2 s a decision), one hand a match at 3 ms a decision, so that every ready file is played in seconds
(the 48 matches of a 56 deal set for 8 players in about 25)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

SEARCH_BRIEF = {"samples": 2, "seconds": 0.003}
SEARCH_HANDS = 1


# Deal sets of the brief where one does not rank the bots reliably (the heuristic first, over 100
# seeds). Five Hundred for 5: a random contractor soon fails below -500, which ends the match
# most often in its first hand, so a deal set is about one deal: first 48 times after one
# deal set, 94 after two, 100 after five. All Fours for 2, two matches a deal set: 89 after three,
# 96 after five, 99 after ten. In process either takes about a second.
BRIEF_DEAL_SETS = {"five_hundred_5": 5, "all_fours_2": 10}


def deal_sets(path: Path) -> int:
    """The deal sets of ``path``'s brief form that rank its bots (BRIEF_DEAL_SETS, else one)."""
    return BRIEF_DEAL_SETS.get(Path(path).stem, 1)


def ready_seed(path: Path) -> int:
    """The public seed a ready file names in its comment (``# seed = N``): the ready files deal from
    a secret, but a brief run of one deal set must be the same every time to rank its bots."""
    found = re.search(r"^# seed = (\d+)", Path(path).read_text(), re.MULTILINE)
    assert found, f"{path}: no '# seed = N' comment"
    return int(found.group(1))


def brief(data: dict[str, Any], **tournament: Any) -> dict[str, Any]:
    data["tournament"].update({"deal_sets": 1, **tournament})
    searching = [entry for entry in data.get("bots", []) if entry.get("bot") == "search"]
    for entry in searching:
        entry["settings"] = {**entry.get("settings", {}), **SEARCH_BRIEF}
    if searching:
        data.setdefault("options", {})["max_hands"] = SEARCH_HANDS
    return data
