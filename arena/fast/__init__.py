"""The compiled fast path of the card play (issue #35; docs/fastpath.md).

``arena.fast._play`` is a small C extension (``arena/fast/_play.c``) built by ``pip install`` when
a C compiler is there, and left out, with the install going on, when none is. This module is its
thin Python layer: it reads a :class:`~arena.games.base.GameState` in the card play of any bundled
game into the extension's terms (the engine's own card ids and bitmask hands, and one ``Rules``
object per contract and seating, made from the engine's own tables) and offers

* :func:`available` (and :func:`why_unavailable`): whether the extension was built;
* :func:`legal_ids`: the legal action ids of the seat to play, as ``state.legal_action_ids()``;
* :func:`trick_winner` and :func:`trick_points`: of a trick's cards under the state's contract;
* :func:`playout`: the rest of the hand's card play from the state, with uniformly random (or a
  simple greedy policy's) choices, as the plays made (action ids the engine replays) and what the
  hand's scoring needs: tricks, card points and cards taken per seat, revokes and reneges, how it
  ended; :func:`playouts` runs many of them at C speed;
* :mod:`arena.fast.nodes`: the exact solver's positions (arena.solver), one play a C call.

The pure-Python engines stay the rules of record: tests/test_fastpath.py and ``arena bench --only
fastpath`` compare this path with them on random positions of every game, player count and
option that changes the play (:mod:`arena.fast.check`).
"""

from __future__ import annotations

import importlib
import weakref
from typing import Any, Callable, NamedTuple, Sequence

from arena.games.bitmask import bits

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

RANDOM, SIMPLE = 0, 1  # playout policies: uniformly random legal plays; the weakest card that wins, else the weakest


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


class Playout(NamedTuple):
    """The rest of a hand's card play (:func:`playout`)."""

    plays: list[int]  # the action ids, in order, from the position on
    tricks: tuple[int, ...]  # tricks taken per seat in the playout
    points: tuple[int, ...]  # card points taken per seat (56; All Fours' game count)
    captured: tuple[int, ...]  # card ids taken per seat, a bitmask (of kinds in 56 and Bid Euchre)
    events: list[tuple[int, int, int]]  # (seat, trick from the position's = 0, serious) per revoke or renege
    end: int  # 0 every card played; 1 a misere contractor took a trick; 2 a serious revoke (All Fours)


_RULES: dict[tuple, tuple[Any, dict[int, int], Any]] = {}


