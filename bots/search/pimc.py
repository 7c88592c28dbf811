"""Determinized search (PIMC): sampled deals, weighted by auction inference, rolled out per action.

For one decision: the deals the seat could be facing are drawn with ``resample`` from a proxy
state (:mod:`bots.search.proxy`). Each sample's auction is replayed with the heuristic in every
other seat; a sample in which the heuristic would not have made one of the bids it saw is redrawn
(``inference_tries`` draws in all, 4 by default) and, if no better one turns up, kept with a weight
that halves per disagreeing bid: a bid implies holdings. Each candidate action is then played on
every sample and the hand rolled out to its end with the rollout policy for every seat; the
candidate with the best weighted mean of the side's score margin on the hand wins. The same
samples serve every candidate (common random numbers), so the comparison is between actions, not
deals.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from arena import fast
from arena.games.base import Game, GameState, MatchEnd
from arena.players.base import MatchInfo, Player
from arena.solver import SolveTimeout, Solver

from bots.heuristic import compiled as compiled_heuristic
from bots.search.chain import DealChain
from bots.search.proxy import ProxyBuilder

MISMATCH_WEIGHT = 0.5  # a kept sample's weight per bid the heuristic would not have made
MIN_ROWS = 4  # samples needed before the search may overrule the heuristic's choice
Z = 1.5  # by how many standard errors of the paired difference it must do so
SOLVES_PER_DECISION = 16  # an endgame decision solves only if one solve fits this many times in its budget
# rollout = fast: the fast path's policy for the card play; the partner policy (no trick taken from a
# partner, sure winners led, else low from the longest suit) beat the simple one in every game
# (duplicate duels of the two on 1,100-1,500 deals each, docs/search-bot.md)
FAST_POLICY = fast.PARTNER


@dataclass
class Stats:
    """What the last decisions cost (for the bench and the tests)."""

    decisions: int = 0
    searched: int = 0
    samples: int = 0
    rollouts: int = 0
    fast_playouts: int = 0  # rollouts whose card play came from the compiled fast path (rollout = fast)
    compiled_playouts: int = 0  # rollouts whose card play was the heuristic's, compiled (compiled = true)
    rollout_solves: int = 0  # rollouts ended by an exact solve (rollout = solve)
    rejected: int = 0
    solves: int = 0
    unsolved: int = 0  # decisions whose first solve took too long (rolled out instead)
    fallbacks: int = 0
    last_samples: int = 0
    errors: deque[str] = field(default_factory=lambda: deque(maxlen=100))  # the last ones: why it fell back


def margin(scores: list[int], before: list[int], side: int) -> float:
    """The side's score change on the hand less the mean change of the other sides."""
    changes = [a - b for a, b in zip(scores, before)]
    others = [c for s, c in enumerate(changes) if s != side]
    return changes[side] - (sum(others) / len(others) if others else 0.0)


def chance(scores: list[int], side: int, spread: float) -> float:
    """The side's chance of winning the match read from the scores alone: a softmax of each side's
    score over ``spread`` (a quarter of the game's ``match_stake``, so that with two sides even
    scores are a half and a lead of the whole stake about 0.98)."""
    top = max(scores)
    weights = [math.exp((score - top) / spread) for score in scores]
    return weights[side] / sum(weights)


def won_share(state: GameState, side: int) -> float | None:
    """The side's share of the win where the match has ended by its rules (1, a tie's share, or 0);
    None while it goes on, and after a stop at ``max_hands``, which is not the rules."""
    end = state.match_end()
    if end is None or end == MatchEnd.HAND_LIMIT:
        return None
    winners = state.winners()
    return 1 / len(winners) if side in winners else 0.0


def match_value(state: GameState, before: list[int], side: int, spread: float) -> float:
    """The rollout's value with ``value = "match"``: the change in the side's chance of winning the
    match over the hand. Where the hand ended the match by its rules the chance after it is the
    side's share of the win (1, a tie's share, or 0); a stop at ``max_hands`` is not the rules, so
    there, as after any other hand, it is read from the scores (:func:`chance`)."""
    after = won_share(state, side)
    if after is None:
        after = chance(state.scores(), side, spread)
    return after - chance(before, side, spread)


