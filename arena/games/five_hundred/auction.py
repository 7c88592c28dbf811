"""The auction (docs/games/five_hundred.md §5) and the five-player partner call (R-6.1), as
functions of the state.

The call lists per high bid are precomputed once per configured game (:func:`call_lists`), so a
legal list is one table look-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from arena.games.five_hundred.actions import BM, MIS, PASS, SUIT, ActionTable, Bid

if TYPE_CHECKING:
    from arena.games.five_hundred.state import FiveHundredState


def call_lists(table: ActionTable, misere_requires_seven: bool) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """(normal calls, first-turn calls under blind misère), each indexed by the high bid's id (0 =
    none). R-5.2: every higher rung; MIS only over a 7-level bid unless ``misere_requires_seven`` is
    off; BM only as a first-turn choice beside ``look`` (R-5.7.1)."""
    bid_of = table.bid_of
    bids = cast("list[Bid]", bid_of[1:])  # the ids from 1 on are bids (0, pass, is None)
    normal: list[tuple[int, ...]] = []
    first: list[tuple[int, ...]] = []
    for high in range(table.num_bids + 1):
        hb = bid_of[high]
        floor = hb.key if hb else -1
        calls = [PASS]
        for a in range(1, table.num_bids + 1):
            b = bids[a - 1]
            if b.key <= floor or b.kind == BM:
                continue
            if b.kind == MIS and misere_requires_seven and not (hb and hb.kind == SUIT and hb.level == 7):
                continue
            calls.append(a)
        normal.append(tuple(calls))
        opening = []
        if table.bm_id is not None and bids[table.bm_id - 1].key > floor:
            opening.append(table.bm_id)
        if table.look_id is not None:
            opening.append(table.look_id)
        first.append(tuple(opening))
    return normal, first


def legal(st: "FiveHundredState") -> list[int]:
    g = st.game
    if g.blind and not (st.seen | st.called) >> st.turn & 1:
        return list(g.first_calls[st.high])  # a first turn under the BM option: look or BM
    return list(g.normal_calls[st.high])


def apply(st: "FiveHundredState", a: int) -> None:
    g = st.game
    seat = st.turn
    bit = 1 << seat
    if a == g.look_id:  # LOOK, then the same player calls
        st.seen |= bit
        return
    st.called |= bit
    if a != PASS:
        st.high = a
        st.high_seat = seat
    if st.raising:  # the one extra call; a pass leaves the bid standing
        st.start_contract()
        return
    n = st.n
    if a == PASS:
        st.passed |= bit
    if g.american:  # one call each, the dealer last
        if seat != st.dealer:
            st.set_turn((seat + 1) % n)
        elif st.high:
            st.start_contract()
        else:
            st.throw_in()
        return
    passed = st.passed.bit_count()
    if passed == n:  # step 1: a throw-in
        st.throw_in()
    elif passed == n - 1 and st.high:  # step 2: the last one standing holds the contract
        if g.raise_once:
            st.raising = True
            st.set_turn(st.high_seat)
        else:
            st.start_contract()
    else:  # step 3: the next player who has not passed
        nxt = (seat + 1) % n
        while st.passed >> nxt & 1:
            nxt = (nxt + 1) % n
        st.set_turn(nxt)


def partner_calls(st: "FiveHundredState") -> list[int]:
    """R-6.1: 0 or 1 partner for a 6- or 7-level contract, up to 2 from the 8 level on."""
    g = st.game
    most = 1 if cast(Bid, st.bid).level <= 7 else 2  # the partners phase: after the auction
    c = st.contractor
    return [g.partners_base + i for i, subset in enumerate(g.partner_sets) if len(subset) <= most and c not in subset]
