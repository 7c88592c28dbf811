"""The heuristic's Five Hundred card play on the compiled fast path, for searches that roll hands out
on full states (bots/search): :func:`plan` reads a state into the tables of the fast path's
``FIVE_HUNDRED`` policy (arena/fast/_heuristic.h), which then makes :class:`Strategy`'s card play to
the card, its ties included, without building an observation or calling Python for each card.

The tables come from the heuristic's own :class:`Context`, so a change to how it ranks cards reaches
the compiled play; a change to the play's logic (Strategy.play) must be made in both, and
:func:`differences` (tests/test_fastpath.py, ``arena bench --only fastpath``) finds where they part.
"""

from __future__ import annotations

import functools
import random
import struct
from typing import Any

from arena import fast
from arena.fast import check
from arena.games.base import GameState
from arena.players.base import MatchInfo
from bots.heuristic.five_hundred import SUITS, Context, Strategy, full_pack

NOSUIT = 4  # the suitless joker's suit in the tables, and "no trumps" as the trump
MISMATCHES_KEPT = 20
PLAYOUT_EVERY = 8  # one compared position in this many compares the whole rest of the hand's play


def supports(state: GameState) -> bool:
    """Whether ``state`` is in a Five Hundred card play that the compiled heuristic plays."""
    return state.game.name == "five_hundred" and fast.available() and fast.supports(state)


@functools.lru_cache(maxsize=256)
def _tables(tokens: tuple[str, ...], players: int, trump: str | None, joker_suit: str | None) -> bytes:
    """eff, strength, aces and pack of one pack and contract: the plan's part that a hand keeps."""
    ctx = Context(trump, joker_suit)
    pack = set(full_pack(players))
    eff = [NOSUIT if ctx.eff(t) is None else SUITS.index(ctx.eff(t)) for t in tokens]  # type: ignore[arg-type]
    strength = [min(ctx.strength(t), 255) for t in tokens]  # the suitless joker's 1000: stronger than all
    aces = sum(1 << c for c, t in enumerate(tokens) if t != "JK" and t[:-1] == "A")
    mask = sum(1 << c for c, t in enumerate(tokens) if t in pack)
    pad = [0] * (64 - len(tokens))
    return bytes(eff + pad) + bytes(strength + pad) + struct.pack("<QQ", aces, mask)


def plan(state: Any) -> bytes:
    """The FIVE_HUNDRED policy's plan for a Five Hundred state in its card play."""
    g, bid = state.game, state.bid
    trump = None if bid.strain >= 4 else SUITS[bid.strain]
    joker_suit = SUITS[state.nominated] if state.nominated >= 0 else None
    played = 0
    for _, cards, _, _ in state.tricks:
        for _, c in cards:
            played |= 1 << c
    for _, c in state.trick:
        played |= 1 << c
    members = sum(1 << s for s in state.members)
    return (_tables(tuple(g.pack.tokens), state.n, trump, joker_suit) + struct.pack("<Q", played)
            + bytes((NOSUIT if trump is None else SUITS.index(trump), int(bid.misere), state.contractor, members)))


def choose(state: Any) -> int:
    """The heuristic's card (an action id) for the seat to play in ``state``, from the compiled play."""
    out = fast.playout(state, 0, fast.FIVE_HUNDRED, plan=plan(state))
    return out.plays[0]


def python_choice(state: Any, player: Strategy) -> int:
    """The Python heuristic's card for the seat to play, from its observation."""
    seat = state.current_player()
    legal = state.legal_action_ids()
    if len(legal) == 1:
        return legal[0]
    obs = state.observation(seat)
    return state.game.action_id(player.act(obs))


def python_playout(state: Any, player: Strategy) -> list[int]:
    """The rest of the hand's card play by the Python heuristic in every seat, as action ids."""
    state, plays, hands = state.clone(), [], len(state.deal_results)
    while supports(state) and len(state.deal_results) == hands:
        plays.append(python_choice(state, player))
        state.apply_id(plays[-1])
    return plays


def _name(game: Any, plays: list[int], at: int) -> str:
    return game.action_string(plays[at]) if at < len(plays) else "nothing (the hand is over)"


def differences(positions: int, seed: int | str = 0) -> tuple[int, list[str]]:
    """Compares the compiled card play with :class:`Strategy`'s on ``positions`` card-play positions,
    shared by every Five Hundred configuration of the fast path's check (arena.fast.check: each
    player count and option that changes the play; random auctions that reach misere too, random
    plays): (positions compared, a line for each that differs)."""
    configs = [options for name, options in check.CONFIGS if name == "five_hundred"]
    rng = random.Random(f"compiled/{seed}")
    compared, found = 0, list[str]()
    for index, options in enumerate(configs):
        game = check.make_game("five_hundred", options)
        player = Strategy(0)
        player.start_match(MatchInfo(game.name, dict(game.options), 0, ()))
        share = positions // len(configs) + (1 if index < positions % len(configs) else 0)
        done, match = 0, 0
        while done < share:
            state = game.new_match(seed=f"compiled/{seed}/{index}/{match}")
            match += 1
            while state.current_player() is not None and done < share:
                legal = state.legal_action_ids()
                if supports(state) and len(legal) > 1:
                    done += 1
                    whole = done % PLAYOUT_EVERY == 0
                    want, got = (python_playout(state, player), fast.playout(state, 0, fast.FIVE_HUNDRED, plan=plan(state)).plays) \
                        if whole else ([python_choice(state, player)], [choose(state)])
                    if want != got and len(found) < MISMATCHES_KEPT:
                        at = next(i for i, (a, b) in enumerate(zip(want + [-1], got + [-1])) if a != b)
                        found.append(f"five_hundred {options} match {match - 1}: at play {at} of "
                                     f"{'the rest of the hand' if whole else 'one'} the heuristic plays "
                                     f"{_name(game, want, at)}, the compiled play {_name(game, got, at)} "
                                     f"(seat {state.current_player()}, contract {state.bid.text})")
                state.apply_id(check._steer(game, state, legal, rng))
        compared += done
    return compared, found
