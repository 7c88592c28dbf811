"""A state consistent with what one seat has seen, built from its observations alone.

A bot never sees the game state, but :meth:`GameState.resample` needs one. Any state that gives
the seat its real observation will do, since resample depends only on what the seat knows (the
conformance kit's ``resample_blind`` check). So the proxy is built by dealing the seat's own hand
(the game's ``proxy_deck``, by default its ``deck_for``; the other hands in pack order) and
replaying the hand's public history. Whatever differs between games is a hook of the game's
(arena.games.base.Game, "for search bots"): this module names no game.
When a replayed action is impossible in the proxy (another seat plays a card the proxy gave
someone else) the proxy is first resampled from the seat's own view until it is possible, which
keeps it consistent with everything seen so far; in 56 a card play is first made possible more cheaply,
by swapping the card into the actor's hand from the hand the proxy gave it to (one replay, where a
resample takes one to ten in 56 for 8: any consistent proxy serves, since resample depends only on
what the seat knows, so how it was found does not change the samples); an action hidden from the seat (a contractor's
discard, a help gift) is filled in with a random legal one; when the seat's own hand in the proxy
is not the one it held (cards from a kitty, a run of the pack or a gift), the proxy is redealt from
another seat's view with the seat's real hand (``with_hands``).
"""

from __future__ import annotations

import random
import time
from typing import Any, Mapping, Sequence

from arena.games.base import Game, GameState

HIDDEN_VERBS = ("discard", "give")  # actions other seats may take unseen (Five Hundred, Bid Euchre)
REPAIR_TRIES = 400  # resamples tried to make one observed action possible
SWAP_TRIES = 4  # swaps of the played card into the actor's hand tried before resampling
# (where the swap is tried is the game's ``swap_played_cards``: 56 and Five Hundred for 5 or 6,
# whose many other hands make a redraw dear; elsewhere a redraw is cheap, and the figures of issue
# #20 for those games were measured with it alone)
# Keys a proxy may differ in: it starts at this hand (no earlier hands), the clock is the referee's
LOOSE_KEYS = frozenset({"hand_index", "hands_played", "last_result", "time_left", "bank_left"})


class ProxyError(RuntimeError):
    """No proxy consistent with the observation was found (the bot then plays its fallback)."""


