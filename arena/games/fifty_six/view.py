"""What one seat may see (§12 of fifty_six.md): everything public — every call with its form,
the contract, every card played and by whom, trick winners, each team's pile total, the tables,
the knocked-out teams — and only its own hand."""

from __future__ import annotations

import copy
from typing import Any

from arena.games.fifty_six.actions import FORM_NAMES, STRAIN_NAMES
from arena.games.fifty_six.cards import SUITS, TOKEN, size, tokens


def _cards(pairs) -> list[list]:
    return [[seat, TOKEN[kind]] for seat, kind in pairs]


def observation(state, seat: int) -> dict[str, Any]:
    g = state.game
    team_of = g.team_of
    to_act = state.current_player()
    auction = state.auction
    high_bid = None
    if auction.bidder >= 0 and not auction.all_pass:
        high_bid = {
            "amount": auction.amount,
            "strain": STRAIN_NAMES[auction.strain],
            "form": FORM_NAMES[auction.form],
            "bidder": auction.bidder,
            "side": team_of[auction.bidder],
        }
    tricks = [
        {"leader": leader, "cards": _cards(cards), "winner": winner, "points": points}
        for leader, cards, winner, points in state.done
    ]
    in_play = state.phase_code != 0 and auction.over
    return {
        "game": g.name,
        "seat": seat,
        "side": team_of[seat],
        "players": g.players,
        "phase": state.phase,
        "hand_index": len(state.deals) - 1,
        "dealer": state.dealer,
        "hand": tokens(state.hands[seat]),
        "legal_actions": state.legal_actions() if to_act == seat else [],
        "to_act": to_act,
        "history": [[s, a] for s, a in state.actions_of_deal(-1)],
        "scores": list(state.tables),
        "contract": state.contract(),
        "trump": (SUITS[state.trump] if state.trump >= 0 else None) if in_play else None,
        "auction": {
            "high_bid": high_bid,
            "doubled": auction.level >= 1,
            "redoubled": auction.level == 2,
            "doubler": auction.doubler if auction.doubler >= 0 else None,
            "passes": auction.passes,
            "over": auction.over,
        },
        "trick": _cards(state.trick),
        "trick_leader": state.leader if in_play else None,
        "tricks": tricks,
        "last_trick": tricks[-1] if tricks else None,
        "tricks_won": list(state.tricks_won),
        "points_won": list(state.points),
        "cards_left": [size(state.hands[s]) for s in range(g.players)],
        "hand_size": state.hand_size,
        "active_seats": list(state.active),
        "seat_sides": list(team_of),
        "num_sides": g.teams,
        "eliminated_sides": [t for t in range(g.teams) if state.out_at[t] is not None],
        "team_mode": g.options["team_mode"],
        "hands_played": state.hands_played,
        "previous_hand": copy.deepcopy(state.deal_results[-1]) if state.deal_results else None,
    }
