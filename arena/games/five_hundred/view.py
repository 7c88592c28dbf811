"""What one seat may see (§10), as JSON-ready data.

Hidden from everyone but the contractor: the kitty and the discards (R-10.2), and a declined joker
nomination (R-6.3.2: to the others the nominate step looks like the rest of the exchange). Under
blind misère a seat that has not looked sees no hand. The open misère hand is public after trick 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.games.five_hundred.bids import NT
from arena.games.five_hundred.cards import SUITS
from arena.games.five_hundred.state import DISCARD, NOMINATE, PHASES, PLAY

if TYPE_CHECKING:
    from arena.games.five_hundred.state import FiveHundredState


def _trick(pack_tokens: list[str], cards) -> list[list]:
    return [[s, pack_tokens[c]] for s, c in cards]


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
    contract = None
    trump = None
    if bid is not None:
        trump = "NT" if bid.strain == NT else SUITS[bid.strain]
        contract = {
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
        if n == 5:
            contract["partners"] = list(st.partners)
    side_tricks = [0] * g.num_sides
    for s, taken in enumerate(st.seat_tricks):
        side_tricks[g.sides[s]] += taken
    completed = [
        {"leader": leader, "cards": _trick(tokens, cards), "winner": winner, "led_suit": SUITS[led]}
        for leader, cards, winner, led in st.completed
    ]
    to_act = None if st.over else st.turn
    high = None
    if st.high:
        high = {"bid": g.bid_of[st.high].text, "seat": st.high_seat}
    obs: dict[str, Any] = {
        "game": g.name,
        "seat": seat,
        "side": g.sides[seat],
        "sides": list(g.sides),
        "players": n,
        "phase": "over" if st.over else PHASES[stage],
        "hand_index": len(st.deals) - 1,
        "dealer": st.dealer,
        "hand": pack.cards(st.hands[seat]) if st.seen >> seat & 1 else [],
        "hand_sizes": [h.bit_count() for h in st.hands],
        "legal_actions": st.legal_actions() if to_act == seat else [],
        "to_act": to_act,
        "history": history,
        "scores": list(st.total),
        "high_bid": high,
        "passed": [s for s in range(n) if st.passed >> s & 1],
        "contract": contract,
        "trump": trump,
        "sitting_out": [s for s in range(n) if st.sitting >> s & 1],
        "kitty": pack.cards(st.kitty) if mine and st.stage == DISCARD else None,
        "discards": pack.cards(st.discards) if mine and st.discards else None,
        "trick": _trick(tokens, st.trick),
        "led_suit": SUITS[st.led] if st.trick else None,
        "suits_led": [SUITS[s] for s in range(4) if st.suits_led >> s & 1],
        "completed_tricks": completed,
        "last_trick": completed[-1] if completed else None,
        "tricks_won": side_tricks,
        "seat_tricks": list(st.seat_tricks),
        "exposed": pack.cards(st.hands[c]) if st.exposed else None,
        "last_result": st.deal_results[-1] if st.deal_results else None,
    }
    if g.blind:
        obs["blind"] = [s for s in range(n) if not st.seen >> s & 1]
    if stage == PLAY and not st.over:
        obs["trick_number"] = len(st.completed) + 1
    return obs
