"""What one seat may see (§11 and §12.3 of docs/games/bid_euchre.md), built from the state.

Hidden: the other hands; the joker discard (the dealer only); the help exchange's cards (the two
partners only, and the partner sees the contractor's card(s) only once it has given its own, E5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.games.bid_euchre.auction import contract
from arena.games.bid_euchre.cards import STRAINS, TOKENS
from arena.games.bid_euchre.play import trick_list
from arena.games.bitmask import bits

if TYPE_CHECKING:
    from arena.games.bid_euchre.state import BidEuchreState


def visible(state: BidEuchreState, viewer: int, actor: int, action_id: int) -> bool:
    """May ``viewer`` see the action ``action_id`` that ``actor`` took in this deal?"""
    a = state.game.actions
    if a.discard_base >= 0 and a.discard_base <= action_id < a.discard_base + a.tokens:
        return viewer == actor  # the joker discard: the dealer only
    if a.give_base <= action_id < a.give_base + a.tokens:
        if viewer == actor:
            return True
        if viewer != state.contractor and viewer != state.sitting_out:
            return False
        # The partner sees the contractor's card(s) once it has given its own (E5).
        return actor == state.sitting_out or state.phase != "exchange"
    return True


def hidden_cards(state: BidEuchreState, seat: int) -> frozenset[str]:
    """The cards of this deal ``seat`` may not see (§11): every card of the pack that it neither
    holds nor has seen played, discarded (the dealer) or passed in its own side's exchange. With the
    double deck a card is hidden only when no copy of it is known to the seat."""
    known = state.masks[seat]
    for _, cards, _ in state.tricks:
        for _, t in cards:
            known |= 1 << t
    for _, t in state.trick:
        known |= 1 << t
    if state.discarded is not None and seat == state.deals[-1]["dealer"]:
        known |= 1 << state.discarded
    gives = state.gives
    if seat == state.contractor:
        mine = gives[0] + gives[1]
    elif seat == state.sitting_out:  # its own gifts; the contractor's once it has given its own (E5)
        mine = gives[1] if state.phase == "exchange" else gives[0] + gives[1]
    else:
        mine = []
    for t in mine:
        known |= 1 << t
    pack = state.game.pack_mask
    return frozenset(TOKENS[t] for t in bits(pack & ~known))


def observation(state: BidEuchreState, seat: int) -> dict[str, Any]:
    """The observation of ``seat``: the shared vocabulary's keys, then Bid Euchre's own."""
    g = state.game
    a = g.actions
    name = a.names
    deal = state.deals[-1]
    phase = state.phase
    low = a.give_base  # the give (and, with the joker, discard) blocks: only there can an action be hidden
    high = low + a.tokens * (2 if a.discard_base >= 0 else 1)
    history = [[s, name[i]] for s, i in deal["actions"] if not low <= i < high or visible(state, seat, s, i)]
    counts = state.counts[seat]
    hand = [TOKENS[t] for t in bits(state.masks[seat]) for _ in range(counts[t])]
    to_act = state.to_act
    tricks = trick_list(state.tricks)
    by_seat = state.tricks_won_by_seat
    auction = state.auction
    out = state.sitting_out
    exchange = None
    if state.level == a.help_level and state.trump is not None:
        exchange = {"contractor": state.contractor, "partner": out, "count": g.exchange, "done": phase != "exchange"}
        if seat == state.contractor or seat == out:
            own, other = (0, 1) if seat == state.contractor else (1, 0)
            exchange["given"] = [TOKENS[t] for t in state.gives[own]]
            exchange["received"] = [TOKENS[t] for t in state.gives[other]] if exchange["done"] else []
    return {
        # -- the shared vocabulary (arena.games.base.OBSERVATION_KEYS) --
        "game": g.name,
        "seat": seat,
        "side": seat & 1,
        "players": 4,
        "phase": phase,
        "hand_index": len(state.deals) - 1,
        "hands_played": len(state.deal_results),
        "dealer": deal["dealer"],
        "to_act": to_act,
        "hand": hand,
        "legal_actions": state.legal_actions() if to_act == seat else [],
        "history": history,
        "scores": list(state.total),
        "trump": None if state.trump is None else STRAINS[state.trump],
        "contract": contract(a, g.tricks, state.contractor, state.level, state.trump),
        "active_seats": [s for s in range(4) if s != out],  # who plays the tricks
        "hand_sizes": [sum(c) for c in state.counts],
        "trick": [[s, TOKENS[t]] for s, t in state.trick],
        "leader": state.leader if phase == "play" else None,
        "tricks": tricks,
        "last_trick": tricks[-1] if tricks else None,
        "tricks_won": [by_seat[0] + by_seat[2], by_seat[1] + by_seat[3]],
        "tricks_won_by_seat": list(by_seat),
        "last_result": state.deal_results[-1] if state.deal_results else None,
        # -- Bid Euchre's own --
        "target_score": g.target,
        "tricks_per_hand": g.tricks,
        "auction": [[s, name[a.bid_id[lv]] if lv else "pass"] for s, lv in auction.calls],
        "high_bid": None if auction.high_seat is None else {"seat": auction.high_seat, "bid": a.level_name(auction.high)},
        "exchange": exchange,
        "discarded": TOKENS[state.discarded] if state.discarded is not None and seat == deal["dealer"] else None,
    }
