"""56's card play on the compiled fast path (arena.fast, docs/fastpath.md): the engine's
play state in the extension's terms (:func:`position`), and the exact solver's leaves scored by
this game's own scoring (:func:`setup`). Reached through ``Game.fast_path()``.
"""

from __future__ import annotations

from typing import Any

from arena.fast import Position, cached_rules, make_rules
from arena.fast.nodes import Node, Setup, play_ids
from arena.games.fifty_six.cards import KIND_POINTS


def position(st: Any) -> Position:
    g = st.game
    key = ("fifty_six", id(g.table), st.trump, tuple(st.nxt), st.n)

    def build() -> tuple[Any, dict[int, int]]:
        return make_rules([k >> 3 for k in range(32)], [k & 7 for k in range(32)], KIND_POINTS, g.table.play_id,
                      trump=st.trump, nxt=st.nxt, nactive=st.n, dup=True)

    rules, card_of = cached_rules(key, build, g.table)
    trick = st.trick
    return Position(rules, tuple(st.hands), st.to_act, bytes(s for s, _ in trick), bytes(k for _, k in trick),
                    trick[0][1] >> 3 if trick else -1, 0, st.n, card_of)


def setup(st: Any, pos: Position, side: int) -> Setup:
    g = st.game
    eff, power = [k >> 3 for k in range(32)], [k & 7 for k in range(32)]
    start, team_of = st.points[side], g.team_of

    def value(node: Node) -> float:
        return float(start + sum(p for seat, p in enumerate(node.points) if team_of[seat] == side))

    return Setup(pos, eff, power, list(KIND_POINTS), [True] * 32, play_ids(pos, 32), True, -1, value, reads="points",
                 by_side=True)  # the side's points: linear in them
