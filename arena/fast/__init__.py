"""The compiled fast path of the card play (issue #35; docs/fastpath.md).

``arena.fast._play`` is a small C extension (``arena/fast/_play.c``) built by ``pip install`` when
a C compiler is there, and left out, with the install going on, when none is. This module is its
thin Python layer: a game's own module (``Game.fast_path()``: ``arena/games/<game>/fast.py`` for the
bundled ones) reads a :class:`~arena.games.base.GameState` in its card play into the extension's
terms (the engine's own card ids and bitmask hands, and one ``Rules`` object per contract and
seating, made by :func:`make_rules` from the engine's own tables); this module offers

* :func:`available` (and :func:`why_unavailable`): whether the extension was built;
* :func:`legal_ids`: the legal action ids of the seat to play, as ``state.legal_action_ids()``;
* :func:`trick_winner` and :func:`trick_points`: of a trick's cards under the state's contract;
* :func:`playout`: the rest of the hand's card play from the state, with uniformly random (or a
  simple greedy policy's, with or without regard for a partner's trick) choices, as the plays made
  (action ids the engine replays) and what the hand's scoring needs: tricks, card points and cards
  taken per seat, revokes and reneges, how it ended; :func:`playouts` runs many of them at C speed;
* :mod:`arena.fast.nodes`: the exact solver's positions (arena.solver), one play a C call.

The pure-Python engines stay the rules of record: tests/test_fastpath.py and ``arena bench --only
fastpath`` compare this path with them on random positions of every game, player count and
option that changes the play (:mod:`arena.fast.check`).
"""

from __future__ import annotations

import importlib
import weakref
from typing import Any, Callable, NamedTuple, Sequence


_play: Any
_WHY: str | None
try:
    _play = importlib.import_module("arena.fast._play")
except ImportError as exc:  # no compiler at install time: the pure-Python engines do everything
    _play = None
    _WHY = (f"the compiled extension arena.fast._play is not built here ({exc}); "
            "`pip install -e .` with a C compiler builds it (docs/fastpath.md)")
else:
    _WHY = None

# playout policies: uniformly random legal plays; the weakest card that wins, else the weakest (a lead:
# the strongest); PARTNER, SIMPLE that does not take a trick from a partner who is taking it; and
# FIVE_HUNDRED, FIFTY_SIX, ALL_FOURS and BID_EUCHRE, the bundled heuristic's card play of each game to
# the card, which reads the cards through a plan of the heuristic's own tables (bots/heuristic/compiled.py)
RANDOM, SIMPLE, PARTNER, FIVE_HUNDRED, FIFTY_SIX, ALL_FOURS, BID_EUCHRE = 0, 1, 2, 3, 4, 5, 6
HEURISTICS = (FIVE_HUNDRED, FIFTY_SIX, ALL_FOURS, BID_EUCHRE)


class FastPathUnavailable(RuntimeError):
    """The compiled extension is not built here (see :func:`why_unavailable`)."""


def available() -> bool:
    """Whether the compiled fast path was built and imports."""
    return _play is not None


def why_unavailable() -> str | None:
    """Why the fast path is missing (one line), or None when it is there."""
    return _WHY


def _module() -> Any:
    if _play is None:
        raise FastPathUnavailable(str(_WHY))
    return _play


class Position(NamedTuple):
    """A play position in the extension's terms."""

    rules: Any  # _play.Rules
    hands: tuple[int, ...]  # per seat, the engine's bitmask (56 and Bid Euchre: a second copy at bit + 32)
    turn: int  # the seat to play
    seats: bytes  # the trick so far: who played ...
    cards: bytes  # ... which card id
    led: int  # the led effective suit (-1 at a lead): Five Hundred's joker names it
    suits_led: int  # Five Hundred: the suits led this hand, a bitmask
    nactive: int  # seats that play to a trick
    card_of: dict[int, int]  # action id -> the card it plays
    # each seat's side in this hand where that is not the match's (Five Hundred for 5: the contractor's
    # partners, named per hand, R-6.1); None: the match's sides (Game.side_of)
    sides: bytes | None = None


class Playout(NamedTuple):
    """The rest of a hand's card play (:func:`playout`)."""

    plays: list[int]  # the action ids, in order, from the position on
    tricks: tuple[int, ...]  # tricks taken per seat in the playout
    points: tuple[int, ...]  # card points taken per seat (56; All Fours' game count)
    captured: tuple[int, ...]  # card ids taken per seat, a bitmask (of kinds in 56 and Bid Euchre)
    events: list[tuple[int, int, int]]  # (seat, trick from the position's = 0, serious) per revoke or renege
    end: int  # 0 every card played; 1 a misere contractor took a trick; 2 a serious revoke (All Fours)


_RULES: dict[tuple, tuple[Any, dict[int, int], Any]] = {}


