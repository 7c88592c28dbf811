"""The heuristic's card play of Five Hundred, 56 and All Fours on the compiled fast path, for
searches that roll hands out on full states (bots/search): :func:`plan` reads a state into the
tables of the fast path's ``FIVE_HUNDRED``, ``FIFTY_SIX`` or ``ALL_FOURS`` policy
(arena/fast/_heuristic.h), which then makes the game's :class:`Strategy`'s card play to the card,
its ties included, without building an observation or calling Python for each card.

The tables come from the heuristic's own functions (Five Hundred's :class:`Context`, 56's strength
and points, All Fours' card values and knobs), so a change to how it ranks cards reaches the
compiled play; a change to the play's logic (``Strategy.play``, All Fours' ``_choose_card``) must be
made in both, and :func:`differences` (tests/test_fastpath.py, ``arena bench --only fastpath``)
finds where they part.
"""

from __future__ import annotations

import functools
import importlib
import random
import struct
from typing import Any, Callable

from arena import fast
from arena.fast import check
from arena.games.base import GameState
from arena.games.bid_euchre.cards import STRAINS as BE_STRAINS
from arena.games.bid_euchre.cards import TOKENS as BE_TOKENS
from arena.games.fifty_six.cards import TOKEN
from arena.players.base import MatchInfo, Player
from bots.heuristic import all_fours as haf
from bots.heuristic import bid_euchre as hbe
from bots.heuristic import fifty_six as h56
from bots.heuristic.five_hundred import SUITS, Context, full_pack

NOSUIT = 4  # Five Hundred's suitless joker's suit in the tables, and "no trumps" as the trump
NO_TEAM = 255  # 56: no declaring team
MISMATCHES_KEPT = 20
PLAYOUT_EVERY = 8  # one compared position in this many compares the whole rest of the hand's play


def _five_hundred_plan(state: Any) -> bytes:
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


@functools.lru_cache(maxsize=256)
def _tables(tokens: tuple[str, ...], players: int, trump: str | None, joker_suit: str | None) -> bytes:
    """Five Hundred: eff, strength, aces and pack of one pack and contract (the part a hand keeps)."""
    ctx = Context(trump, joker_suit)
    pack = set(full_pack(players))
    eff = [NOSUIT if ctx.eff(t) is None else SUITS.index(ctx.eff(t)) for t in tokens]  # type: ignore[arg-type]
    strength = [min(ctx.strength(t), 255) for t in tokens]  # the suitless joker's 1000: stronger than all
    aces = sum(1 << c for c, t in enumerate(tokens) if t != "JK" and t[:-1] == "A")
    mask = sum(1 << c for c, t in enumerate(tokens) if t in pack)
    pad = [0] * (64 - len(tokens))
    return bytes(eff + pad) + bytes(strength + pad) + struct.pack("<QQ", aces, mask)


@functools.lru_cache(maxsize=4)
def _tables56(eight: bool) -> bytes:
    """56: suit, strength and points of each card kind, and the kinds of the pack the heuristic
    counts (Strategy.unseen: every rank when eight seats play, else no 7s and 8s)."""
    ranks = h56.ORDER if eight else h56.ORDER[2:]
    pack = sum(1 << k for k, t in enumerate(TOKEN) if t[:-1] in ranks)
    return (bytes(h56.SUITS.index(t[-1]) for t in TOKEN) + bytes(h56.strength(t) for t in TOKEN)
            + bytes(h56.points(t) for t in TOKEN) + struct.pack("<Q", pack))


def _fifty_six_plan(state: Any) -> bytes:
    """The FIFTY_SIX policy's plan for a 56 state in its card play: what every seat has seen."""
    g, active = state.game, list(state.active_seats)
    played, voids = 0, [0] * 8
    for cards in [t[1] for t in state.tricks] + [state.trick]:
        for i, (seat, kind) in enumerate(cards):
            played |= 1 << (kind + 32 if played >> kind & 1 else kind)
            if i and kind >> 3 != cards[0][1] >> 3:
                voids[seat] |= 1 << (cards[0][1] >> 3)
    team = list(g.team_of) + [NO_TEAM] * (8 - len(g.team_of))
    auction = state.auction
    declaring = g.team_of[auction.bidder] if auction.over and auction.bidder >= 0 else NO_TEAM
    trump = state.trump if 0 <= state.trump < 4 else NOSUIT
    return (_tables56(len(active) == 8) + struct.pack("<Q", played) + bytes(voids) + bytes(team)
            + bytes([len(active)] + active + [0] * (8 - len(active))) + bytes((trump, declaring)))


