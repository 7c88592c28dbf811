"""The bundled ``search`` bot (bots/search/): it plays every game and player count legally, its
choice depends only on what its seat may see, it keeps to its time budget and sample count, and
bad settings are refused with a message that names them. Counts, never timings, are checked."""

from __future__ import annotations

import random

import pytest

from arena.matches import MatchSpec, play_match
from arena.players.base import MatchInfo
from arena.plugins import get_registry
from arena.referee import TimeControl
from arena.testing import player_counts
from bots.heuristic import HeuristicBot
from bots.search import SearchBot, SettingsError, budget, parse_settings
from bots.search.proxy import ProxyBuilder, ProxyError, same_view

GAMES = ["five_hundred", "fifty_six", "all_fours", "bid_euchre"]
CELLS = [(g, n) for g in GAMES for n in player_counts(type(get_registry().game(g)))]
FAST = {"samples": 3, "seconds": 5.0}  # the sample count, not the clock, ends each search


def _options(game: str, players: int, **extra):
    return {"players": players, **extra}


@pytest.mark.parametrize("game,players", CELLS, ids=[f"{g}-{n}" for g, n in CELLS])
def test_search_plays_a_whole_match_legally(game, players):
    registry = get_registry()
    options = registry.game(game, _options(game, players, max_hands=1)).options
    names = ["search" if seat % 2 == 0 else "heuristic" for seat in range(players)]
    spec = MatchSpec.single(game, names, seed=3, options=options, isolation="inprocess",
                            settings=[{"samples": 2, "seconds": 0.05} if n == "search" else {} for n in names],
                            time_control=TimeControl(5.0), bot_seeds=range(players))
    result = play_match(spec, registry)
    assert result.termination.how in ("normal", "unfinished"), result.termination
    assert not result.record["faults"]
    assert result.record["hands"], "no hand was played"


def _decisions(game: str, players: int, hands: int = 2, seed: int = 5, seen: dict | None = None):
    """(state, seat) at each multi-choice decision of a heuristic match (for the proxy and leak
    tests); ``seen`` collects each seat's observations of the hand so far."""
    g = get_registry().game(game, _options(game, players))
    state = g.new_match(seed=seed)
    bots = [HeuristicBot(seat) for seat in range(players)]
    for seat, bot in enumerate(bots):
        bot.start_match(MatchInfo(game, dict(g.options), seat, ()))
    while not state.is_over() and len(state.deal_results) < hands:
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) > 1:
            yield state, seat
            obs = state.observation(seat)
            if seen is not None:
                mine = seen.setdefault(seat, [])
                if mine and mine[-1]["hand_index"] != obs["hand_index"]:
                    mine.clear()
                mine.append(dict(obs, time_left=5.0, bank_left=None))
            state.apply(bots[seat].act(obs))
        else:
            state.apply(legal[0])


@pytest.mark.parametrize("game,players", CELLS, ids=[f"{g}-{n}" for g, n in CELLS])
def test_the_proxy_rebuilds_the_observations(game, players):
    """From its observations alone the bot rebuilds a state that gives its seat the same view (and
    can be resampled) at nearly every decision of three hands; where it cannot, it says why and the
    bot plays the heuristic's choice (a best effort: 2 of about 1,650 decisions over the cells)."""
    g = get_registry().game(game, _options(game, players))
    builders = {seat: ProxyBuilder(g, seat, random.Random(seat)) for seat in range(players)}
    seen, failed = 0, []
    for state, seat in _decisions(game, players, hands=3):
        obs = state.observation(seat)
        seen += 1
        try:
            proxy = builders[seat].observe(obs)
        except ProxyError as exc:
            failed.append(str(exc))
            continue
        assert same_view(proxy.observation(seat), obs)
        proxy.resample(seat, random.Random(0))
    assert seen >= 3
    assert len(failed) <= seen // 20, failed