def choose(rows: list[tuple[float, list[float]]]) -> int:
    """The candidate to play: the best weighted mean margin, but the first (the heuristic's
    choice) unless there are :data:`MIN_ROWS` samples and the best beats it by more than :data:`Z`
    standard errors of their paired difference (the same samples serve both), so that a few noisy
    rollouts do not overrule a sound default."""
    total = sum(w for w, _ in rows)
    means = [sum(w * row[c] for w, row in rows) / total for c in range(len(rows[0][1]))]
    best = max(range(len(means)), key=lambda c: (means[c], c == 0))
    if best == 0 or len(rows) < MIN_ROWS:
        return 0
    diffs = [(w, row[best] - row[0]) for w, row in rows]
    mean = sum(w * d for w, d in diffs) / total
    var = sum(w * (d - mean) ** 2 for w, d in diffs) / total
    n = total ** 2 / sum(w * w for w, _ in rows)  # the effective number of weighted samples
    se = (var / max(n - 1, 1.0)) ** 0.5
    return best if mean > Z * se else 0


class Policy:
    """Picks an action id for whoever is to act in a full state: heuristic or uniformly random."""

    def __init__(self, game: Game, kind: str, options: Mapping[str, Any], rng: random.Random,
                 make_heuristic: Callable[[int], Player]):
        self.game, self.kind, self.rng = game, kind, rng
        self.players: dict[int, Player] = {}
        self.options, self.make = options, make_heuristic

    def heuristic(self, seat: int) -> Player:
        player = self.players.get(seat)
        if player is None:
            player = self.players[seat] = self.make(seat)
            player.start_match(MatchInfo(self.game.name, dict(self.options), seat, ()))
        return player

    def heuristic_id(self, state: GameState, seat: int) -> int:
        legal = state.legal_action_ids()
        if len(legal) == 1:
            return legal[0]
        obs = state.observation(seat)
        obs["time_left"], obs["bank_left"] = 1.0, None
        aid = self.game.action_id(self.heuristic(seat).act(obs))
        return aid if aid in legal else legal[0]

    def choose(self, state: GameState) -> int:
        seat = state.current_player()
        assert seat is not None
        if self.kind == "random":
            return self.rng.choice(state.legal_action_ids())
        return self.heuristic_id(state, seat)


