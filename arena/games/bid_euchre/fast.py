"""Bid Euchre on the compiled fast path (arena.fast, docs/fastpath.md): the engine's play state in
the extension's terms (:func:`position`), the exact solver's leaves scored by this game's own
scoring (:func:`setup`), both reached through ``Game.fast_path()``; and a whole hand in C, from the
deal to its score (:func:`new_hand`), with the engine's action ids.
"""

from __future__ import annotations

import weakref
from typing import Any, Sequence

from arena.fast import Position, _module, cached_rules, make_rules
from arena.fast.nodes import Node, Setup, play_ids
from arena.games.bid_euchre.scoring import hand_changes
from arena.games.bid_euchre.cards import INDEX
from arena.games.bid_euchre.dealing import card_token
from arena.games.bitmask import bits

_HAND_RULES: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


def hand_rules(game: Any) -> Any:
    """The extension's ``HandRules`` of a configured Bid Euchre game (its options and action ids),
    made once per game."""
    rules = _HAND_RULES.get(game)
    if rules is None:
        a = game.actions
        rules = _HAND_RULES[game] = _module().HandRules(
            game.tricks, game.joker, game.stick, game.ace_no_face, game.continuous, game.penalize, game.exchange,
            a.strains, a.levels, a.bid_base, a.help_level, a.moon_level, a.trump_base, a.give_base,
            a.discard_base, a.claim, a.decline, a.play_base)
    return rules


def new_hand(game: Any, dealer: int, deck: Sequence[str] | int) -> Any:
    """One hand of ``game`` in C (``arena.fast._play.BidEuchreHand``), dealt by ``dealer`` from
    ``deck`` (the engine's deck order, card strings: the engine's hand) or from an int seed (the
    extension's own shuffle: fast, but not the engine's deck for any seed). It has the engine's
    ``legal_action_ids()``, ``apply_id()``, ``current_player()`` and ``is_over()``, then ``result()``:
    the score changes per side, how the hand ended, tricks per seat, reneges and the contract.
    Raises ``arena.fast.FastPathUnavailable`` where the extension is not built."""
    source = deck if isinstance(deck, int) else [INDEX[card_token(card)] for card in deck]
    return _module().BidEuchreHand(hand_rules(game), dealer, source)


def position(st: Any) -> Position:
    g = st.game
    table = st.table
    a = g.actions
    out = st.sitting_out
    nactive = 4 if out is None else 3
    key = ("bid_euchre", table.trump, out, g.penalize, a.play_base, a.tokens)

    def build() -> tuple[Any, dict[int, int]]:
        nxt = []
        for s in range(4):
            t = (s + 1) & 3
            nxt.append((t + 1) & 3 if t == out else t)
        return make_rules(table.eff, [max(p, 0) for p in table.power], (), [a.play_base + t for t in range(a.tokens)],
                      trump=table.trump, nxt=nxt, nactive=nactive, penalize=g.penalize, dup=True)

    rules, card_of = cached_rules(key, build)
    if g.tricks > 6:  # the double deck: a count per card, the second copy at bit + 32
        hands = []
        for counts, mask in zip(st.counts, st.masks):
            second = 0
            for t in bits(mask):
                if counts[t] > 1:
                    second |= 1 << t
            hands.append(mask | second << 32)
        held = tuple(hands)
    else:
        held = tuple(st.masks)
    trick = st.trick
    return Position(rules, held, st.to_act, bytes(s for s, _ in trick), bytes(t for _, t in trick),
                    table.eff[trick[0][1]] if trick else -1, 0, nactive, card_of)


def setup(st: Any, pos: Position, side: int) -> Setup:
    g = st.game
    a = g.actions
    table = st.table
    eff, power = list(table.eff), list(table.power)
    root_tricks, reneges = list(st.tricks_won_by_seat), list(st.reneges)
    level, bidding = st.level, st.contractor & 1

    def value(node: Node) -> float:
        by_seat = [x + y for x, y in zip(root_tricks, node.tricks)]
        count = list(reneges)
        for _, seat, _ in node.events:
            count[seat & 1] += 1
        changes, _ = hand_changes(level, g.tricks, a.help_level, a.moon_level, bidding,
                                  [by_seat[0] + by_seat[2], by_seat[1] + by_seat[3]], count)
        return float(changes[side])

    # without reneges (penalize off) the value reads the tricks alone: the search can run in C
    return Setup(pos, eff, power, [0] * len(eff), [True] * len(eff), play_ids(pos, len(eff)), True, -1,
                 value, reads=None if g.penalize else "tricks",
                 by_side=True)  # hand_changes: non-decreasing in the side's tricks, two sides