@pytest.mark.parametrize("game,players", [("fifty_six", 8), ("five_hundred", 6)])
def test_the_proxy_mends_most_card_plays_by_a_swap_where_hands_are_many(game, players):
    """With five or seven other hands, a card another seat plays is most often in a third hand in
    the proxy; the repair swaps it into its player's hand (one replay) rather than redrawing the
    deal until it lands there (about 1 draw in 7 for 56 for 8), and the proxy still gives the seat
    its view."""
    g = get_registry().game(game, _options(game, players))
    builder = ProxyBuilder(g, 0, random.Random(0))
    for state, seat in _decisions(game, players, hands=2):
        if seat == 0:
            obs = state.observation(0)
            assert same_view(builder.observe(obs).observation(0), obs)
    assert builder.repairs >= 20
    assert builder.swaps >= builder.repairs // 2, (builder.swaps, builder.repairs)


@pytest.mark.parametrize("game", GAMES)
def test_the_choice_does_not_depend_on_hidden_cards(game):
    """Two states the seat cannot tell apart (other hands dealt differently by with_hands) give
    the same observation, and the bot, seeded alike, makes the same choice in both."""
    players = 4
    g = get_registry().game(game, _options(game, players))
    checked = 0
    seen: dict = {}
    for state, seat in _decisions(game, players, hands=1, seed=11, seen=seen):
        if state.observation(seat)["phase"] != "play" or len(state.legal_actions()) < 2:
            continue
        other = state.resample(seat, random.Random(checked))
        hands_differ = any(state.observation(s)["hand"] != other.observation(s)["hand"]
                           for s in range(players) if s != seat)
        assert hands_differ or checked, "the resample dealt the same hands"
        choices = []
        for real in (state, other):
            bot = SearchBot({**FAST, "seed": 1}, seat)
            bot.start_match(MatchInfo(game, dict(g.options), seat, ()))
            for earlier in seen.get(seat, []):  # what it saw before (the same in both states)
                bot.searcher.proxy.observe(earlier)
            obs = real.observation(seat)
            obs["time_left"], obs["bank_left"] = 5.0, None
            choices.append(bot.act(obs))
            assert bot.searcher.stats.last_samples == FAST["samples"], bot.searcher.stats.errors
        assert choices[0] == choices[1]
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def _first_decision(game: str = "five_hundred"):
    g = get_registry().game(game, {})
    state = g.new_match(seed=2)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seat = state.current_player()
    return g, state, seat


def test_it_samples_as_many_deals_as_its_setting_says():
    g, state, seat = _first_decision()
    for samples in (1, 4):
        bot = SearchBot({"samples": samples, "seconds": 30.0}, 0)
        bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
        obs = state.observation(seat)
        obs["time_left"], obs["bank_left"] = 60.0, None
        assert bot.act(obs) in obs["legal_actions"]
        assert bot.searcher.stats.last_samples == samples
        assert bot.searcher.stats.rollouts >= samples * 2  # every candidate on every sample


def test_candidates_caps_the_actions_searched():
    """Five Hundred's first decision is a bid with many legal actions: each sample rolls out at
    most ``candidates`` of them (the heuristic's choice among them)."""
    g, state, seat = _first_decision()
    obs = state.observation(seat)
    obs["time_left"], obs["bank_left"] = 60.0, None
    assert len(obs["legal_actions"]) > 6
    for candidates in (2, 3, 6):
        bot = SearchBot({"samples": 2, "seconds": 30.0, "candidates": candidates}, 0)
        bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
        assert bot.act(obs) in obs["legal_actions"]
        assert bot.searcher.stats.rollouts == 2 * candidates


@pytest.mark.parametrize("time_left,bank_left", [(0.0, None), (5.0, 0.0), (0.04, None)])
def test_no_time_left_means_no_search(time_left, bank_left):
    g, state, seat = _first_decision()
    bot = SearchBot({"samples": 50, "seconds": 2.0}, 0)
    bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
    obs = state.observation(seat)
    obs["time_left"], obs["bank_left"] = time_left, bank_left
    assert bot.act(obs) in obs["legal_actions"]
    assert bot.searcher.stats.last_samples == 0 and bot.searcher.stats.rollouts == 0


def test_the_budget_is_the_setting_within_the_clock():
    settings = parse_settings({"seconds": 1.0})
    assert budget(settings, {"time_left": 10.0, "bank_left": None}) == 1.0
    assert budget(settings, {"time_left": 0.5, "bank_left": None}) == pytest.approx(0.5 * 0.75 - 0.05)
    assert budget(settings, {"time_left": 10.0, "bank_left": 4.0}) == pytest.approx(4.0 / 20 - 0.05)
    assert budget(settings, {"time_left": 0.0, "bank_left": None}) == 0.0
    assert budget(parse_settings({"seconds": 0}), {"time_left": 10.0}) == 0.0