class Searcher:
    def __init__(self, game: Game, seat: int, settings: Mapping[str, Any], options: Mapping[str, Any],
                 rng: random.Random, make_heuristic: Callable[[int], Player],
                 make_default: Callable[[int], Player] | None = None):
        self.game, self.seat, self.rng = game, seat, rng
        self.samples = int(settings["samples"])
        self.candidates = int(settings["candidates"])  # at most this many actions are searched
        self.endgame = int(settings["endgame"])  # cards in hand at or below which samples are solved
        self.play_weight = float(settings["play_weight"])  # a sample's weight per card play it disagrees with
        self.inference_tries = int(settings["inference_tries"])  # draws a sample may take to agree with the auction
        self.chain_steps = int(settings["chain"])  # swaps proposed a sample (0: independent draws)
        self.chain: DealChain | None = None
        self.chain_decision = -1
        self.allies = set(game.seats_of(game.side_of(seat)))  # its side: in a match, copies of this bot
        self.kinds = game.page()["phases"]
        self.overbid = settings["overbid"]  # may it bid above the heuristic's bid? ("opponents": not over a partner)
        # "fast": the heuristic outside the card play, the compiled fast path's policy in it
        # (arena.fast); without the extension it is the heuristic throughout
        self.fast = settings["rollout"] == "fast" and fast.available()
        # "solve": the heuristic until the card play has at most ``endgame`` cards in hand, then the
        # solver's exact value; only where that value is the rollout's (the hand's score change, two
        # sides) and the fast path is built, else the heuristic throughout
        self.solve_rollouts = (settings["rollout"] == "solve" and fast.available() and game.num_sides == 2
                               and type(game).hand_value is Game.hand_value)
        self.deadline = 0.0  # the decision's, for the rollouts' solves
        # value = "match": a rollout is worth the change in the side's chance of winning the match,
        # read on the scale of the game's match_stake (None: the hand's score margin)
        stake = game.match_stake() if settings["value"] == "match" else None  # (the bot refuses a game without)
        self.spread = None if stake is None else stake / 4
        # heuristic rollouts: the heuristic's own card play from the compiled fast path, where it has
        # one (bots/heuristic/compiled.py: every game), the same cards without an observation each
        self.compiled_play = settings["rollout"] == "heuristic" and settings["compiled"] and fast.available()
        # the play inference (play_weight < 1) reads the heuristic's cards from the same compiled play
        self.compiled_judge = bool(settings["compiled"]) and fast.available()
        kind = "heuristic" if settings["rollout"] in ("fast", "solve") else settings["rollout"]
        self.policy = Policy(game, kind, options, rng, make_heuristic)
        self.judge = Policy(game, "heuristic", options, rng, make_heuristic)  # the auction inference
        # the default choice, which a search must beat: the heuristic's, or another player's (policy = learned)
        self.default = Policy(game, "heuristic", options, rng, make_default) if make_default else self.judge
        self.proxy = ProxyBuilder(game, seat, rng)
        self.stats = Stats()

    def decide(self, obs: Mapping[str, Any], budget: float) -> str:
        """The action for ``obs``, thinking at most about ``budget`` seconds."""
        start = time.monotonic()
        deadline = self.deadline = start + budget
        legal = list(obs["legal_actions"])
        self.stats.decisions += 1
        fallback = self.game.action_string(self._fallback(obs))
        if len(legal) == 1 or budget <= 0 or self.samples <= 0:
            return fallback if fallback in legal else legal[0]
        try:
            state = self.proxy.observe(obs, deadline)
        except Exception as exc:  # the proxy is a best effort: without one the heuristic plays
            self.stats.fallbacks += 1
            self.stats.errors.append(f"{type(exc).__name__}: {exc}")
            return fallback
        ids = [self.game.action_id(a) for a in legal]
        solving = self.endgame > 0 and self.kinds.get(obs.get("phase")) == "play" and len(obs.get("hand", ())) <= self.endgame
        if solving:  # the solver values every card at once: all of them are candidates
            ids.sort(key=lambda i: i != self.game.action_id(fallback))
            candidates = [i for i in ids if i is not None]
        else:
            known = [i for i in ids if i is not None]
            first = self.game.action_id(fallback)
            if self.kinds.get(obs.get("phase")) == "bid" and first in known and not self._may_overbid(obs):
                # no bid above the heuristic's: a bid then promises at least what the heuristic's
                # would, which is how every seat's bids are read (the auction inference), so
                # partners never outbid each other on the strength of one reading of a hand
                known = known[:known.index(first) + 1]
            candidates = self._candidates(known, first)
            if len(candidates) == 1:
                return fallback
        rows: list[tuple[float, list[float]]] = []  # per whole sample: its weight, each candidate's margin
        side = self.game.side_of(self.seat)
        while len(rows) < self.samples and time.monotonic() < deadline:
            try:
                sample, weight = self._sample(state, obs, deadline)
            except Exception as exc:  # a proxy resample cannot follow (an engine's limit): what we have
                self.stats.errors.append(f"{type(exc).__name__}: {exc}")
                self.proxy.proxy = None
                break
            before = sample.scores()
            row: list[float] = []
            if solving:
                # the first solve may take a share of the budget that leaves room for
                # SOLVES_PER_DECISION more; when it cannot, this decision rolls out as before
                limit = deadline - time.monotonic()
                if not rows:
                    limit = min(limit, budget / SOLVES_PER_DECISION)
                try:
                    values = Solver(sample, max(limit, 1e-3), margin=True).root_values()
                    self.stats.solves += 1
                    row = [values[c] for c in candidates]
                except SolveTimeout:
                    if rows:
                        break  # out of time inside a sample: it is left out whole
                    solving = False  # too deep to solve in time: the heuristic's candidates, rolled out
                    candidates = self._candidates(candidates, self.game.action_id(fallback))
                    self.stats.unsolved += 1
            for c in candidates[len(row):]:
                if time.monotonic() >= deadline:
                    break  # out of time inside a sample: it is left out whole
                try:
                    row.append(self._rollout(sample, c, before, side))
                except SolveTimeout:
                    break  # a rollout's solve ran out of the decision's time: the sample is left out
            if len(row) < len(candidates):
                break
            rows.append((weight, row))
        self.stats.last_samples = len(rows)
        self.stats.samples += len(rows)
        if not rows:
            return fallback
        self.stats.searched += 1
        return self.game.action_string(candidates[choose(rows)])

    # -- parts -------------------------------------------------------------------------------
    def _may_overbid(self, obs: Mapping[str, Any]) -> bool:
        """Whether bids above the heuristic's are searched: ``overbid`` true; false never; with
        "opponents", unless the high bid so far is a partner's (the last bid of the hand's history)."""
        if self.overbid != "opponents":
            return bool(self.overbid)
        bids = [seat for seat, action in obs.get("history", ()) if str(action).startswith("bid ")]
        return not bids or bids[-1] == self.seat or self.game.side_of(bids[-1]) != self.game.side_of(self.seat)

    def _fallback(self, obs: Mapping[str, Any]) -> int:
        aid = self.game.action_id(self.default.heuristic(self.seat).act(dict(obs)))
        legal = [self.game.action_id(a) for a in obs["legal_actions"]]
        return aid if aid in legal and aid is not None else legal[0]  # type: ignore[return-value]

    def _candidates(self, ids: list[int], first: int | None) -> list[int]:
        """The heuristic's choice first, then the others; when there are many (an auction), the
        first legal action (a pass, where there is one) and those nearest the heuristic's choice in
        the legal order (the bids next to its bid), since a bid far from it is rarely better."""
        if first is None or first not in ids:
            first = ids[0]
        rest = [i for i in ids if i != first]
        if len(rest) > self.candidates - 1:
            at = ids.index(first)
            near = sorted(rest, key=lambda i: (abs(ids.index(i) - at), ids.index(i)))
            keep = [ids[0]] if ids[0] != first else []
            keep += [i for i in near if i not in keep][:self.candidates - 1 - len(keep)]
            rest = keep
        return [first] + rest

    def _sample(self, state: GameState, obs: Mapping[str, Any], deadline: float) -> tuple[GameState, float]:
        if self.chain_steps:
            return self._chain_sample(state, obs, deadline)
        best: GameState | None = None
        best_miss = (-1, -1)
        for _ in range(self.inference_tries):
            sample = state.resample(self.seat, self.rng)
            miss = self._disagreements(sample, obs, best_miss if best is not None else None)
            if best is None or miss < best_miss:
                best, best_miss = sample, miss
            if miss[0] == 0 or time.monotonic() >= deadline:
                break  # redrawn only for the auction; the card play weighs in below
            self.stats.rejected += 1
        assert best is not None
        return best, MISMATCH_WEIGHT ** max(best_miss[0], 0) * self.play_weight ** max(best_miss[1], 0)

    def _chain_sample(self, state: GameState, obs: Mapping[str, Any], deadline: float) -> tuple[GameState, float]:
        """The next deal of this decision's chain (bots/search/chain.py), drawn in proportion to the
        inference's weight: ``chain`` swaps proposed a sample, four times as many for the first."""
        chain, steps = self.chain, self.chain_steps
        if chain is None or self.chain_decision != self.stats.decisions:
            bid_log, play_log = math.log(MISMATCH_WEIGHT), math.log(self.play_weight)

            def log_weight(sample: GameState) -> float:
                bids, cards = self._disagreements(sample, obs)
                return bids * bid_log + cards * play_log
            chain = self.chain = DealChain(state, self.seat, self.rng, log_weight)
            self.chain_decision, steps = self.stats.decisions, 4 * steps
        for _ in range(steps):
            if time.monotonic() >= deadline:
                break
            chain.step()
        return chain.sample, 1.0

    def _disagreements(self, sample: GameState, obs: Mapping[str, Any],
                       bound: tuple[int, int] | None = None) -> tuple[int, int]:
        """How many of the other seats' auction actions, and (with a ``play_weight`` below 1) card
        plays, the heuristic would not have taken on this deal: a play, like a bid, implies holdings.
        The count stops once it reaches ``bound`` (a redraw no better than the best so far)."""
        actions = sample.deals[-1]["actions"]
        plays = self.play_weight < 1.0
        if not any(a != self.seat and (plays or not self.game.action_string(i).startswith("play "))
                   for a, i in actions):
            return (0, 0)
        replay = self.proxy.fresh_hand(sample.deals[-1]["deck"], obs)
        bids = cards = 0
        line: list[int] = []  # the compiled heuristic's card play from here on, while the plays follow it
        for actor, aid in actions:
            name = self.game.action_string(aid)
            playing = name.startswith("play ")
            if playing and not plays:
                break  # the card play: voids already shape the deal
            judged = actor != self.seat and not name.startswith(("discard", "give"))
            if playing and self.chain_steps and actor in self.allies:
                judged = False  # partners: copies of this bot, whose plays are searched, not the heuristic's
            if playing and self.compiled_judge and compiled_heuristic.supports(replay):
                # the heuristic's cards from one compiled playout, for as long as the plays follow
                # it: the Python heuristic's cards, without an observation built for each
                if not line and judged:
                    line = list(compiled_heuristic.playout(replay).plays)
                if line and line.pop(0) != aid:
                    line = []  # off the heuristic's line (a forced play never is): a new playout when next judged
                    cards += judged
                replay.replay_ids((aid,))  # a private copy, replaying a real hand's plays
            else:
                if judged and len(replay.legal_action_ids()) > 1 and self.judge.heuristic_id(replay, actor) != aid:
                    if playing:
                        cards += 1
                    else:
                        bids += 1
                replay.apply_id(aid)
            if bound is not None and (bids, cards) >= bound:
                break
        return (bids, cards)

    def _rollout(self, sample: GameState, action: int, before: list[int], side: int) -> float:
        state = sample.clone()
        hands = len(state.deal_results)
        state.apply_id(action)
        choose = self.policy.choose
        compiled = self.fast
        while not state.is_over() and len(state.deal_results) == hands:
            if self.solve_rollouts and fast.supports(state):
                pos = fast.position(state)
                if pos.hands[pos.turn].bit_count() <= self.endgame:
                    # the rest of the hand solved: the best card's value for the side to move
                    # (the hand's score margin; with two sides the other side's is its negative)
                    values = Solver(state, max(self.deadline - time.monotonic(), 1e-3), margin=True).root_values()
                    self.stats.rollout_solves += 1
                    self.stats.rollouts += 1
                    best = max(values.values())
                    return best if self.game.side_of(pos.turn) == side else -best
            if compiled and fast.supports(state):
                # the rest of the card play in C; the engine replays it (unchecked: a private
                # sample), so that it scores the hand (the rules of record) and anything after the
                # card play goes on as before
                state.replay_ids(fast.playout(state, self.rng.getrandbits(64), FAST_POLICY).plays)
                compiled = False  # one playout reaches the hand's end (or leaves the card play)
                self.stats.fast_playouts += 1
                continue
            if self.compiled_play and compiled_heuristic.supports(state):
                state.replay_ids(compiled_heuristic.playout(state).plays)
                self.stats.compiled_playouts += 1
                continue
            state.apply_id(choose(state))
        self.stats.rollouts += 1
        if self.spread is not None:
            return match_value(state, before, side, self.spread)
        return margin(state.scores(), before, side)
