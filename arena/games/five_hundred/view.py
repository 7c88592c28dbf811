"""What one seat may see (docs/games/five_hundred.md §10), as JSON-ready data.

Hidden from everyone but the contractor: the kitty and the discards (R-10.2), and a declined joker
nomination (R-6.3.2: to the others the nominate step looks like the rest of the exchange). Under
blind misère a seat that has not looked sees no hand. The open misère hand is public after trick 1.

The phases are named here (the state moves through them; the observation shows them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from arena.games.five_hundred.actions import NT, Bid
from arena.games.five_hundred.cards import SUITS

if TYPE_CHECKING:
    from arena.games.five_hundred.state import FiveHundredState

AUCTION, PARTNERS, DISCARD, NOMINATE, PLAY, OVER = range(6)
PHASES = ("auction", "partners", "discard", "nominate", "play", "over")


def contract(st: "FiveHundredState") -> dict[str, Any] | None:
    """The contract once the auction is won (the same for every seat), else None."""
    bid = st.bid
    if bid is None:
        return None
    g = st.game
    c = st.contractor
    out = {
        "bid": bid.text,
        "contractor": c,
        "side": g.sides[c],
        "seats": list(st.members),  # the contracting side's seats (with five-player partners)
        "value": bid.value,
        "tricks": bid.level,  # 0 for misère: take none
        "misere": bid.misere,
        "sans_kitty": bid.sans_kitty,
        "trump": None if bid.strain == NT else SUITS[bid.strain],
        "joker_suit": SUITS[st.nominated] if st.nominated >= 0 else None,
    }
    if st.n == 5:
        out["partners"] = list(st.partners)
    return out


def tricks(st: "FiveHundredState") -> list[dict[str, Any]]:
    """The finished tricks of this deal: leader, cards, winner and the led (or named) suit."""
    tokens = st.game.pack.tokens
    return [
        {"leader": leader, "cards": [[s, tokens[c]] for s, c in cards], "winner": winner, "led_suit": SUITS[led]}
        for leader, cards, winner, led in st.tricks
    ]


def tricks_won(st: "FiveHundredState") -> list[int]:
    """Tricks taken this deal per side."""
    sides = st.game.sides
    out = [0] * st.game.num_sides
    for s, taken in enumerate(st.tricks_won_by_seat):
        out[sides[s]] += taken
    return out


def observation(st: "FiveHundredState", seat: int) -> dict[str, Any]:
    g = st.game
    pack = g.pack
    tokens = pack.tokens
    n = st.n
    c = st.contractor
    mine = seat == c
    stage = st.stage
    if stage == NOMINATE and not mine:
        stage = DISCARD  # the others cannot tell a decline from not holding the joker
    strings = g.strings
    hidden_low, hidden_high, decline = g.discard_base, g.nominate_base, g.nominate_base + 4
    history = []
    for s, a in st.deals[-1]["actions"]:
        if s != seat and (hidden_low <= a < hidden_high or a == decline):
            continue
        history.append([s, strings[a]])
    bid = st.bid
    trump = None
    if bid is not None:
        trump = "NT" if bid.strain == NT else SUITS[bid.strain]
    done = tricks(st)
    to_act = None if st.over else st.turn
    playing = stage == PLAY and not st.over
    high = None
    if st.high:
        high = {"bid": cast(Bid, g.bid_of[st.high]).text, "seat": st.high_seat}  # id >= 1: a bid
    obs: dict[str, Any] = {
        "game": g.name,
        "seat": seat,
        "side": g.sides[seat],
        "sides": list(g.sides),
        "players": n,
        "phase": "over" if st.over else PHASES[stage],
        "hand_index": len(st.deals) - 1,
        "hands_played": len(st.deal_results),
        "dealer": st.dealer,
        "to_act": to_act,
        "hand": pack.cards(st.hands[seat]) if st.seen >> seat & 1 else [],
        "legal_actions": st.legal_actions() if to_act == seat else [],
        "history": history,
        "scores": list(st.total),
        "trump": trump,
        "contract": contract(st),
        "active_seats": [s for s in range(n) if not st.sitting >> s & 1],
        "hand_sizes": [h.bit_count() for h in st.hands],
        "trick": [[s, tokens[card]] for s, card in st.trick],
        "leader": (st.leader if st.trick else st.turn) if playing else None,
        "tricks": done,
        "last_trick": done[-1] if done else None,
        "tricks_won": tricks_won(st),
        "tricks_won_by_seat": list(st.tricks_won_by_seat),
        "last_result": st.deal_results[-1] if st.deal_results else None,
        # Five Hundred's own keys
        "high_bid": high,
        "passed": [s for s in range(n) if st.passed >> s & 1],
        "sitting_out": [s for s in range(n) if st.sitting >> s & 1],
        "kitty": pack.cards(st.kitty) if mine and st.stage == DISCARD else None,
        "discards": pack.cards(st.discards) if mine and st.discards else None,
        "led_suit": SUITS[st.led] if st.trick else None,
        "suits_led": [SUITS[s] for s in range(4) if st.suits_led >> s & 1],
        "exposed": pack.cards(st.hands[c]) if st.exposed else None,
    }
    if g.blind:
        obs["blind"] = [s for s in range(n) if not st.seen >> s & 1]
    if playing:
        obs["trick_number"] = len(st.tricks) + 1
    return obs