def test_bid_seconds_is_the_budget_of_the_auction_s_decisions_only():
    """``bid_seconds``: the auction's kind of decision (bids, trumps) gets its own time, within the
    same clock; the card play keeps ``seconds``; unset, both are ``seconds``."""
    settings = parse_settings({"seconds": 0.1, "bid_seconds": 0.6})
    assert budget(settings, {"time_left": 10.0}, bidding=True) == 0.6
    assert budget(settings, {"time_left": 10.0}) == 0.1
    assert budget(settings, {"time_left": 0.5}, bidding=True) == pytest.approx(0.5 * 0.75 - 0.05)
    assert budget(parse_settings({"seconds": 0.3}), {"time_left": 10.0}, bidding=True) == 0.3
    g, state, seat = _first_decision("five_hundred")  # an auction decision
    seen = []
    bot = SearchBot({"seconds": 0.0, "bid_seconds": 0.25, "samples": 1}, 0)
    bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
    bot.searcher.decide = lambda obs, seconds: seen.append(seconds) or obs["legal_actions"][0]
    bot.act(dict(state.observation(seat), time_left=10.0, bank_left=None))
    assert seen == [0.25]


@pytest.mark.parametrize("settings,words", [
    ({"sample": 3}, "unknown setting(s) sample"),
    ({"samples": -1}, "samples must be a whole number >= 0, not -1"),
    ({"samples": "many"}, "samples must be a whole number >= 0, not 'many'"),
    ({"samples": 2.5}, "samples must be a whole number"),
    ({"seconds": "soon"}, "seconds must be a number of seconds >= 0, not 'soon'"),
    ({"seconds": -1}, "seconds must be a number of seconds >= 0"),
    ({"bid_seconds": "long"}, "bid_seconds must be a number of seconds >= 0, not 'long'"),
    ({"rollout": "mcts"}, "rollout must be one of heuristic, random, fast, solve, not 'mcts'"),
    ({"rollout": "solve"}, "rollout solve needs endgame >= 1, the cards in hand from which a rollout is solved exactly, not 0"),
    ({"seed": [1]}, "seed must be a whole number or a string"),
    ({"candidates": 1}, "candidates must be a whole number >= 2, not 1"),
    ({"candidates": "all"}, "candidates must be a whole number >= 2, not 'all'"),
    ({"endgame": -1}, "endgame must be a whole number >= 0, not -1"),
    ({"inference_tries": 0}, "inference_tries must be a whole number >= 1, not 0"),
    ({"chain": -1}, "chain must be a whole number >= 0, not -1"),
    ({"chain": "long"}, "chain must be a whole number >= 0, not 'long'"),
    ({"play_weight": 0}, "play_weight must be a number in (0, 1], not 0"),
    ({"play_weight": 1.5}, "play_weight must be a number in (0, 1], not 1.5"),
    ({"overbid": "no"}, 'overbid must be true, false or "opponents", not \'no\''),
    ({"policy": "mcts"}, "policy must be one of heuristic, learned, not 'mcts'"),
    ({"compiled": "yes"}, "compiled must be true or false, not 'yes'"),
    ({"value": "points"}, "value must be one of hand, match, not 'points'"),
    ({"value": "match", "endgame": 3}, "value match cannot take endgame 3: the solver values the hand's score margin"),
])
def test_bad_settings_are_refused_with_their_name(settings, words):
    with pytest.raises(SettingsError) as caught:
        SearchBot(settings, 0)
    assert words in str(caught.value)
    assert str(caught.value).startswith("search: ")


def test_random_rollouts_play_too():
    g, state, seat = _first_decision("all_fours")
    bot = SearchBot({"samples": 3, "seconds": 30.0, "rollout": "random"}, 0)
    bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
    obs = state.observation(seat)
    obs["time_left"], obs["bank_left"] = 60.0, None
    assert bot.act(obs) in obs["legal_actions"]
    assert bot.searcher.stats.last_samples == 3


