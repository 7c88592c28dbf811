"""The search bot's chain of deals (setting ``chain``, bots/search/chain.py): a Metropolis chain
that draws the deals a seat could be facing in proportion to the inference's weight."""

from __future__ import annotations

import math
import random
from collections import Counter

from arena.players.base import MatchInfo
from arena.plugins import get_registry
from bots.heuristic import HeuristicBot
from bots.search import SearchBot
from bots.search.chain import DealChain


def _decision(game: str, players: int, tricks: int, seed: int = 5, deviant: int | None = None):
    """Seat 0's card-play decision after ``tricks`` tricks of a hand the heuristic plays in every
    seat (but ``deviant``, whose cards are random), with seat 0's observations before it (a search
    bot's proxy follows them all)."""
    g = get_registry().game(game, {"players": players})
    kinds = g.page()["phases"]
    for s in range(seed, seed + 20):
        state, heuristics, plays, seen = g.new_match(seed=s), [HeuristicBot(p) for p in range(players)], 0, []
        rng = random.Random(s)
        while not state.is_over() and len(state.deal_results) == 0:
            mover = state.current_player()
            obs = dict(state.observation(mover), time_left=60.0, bank_left=None)
            if mover == 0 and kinds.get(state.phase) == "play" and len(obs["legal_actions"]) > 1 \
                    and plays >= tricks * players:
                return g, state, seen, obs
            if mover == 0:
                seen.append(obs)
            plays += kinds.get(state.phase) == "play"
            deviates = mover == deviant and kinds.get(state.phase) == "play"
            state.apply(rng.choice(obs["legal_actions"]) if deviates else heuristics[mover].act(obs))
    raise AssertionError("no such decision")


def test_the_chain_draws_deals_in_proportion_to_their_weight():
    """Weighting each deal by 3 to the power of how many of half the hidden cards seat 1 holds, the
    chain's deals give the same distribution of that count as independent uniform draws weighted
    alike (and not the uniform one: the weight moves it)."""
    g, state, _, _ = _decision("bid_euchre", 4, 3)
    layout, _ = state.resample_layout(0)
    half = set(sorted(layout.cards)[::2])

    def _held(sample, seat: int) -> int:  # (the count the weight reads)
        return sum(card in half for card in sample.observation(seat)["hand"])
    rng, n = random.Random(1), 3000
    chain = DealChain(state, 0, rng, lambda sample: math.log(3) * _held(sample, 1))
    walked: Counter[int] = Counter()
    for _ in range(n):
        chain.step()
        walked[_held(chain.sample, 1)] += 1
    weighted: Counter[int] = Counter()
    uniform: Counter[int] = Counter()
    for _ in range(n):
        count = _held(state.resample(0, rng), 1)
        weighted[count] += 3 ** count
        uniform[count] += 1

    def distance(a: Counter[int], b: Counter[int]) -> float:
        ta, tb = sum(a.values()), sum(b.values())
        return sum(abs(a[k] / ta - b[k] / tb) for k in set(a) | set(b)) / 2

    assert chain.taken > n // 10, (chain.taken, chain.proposed)
    assert distance(uniform, weighted) > 0.15, (uniform, weighted)  # the weight matters here
    assert distance(walked, weighted) < 0.06, (walked, weighted)


def test_the_chain_s_deals_agree_with_the_seat_s_view():
    """Every deal of the chain is one the seat could be facing: its observation is the seat's."""
    g, state, _, _ = _decision("five_hundred", 6, 4)
    chain = DealChain(state, 0, random.Random(2), lambda sample: 0.0)
    real = state.observation(0)
    for _ in range(40):
        chain.step()
        assert chain.sample.observation(0) == real
    assert chain.taken


def _bot(g, seen, settings):
    bot = SearchBot({"seconds": 60.0, "seed": 3, **settings}, 0)
    bot.start_match(MatchInfo(g.name, dict(g.options), 0, ()))
    for obs in seen:
        bot.searcher.proxy.observe(obs)
    return bot.searcher


def test_the_chain_s_deals_disagree_with_fewer_of_the_others_plays():
    """Where six play Five Hundred and the others play the heuristic's cards, the chain's deals
    (``chain = 10``, ``play_weight = 0.05``) disagree with fewer of the opponents' plays than
    independent draws do: the plays are read into the deals, not only into their weights."""
    g, state, seen, obs = _decision("five_hundred", 6, 5)
    counts = {}
    for steps in (0, 10):
        searcher = _bot(g, seen, {"chain": steps, "play_weight": 0.05})
        proxy = searcher.proxy.observe(obs)
        deals = [searcher._sample(proxy, obs, float("inf"))[0] for _ in range(24)]
        judge = _bot(g, seen, {"chain": 10, "play_weight": 0.05})  # counts the same plays for both
        judge.proxy.observe(obs)
        counts[steps] = sum(judge._disagreements(deal, obs)[1] for deal in deals) / len(deals)
    assert counts[10] < 0.7 * counts[0], counts


def test_partners_plays_are_not_read_into_the_chain_s_deals():
    """A partner is a copy of the bot, whose cards its search chose: the chain judges only the
    opponents' plays. Seat 2, seat 0's partner, played at random: on the true deal the chain's count
    has no disagreement, the independent draws' (every other seat judged) several."""
    g, state, seen, obs = _decision("five_hundred", 6, 5, deviant=2)
    assert g.side_of(2) == g.side_of(0) != g.side_of(1)
    counted = {}
    for steps in (10, 0):
        searcher = _bot(g, seen, {"chain": steps, "play_weight": 0.05})
        searcher.proxy.observe(obs)
        counted[steps] = searcher._disagreements(state, obs)
    assert counted[10] == (0, 0) and counted[0][1] >= 2, counted


def test_a_bot_with_a_chain_searches_its_samples():
    g, state, seen, obs = _decision("fifty_six", 6, 2)
    searcher = _bot(g, seen, {"chain": 3, "play_weight": 0.5, "samples": 6})
    bot_action = searcher.decide(obs, 30.0)
    assert bot_action in obs["legal_actions"]
    assert searcher.stats.last_samples == 6 and searcher.chain is not None and searcher.chain.proposed
