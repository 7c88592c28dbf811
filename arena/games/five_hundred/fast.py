"""Five Hundred's card play on the compiled fast path (arena.fast, docs/fastpath.md): the engine's
play state in the extension's terms (:func:`position`), and the exact solver's leaves scored by
this game's own scoring (:func:`setup`). Reached through ``Game.fast_path()``.
"""

from __future__ import annotations

from typing import Any

from arena.fast import Position, cached_rules, make_rules
from arena.fast.nodes import Node, Setup, play_ids
from arena.games.five_hundred.scoring import hand_changes


def position(st: Any) -> Position:
    g = st.game
    bid = st.bid
    trump = bid.strain if bid.strain < 4 else (4 if st.suitless else -1)
    stop = st.contractor if bid.misere else -1
    key = ("five_hundred", id(st.eff), g.play_base, g.joker_lead_base, trump, tuple(st.next_active), st.nactive,
           st.suitless, g.joker_last_only, st.forced_joker, stop)

    def build() -> tuple[Any, dict[int, int]]:
        pack, eff, value = g.pack, st.eff, st.value
        power = [value[e][c] if e < 4 else 0 for c, e in enumerate(eff)]  # the suitless joker: alone in its suit
        return make_rules(eff, power, (), [g.play_base + c for c in range(pack.size)], trump=trump, nxt=st.next_active,
                      nactive=st.nactive, joker=pack.joker, joker_lead_base=g.joker_lead_base if st.suitless else -1,
                      joker_last_only=g.joker_last_only, forced_joker=st.forced_joker, stop_seat=stop)

    rules, card_of = cached_rules(key, build, st.eff)  # the context's tables live as long as the pack
    trick = st.trick
    return Position(rules, tuple(st.hands), st.turn, bytes(s for s, _ in trick), bytes(c for _, c in trick),
                    st.led if trick else -1, st.suits_led, st.nactive, card_of, _hand_sides(st))


def _hand_sides(st: Any) -> bytes | None:
    """With five players every seat is its own side in the match, but the contractor's partners,
    named for the hand, play with it (R-6.1): they take the contractor's side. None otherwise."""
    if st.n != 5 or len(st.members) < 2:
        return None
    sides = st.game.sides
    return bytes(sides[st.contractor] if seat in st.members else sides[seat] for seat in range(st.n))


def setup(st: Any, pos: Position, side: int) -> Setup:
    g = st.game
    eff = list(st.eff)
    power = [st.value[e][c] if e < 4 else 0 for c, e in enumerate(eff)]
    joker = g.pack.joker
    root_tricks = list(st.tricks_won_by_seat)
    bid, contractor, members, total = st.bid, st.contractor, tuple(st.members), list(st.total)

    def value(node: Node) -> float:
        seat_tricks = [a + b for a, b in zip(root_tricks, node.tricks)]
        return float(hand_changes(bid, contractor, members, seat_tricks, g.sides, total, g.cap)[0][side])

    return Setup(pos, eff, power, [0] * len(eff), [c != joker and e < 4 for c, e in enumerate(eff)],
                 play_ids(pos, len(eff)), False, contractor if bid.misere else -1, value, reads="tricks",
                 # two sides and no misère: hand_changes is non-decreasing in one side's tricks
                 by_side=len(set(g.sides)) == 2 and not bid.misere)