@pytest.mark.parametrize("game", GAMES)
def test_a_state_started_mid_match_resamples_with_its_scores(game):
    """start_hand with scores, then resample: the samples keep the scores (Bid Euchre once took
    them from the last hand's result, which a state started mid-match does not have)."""
    g = get_registry().game(game, {})
    first = g.new_match(seed=4)
    deck, dealer = first.deals[-1]["deck"], first.deals[-1]["dealer"]
    scores = [3] * g.num_sides
    state = g.start_hand(dealer, deck, scores)
    seat = state.current_player()
    sample = state.resample(seat, random.Random(1))
    assert sample.observation(seat)["scores"] == state.observation(seat)["scores"]


def test_its_sandbox_shows_it_the_heuristic_and_the_learned_bot_and_nothing_else():
    from arena.players.sandbox import bot_entries

    from arena.players.seats import _bot_modules

    registry = get_registry()
    search, heuristic = (bot_entries(f"bots.{name}", _bot_modules(registry, name)) for name in ("search", "heuristic"))
    assert set(search) == {"bots/search", "bots/heuristic", "bots/learned", "bots/__init__.py"}
    assert set(heuristic) == {"bots/heuristic", "bots/__init__.py"}  # and not the other way


def _late_decision(game: str, cards: int, seed: int = 4):
    """A play decision of a random hand with ``cards`` cards left in the hand of the seat to act,
    the others' plays random (so the heuristic would not have made many of them)."""
    g = get_registry().game(game, {})
    kinds = g.page()["phases"]
    for s in range(seed, seed + 50):
        state, rng = g.new_match(seed=s), random.Random(s)
        while not state.is_over():
            seat = state.current_player()
            obs = state.observation(seat)
            if kinds.get(state.phase) == "play" and len(obs["hand"]) == cards and len(obs["legal_actions"]) > 1:
                return g, state, seat, obs
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such decision")


def _act(g, seat, obs, **settings):
    bot = SearchBot({"seconds": 30.0, **settings}, 0)
    bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
    obs = dict(obs, time_left=60.0, bank_left=None)
    action = bot.act(obs)
    assert action in obs["legal_actions"]
    return bot.searcher


@pytest.mark.parametrize("game", ["five_hundred", "fifty_six", "all_fours", "bid_euchre"])
def test_endgame_solves_each_sample_exactly(game):
    """With ``endgame`` k, a decision with at most k cards in hand values every legal card on each
    sample with the exact solver (no rollouts); above k, or with 0, it rolls out as before."""
    g, state, seat, obs = _late_decision(game, 3)
    solved = _act(g, seat, obs, samples=4, endgame=3)
    assert solved.stats.solves == 4 and solved.stats.rollouts == 0
    assert _act(g, seat, obs, samples=4, endgame=2).stats.solves == 0
    rolled = _act(g, seat, obs, samples=4)
    assert rolled.stats.solves == 0 and rolled.stats.rollouts >= 8


def test_a_solve_too_deep_for_the_budget_rolls_out_instead():
    """The first solve of a decision may take 1/16 of its budget: a 56 hand with 8 cards left does
    not solve in 1/16 of 0.3 s, so the decision is rolled out and counted as unsolved."""
    g, state, seat, obs = _late_decision("fifty_six", 8)
    searcher = _act(g, seat, dict(obs), samples=2, endgame=8, seconds=0.3)
    assert searcher.stats.unsolved == 1 and searcher.stats.solves == 0 and searcher.stats.rollouts > 0


def test_card_plays_weigh_samples_when_play_weight_is_below_one():
    """The other seats played at random: with ``play_weight`` w < 1 a sample loses w per card play
    the heuristic would not have made on its deal; at 1 (the default) card plays weigh nothing."""
    g, state, seat, obs = _late_decision("bid_euchre", 2)
    for weight, plays_count in ((0.5, True), (1.0, False)):
        bot = SearchBot({"seconds": 30.0, "play_weight": weight, "seed": 3}, 0)
        bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
        full = dict(obs, time_left=60.0, bank_left=None)
        searcher = bot.searcher
        proxy = searcher.proxy.observe(full)
        misses = [searcher._disagreements(proxy.resample(seat, searcher.rng), full)[1] for _ in range(8)]
        assert any(misses) == plays_count, misses


@pytest.mark.skipif(not __import__("arena.fast").fast.available(), reason="no compiled fast path")
@pytest.mark.parametrize("game, players", [("five_hundred", 4), ("five_hundred", 6), ("fifty_six", 6),
                                           ("all_fours", 2), ("bid_euchre", 4)])