def make_rules(eff: Sequence[int], power: Sequence[int], points: Sequence[int], ids: Sequence[int], *, trump: int,
               nxt: Sequence[int], nactive: int, mode: int = 0, penalize: bool = False, dup: bool = False,
               no_undertrump: bool = False, joker: int = -1, joker_lead_base: int = -1, joker_last_only: bool = False,
               forced_joker: bool = False, serious_mask: int = 0, stop_seat: int = -1) -> tuple[Any, dict[int, int]]:
    """A Rules object of these tables (shorter than 64: padded, no card there) and the card of each
    play id."""
    pad = [0] * 64
    card_of = {a: c for c, a in enumerate(ids) if a >= 0}
    if joker_lead_base >= 0:
        card_of.update(dict.fromkeys(range(joker_lead_base, joker_lead_base + 4), joker))
    rules = _module().Rules(
        bytes((list(eff) + pad)[:64]), bytes((list(power) + pad)[:64]), bytes((list(points) + pad)[:64]),
        (list(ids) + [-1] * 64)[:64], trump, mode, int(penalize), int(dup), int(no_undertrump), joker,
        joker_lead_base, int(joker_last_only), int(forced_joker), serious_mask, bytes(nxt), nactive, stop_seat)
    return rules, card_of


def cached_rules(key: tuple, build: Callable[[], tuple[Any, dict[int, int]]], keep: Any = None) -> tuple[Any, dict[int, int]]:
    """The Rules (and card of each play id) of ``key``, made by ``build`` the first time. ``keep``:
    an object whose id is in the key, kept alive with the entry so that the id is not reused."""
    found = _RULES.get(key)
    if found is None:
        if len(_RULES) > 4096:
            _RULES.clear()
        rules, card_of = build()
        found = _RULES[key] = (rules, card_of, keep)
    return found[0], found[1]



_PLAY_PHASES: "weakref.WeakKeyDictionary[Any, frozenset[str]]" = weakref.WeakKeyDictionary()
_SIDES: "weakref.WeakKeyDictionary[Any, bytes]" = weakref.WeakKeyDictionary()


def _sides(game: Any, players: int) -> bytes:
    """Each seat's side (``game.side_of``), for the partner policy; read once per game."""
    sides = _SIDES.get(game)
    if sides is None or len(sides) != players:
        sides = _SIDES[game] = bytes(game.side_of(seat) for seat in range(players))
    return sides


def _play_phases(game: Any) -> frozenset[str]:
    """The phases of ``game`` whose kind is the card play (from its page, read once per game)."""
    phases = _PLAY_PHASES.get(game)
    if phases is None:
        phases = _PLAY_PHASES[game] = frozenset(p for p, kind in game.page()["phases"].items() if kind == "play")
    return phases


def supports(state: Any) -> bool:
    """Whether ``state``'s game has a fast path (``Game.fast_path()``: the bundled ones) and it is in
    the card play."""
    game = state.game
    return game.fast_path() is not None and state.current_player() is not None and state.phase in _play_phases(game)


def position(state: Any) -> Position:
    """``state`` (in the card play of a game with a fast path) in the extension's terms."""
    _module()
    if not supports(state):
        raise ValueError(f"arena.fast: not a card-play position of a game with a fast path ({state.game.name}, {state.phase})")
    return state.game.fast_path().position(state)


def legal_ids(state: Any, pos: Position | None = None) -> list[int]:
    """The legal action ids of the seat to play, in the engine's order (as ``state.legal_action_ids()``)."""
    p = pos if pos is not None else position(state)
    return _module().legal(p.rules, p.hands[p.turn], p.led, p.cards, p.suits_led)


def trick_winner(pos: Position, cards: bytes) -> int:
    """The index in ``cards`` (a trick's card ids in play order) of the card that takes it."""
    return _module().winner(pos.rules, cards)


def trick_points(pos: Position, cards: bytes) -> int:
    """What the cards count to the side that takes them (56's card points, All Fours' game count)."""
    return _module().points(pos.rules, cards)


def _extra(state: Any, p: Position, policy: int, plan: bytes | None) -> tuple[bytes, ...]:
    """The policy's arguments after the position's: each seat's side in this hand (PARTNER, the
    heuristics') and the plan."""
    sides = p.sides if p.sides is not None else _sides(state.game, len(p.hands))
    if policy in HEURISTICS:
        if plan is None:
            raise ValueError("arena.fast: a heuristic's policy needs a plan (bots.heuristic.compiled.plan)")
        return sides, plan
    return (sides,) if policy == PARTNER else ()


def playout(state: Any, seed: int, policy: int = RANDOM, pos: Position | None = None,
            plan: bytes | None = None) -> Playout:
    """The rest of the hand's card play from ``state`` (which is left as it is); ``plan``: the
    FIVE_HUNDRED, FIFTY_SIX, ALL_FOURS or BID_EUCHRE policy's tables."""
    p = pos if pos is not None else position(state)
    plays, tricks, points, captured, events, end = _module().playout(
        p.rules, p.hands, p.turn, p.seats, p.cards, p.led, p.suits_led, seed & (2**64 - 1), policy,
        *_extra(state, p, policy, plan))
    return Playout(plays, tricks, points, captured, events, end)


def playouts(state: Any, count: int, seed: int, policy: int = RANDOM, pos: Position | None = None,
             plan: bytes | None = None) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """``count`` playouts from ``state``: (tricks per seat summed, card points per seat summed, plays made)."""
    p = pos if pos is not None else position(state)
    return _module().playouts(p.rules, p.hands, p.turn, p.seats, p.cards, p.led, p.suits_led,
                              seed & (2**64 - 1), policy, count, *_extra(state, p, policy, plan))
