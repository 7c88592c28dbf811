"""arena.fast (issue #35): the compiled card play agrees with the Python engines, the rules of record.

The differential check (:mod:`arena.fast.check`) plays random matches of every game, player count
and play-changing option with the engines and compares, at every card-play decision, the legal
plays; at every finished trick, the winner and the points; and from a share of the positions a
whole fast playout replayed in the engine. Here at some tens of thousands of positions (about a
second); ``arena bench --only fastpath`` runs a million. Without the compiled extension (no
compiler at install time) the comparisons are skipped and the fallback is tested instead.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from arena import fast
from arena.fast import check
from arena.games.base import GameState

needs_fast = pytest.mark.skipif(not fast.available(), reason=f"no compiled fast path: {fast.why_unavailable()}")

POSITIONS = 30_000

# Every play feature the check must meet at the suite's count (a configuration list that lost one
# would still pass the comparisons while no longer testing it).
FEATURES = (
    "five_hundred seats in a trick 2", "five_hundred seats in a trick 3", "five_hundred seats in a trick 4",
    "five_hundred seats in a trick 5", "five_hundred seats in a trick 6", "five_hundred suit",
    "five_hundred no trumps suitless joker", "five_hundred no trumps joker nominated",
    "five_hundred misere suitless joker", "five_hundred joker lead naming a suit", "five_hundred forced joker",
    "fifty_six 4 of 4 seats active", "fifty_six 6 of 6 seats active", "fifty_six 8 of 8 seats active",
    "fifty_six 6 of 8 seats active", "fifty_six 4 of 6 seats active", "fifty_six no trumps", "fifty_six trumps",
    "all_fours seats in a trick 2", "all_fours seats in a trick 4", "all_fours a revoke possible",
    "all_fours no undertrump following",
    "bid_euchre seats in a trick 3", "bid_euchre seats in a trick 4", "bid_euchre no trumps", "bid_euchre trumps",
    "bid_euchre renege possible", "bid_euchre two copies in a hand",
)


@pytest.fixture(scope="module")
def report() -> check.Report:
    return check.check(POSITIONS, seed="suite")


@needs_fast
def test_the_fast_path_agrees_with_the_engines_on_random_positions(report):
    assert report.mismatch_count == 0, "\n".join(report.mismatches)
    assert report.positions == POSITIONS
    assert report.tricks > POSITIONS // 5
    assert report.playouts > POSITIONS // 25 and report.plays_replayed > report.playouts * 5
    # every playout policy's plays are legal in the engine and end its hand as the engine does
    assert min(report.by_policy[name] for name in ("random", "simple", "partner")) > POSITIONS // 200, report.by_policy


@needs_fast
def test_the_check_covers_every_configuration_and_play_feature(report):
    assert len(report.by_config) == len(check.CONFIGS)
    assert min(report.by_config.values()) >= POSITIONS // len(check.CONFIGS)
    missing = [feature for feature in FEATURES if not report.features[feature]]
    assert not missing, f"the check met no position with {missing}"


@needs_fast
def test_a_playout_replays_in_the_engine_and_playouts_count_every_trick():
    game = check.make_game("bid_euchre", {})
    state = game.new_match(seed=3)
    rng = random.Random(3)
    while not fast.supports(state):
        state.apply_id(rng.choice(state.legal_action_ids()))
    out = fast.playout(state, 11)
    tricks_left = 6
    seats = fast.position(state).nactive  # 3 when a lone contractor's partner sits out
    assert sum(out.tricks) == tricks_left and len(out.plays) == seats * tricks_left == len(set(out.plays))
    assert fast.playout(state, 11) == out  # the same seed, the same playout
    assert state.legal_action_ids() and fast.legal_ids(state) == state.legal_action_ids()  # state untouched
    tricks, points, plays = fast.playouts(state, 1000, seed=5)
    assert sum(tricks) == 1000 * tricks_left and plays == len(out.plays) * 1000 and points == (0, 0, 0, 0)
    assert sum(fast.playouts(state, 10, seed=5, policy=fast.SIMPLE)[0]) == 10 * tricks_left


@needs_fast
def test_bad_tables_are_refused_with_a_value_error():
    from arena.fast import _play
    with pytest.raises(ValueError, match="eff must be 64 bytes"):
        _play.Rules(b"", bytes(64), bytes(64), [-1] * 64, -1, 0, 0, 0, 0, -1, -1, 0, 0, 0, bytes([1, 0]), 2, -1)
    rules = _play.Rules(bytes(64), bytes(64), bytes(64), [-1] * 64, -1, 0, 0, 0, 0, -1, -1, 0, 0, 0, bytes([1, 0]), 2, -1)
    with pytest.raises(ValueError, match="at most 8 cards"):
        _play.winner(rules, bytes(9))
    with pytest.raises(ValueError, match="holds no card"):
        _play.playout(rules, (0, 0), 0, b"", b"", -1, 0, 1, 0)


def test_without_the_extension_the_arena_runs_and_the_search_bot_says_so_once():
    """The install without a compiler (docs/fastpath.md): arena.fast imports, says why it is
    missing, and the search bot plays on the Python engines, telling it once a process."""
    program = r"""