@functools.lru_cache(maxsize=64)
def _tables_af(trump: int, hang: int) -> bytes:
    """All Fours: the values of the 52 cards under ``trump`` and the Strategy's knobs, as doubles."""
    strategy = haf.Strategy(0)
    strategy.hang = hang
    values = [strategy._value(haf.DECK[c], haf.DECK[trump * 13][-1]) for c in range(52)]
    knobs = [strategy.trump_cost, strategy.trump_lead, strategy.plain_lead, strategy.raise_discount]
    return struct.pack("<56d", *values, *knobs)


def _all_fours_plan(state: Any) -> bytes:
    """The ALL_FOURS policy's plan for an All Fours state in its card play: the turn-ups and the
    cards played this hand, and the suits each seat has shown out of (as Strategy._choose_card reads them)."""
    trump = state.trump
    seen = sum(1 << c for c in set(state.turn_ups))
    voids = [0] * 8
    for led, cards in state._all_tricks():
        for i, (seat, card) in enumerate(cards):
            seen |= 1 << card
            if i and card // 13 != led and (led == trump or card // 13 != trump):
                voids[seat] |= 1 << led
    return _tables_af(trump, int(state.g.options.get("hang_jack_points", 3))) + struct.pack("<Q", seen) + bytes(voids)


@functools.lru_cache(maxsize=64)
def _tables_be(trump: str, copies: int, joker: bool) -> bytes:
    """Bid Euchre: each card's effective suit (0-3; 4 the joker in no-trump), power and whether it
    is a trump, by the heuristic's own functions, and the pack's copies of it."""
    effs = [hbe.eff(t, trump) for t in BE_TOKENS]
    suits = [hbe.SUITS.index(e) if e in hbe.SUIT_SET else NOSUIT for e in effs]
    power = [hbe.power(t, trump) for t in BE_TOKENS]
    trumps = [int(trump in hbe.SUIT_SET and e == trump) for e in effs]
    pack = [copies] * 24 + [int(joker)]
    return bytes(suits) + bytes(power) + bytes(trumps) + bytes(pack)


def _bid_euchre_plan(state: Any) -> bytes:
    """The BID_EUCHRE policy's plan for a Bid Euchre state in its card play: the cards played this
    hand, what each seat knows is out of play besides (Strategy._unseen), and the contract."""
    g = state.game
    gone, out = [0] * 25, [[0] * 25 for _ in range(4)]
    for _, cards, _ in state.tricks:
        for _, t in cards:
            gone[t] += 1
    for _, t in state.trick:
        gone[t] += 1
    if state.discarded is not None:
        out[state.deals[-1]["dealer"]][state.discarded] += 1
    if state.level == g.actions.help_level and state.trump is not None:
        for t in state.gives[0]:  # the contractor's, with its partner, who sits out
            out[state.contractor][t] += 1
    alone = state.level >= g.actions.help_level
    sitting_out = 255 if state.sitting_out is None else state.sitting_out
    tables = _tables_be(BE_STRAINS[state.trump], 2 if g.tricks == 12 else 1, bool(g.options.get("joker")))
    return tables + bytes(gone) + bytes(sum(out, [])) + bytes((state.contractor & 1, int(alone), sitting_out))


POLICIES = {"five_hundred": fast.FIVE_HUNDRED, "fifty_six": fast.FIFTY_SIX, "all_fours": fast.ALL_FOURS,
            "bid_euchre": fast.BID_EUCHRE}
PLANS: dict[str, Callable[[Any], bytes]] = {"five_hundred": _five_hundred_plan, "fifty_six": _fifty_six_plan,
                                            "all_fours": _all_fours_plan, "bid_euchre": _bid_euchre_plan}
STRATEGY_MODULES = {"five_hundred": "bots.heuristic.five_hundred", "fifty_six": "bots.heuristic.fifty_six",
                    "all_fours": "bots.heuristic.all_fours", "bid_euchre": "bots.heuristic.bid_euchre"}