def test_the_play_inference_reads_the_compiled_heuristic_s_cards(monkeypatch, game, players):
    """With ``play_weight`` below 1 the others' card plays are judged by the compiled heuristic's
    play (one playout for as long as the plays follow it): on the same samples it counts the
    disagreements the Python heuristic's own cards count (``compiled = false``), in hands whose
    other seats play the heuristic's cards with a random one now and then."""
    from bots.heuristic import compiled as compiled_heuristic
    g = get_registry().game(game, {"players": players})
    kinds = g.page()["phases"]
    state, rng = g.new_match(seed=7), random.Random(7)
    heuristics = [HeuristicBot(s) for s in range(players)]
    seat, plays, others = 0, 0, 0  # card plays before the decision; of them, the other seats'
    while True:
        mover = state.current_player()
        obs = state.observation(mover)
        if mover == seat and kinds.get(state.phase) == "play" and len(obs["legal_actions"]) > 1 and plays >= 3 * players:
            break
        plays += kinds.get(state.phase) == "play"
        others += kinds.get(state.phase) == "play" and mover != seat
        obs["time_left"], obs["bank_left"] = 60.0, None
        state.apply(rng.choice(obs["legal_actions"]) if rng.random() < 0.2 else heuristics[mover].act(obs))
    full = dict(state.observation(seat), time_left=60.0, bank_left=None)
    counted, compiled_calls = {}, []
    playout = compiled_heuristic.playout
    monkeypatch.setattr(compiled_heuristic, "playout", lambda st: compiled_calls.append(1) or playout(st))
    for compiled in (True, False):
        bot = SearchBot({"seconds": 30.0, "play_weight": 0.5, "compiled": compiled, "seed": 3}, seat)
        bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
        searcher = bot.searcher
        proxy = searcher.proxy.observe(full)
        counted[compiled] = [searcher._disagreements(proxy.resample(seat, random.Random(i)), full) for i in range(6)]
        if compiled:
            assert compiled_calls, "the compiled play was not read"
            calls, compiled_calls[:] = len(compiled_calls), []
    assert counted[True] == counted[False] and not compiled_calls
    assert any(cards for _, cards in counted[True]), counted  # some plays left the heuristic's line
    assert calls < 6 * others  # not one playout for every card judged: one a departure from the line


def test_inference_tries_is_the_number_of_draws_for_a_sample():
    """The others bid at random, so on every deal drawn the heuristic disagrees with some of their
    bids (each draw counts as rejected): at the default a sample takes its 4 draws, at 1 only one,
    kept with its weight."""
    g, state, seat, obs = _late_decision("bid_euchre", 3)
    redrawn = {}
    for tries in (4, 1):
        searcher = _act(g, seat, dict(obs), samples=12, inference_tries=tries, seed=3)
        assert searcher.stats.last_samples == 12, searcher.stats.errors
        redrawn[tries] = searcher.stats.rejected
    assert redrawn == {4: 4 * 12, 1: 12}


def test_the_count_of_disagreements_stops_at_its_bound():
    """A redraw only replaces the best sample so far if it disagrees less: given that count as a
    bound, the count stops once it reaches it (the same sample chosen, less of the heuristic run)."""
    g, state, seat, obs = _late_decision("bid_euchre", 2)
    bot = SearchBot({"seconds": 30.0, "play_weight": 0.5, "seed": 3}, 0)
    bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
    full = dict(obs, time_left=60.0, bank_left=None)
    searcher = bot.searcher
    proxy = searcher.proxy.observe(full)
    cut_short = 0
    for _ in range(8):
        sample = proxy.resample(seat, searcher.rng)
        whole, bounded = searcher._disagreements(sample, full), searcher._disagreements(sample, full, (0, 1))
        assert bounded == whole if whole < (0, 1) else (0, 1) <= bounded <= whole
        cut_short += bounded < whole
    assert cut_short


