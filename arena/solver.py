"""An exact solver for the rest of a hand with every card known (issue #35; docs/solver.md).

``solve(state)`` gives each legal card of the player to move its exact value: the hand's score for
the mover's side (``Game.hand_value``: the score change in Five Hundred, Bid Euchre and All Fours,
the card points won in 56) when everyone plays the rest of the hand perfectly, the seats scoring
with the mover (``GameState.allies``) maximising it and every other seat minimising it (with three
or more sides the others are treated as one coalition against the mover's side).

It is alpha-beta over the engine itself (``clone`` and ``apply_id``), so it knows every game's rules
and scoring without a copy of them, with a transposition table whose key is the set of finished
tricks (each as its (seat, action id) plays in order), the trick in progress and the seat to move.
That key is generic and exact for the bundled games: the remaining hands are the root's less the
cards in it, and every score these games count depends on which tricks were played and who played
what in them, never on their order (a change of that would fail the brute-force tests,
tests/test_solver.py). The order of the tricks does matter for who leads, hence the seat to move.
Moves are tried best-known first (the table's, then the depth's killer), and of cards that play
alike (``GameState.play_ranks``, :func:`equivalent_groups`) only one is searched.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Mapping

from arena.errors import ArenaError
from arena.fast import nodes
from arena.fast.nodes import Node
from arena.games.base import GameState, PlayRanks

Key = tuple[frozenset[tuple[tuple[int, int], ...]], tuple[tuple[int, int], ...], int]
CHECK_CLOCK_EVERY = 512  # nodes between looks at the clock (a look costs more than a node's bookkeeping)


class SolverError(ArenaError, ValueError):
    """The state cannot be solved: not a full state, not in the card play, or the match is over."""


class SolveTimeout(ArenaError, TimeoutError):
    """A ``seconds`` limit passed before the solve finished."""


def solve(state: GameState, *, seconds: float | None = None) -> dict[str, float]:
    """The exact value of each legal action of the player to move (action string -> value)."""
    values = solve_ids(state, seconds=seconds)
    names = state.game.action_string
    return {names(action): value for action, value in values.items()}


def solve_ids(state: GameState, *, seconds: float | None = None, margin: bool = False) -> dict[int, float]:
    """:func:`solve` keyed by action id (the fast path). ``margin``: what the mover's side maximises
    is its hand value less the mean of the other sides' (:func:`margin_value`)."""
    return Solver(state, seconds, margin=margin).root_values()


def margin_value(game: Any) -> Callable[[Mapping[str, Any], int], float]:
    """A side's hand value (``Game.hand_value`` of a ``deal_results`` row) less the mean of the other
    sides': the score margin the search bot plays for, in the solver's units (56: card points)."""
    def value(result: Mapping[str, Any], side: int) -> float:
        others = [game.hand_value(result, s) for s in range(len(result["changes"])) if s != side]
        return game.hand_value(result, side) - (sum(others) / len(others) if others else 0.0)
    return value


def check_solvable(state: Any) -> int:
    """The seat to move of a state the solver can take, or a one-line :class:`SolverError` why not."""
    if not isinstance(state, GameState):
        raise SolverError(
            f"solve: got a {type(state).__name__}, not a GameState: the solver needs every hand, so give it a"
            " full state (a bot samples one: state.resample(seat, rng), docs/solver.md)")
    seat = state.current_player()
    if seat is None:
        raise SolverError(f"solve: the {state.game.name} match is over: there is no hand left to solve")
    kind = state.game.page()["phases"].get(state.phase)
    if kind != "play":
        raise SolverError(f"solve: the {state.game.name} state is in phase {state.phase!r} (kind {kind!r}),"
                          " not in the card play: the solver starts from a play decision")
    return seat