def same_view(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two observations of one seat agree on everything but the loose keys."""
    keys = (set(a) | set(b)) - LOOSE_KEYS
    return all(a.get(k) == b.get(k) for k in keys)


class ProxyBuilder:
    """Keeps, for one seat and the current hand, a proxy state that gives the seat its observations.

    ``observe(obs)`` is called at each of the seat's decisions; it extends the proxy by the new
    history (rebuilding it when a new hand starts) and returns it, or raises :class:`ProxyError`."""

    def __init__(self, game: Game, seat: int, rng: random.Random):
        self.game, self.seat, self.rng = game, seat, rng
        self.key: tuple[int, int] | None = None  # (hand_index, dealer) of the hand being tracked
        self.hands_at: dict[int, list[str]] = {}  # history length -> the seat's hand then
        self.proxy: GameState | None = None
        self.applied = 0  # history entries the proxy has replayed
        self.offset: list[int] | None = None  # scores before the hand = observed less this
        self.repairs = 0
        self.swaps = 0  # repairs made by swapping a played card into its player's hand
        self.kitty: list[str] | None = None  # a kitty the seat saw this hand (Five Hundred's contractor)

    # -- public ------------------------------------------------------------------------------
    def observe(self, obs: Mapping[str, Any], deadline: float = float("inf")) -> GameState:
        key = (obs["hand_index"], obs["dealer"])
        history = [(int(a), str(s)) for a, s in obs["history"]]
        if key != self.key:
            self.key, self.hands_at, self.proxy, self.offset, self.kitty = key, {}, None, None, None
        if obs.get("kitty") and self.kitty is None:  # seen once, during the exchange: kept for the hand
            self.kitty = list(obs["kitty"])
            self.proxy = None
        self.hands_at[len(history)] = list(obs["hand"])
        calibrated = False
        for attempt in range(3):
            try:
                if self.proxy is None or self.applied > len(history):
                    if self.game.scores_change_in_hand and not calibrated:
                        self.offset = list(obs["scores"])  # replay from zero to learn this hand's own changes
                    self._start(obs, history)
                assert self.proxy is not None
                self._replay(history, deadline)
                self._own_hand(list(obs["hand"]), deadline)
                got = self.proxy.observation(self.seat)
                if got["scores"] != list(obs["scores"]):  # a score changed inside this hand (a kick)
                    if calibrated:
                        raise ProxyError(f"scores {got['scores']} rebuilt, {obs['scores']} seen")
                    assert self.offset is not None
                    self.offset = [o + g - r for o, g, r in zip(self.offset, got["scores"], obs["scores"])]
                    self.proxy, calibrated = None, True
                    continue
                if not same_view(got, obs):
                    raise ProxyError("the rebuilt observation differs: "
                                     + ", ".join(sorted(k for k in got if got.get(k) != obs.get(k) and k not in LOOSE_KEYS)))
                return self.proxy
            except ProxyError:
                self.proxy = None
                if attempt == 2 or time.monotonic() >= deadline:
                    raise
        raise ProxyError("no proxy state")

    def start_scores(self, obs: Mapping[str, Any]) -> list[int]:
        return [s - o for s, o in zip(obs["scores"], self.offset or [0] * len(obs["scores"]))]

    def fresh_hand(self, deck: Sequence[str], obs: Mapping[str, Any]) -> GameState:
        """A state at the start of this hand dealt from ``deck`` (for replaying a sample's auction)."""
        return self.game.start_hand(obs["dealer"], deck, self.start_scores(obs), **self.game.proxy_match(obs))

    # -- building ----------------------------------------------------------------------------
    def _start(self, obs: Mapping[str, Any], history: list[tuple[int, str]]) -> None:
        first = min(self.hands_at)
        own = self.game.proxy_dealt(self.hands_at, [s.split(" ", 1)[1] for a, s in history[:first]
                                                    if a == self.seat and s.startswith("play ")])
        if self.offset is None:
            self.offset = [0] * len(obs["scores"])
        try:
            deck = self.game.proxy_deck(obs["dealer"], self.seat, own, obs, self.kitty)
        except (ValueError, KeyError) as exc:  # the first hand seen was not the dealt one: fixed later
            try:
                deck = self.game.proxy_deck(obs["dealer"], self.seat, [], obs)
            except (ValueError, KeyError):
                raise ProxyError(f"no deck for this hand: {exc}") from exc
        self.proxy = self.fresh_hand(deck, obs)
        self.applied = 0

    def _replay(self, history: list[tuple[int, str]], deadline: float) -> None:
        game = self.game
        while self.applied < len(history):
            state = self.proxy
            assert state is not None
            index = self.applied
            if index in self.hands_at:
                self._own_hand(self.hands_at[index], deadline)
                state = self.proxy
                assert state is not None
            actor, action = history[index]
            aid = game.action_id(action)
            if aid is None:
                raise ProxyError(f"history action {action!r} is not an action of {game.name}")
            for _ in range(12):  # hidden actions before this one (discards, gifts)
                if state.current_player() == actor and aid in state.legal_action_ids():
                    break
                mover = state.current_player()
                hidden = [i for i in state.legal_action_ids() if game.action_string(i).startswith(HIDDEN_VERBS)]
                if mover is None or mover == self.seat or not hidden:
                    break
                state.apply_id(self.rng.choice(hidden))
            if state.current_player() != actor or aid not in state.legal_action_ids():
                state = self._make_possible(state, actor, aid, deadline)
            state.apply_id(aid)
            self.proxy = state
            self.applied += 1

    def _make_possible(self, state: GameState, actor: int, aid: int, deadline: float) -> GameState:
        """A resample of ``state`` (from the seat's view) in which ``actor`` may take ``aid`` now."""
        self.repairs += 1
        if actor != self.seat and self.game.swap_played_cards:
            swapped = self._swap_in(state, actor, aid)
            if swapped is not None:
                return swapped
        if actor != self.seat:
            for _ in range(REPAIR_TRIES):
                if time.monotonic() >= deadline:
                    raise ProxyError("out of time rebuilding the state")
                sample = state.resample(self.seat, self.rng)
                for _ in range(12):
                    if sample.current_player() == actor and aid in sample.legal_action_ids():
                        return sample
                    hidden = [i for i in sample.legal_action_ids()
                              if self.game.action_string(i).startswith(HIDDEN_VERBS)]
                    if sample.current_player() in (None, self.seat) or not hidden:
                        break
                    sample.apply_id(self.rng.choice(hidden))
        raise ProxyError(f"seat {actor} cannot take {self.game.action_string(aid)!r} in any sample")

    def _swap_in(self, state: GameState, actor: int, aid: int) -> GameState | None:
        """``state`` with the card ``actor`` plays now taken from the other hand that holds it in
        the proxy, in exchange for one of ``actor``'s cards, or None when no such swap agrees with
        what the seat knows (a void shown by the other hand, the card not there to take)."""
        name = self.game.action_string(aid)
        if not name.startswith("play ") or state.current_player() != actor:
            return None
        card = name.split(" ", 1)[1]
        others = [s for s in state.observation(self.seat)["active_seats"] if s != self.seat]
        hands = {s: list(state.observation(s)["hand"]) for s in others}
        holder = next((s for s in others if s != actor and card in hands[s]), None)
        if holder is None or actor not in hands:
            return None
        void = set(state.voids().get(holder, ()))
        # the actor's cards of a suit the holder has not shown it lacks first (the engine's effective
        # suits may differ from the printed one: with_hands is the judge, this only orders the tries)
        gives = sorted(set(hands[actor]) - {card}, key=lambda c: (c[-1] in void, self.rng.random()))
        for give in gives[:SWAP_TRIES]:
            trial = dict(hands)
            trial[actor] = hands[actor] + [card]
            trial[actor].remove(give)
            trial[holder] = hands[holder] + [give]
            trial[holder].remove(card)
            found = state.with_hands(self.seat, trial, self.rng, tries=1)
            if found is not None and found.current_player() == actor and aid in found.legal_action_ids():
                self.swaps += 1
                return found
        return None

    def _own_hand(self, hand: list[str], deadline: float) -> None:
        """Make the proxy's hand of the seat ``hand`` (redealt from another seat's view)."""
        state = self.proxy
        assert state is not None
        if sorted(state.observation(self.seat)["hand"]) == sorted(hand):
            return
        self.repairs += 1
        others = [s for s in state.observation(self.seat)["active_seats"] if s != self.seat]
        for _ in range(20):
            if time.monotonic() >= deadline:
                raise ProxyError("out of time rebuilding the state")
            viewer = self.rng.choice(others)
            found = state.with_hands(viewer, {self.seat: hand}, self.rng)
            if found is not None:
                self.proxy = found
                return
            state = state.resample(viewer, self.rng)  # another filling of the viewer's unknowns
        raise ProxyError(f"no deal gives seat {self.seat} the hand {hand}")