def test_without_overbid_no_bid_above_the_heuristic_s_is_searched():
    """``overbid = false``: in an auction the candidates are the heuristic's bid and the calls below
    it in the legal order (a pass first), never a higher bid; with the default, higher ones too."""
    g, state, seat = _first_decision()
    obs = dict(state.observation(seat), time_left=60.0, bank_left=None)
    legal = obs["legal_actions"]
    heuristic = HeuristicBot(0)
    heuristic.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
    ceiling = legal.index(heuristic.act(dict(obs)))
    for overbid in (False, True):
        bot = SearchBot({"samples": 2, "seconds": 30.0, "overbid": overbid}, 0)
        bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
        searched: list[int] = []
        rollout = bot.searcher._rollout
        bot.searcher._rollout = lambda sample, action, before, side: searched.append(action) or rollout(sample, action, before, side)
        choice = bot.act(obs)
        above = [a for a in searched if legal.index(g.action_string(a)) > ceiling]
        assert bool(above) == overbid, (overbid, [g.action_string(a) for a in searched])
        if not overbid:
            assert legal.index(choice) <= ceiling


def test_solve_rollouts_end_in_the_exact_value_of_the_rest_of_the_hand():
    """``rollout = solve``: a rollout that reaches the card play with at most ``endgame`` cards in
    hand ends in the solver's value of the rest for the side, whoever is to play next (the other
    side's best, negated): so at a card play it gives each card the value the endgame solve does."""
    from arena.solver import Solver

    def opponent_next(state, seat, action):
        after = state.clone()
        after.apply_id(action)
        return after.game.side_of(after.current_player()) != after.game.side_of(seat)

    for seed in range(4, 60):  # an opponent plays next, and the cards are not all worth the same
        g, state, seat, obs = _late_decision("bid_euchre", 4, seed)
        values = Solver(state, margin=True).root_values()
        if len(set(values.values())) > 1 and all(opponent_next(state, seat, c) for c in values):
            break
    searcher = _act(g, seat, obs, samples=2, rollout="solve", endgame=4)  # the decision itself solves
    assert searcher.stats.solves == 2 and searcher.stats.rollouts == 0
    sample = state.clone()
    side = g.side_of(seat)
    rolled = {c: searcher._rollout(sample, c, sample.scores(), side) for c in values}
    assert rolled == pytest.approx(values) and len(set(values.values())) > 1
    assert searcher.stats.rollout_solves == searcher.stats.rollouts == len(values)


def test_solve_rollouts_solve_an_auction_s_hands_and_only_where_the_value_is_the_score():
    """From the auction each rollout plays the heuristic to the card play, then solves it (Bid
    Euchre: the whole card play, 6 cards); 56, whose solver counts card points rather than the score,
    rolls out with the heuristic as before."""
    g, state, seat = _first_decision("bid_euchre")
    obs = state.observation(seat)
    searcher = _act(g, seat, obs, samples=3, rollout="solve", endgame=6)
    assert state.phase == "auction" and 0 < searcher.stats.rollout_solves <= searcher.stats.rollouts
    g, state, seat = _first_decision("fifty_six")
    searcher = _act(g, seat, state.observation(seat), samples=2, rollout="solve", endgame=8)
    assert searcher.stats.rollout_solves == 0 and searcher.stats.rollouts > 0


def test_overbid_opponents_searches_no_bid_above_the_heuristic_s_over_a_partner():
    """``overbid = "opponents"``: bids above the heuristic's are searched when the high bid so far is
    an opponent's (or there is none), not when it is a partner's: no bidding war between partners."""
    g, state, seat = _first_decision("five_hundred")
    searcher = _act(g, seat, state.observation(seat), samples=1, overbid="opponents")
    partner, opponent = (seat + 2) % 4, (seat + 1) % 4
    assert searcher._may_overbid({"history": []})
    assert searcher._may_overbid({"history": [[partner, "bid 6S"], [opponent, "bid 7C"]]})
    assert not searcher._may_overbid({"history": [[opponent, "bid 6S"], [partner, "bid 7C"], [opponent, "pass"]]})
    assert searcher._may_overbid({"history": [[seat, "bid 6S"], [opponent, "pass"]]})
    for setting, over_partner in ((True, True), (False, False)):
        searcher.overbid = setting
        assert searcher._may_overbid({"history": [[partner, "bid 7C"]]}) is over_partner


