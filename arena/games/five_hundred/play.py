"""The play of the cards (docs/games/five_hundred.md §7): legal plays with bit operations, trick
winners from value tables.

The state holds the context tables of the contract (``smask``: cards per effective suit,
``value[L]``: trick strength under led suit L), so following suit is one AND and the running trick
winner is one comparison per card. The play ids are the pack indices moved up by ``play_base``,
so a mask shifted by it iterates straight into legal ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.bitmask import bits

if TYPE_CHECKING:
    from arena.games.five_hundred.state import FiveHundredState


def legal(st: "FiveHundredState") -> list[int]:
    """R-7.3.8 (and R-7.2 for suit contracts, where the joker is simply a trump)."""
    hand = st.hands[st.turn]
    g = st.game
    if st.trick:  # following: the led suit if held (one AND), else anything but a forced joker
        follow = hand & st.smask[st.led]
        if follow:
            return bits(follow << g.play_base)
        if st.forced_joker and hand & st.jk_bit:  # void in misère, the suitless joker must go
            return [g.play_base + g.pack.joker]
        return bits(hand << g.play_base)
    jk = st.jk_bit
    if st.suitless and hand & jk:  # leading with the suitless joker in hand
        out = bits((hand ^ jk) << g.play_base)
        lead = g.joker_lead_base
        if hand == jk:  # the last trick: any suit may be named
            out.extend(range(lead, lead + 4))
        elif not g.joker_last_only:
            done = st.suits_led
            out.extend(lead + s for s in range(4) if not done >> s & 1)
        return out
    return bits(hand << g.play_base)


def apply(st: "FiveHundredState", a: int) -> None:
    g = st.game
    seat = st.turn
    trick = st.trick
    if trick:
        card = a - g.play_base
        st.hands[seat] &= ~(1 << card)
        v = st.value[st.led][card]
        if v > st.best:
            st.best = v
            st.taker = seat
    else:
        if a >= g.joker_lead_base:  # the suitless joker led, naming a suit
            card = g.pack.joker
            led = a - g.joker_lead_base
        else:
            card = a - g.play_base
            led = st.eff[card]
        st.hands[seat] &= ~(1 << card)
        st.led = led
        st.suits_led |= 1 << led
        st.leader = seat
        st.best = st.value[led][card]
        st.taker = seat
    trick.append((seat, card))
    if len(trick) < st.nactive:
        st.turn = st.next_active[seat]
    else:
        st.finish_trick()