def supports(state: GameState) -> bool:
    """Whether ``state`` is in a card play that the compiled heuristic plays (every bundled game)."""
    return state.game.name in POLICIES and fast.available() and fast.supports(state)


def plan(state: Any) -> bytes:
    """The plan of the game's policy for a state in its card play."""
    return PLANS[state.game.name](state)


def playout(state: Any) -> fast.Playout:
    """The rest of the hand's card play from ``state``, the heuristic's in every seat, compiled."""
    return fast.playout(state, 0, POLICIES[state.game.name], plan=plan(state))


def choose(state: Any) -> int:
    """The heuristic's card (an action id) for the seat to play in ``state``, from the compiled play."""
    return playout(state).plays[0]


def python_choice(state: Any, players: list[Player]) -> int:
    """The Python heuristic's card for the seat to play, from its observation (``players``: one a seat)."""
    seat = state.current_player()
    legal = state.legal_action_ids()
    if len(legal) == 1:
        return legal[0]
    return state.game.action_id(players[seat].act(state.observation(seat)))


def python_playout(state: Any, players: list[Player]) -> list[int]:
    """The rest of the hand's card play by the Python heuristic in every seat, as action ids."""
    state, plays, hands = state.clone(), [], len(state.deal_results)
    while supports(state) and len(state.deal_results) == hands:
        plays.append(python_choice(state, players))
        state.apply_id(plays[-1])
    return plays


def supports_after(state: Any, plays: list[int]) -> bool:
    """Whether the card play goes on in the same hand after ``plays`` from ``state``."""
    after, hands = state.clone(), len(state.deal_results)
    after.replay_ids(plays)
    return supports(after) and len(after.deal_results) == hands


def _name(game: Any, plays: list[int], at: int) -> str:
    return game.action_string(plays[at]) if at < len(plays) else "nothing (the hand is over)"


def _contract(state: Any) -> str:
    if state.game.name == "five_hundred":
        return str(state.bid.text)
    if state.game.name == "all_fours":
        return f"trumps {haf.DECK[state.trump * 13][-1]}"
    if state.game.name == "bid_euchre":
        return f"{state.level} {BE_STRAINS[state.trump]} by seat {state.contractor}"
    return "no trumps" if not 0 <= state.trump < 4 else f"trumps {h56.SUITS[state.trump]}"


def differences(positions: int, seed: int | str = 0, games: tuple[str, ...] = tuple(POLICIES)) -> tuple[int, list[str]]:
    """Compares the compiled card play with the Python heuristic's on ``positions`` card-play
    positions, shared by every configuration of ``games`` in the fast path's check (arena.fast.check:
    each player count and option that changes the play; Five Hundred's random auctions reach
    misère too; random plays): at each the card, and one in :data:`PLAYOUT_EVERY` the whole rest of
    the hand's play. Returns (positions compared, a line for each that differs)."""
    configs = [(name, options) for name, options in check.CONFIGS if name in games]
    rng = random.Random(f"compiled/{seed}")
    compared, found = 0, list[str]()
    for index, (name, options) in enumerate(configs):
        game = check.make_game(name, options)
        players = [importlib.import_module(STRATEGY_MODULES[name]).Strategy(0) for _ in range(8)]
        for seat, player in enumerate(players):
            player.start_match(MatchInfo(game.name, dict(game.options), seat, ()))
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
                    want, got = (python_playout(state, players), playout(state).plays) if whole \
                        else ([python_choice(state, players)], [choose(state)])
                    # where the engine's hand ends first (All Fours: a revoke before the position, whose
                    # penalty the position does not hold), the replay stops there too (replay_ids)
                    got = got[:len(want)] if whole and not supports_after(state, want) else got
                    if want != got and len(found) < MISMATCHES_KEPT:
                        at = next(i for i, (a, b) in enumerate(zip(want + [-1], got + [-1])) if a != b)
                        found.append(f"{name} {options} match {match - 1}: at play {at} of "
                                     f"{'the rest of the hand' if whole else 'one'} the heuristic plays "
                                     f"{_name(game, want, at)}, the compiled play {_name(game, got, at)} "
                                     f"(seat {state.current_player()}, {_contract(state)})")
                state.apply_id(check._steer(game, state, legal, rng))
        compared += done
    return compared, found