def _learned_decisions(count: int):
    """Bid Euchre auction and trump decisions of heuristic matches where the ``learned`` bot's
    network leaves the heuristic's choice: (game, seat, observation, learned's choice)."""
    from bots.learned import LearnedBot

    g = get_registry().game("bid_euchre", {})
    found = []
    for s in range(200):
        state = g.new_match(seed=s)
        bots = {}
        while state.phase in ("auction", "trump"):  # the first hand's decisions before its card play
            seat = state.current_player()
            if seat not in bots:
                bots[seat] = (HeuristicBot(seat), LearnedBot({}, seat))
                for bot in bots[seat]:
                    bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
            obs = dict(state.observation(seat), time_left=60.0, bank_left=None)
            own, learned = (bot.act(obs) for bot in bots[seat])
            if own != learned:
                found.append((g, seat, obs, learned))
                if len(found) == count:
                    return found
            state.apply(own)
    raise AssertionError("the network never left the heuristic")


def test_policy_learned_falls_back_to_the_network_s_choice():
    """``policy = learned``: where it does not search (samples 0) it plays the ``learned`` bot's
    choice, not the heuristic's, and that choice is the default a search must beat; the rollouts
    and the inference stay the heuristic's."""
    from bots.learned import LearnedBot

    for g, seat, obs, learned in _learned_decisions(3):
        bot = SearchBot({"samples": 0, "policy": "learned"}, 0)
        bot.start_match(MatchInfo(g.name, dict(g.options), seat, ()))
        assert bot.act(dict(obs)) == learned
    searcher = _act(g, seat, obs, samples=2, policy="learned")
    assert isinstance(searcher.default.heuristic(seat), LearnedBot)
    assert type(searcher.policy.heuristic((seat + 1) % 4)) is HeuristicBot
    assert type(searcher.judge.heuristic((seat + 1) % 4)) is HeuristicBot
    assert searcher.stats.last_samples == 2


@pytest.mark.parametrize("game,options,words", [
    ("five_hundred", {}, "its network plays bid_euchre only, not 'five_hundred'"),
    ("bid_euchre", {"target_score": 11}, "options target_score differ"),
])
def test_policy_learned_is_refused_where_there_is_no_network(game, options, words):
    g = get_registry().game(game, options)
    bot = SearchBot({"policy": "learned"}, 0)
    with pytest.raises(SettingsError) as caught:
        bot.start_match(MatchInfo(g.name, dict(g.options), 0, ()))
    assert str(caught.value).startswith(f"search: policy learned cannot play {game}: ")
    assert words in str(caught.value)


@pytest.mark.skipif(not __import__("arena.fast").fast.available(), reason="no compiled fast path")
@pytest.mark.parametrize("game", ["five_hundred", "fifty_six", "all_fours", "bid_euchre"])
def test_compiled_rollouts_play_the_heuristic_s_cards(monkeypatch, game):
    """Every game's heuristic rollouts take their card play from the compiled heuristic
    (``compiled``, the default): on the same samples every candidate's margin, and so the choice,
    is what the Python heuristic's card play gives (``compiled = false``), bids and cards alike."""
    import bots.search.pimc as pimc
    rows: list = []
    choose = pimc.choose
    monkeypatch.setattr(pimc, "choose", lambda r: rows.append([list(x) for x in r]) or choose(r))
    g = get_registry().game(game, {"max_hands": 4})
    state, seen = g.new_match(seed=4), {"bid": 0, "play": 0}
    kinds = g.page()["phases"]
    players = [HeuristicBot(s) for s in range(4)]
    while state.current_player() is not None and min(seen.values()) < 2:
        seat, obs = state.current_player(), state.observation(state.current_player())
        obs["time_left"], obs["bank_left"] = 60.0, None
        kind = kinds.get(obs["phase"])
        if seat == 0 and kind in seen and len(obs["legal_actions"]) > 1:
            choices, stats = [], []
            for compiled in (True, False):
                bot = SearchBot({"samples": 4, "seconds": 60.0, "compiled": compiled, "seed": 9}, 0)
                bot.start_match(MatchInfo(g.name, dict(g.options), 0, ()))
                choices.append(bot.act(dict(obs)))
                stats.append(bot.searcher.stats)
            assert rows[-1] == rows[-2] and choices[0] == choices[1]
            assert stats[0].compiled_playouts > 0 and stats[1].compiled_playouts == 0
            seen[kind] += 1
        state.apply(players[seat].act(obs))
    assert min(seen.values()) == 2, seen
