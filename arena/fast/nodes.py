"""Positions of the card play for the exact solver on the fast path (arena.solver, docs/solver.md).

A :class:`Node` is the rest of a hand in the extension's terms: the hands, the trick so far, what
each seat has taken since the root, and the revokes or reneges made. It offers what the solver asks
of a state (``current_player``, ``legal_action_ids``, ``play_ranks``) and :meth:`Node.child`, one
play: a new node, or at the hand's end its value for the solver's side, scored by the game's own
scoring functions from the root state's figures and what the search took (:class:`Setup`). So a
searched position costs one C call and a tuple, not a ``clone`` and an ``apply_id`` of the engine.
The values are the engine's: tests/test_solver.py compares them with a brute force over the engine.
"""

from __future__ import annotations

from typing import Any, Callable

from arena import fast
from arena.games.base import PlayRanks
from arena.games.bitmask import bits

LOW32 = (1 << 32) - 1


class Setup:
    """What every node of one solve shares: the rules, the tables of the pruning ranks, who scores
    with whom, and the leaf's scoring."""

    def __init__(self, pos: fast.Position, eff: list[int], power: list[int], rank_points: list[int],
                 rankable: list[bool], ids: list[int], dup: bool, stop_seat: int,
                 value: Callable[["Node"], float], revokes_end: Callable[["Node"], float | None] | None = None):
        self.rules = pos.rules
        self.eff, self.power, self.rank_points, self.rankable, self.ids = eff, power, rank_points, rankable, ids
        self.low = LOW32 if dup else (1 << 64) - 1
        self.stop_seat = stop_seat
        self.value = value  # the hand's value for the solver's side, at its end
        self.revokes_end = revokes_end  # All Fours: the value when a revoke ended the match in a trick, else None
        self.step = fast._module().step
        self.legal = fast._module().legal


class Node:
    __slots__ = ("setup", "hands", "turn", "seats", "cards", "led", "suits_led", "tricks", "points", "captured",
                 "events", "done")

    def __init__(self, setup: Setup, hands: tuple[int, ...], turn: int, seats: bytes, cards: bytes, led: int,
                 suits_led: int, tricks: tuple[int, ...], points: tuple[int, ...], captured: tuple[int, ...],
                 events: tuple[tuple[int, int, int], ...], done: int):
        self.setup, self.hands, self.turn, self.seats, self.cards = setup, hands, turn, seats, cards
        self.led, self.suits_led = led, suits_led
        self.tricks, self.points, self.captured = tricks, points, captured  # per seat, since the root
        self.events = events  # (trick since the root, seat, serious) per revoke or renege
        self.done = done  # tricks finished since the root

    def current_player(self) -> int:
        return self.turn

    def legal_action_ids(self) -> list[int]:
        return self.setup.legal(self.setup.rules, self.hands[self.turn], self.led, self.cards, self.suits_led)

    def play_ranks(self) -> PlayRanks:
        """As the engines' ``play_ranks``: the mover's plays as (suit, power, points), the other
        seats' cards and the trick's as (suit, power)."""
        s = self.setup
        eff, power, low, turn = s.eff, s.power, s.low, self.turn
        mine = {s.ids[c]: (eff[c], power[c], s.rank_points[c]) for c in bits(self.hands[turn] & low) if s.rankable[c]}
        others = [(eff[c], power[c]) for seat, hand in enumerate(self.hands) if seat != turn
                  for c in bits(hand & low) if eff[c] < 4]
        others += [(eff[c], power[c]) for c in self.cards if eff[c] < 4]
        return mine, others

    def child(self, move: int) -> "Node | float":
        """The node after ``move``, or the hand's value when the move ended the hand."""
        s = self.setup
        hands, turn, seats, cards, led, suits_led, trick, event = s.step(
            s.rules, self.hands, self.turn, self.seats, self.cards, self.led, self.suits_led, move)
        events = self.events if event is None else self.events + ((self.done, event[0], event[1]),)
        if trick is None:
            return Node(s, hands, turn, seats, cards, led, suits_led, self.tricks, self.points, self.captured,
                        events, self.done)
        w, taken_points, taken = trick
        tricks, points, captured = list(self.tricks), list(self.points), list(self.captured)
        tricks[w] += 1
        points[w] += taken_points
        captured[w] |= taken
        node = Node(s, hands, turn, seats, cards, led, suits_led, tuple(tricks), tuple(points), tuple(captured),
                    events, self.done + 1)
        if s.revokes_end is not None and events and events[-1][0] == self.done:
            ended = s.revokes_end(node)  # a revoke in this trick: its penalty may end the match now
            if ended is not None:
                return ended
        if not hands[w] or w == s.stop_seat:
            return s.value(node)
        return node