class Solver:
    """One solve: the root, its transposition table and its counters (nodes searched, table size)."""

    def __init__(self, state: GameState, seconds: float | None = None, *, margin: bool = False,
                 use_fast: bool = True, compiled: bool = True):
        mover = check_solvable(state)
        self.root = state
        self.game = state.game
        # what is maximised, from the hand's ``deal_results`` row and the side: the game's own
        # hand_value, or with ``margin`` that less the other sides' (the search bot's endgame)
        self.value = margin_value(self.game) if margin else self.game.hand_value
        self.side = self.game.side_of(mover)
        self.allies = state.allies(mover)
        self.hand = len(state.deal_results)  # the row the hand's result will be written to
        view = state.observation(mover)  # once: the trick in progress and who plays to each trick
        self.trick_size = len(view["active_seats"])
        self.in_trick = len(view["trick"])  # the root trick's earlier plays: not in the keys, common to all
        self.table: dict[Key, tuple[float, float, int]] = {}  # key -> (lower bound, upper bound, best move)
        self.killers: dict[int, int] = {}  # cards played since the root -> the move that last cut off there
        self.nodes = 0
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        # the compiled fast path where it is built (arena.fast): the search keeps its own positions
        # (arena.fast.nodes.Node) instead of cloning the engine; the same values, several times faster.
        self.start: Any = nodes.root(state, self.side, margin=margin) if use_fast else None
        self.fast = self.start is not None
        if self.start is None:
            self.start = state
        # on the fast path, the whole search in C where the game's hand value allows (nodes.search_compiled)
        self.compiled = compiled and self.fast

    def root_values(self) -> dict[int, float]:
        """Every legal move valued with a full window (exact values, not only the best one); a move
        equivalent to another (:func:`equivalent_groups`) gets the value of the first of its group."""
        state = self.start
        if self.compiled:
            seconds = None if self.deadline is None else self.deadline - time.perf_counter()
            if seconds is not None and seconds <= 0:
                raise SolveTimeout("solve: no result within the limit (0 positions searched)")
            found = nodes.search_compiled(state, self.allies, seconds, self.in_trick)
            if found is not None:
                solved, self.nodes = found
                if solved is None:
                    raise SolveTimeout(f"solve: no result within the limit ({self.nodes} positions searched)")
                return solved
            self.compiled = False  # this game's value or rules: the search below, in Python
        seat = state.current_player()
        assert seat is not None  # checked in __init__
        moves = state.legal_action_ids()
        values: dict[int, float] = {}
        for group in equivalent_groups(moves, state.play_ranks()):
            value = self._child(state, seat, group[0], frozenset(), (), self.in_trick, -math.inf, math.inf)
            values.update(dict.fromkeys(group, value))
        return {move: values[move] for move in moves}

    def representatives(self, state: Any, moves: list[int]) -> list[int]:
        """One move of each group of equivalent moves: the others would give the same value."""
        if len(moves) < 2:
            return moves
        return [group[0] for group in equivalent_groups(moves, state.play_ranks())]

    def key(self, done: frozenset, trick: tuple, seat: int) -> Key:
        return (done, trick, seat)

    def maximises(self, seat: int) -> bool:
        return seat in self.allies

    def _value(self, state: Any, done: frozenset, trick: tuple, count: int,
               alpha: float, beta: float) -> float:
        """Alpha-beta (fail-soft, min/max by side) with bounds kept in the table."""
        seat = state.current_player()
        if seat is None:  # cannot happen while the hand lasts: the caller checks for its end first
            raise SolverError("solve: the match ended before the hand's result was written")
        self.nodes += 1
        if self.deadline is not None and self.nodes % CHECK_CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise SolveTimeout(f"solve: no result within the limit ({self.nodes} positions searched)")
        key = self.key(done, trick, seat)
        lower, upper, best_move = self.table.get(key, (-math.inf, math.inf, -1))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
        moves = self.representatives(state, state.legal_action_ids())
        depth = len(done) * self.trick_size + count
        killer = self.killers.get(depth, -1)
        # first the move that was best here before, then the one that last cut off at this depth
        # ("killer": the same card often refutes its siblings' lines): the cut comes soonest
        first = [m for m in (best_move, killer) if m in moves]
        if first:
            moves = [*dict.fromkeys(first), *(m for m in moves if m not in first)]
        maximise = self.maximises(seat)
        best, chosen = (-math.inf if maximise else math.inf), moves[0]
        low, high = alpha, beta
        for move in moves:
            value = self._child(state, seat, move, done, trick, count, low, high)
            if maximise:
                if value > best:
                    best, chosen = value, move
                    low = max(low, value)
            elif value < best:
                best, chosen = value, move
                high = min(high, value)
            if low >= high:
                self.killers[depth] = move
                break
        if best <= alpha:  # failed low: the value is at most best
            upper = best
        elif best >= beta:  # failed high: at least best
            lower = best
        else:
            lower = upper = best
        self.table[key] = (lower, upper, chosen)
        return best

    def _child(self, state: Any, seat: int, move: int, done: frozenset, trick: tuple, count: int,
               alpha: float, beta: float) -> float:
        if self.fast:
            child = state.child(move)  # an arena.fast.nodes.Node, or the hand's value at its end
            if not isinstance(child, Node):
                return child
        else:
            child = state.clone()
            child.apply_id(move)
            if len(child.deal_results) > self.hand:  # the hand is over (or the match, in the middle of it)
                return self.value(child.deal_results[self.hand], self.side)
        trick = (*trick, (seat, move))
        count += 1
        if count == self.trick_size:  # the trick is finished: it joins the set, the winner leads
            done, trick, count = done | {trick}, (), 0
        return self._value(child, done, trick, count, alpha, beta)



def equivalent_groups(moves: list[int], ranks: PlayRanks | None) -> list[list[int]]:
    """``moves`` in groups that play alike (``GameState.play_ranks``): runs of one suit and equal
    points with no other card still in play of a power between or equal to theirs. A move the
    ranks leave out is a group of its own. Groups keep the moves' order (the first move first)."""
    if ranks is None:
        return [[move] for move in moves]
    mine, others = ranks
    if len(mine) < 2:
        return [[move] for move in moves]
    ranked = sorted((mine[m][0], mine[m][1], m) for m in moves if m in mine)
    group_of: dict[int, list[int]] = {}
    previous: tuple[int, int, int] | None = None
    for suit, power, move in ranked:
        if previous is not None and previous[0] == suit and mine[previous[2]][2] == mine[move][2] and not any(
                s == suit and previous[1] <= p <= power for s, p in others):
            group = group_of[previous[2]]
            group.append(move)
        else:
            group = [move]
        group_of[move] = group
        previous = (suit, power, move)
    groups: list[list[int]] = []
    seen: set[int] = set()
    for move in moves:  # in the moves' order, each group once
        group = group_of.get(move, [move])
        if id(group) not in seen:
            seen.add(id(group))
            groups.append(sorted(group, key=moves.index))
    return groups