def _rules(eff: Sequence[int], power: Sequence[int], points: Sequence[int], ids: Sequence[int], *, trump: int,
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


def _cached(key: tuple, build: Callable[[], tuple[Any, dict[int, int]]], keep: Any = None) -> tuple[Any, dict[int, int]]:
    """The Rules (and card of each play id) of ``key``, made by ``build`` the first time. ``keep``:
    an object whose id is in the key, kept alive with the entry so that the id is not reused."""
    found = _RULES.get(key)
    if found is None:
        if len(_RULES) > 4096:
            _RULES.clear()
        rules, card_of = build()
        found = _RULES[key] = (rules, card_of, keep)
    return found[0], found[1]


# -- reading each engine's play state -----------------------------------------------------------------
def _five_hundred(st: Any) -> Position:
    g = st.game
    bid = st.bid
    trump = bid.strain if bid.strain < 4 else (4 if st.suitless else -1)
    stop = st.contractor if bid.misere else -1
    key = ("five_hundred", id(st.eff), g.play_base, g.joker_lead_base, trump, tuple(st.next_active), st.nactive,
           st.suitless, g.joker_last_only, st.forced_joker, stop)

    def build() -> tuple[Any, dict[int, int]]:
        pack, eff, value = g.pack, st.eff, st.value
        power = [value[e][c] if e < 4 else 0 for c, e in enumerate(eff)]  # the suitless joker: alone in its suit
        return _rules(eff, power, (), [g.play_base + c for c in range(pack.size)], trump=trump, nxt=st.next_active,
                      nactive=st.nactive, joker=pack.joker, joker_lead_base=g.joker_lead_base if st.suitless else -1,
                      joker_last_only=g.joker_last_only, forced_joker=st.forced_joker, stop_seat=stop)

    rules, card_of = _cached(key, build, st.eff)  # the context's tables live as long as the pack
    trick = st.trick
    return Position(rules, tuple(st.hands), st.turn, bytes(s for s, _ in trick), bytes(c for _, c in trick),
                    st.led if trick else -1, st.suits_led, st.nactive, card_of)


def _fifty_six(st: Any) -> Position:
    g = st.game
    key = ("fifty_six", id(g.table), st.trump, tuple(st.nxt), st.n)

    def build() -> tuple[Any, dict[int, int]]:
        from arena.games.fifty_six.cards import KIND_POINTS
        return _rules([k >> 3 for k in range(32)], [k & 7 for k in range(32)], KIND_POINTS, g.table.play_id,
                      trump=st.trump, nxt=st.nxt, nactive=st.n, dup=True)

    rules, card_of = _cached(key, build, g.table)
    trick = st.trick
    return Position(rules, tuple(st.hands), st.to_act, bytes(s for s, _ in trick), bytes(k for _, k in trick),
                    trick[0][1] >> 3 if trick else -1, 0, st.n, card_of)


def _all_fours(st: Any) -> Position:
    g, n, trump = st.g, st.n, st.trump
    key = ("all_fours", n, trump, g.penalize, g.no_undertrump)

    def build() -> tuple[Any, dict[int, int]]:
        from arena.games.all_fours.actions import PLAY
        from arena.games.all_fours.cards import COUNT_OF_RANK, TOP_FIVE
        return _rules([c // 13 for c in range(52)], [c % 13 for c in range(52)],
                      [COUNT_OF_RANK[c % 13] for c in range(52)], [PLAY + c for c in range(52)], trump=trump,
                      nxt=[(s + 1) % n for s in range(n)], nactive=n, mode=1, penalize=g.penalize,
                      no_undertrump=g.no_undertrump, serious_mask=TOP_FIVE[trump])

    rules, card_of = _cached(key, build)
    return Position(rules, tuple(st.hands), st._to_act, bytes(st.trick_seats), bytes(st.trick),
                    st.trick[0] // 13 if st.trick else -1, 0, n, card_of)


def _bid_euchre(st: Any) -> Position:
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
        return _rules(table.eff, [max(p, 0) for p in table.power], (), [a.play_base + t for t in range(a.tokens)],
                      trump=table.trump, nxt=nxt, nactive=nactive, penalize=g.penalize, dup=True)

    rules, card_of = _cached(key, build)
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


_READERS = {"five_hundred": _five_hundred, "fifty_six": _fifty_six, "all_fours": _all_fours, "bid_euchre": _bid_euchre}


_PLAY_PHASES: "weakref.WeakKeyDictionary[Any, frozenset[str]]" = weakref.WeakKeyDictionary()


def _play_phases(game: Any) -> frozenset[str]:
    """The phases of ``game`` whose kind is the card play (from its page, read once per game)."""
    phases = _PLAY_PHASES.get(game)
    if phases is None:
        phases = _PLAY_PHASES[game] = frozenset(p for p, kind in game.page()["phases"].items() if kind == "play")
    return phases


def supports(state: Any) -> bool:
    """Whether the fast path knows ``state``'s game (a bundled one) and it is in the card play."""
    game = state.game
    return game.name in _READERS and state.current_player() is not None and state.phase in _play_phases(game)


def position(state: Any) -> Position:
    """``state`` (in the card play of a bundled game) in the extension's terms."""
    _module()
    reader = _READERS.get(state.game.name)
    if reader is None or not supports(state):
        raise ValueError(f"arena.fast: not a card-play position of a bundled game ({state.game.name}, {state.phase})")
    return reader(state)


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


def playout(state: Any, seed: int, policy: int = RANDOM, pos: Position | None = None) -> Playout:
    """The rest of the hand's card play from ``state`` (which is left as it is)."""
    p = pos if pos is not None else position(state)
    plays, tricks, points, captured, events, end = _module().playout(
        p.rules, p.hands, p.turn, p.seats, p.cards, p.led, p.suits_led, seed & (2**64 - 1), policy)
    return Playout(plays, tricks, points, captured, events, end)


def playouts(state: Any, count: int, seed: int, policy: int = RANDOM,
             pos: Position | None = None) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """``count`` playouts from ``state``: (tricks per seat summed, card points per seat summed, plays made)."""
    p = pos if pos is not None else position(state)
    return _module().playouts(p.rules, p.hands, p.turn, p.seats, p.cards, p.led, p.suits_led,
                              seed & (2**64 - 1), policy, count)
