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
                 value: Callable[["Node"], float], revokes_end: Callable[["Node"], float | None] | None = None,
                 events: tuple[tuple[int, int, int], ...] = (), reads: str | None = None, by_side: bool = False):
        self.rules = pos.rules
        self.eff, self.power, self.rank_points, self.rankable, self.ids = eff, power, rank_points, rankable, ids
        self.low = LOW32 if dup else (1 << 64) - 1
        self.stop_seat = stop_seat
        self.value = value  # the hand's value for the solver's side, at its end
        self.revokes_end = revokes_end  # All Fours: the value when a revoke ended the match in a trick, else None
        self.events = events  # revokes already made in the trick in progress (All Fours: penalized at its end)
        # what ``value`` reads of a leaf node, where that is one figure per seat: "tricks" or "points"
        # (then the search can run in C, search_compiled), else None
        self.reads = reads
        # True where ``value`` is a non-decreasing function of the total figure the solver's side takes,
        # however the others share the rest (no misère stop): the C search then searches the figure to
        # come, with quick bounds and a table that holds positions however they were reached
        self.by_side = by_side
        self.step = fast._module().step
        self.legal = fast._module().legal
        self.n = len(pos.hands)


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
    make = state.game.fast_path().setup
    setup = make(state, pos, side)
    if margin:
        _as_margin(setup, [make(state, pos, s) for s in range(len(state.scores())) if s != side])
    n = len(pos.hands)
    return Node(setup, pos.hands, pos.turn, pos.seats, pos.cards, pos.led, pos.suits_led, (0,) * n, (0,) * n,
                (0,) * n, setup.events, 0)


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


def play_ids(pos: fast.Position, size: int) -> list[int]:
    """The play id of each card id (-1: none)."""
    ids = [-1] * size
    for action, card in pos.card_of.items():
        if ids[card] < 0 or action < ids[card]:
            ids[card] = action  # the play of the card (Five Hundred's joker leads come after it)
    return ids


def search_compiled(node: Node, allies: frozenset[int], seconds: float | None, depth: int,
                    table_entries: int | None = None) -> tuple[dict[int, float] | None, int] | None:
    """The solve of ``node`` by the extension's own search (``_solve.h``: the same alpha-beta, table,
    ordering and pruning as arena.solver's, in C): ({move id: value} or None when ``seconds``
    passed first, positions searched); ``table_entries``: the cap of its position table (default
    2^19, 64 MiB; full, it replaces). None where it cannot take the node: a leaf value that reads
    more than one figure per seat (a game's setup says what it reads only where its rules report no
    revoke or renege), rank tables out of its range."""
    s = node.setup
    if s.reads is None or s.revokes_end is not None or s.events or node.events:
        return None
    eff = [e if 0 <= e < 255 else 255 for e in s.eff]
    shift = -min(s.power, default=0)
    power = [p + shift for p in s.power]
    if max(power, default=0) > 255 or min(s.rank_points, default=0) < 0 or max(s.rank_points, default=0) > 255:
        return None
    n, reads_points = s.n, s.reads == "points"
    zeros = (0,) * n

    def leaf(figures: tuple[int, ...]) -> float:
        tricks, points = (zeros, figures) if reads_points else (figures, zeros)
        return s.value(Node(s, node.hands, 0, b"", b"", -1, 0, tricks, points, zeros, (), 0))

    def table(values: list[int]) -> bytes:
        return bytes(values) + bytes(64 - len(values))

    return fast._module().solve(
        s.rules, node.hands, node.turn, node.seats, node.cards, node.led, node.suits_led, reads_points,
        s.stop_seat, bytes(seat in allies for seat in range(n)), table(eff), table(power),
        table(list(s.rank_points)), table([bool(r) for r in s.rankable]), s.low, leaf,
        -1.0 if seconds is None else max(seconds, 1e-9), depth,
        fast._module().SOLVE_MAX_ENTRIES if table_entries is None else table_entries, s.by_side and s.stop_seat < 0)