def root(state: Any, side: int, margin: bool = False) -> Node | None:
    """The node of ``state`` (in the card play of a bundled game) for a solve maximising ``side``'s
    value (``margin``: less the mean of the other sides' values), or None where the fast path
    cannot take it (no extension, another game)."""
    if not fast.available() or not fast.supports(state):
        return None
    pos = fast.position(state)
    make = _SETUPS[state.game.name]
    setup = make(state, pos, side)
    if margin:
        _as_margin(setup, [make(state, pos, s) for s in range(len(state.scores())) if s != side])
    n = len(pos.hands)
    events: tuple[tuple[int, int, int], ...] = ()
    if state.game.name == "all_fours":  # revokes earlier in the trick in progress: penalized at its end
        events = tuple((0, seat, int(serious)) for seat, serious in state.pending)
    return Node(setup, pos.hands, pos.turn, pos.seats, pos.cards, pos.led, pos.suits_led, (0,) * n, (0,) * n,
                (0,) * n, events, 0)


def _as_margin(setup: Setup, others: list[Setup]) -> None:
    """``setup``'s leaves valued as its side's value less the mean of the ``others``' (each a setup
    of another side on the same position)."""
    own, own_end = setup.value, setup.revokes_end

    def less_others(mine: float, node: Node, of: Callable[[Setup], float | None]) -> float:
        values = [of(other) for other in others]
        return mine - (sum(v for v in values if v is not None) / len(values) if values else 0.0)

    setup.value = lambda node: less_others(own(node), node, lambda o: o.value(node))
    if own_end is not None:
        def ended(node: Node) -> float | None:
            mine = own_end(node)
            return None if mine is None else less_others(mine, node, lambda o: o.revokes_end(node))  # type: ignore[misc]
        setup.revokes_end = ended


def _tables(pos: fast.Position, size: int) -> list[int]:
    """The play id of each card id (-1: none)."""
    ids = [-1] * size
    for action, card in pos.card_of.items():
        if ids[card] < 0 or action < ids[card]:
            ids[card] = action  # the play of the card (Five Hundred's joker leads come after it)
    return ids


def _five_hundred(st: Any, pos: fast.Position, side: int) -> Setup:
    from arena.games.five_hundred.scoring import hand_changes
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
                 _tables(pos, len(eff)), False, contractor if bid.misere else -1, value)


def _fifty_six(st: Any, pos: fast.Position, side: int) -> Setup:
    from arena.games.fifty_six.cards import KIND_POINTS
    g = st.game
    eff, power = [k >> 3 for k in range(32)], [k & 7 for k in range(32)]
    start, team_of = st.points[side], g.team_of

    def value(node: Node) -> float:
        return float(start + sum(p for seat, p in enumerate(node.points) if team_of[seat] == side))

    return Setup(pos, eff, power, list(KIND_POINTS), [True] * 32, _tables(pos, 32), True, -1, value)


def _bid_euchre(st: Any, pos: fast.Position, side: int) -> Setup:
    from arena.games.bid_euchre.scoring import hand_changes
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

    return Setup(pos, eff, power, [0] * len(eff), [True] * len(eff), _tables(pos, len(eff)), True, -1,
                 value)


def _all_fours(st: Any, pos: fast.Position, side: int) -> Setup:
    from arena.games.all_fours.cards import JACK, game_count
    from arena.games.all_fours.scoring import hand_items
    g, n, trump = st.g, st.n, st.trump
    eff, power = [c // 13 for c in range(52)], [c % 13 for c in range(52)]
    jack = trump * 13 + JACK
    rank_points = [-1 if c == jack else game_count(1 << c) for c in range(52)]
    scores0, changes0, barred0 = list(st._scores), list(st.changes), list(st.barred)
    captured0, dealt, target, eldest = list(st.captured), list(st.dealt), g.target, (st.dealer + 1) % n

    def outcome(node: Node, final: bool) -> float | None:
        """The engine's order (§9, §11): each finished trick's revokes as it ends (a serious one
        loses the match; another gives the other side a point), then at the hand's end its items;
        the match ends the moment a side reaches the target. None: not over yet."""
        scores, changes, barred = list(scores0), list(changes0), list(barred0)
        for trick, seat, serious in node.events:
            if trick >= node.done:
                break  # the trick in progress: penalized at its end
            offenders = seat % 2
            if serious:
                return float(changes[side])
            barred[offenders] = True
            scores[1 - offenders] += 1
            changes[1 - offenders] += 1
            if scores[1 - offenders] >= target:
                return float(changes[side])
        if not final:
            return None
        captured = list(captured0)
        for seat, taken in enumerate(node.captured):
            captured[seat % 2] |= taken
        for _, who, points, _ in hand_items(dealt, captured, trump, hang_jack_points=g.hang_jack,
                                            game_tie=g.game_tie, eldest=eldest, barred=barred):
            scores[who] += points
            changes[who] += points
            if scores[who] >= target:
                break
        return float(changes[side])

    def value(node: Node) -> float:
        return float(outcome(node, True))  # type: ignore[arg-type]  # final: always a value

    def revokes_end(node: Node) -> float | None:
        return outcome(node, False)

    return Setup(pos, eff, power, rank_points, [True] * 52, _tables(pos, 52), False, -1, value, revokes_end)


_SETUPS: dict[str, Callable[[Any, fast.Position, int], Setup]] = {
    "five_hundred": _five_hundred, "fifty_six": _fifty_six, "bid_euchre": _bid_euchre, "all_fours": _all_fours,
}