import logging, sys
sys.modules["arena.fast._play"] = None  # as if the extension was never built
from arena import fast
assert not fast.available() and "is not built here" in fast.why_unavailable(), fast.why_unavailable()
try:
    fast.legal_ids(None)
except fast.FastPathUnavailable as exc:
    print("unavailable:", exc)
from arena.matches import MatchSpec, play_match
from arena.plugins import get_registry
settings = {"samples": 2, "seconds": 0.05}
spec = MatchSpec.single("bid_euchre", ["search", "random", "search", "random"], seed=1,
                        options={"max_hands": 1}, settings=[settings, {}, settings, {}])
result = play_match(spec, get_registry())
print("hands", len(result.record["hands"]))
"""
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "unavailable: the compiled extension arena.fast._play is not built here" in done.stdout
    assert "hands 1" in done.stdout
    notices = [line for line in done.stderr.splitlines() if "compiled fast path is missing" in line]
    assert len(notices) == 1, done.stderr  # two search seats, one notice


@needs_fast
def test_the_partner_policy_leaves_a_partner_s_trick_and_gives_it_points():
    """One suit of sixteen cards, power = id, card 3 counts 10. SIMPLE takes the trick from the
    partner who is taking it; PARTNER plays under it and, last to play, gives it the points."""
    from arena.fast import _play
    points = bytes([0, 0, 0, 10]) + bytes(60)
    rules = _play.Rules(bytes(64), bytes(range(64)), points, list(range(16)) + [-1] * 48, -1, 0, 0, 0, 0,
                        -1, -1, 0, 0, 0, bytes([1, 2, 3, 0]), 4, -1)
    sides = bytes([0, 1, 0, 1])

    def hand(*cards: int) -> int:
        return sum(1 << c for c in cards)

    # seat 0 led 5, seat 1 played 1: seat 2 (seat 0's partner) holds 6 and 2
    third = (rules, (hand(4), hand(0), hand(6, 2), hand(7, 3)), 2, bytes([0, 1]), bytes([5, 1]), 0, 1, 0)
    assert _play.playout(*third, fast.SIMPLE)[0][0] == 6
    assert _play.playout(*third, fast.PARTNER, sides)[0][0] == 2
    assert _play.playout(*third, fast.PARTNER)[0][0] == 6  # no sides: every seat its own, as SIMPLE
    # 2, 5, 1 played: seat 1 is taking the trick; seat 3, last, holds 7, 3 (10 points) and 0
    last = (rules, (hand(8, 9), hand(10, 11), hand(12, 13), hand(7, 3, 0)), 3, bytes([0, 1, 2]), bytes([2, 5, 1]),
            0, 1, 0)
    assert _play.playout(*last, fast.SIMPLE)[0][0] == 7
    assert _play.playout(*last, fast.PARTNER, sides)[0][0] == 3
    with pytest.raises(ValueError, match="one side per seat"):
        _play.playout(*last, fast.PARTNER, bytes([0, 1]))
    with pytest.raises(ValueError, match="policy is 0"):
        _play.playout(*last, 7)
    with pytest.raises(ValueError, match="the heuristics' policies, and only they, take sides and a plan"):
        _play.playout(*last, fast.FIVE_HUNDRED, sides)


# -- the heuristic's card play of every game in C (arena/fast/_heuristic.h) ---------------------------

HEURISTIC_POSITIONS = 20_000


@needs_fast
def test_with_five_players_the_partner_policy_leaves_the_trick_to_the_hand_s_partner():
    """Five Hundred for 5: every seat is its own side in the match, but the contractor's partner,
    named for the hand, is its partner in the play (R-6.1). 7S by seat 2 with seat 3; seat 3 leads
    the ace of diamonds and the others follow: seat 2, last and void in diamonds, does not ruff."""
    from tests.games.test_five_hundred_support import game, plan_hand, start
    g = game(players=5)
    deck, actions = plan_hand(g, 4, ["pass", "bid 6H", "bid 7S", "pass", "pass", "pass"], partners="partners 3",
                              tricks=[3], voids={2: "D"},
                              held={3: ["AD"], 4: ["5D"], 0: ["6D"], 1: ["7D"], 2: ["9S", "4C"]})
    st = start(g, [deck], 4)
    for action in actions + ["play AD", "play 5D", "play 6D", "play 7D"]:
        st.apply(action)
    assert st.current_player() == 2 and st.allies(2) == {2, 3}
    assert any(a.endswith("S") for a in st.legal_actions())  # it could ruff
    assert fast.position(st).sides == bytes([0, 1, 2, 2, 4])
    call = g.action_string(fast.playout(st, 0, fast.PARTNER).plays[0])
    assert not call.endswith("S") and not call.endswith("JK"), call


@needs_fast
def test_the_compiled_heuristic_plays_as_the_python_one():
    """Every configuration of the check of every game (player counts, misere, the joker's rules,
    knock-outs, the double deck, lone hands, revokes and reneges allowed and penalized): the compiled play's card is the
    heuristic's at every position, and one position in eight the whole rest of the hand's play is
    the same (All Fours' chances to the last bit of their floats)."""
    from bots.heuristic import compiled
    compared, found = compiled.differences(HEURISTIC_POSITIONS, seed="suite")
    assert compared == HEURISTIC_POSITIONS and not found, "\n".join(found)


@needs_fast
@pytest.mark.parametrize("game,start,end", [("five_hundred", 144, 152), ("fifty_six", 104, 112), ("fifty_six", 112, 120),
                                           ("all_fours", 448, 456), ("all_fours", 456, 464), ("bid_euchre", 100, 125),
                                           ("bid_euchre", 125, 225)],
                         ids=["five_hundred-played", "fifty_six-played", "fifty_six-voids", "all_fours-seen",
                              "all_fours-voids", "bid_euchre-played", "bid_euchre-known-out"])
def test_the_heuristic_check_finds_a_play_that_differs(monkeypatch, game, start, end):
    """The check can fail: a plan that forgets the cards played (so a card looks beaten by one
    already gone), in 56 and All Fours who has shown out of a suit, in Bid Euchre what a seat knows
    is out of play (the dealer's discard, a helped contractor's gifts) makes the compiled play
    differ, and the check says where."""
    from bots.heuristic import compiled
    plan = compiled.PLANS[game]
    monkeypatch.setitem(compiled.PLANS, game, lambda state: plan(state)[:start] + bytes(end - start) + plan(state)[end:])
    compared, found = compiled.differences(2_000, seed="suite", games=(game,))
    assert found and "the heuristic plays" in found[0] and "the compiled play" in found[0]


def _at_card_play(name: str) -> GameState:
    """A state of ``name`` (default options) at its first card-play position, reached at random."""
    state, rng = check.make_game(name, {}).new_match(seed=1), random.Random(1)
    while not fast.supports(state):
        state.apply_id(rng.choice(state.legal_action_ids()))
    return state


@needs_fast
def test_a_bad_plan_is_refused_with_a_value_error():
    from bots.heuristic import compiled
    state = _at_card_play("five_hundred")
    with pytest.raises(ValueError, match="a plan is 156 bytes, not 3"):
        fast.playout(state, 0, fast.FIVE_HUNDRED, plan=b"abc")
    with pytest.raises(ValueError, match="needs a plan"):
        fast.playout(state, 0, fast.FIVE_HUNDRED)
    with pytest.raises(ValueError, match="a plan's suit is 0..4"):
        fast.playout(state, 0, fast.FIVE_HUNDRED, plan=b"\x09" + compiled.plan(state)[1:])
    state = _at_card_play("fifty_six")
    with pytest.raises(ValueError, match="a 56 plan is 139 bytes, not 156"):
        fast.playout(state, 0, fast.FIFTY_SIX, plan=bytes(156))
    with pytest.raises(ValueError, match="a 56 plan's suit is 0..3"):
        fast.playout(state, 0, fast.FIFTY_SIX, plan=b"\x07" + compiled.plan(state)[1:])
    with pytest.raises(ValueError, match="an All Fours plan is 464 bytes, not 139"):
        fast.playout(_at_card_play("all_fours"), 0, fast.ALL_FOURS, plan=bytes(139))
    with pytest.raises(ValueError, match="a Bid Euchre plan is 228 bytes, not 464"):
        fast.playout(_at_card_play("bid_euchre"), 0, fast.BID_EUCHRE, plan=bytes(464))


# -- a whole Bid Euchre hand in C (arena/fast/_hand.h) ----------------------------------------------

HANDS = 1_600


@needs_fast
def test_whole_bid_euchre_hands_in_c_agree_with_the_engine():
    """The engine and the compiled hand, dealt the same decks and given the same random choices:
    the same seat, phase and legal actions at every decision, the same score changes, ending,
    tricks per seat and reneges, in every configuration that changes a hand."""
    report = check.check_hands(HANDS, seed="suite")
    assert report.mismatch_count == 0, "\n".join(report.mismatches)
    assert report.hands == HANDS and report.decisions > HANDS * 20
    assert set(report.ends) == {"made", "set", "all_pass", "ace_no_face"}, report.ends
    assert set(report.phases) == {"discard", "ace_no_face", "auction", "trump", "exchange", "play"}, report.phases
    wanted = {"a number bid", "bid help", "bid moon", "trump S", "trump C", "trump D", "trump H", "trump NT",
              "a renege", "the double deck", "a stuck dealer"}
    assert wanted <= set(report.features), wanted - set(report.features)


@needs_fast
def test_a_compiled_hand_is_dealt_from_a_seed_copies_and_refuses_what_is_not_legal():
    from arena.games.bid_euchre.fast import new_hand
    game = check.make_game("bid_euchre", {})
    hand = new_hand(game, 1, 7)
    assert hand.masks == new_hand(game, 1, 7).masks != new_hand(game, 1, 8).masks  # a seed fixes the deal
    assert sorted(bin(m).count("1") for m in hand.masks) == [6, 6, 6, 6] and sum(hand.masks) == (1 << 24) - 1
    assert (hand.phase, hand.current_player(), hand.result()) == ("auction", 2, None)  # the dealer's left calls first
    copy = hand.clone()
    copy.apply_id(game.action_id("bid 3"))
    assert hand.legal_action_ids() == [0, *(game.action_id(f"bid {b}") for b in ("3", "4", "5", "help", "moon"))]
    assert copy.legal_action_ids() == [0, *(game.action_id(f"bid {b}") for b in ("4", "5", "help", "moon"))]
    with pytest.raises(ValueError, match=r"BidEuchreHand.apply_id: \d+ is not a legal action here \(phase auction, seat 2\)"):
        hand.apply_id(game.action_id("play AS"))
    with pytest.raises(ValueError, match="the deck has 3 cards, this pack 24"):
        new_hand(game, 0, ["9S", "TS", "JS"])
    with pytest.raises(ValueError, match="is not in the pack or comes too often"):
        new_hand(game, 0, ["9S"] * 24)
    with pytest.raises(ValueError, match="dealer 4 is not a seat"):
        new_hand(game, 4, 1)
