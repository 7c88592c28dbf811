"""What a seat sees (docs/games/all_fours.md §12, §15): the observation, and the JSON forms of the
tricks, the scoring events and the contract that observations and hand results share.

Public: every turn-up, kicks and all other points, the stand/beg/give one/run decisions, every card
played, trick winners, scores and the stock's size. Private: the hands (a seat sees its own) and the
order of the stock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence, cast

from arena.games.all_fours.actions import PLAYING
from arena.games.all_fours.cards import PACK, SUITS, cards_of, game_count, tokens_of
from arena.games.all_fours.play import lawful_plays

if TYPE_CHECKING:
    from arena.games.all_fours.state import AllFoursState


def events_json(events: Sequence[tuple[str, int, int, int]]) -> list[dict[str, Any]]:
    """The scoring events of a deal in order: ``item``, ``side``, ``points``, ``card`` (or None)."""
    return [
        {"item": item, "side": side, "points": points, "card": PACK[card] if card >= 0 else None}
        for item, side, points, card in events
    ]


def tricks_json(tricks: Sequence[tuple[int, Sequence[int], int]], players: int) -> list[dict[str, Any]]:
    """Finished tricks as ``{"leader", "cards": [[seat, card], ...], "winner"}``."""
    return [
        {"leader": leader, "cards": [[(leader + i) % players, PACK[c]] for i, c in enumerate(cards)], "winner": winner}
        for leader, cards, winner in tricks
    ]


def contract_json(state: "AllFoursState") -> dict[str, Any] | None:
    """None until trumps are fixed, then ``{"trump", "decision", "runs"}``."""
    if state.trump is None:
        return None
    return {"trump": SUITS[state.trump], "decision": state.decision, "runs": state.runs}


def revokes_json(state: "AllFoursState") -> list[dict[str, Any]]:
    return [{"seat": s, "trick": t, "serious": x} for s, t, x in state.revokes]


def tricks_won_by_seat(state: "AllFoursState") -> list[int]:
    counts = [0] * state.n
    for _, _, winner in state.tricks:
        counts[winner] += 1
    return counts


def observation(state: "AllFoursState", seat: int) -> dict[str, Any]:
    """The observation of ``seat``: the shared vocabulary, then All Fours's own keys."""
    g, n = state.g, state.n
    my_turn = state.current_player() == seat
    legal = state.legal_actions() if my_turn else []
    tricks = tricks_json(state.tricks, n)
    playing = state.phase == PLAYING
    trump = None if state.trump is None else SUITS[state.trump]
    results = state.deal_results
    obs: dict[str, Any] = {
        "game": g.name,
        "seat": seat,
        "side": seat % 2,
        "players": n,
        "phase": state.phase,
        "hand_index": len(state.deals) - 1,
        "hands_played": len(results),
        "dealer": state.dealer,
        "to_act": state.current_player(),
        "hand": tokens_of(state.hands[seat]),
        "legal_actions": legal,
        "history": [[s, g.action_string(a)] for s, a in state.deals[-1]["actions"]],
        "scores": state.scores(),
        "trump": trump,
        "contract": contract_json(state),
        "active_seats": list(range(n)),
        "hand_sizes": [bin(h).count("1") for h in state.hands],
        "trick": [[s, PACK[c]] for s, c in zip(state.trick_seats, state.trick)],
        "leader": state.leader if playing else None,
        "tricks": tricks,
        "last_trick": tricks[-1] if tricks else None,
        "tricks_won": list(state.tricks_won),
        "tricks_won_by_seat": tricks_won_by_seat(state),
        "last_result": results[-1] if results else None,
        # All Fours's own keys
        "eldest": (state.dealer + 1) % n,
        "target_score": g.target,
        "proposed_suit": SUITS[cast(int, state.proposed)],  # set by the deal's first turn-up
        "turn_up": PACK[state.turn_ups[-1]],
        "turn_ups": [PACK[c] for c in state.turn_ups],
        "stock_count": 52 - state.pos,
        "runs": state.runs,
        "points": events_json(state.events),
        "game_counts": [game_count(state.captured[0]), game_count(state.captured[1])],
        "revokes": revokes_json(state),
        "game_barred": list(state.barred),
    }
    if g.penalize:
        lawful = []
        if my_turn and playing:
            mask = lawful_plays(state.hands[seat], state.trick, cast(int, state.trump), g.no_undertrump)  # the play: trumps fixed
            lawful = ["play " + PACK[c] for c in cards_of(mask)]
        obs["lawful_actions"] = lawful if playing else legal
    return obs
