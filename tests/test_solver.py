"""arena.solver (issue #35): the exact solver agrees with a plain minimax (no pruning, no table) on
small positions of every game and player count, equals playing the last trick out, and refuses what
it cannot solve in one line. The last tests break the solver on purpose (a key without the trick in
progress, one side's aim flipped) and check that the brute-force comparison notices."""

from __future__ import annotations

import importlib
import math
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena import fast
from arena.errors import ArenaError
from arena.games.base import GameState
import arena.solver as solver_module
from arena.solver import SolverError, Solver, SolveTimeout, margin_value, equivalent_groups, solve, solve_ids

# (game, options, tricks left at the position): three tricks where the brute force stays small,
# two with five players or more (its tree grows as (cards in hand)! per seat)
CASES = [
    ("five_hundred", {"players": 2}, 3), ("five_hundred", {"players": 3}, 3), ("five_hundred", {"players": 4}, 3),
    ("five_hundred", {"players": 5}, 2), ("five_hundred", {"players": 6}, 2),
    ("five_hundred", {"players": 6, "six_player_teams": "3x2"}, 2),
    ("fifty_six", {"players": 4}, 3), ("fifty_six", {"players": 6}, 2), ("fifty_six", {"players": 8}, 2),
    ("all_fours", {"players": 2}, 3), ("all_fours", {"players": 4}, 3),
    ("all_fours", {"players": 4, "illegal_play_mode": "penalize"}, 3),
    ("bid_euchre", {"players": 4}, 3), ("bid_euchre", {"players": 4, "illegal_play_mode": "penalize"}, 3),
]
POSITIONS = 8  # telling random positions per case (see mismatches)
TRIES = 150  # positions tried per case at most


def play_kind(state: GameState) -> bool:
    return state.game.page()["phases"].get(state.phase) == "play"


def position(game: Any, seed: int, tricks_left: int) -> GameState:
    """A random position in the card play with at most ``tricks_left`` cards in any hand, sometimes
    in the middle of a trick (random legal play from a seeded match; forced to the play phase)."""
    rng = random.Random(f"solver/{seed}")
    state = game.new_match(seed=f"solver/{seed}")
    extra = rng.randrange(game.players)  # plays into the trick after the hands got small enough
    while True:
        if state.current_player() is None:
            state = game.new_match(seed=f"solver/{seed}/{rng.random()}")
            continue
        if play_kind(state):
            sizes = state.observation(state.current_player())["hand_sizes"]
            if max(sizes) <= tricks_left:
                if extra == 0 or max(sizes) < tricks_left:
                    return state
                extra -= 1
        state.apply_id(rng.choice(state.legal_action_ids()))

def brute_force(state: GameState, hand: int, side: int, allies: frozenset[int]) -> float:
    """Plain minimax over the engine: every line played to the hand's end, no pruning, no table."""
    seat = state.current_player()
    assert seat is not None
    values = []
    for move in state.legal_action_ids():
        child = state.clone()
        child.apply_id(move)
        if len(child.deal_results) > hand:
            values.append(child.game.hand_value(child.deal_results[hand], side))
        else:
            values.append(brute_force(child, hand, side, allies))
    return max(values) if seat in allies else min(values)


def brute_force_root(state: GameState) -> dict[int, float]:
    seat = state.current_player()
    assert seat is not None
    side, allies, hand = state.game.side_of(seat), state.allies(seat), len(state.deal_results)
    out = {}
    for move in state.legal_action_ids():
        child = state.clone()
        child.apply_id(move)
        out[move] = (child.game.hand_value(child.deal_results[hand], side) if len(child.deal_results) > hand
                     else brute_force(child, hand, side, allies))
    return out


def mismatches(registry: Any, cases: list[tuple[str, dict[str, Any], int]], wanted: int) -> list[str]:
    """Positions where ``solve`` and the brute force differ. Each case is tried on seeded positions
    until ``wanted`` of them are *telling* (their moves' values differ: random auctions often leave
    a hand whose every card scores the same, which would check little), at most :data:`TRIES`."""
    found = []
    for name, options, left in cases:
        game = registry.game(name, options)
        telling = 0
        for seed in range(TRIES):
            state = position(game, seed, left)
            want, got = brute_force_root(state), solve_ids(state)
            if want != got:
                found.append(f"{name} {options} seed {seed}: brute force {want}, solve {got}")
            telling += len(set(want.values())) > 1
            if telling == wanted:
                break
        assert telling >= min(wanted, 3), f"{name} {options}: only {telling} telling positions in {TRIES}"
    return found


@pytest.mark.parametrize("name, options, left", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_solve_equals_brute_force_on_small_positions(registry, name, options, left):
    assert mismatches(registry, [(name, options, left)], POSITIONS) == []


FAST_CASES = CASES + [
    ("five_hundred", {"players": 4, "joker_lead_last_trick_only": True}, 4),
    ("fifty_six", {"players": 8, "initial_tables": 2}, 3),
    ("all_fours", {"players": 2, "illegal_play_mode": "penalize", "no_undertrump": True}, 4),
    ("bid_euchre", {"deck": "double48", "joker": True, "illegal_play_mode": "penalize"}, 4),
    ("bid_euchre", {"allow_no_trump": True}, 4),
]


@pytest.mark.skipif(not fast.available(), reason=f"no compiled fast path: {fast.why_unavailable()}")
def test_the_fast_path_search_gives_the_engine_search_s_values(registry):
    """With the compiled fast path (arena.fast) the solver searches its own positions; without it,
    the engine's. Both give the same value to every move, on bigger positions than the brute force
    takes (one trick more), of every case and some play-changing options more."""
    differ = []
    for name, options, left in FAST_CASES:
        game = registry.game(name, options)
        for seed in range(4):
            state = position(game, 100 + seed, left + 1 if (name, options, left) in CASES else left)
            solver = Solver(state)
            assert solver.fast, f"{name}: the solver did not take the fast path"
            engine, compiled = Solver(state, use_fast=False).root_values(), solver.root_values()
            if engine != compiled:
                differ.append(f"{name} {options} seed {seed}: engine {engine}, fast path {compiled}")
    misere = 0
    for seed in range(40):  # misere (partners out, the forced joker), which random bidding seldom reaches
        state = steered_position(registry.game("five_hundred", {"players": 4}), seed, 5)
        if state is None:
            continue
        misere += 1
        engine, compiled = Solver(state, use_fast=False).root_values(), Solver(state).root_values()
        if engine != compiled:
            differ.append(f"five_hundred misere seed {seed}: engine {engine}, fast path {compiled}")
    assert not differ, "\n".join(differ)
    assert misere >= 5, f"only {misere} misere positions in 40 seeds"


COMPILED_CASES = [case for case in FAST_CASES if case[0] != "all_fours" and "illegal_play_mode" not in case[1]]


@pytest.mark.skipif(not fast.available(), reason=f"no compiled fast path: {fast.why_unavailable()}")
def test_the_compiled_search_gives_the_python_search_s_values(registry):
    """Where the hand value reads one figure per seat (tricks: Five Hundred, Bid Euchre without
    reneges; card points: 56) the whole search runs in C (arena/fast/_solve.h). It gives every move
    the Python search's value, on positions one trick bigger than the brute force takes, misere
    included, for the hand value and the margin; All Fours and reneging Bid Euchre stay in Python."""
    differ, searched = [], 0
    for name, options, left in COMPILED_CASES:
        game = registry.game(name, options)
        for seed in range(4):
            state = position(game, 200 + seed, left + 1 if (name, options, left) in CASES else left)
            for margin in (False, True):
                compiled = Solver(state, margin=margin)
                got = compiled.root_values()
                assert compiled.compiled, f"{name} {options}: the search did not run in C"
                want = Solver(state, margin=margin, compiled=False).root_values()
                searched += compiled.nodes
                if got != want:
                    differ.append(f"{name} {options} seed {seed} margin {margin}: Python {want}, C {got}")
    for seed in range(40):
        state = steered_position(registry.game("five_hundred", {"players": 4}), seed, 5)
        if state is not None and Solver(state).root_values() != Solver(state, compiled=False).root_values():
            differ.append(f"five_hundred misere seed {seed}")
    lone = 0  # a Bid Euchre lone hand: the partner who sits out holds cards that are never played
    for seed in range(60):
        state = registry.game("bid_euchre").new_match(seed=f"solver/lone/{seed}")
        rng = random.Random(seed)
        while not (play_kind(state) and len(state.legal_action_ids()) > 1
                   and len(state.observation(state.current_player())["hand"]) <= 4):
            state.apply_id(rng.choice(state.legal_action_ids()))
        if state.sitting_out is not None:
            lone += 1
            for margin in (False, True):
                if Solver(state, margin=margin).root_values() != Solver(state, margin=margin, compiled=False).root_values():
                    differ.append(f"bid_euchre lone hand seed {seed} margin {margin}")
    assert not differ, "\n".join(differ)
    assert searched > 10_000 and lone >= 10, lone
    for name, options in (("all_fours", {}), ("bid_euchre", {"illegal_play_mode": "penalize"})):
        solver = Solver(position(registry.game(name, options), 1, 3))
        solver.root_values()
        assert not solver.compiled, f"{name} {options}: its value reads more than the C search keeps"


def _split_by_a_copy(state: GameState) -> bool:
    """Whether the seat to play holds two cards of one suit that are next in power and worth the same
    (56's ace and ten, king and queen: 1 and 0 points, rules §4.3) while another seat holds a copy of
    the lower one: those two do not play alike (a copy played first outranks the ten, §9.4.3, not the
    ace), though no other card lies between them."""
    seat = state.current_player()
    hands = {s: state.observation(s)["hand"] for s in range(state.game.players)}
    for high, low in (("A", "10"), ("K", "Q")):
        for suit in "CDHS":
            if {high + suit, low + suit} <= set(hands[seat]) and hands[seat].count(low + suit) == 1:
                if any(low + suit in hand for s, hand in hands.items() if s != seat):
                    return True
    return False


@pytest.mark.skipif(not fast.available(), reason=f"no compiled fast path: {fast.why_unavailable()}")
def test_cards_split_by_a_copy_held_elsewhere_are_searched_apart(registry):
    """With two copies of every card (56), the C search's test of cards that play alike counts a copy
    held elsewhere at the same power as a card between them: on positions where the mover's ace
    and ten of a suit are split so, the C search gives the Python search's values."""
    game, found, differ = registry.game("fifty_six"), 0, []
    for seed in range(400):
        state = position(game, 900 + seed, 4)
        if not _split_by_a_copy(state):
            continue
        found += 1
        got, want = Solver(state).root_values(), Solver(state, compiled=False).root_values()
        if got != want:
            differ.append(f"seed {900 + seed}: Python {want}, C {got}")
        if found == 30:
            break
    assert found >= 10, found
    assert not differ, "\n".join(differ)


@pytest.mark.skipif(not fast.available(), reason=f"no compiled fast path: {fast.why_unavailable()}")
def test_a_full_table_replaces_positions_and_the_values_stay_exact(registry):
    """The C search's table has a cap (2^19 positions by default); full, it replaces the position
    with the fewest cards left near the slot. With a cap of 64 it fills early, and every value
    is still the one of a table that never fills (itself the Python search's, above)."""
    from arena.fast import nodes
    replaced = 0
    for name, left in (("five_hundred", 6), ("fifty_six", 5), ("bid_euchre", 6)):
        for seed in range(4):
            state = position(registry.game(name), 40 + seed, left)
            seat = state.current_player()
            root = nodes.root(state, state.game.side_of(seat))
            small = nodes.search_compiled(root, state.allies(seat), None, 0, table_entries=64)
            whole = nodes.search_compiled(root, state.allies(seat), None, 0)
            assert small is not None and whole is not None
            assert small[0] == whole[0], (name, seed)
            replaced += small[1] > whole[1]  # a small table searches positions again
    assert replaced >= 6


@pytest.mark.skipif(not fast.available(), reason=f"no compiled fast path: {fast.why_unavailable()}")
def test_an_error_in_the_scoring_during_a_compiled_search_reaches_the_caller(registry):
    from arena.fast import nodes
    state = position(registry.game("fifty_six"), 5, 3)
    root = nodes.root(state, 0)
    assert root is not None

    def broken(node: Any) -> float:
        raise ZeroDivisionError("a scoring bug")

    root.setup.value = broken
    with pytest.raises(ZeroDivisionError, match="a scoring bug"):
        nodes.search_compiled(root, state.allies(state.current_player()), None, 0)


def steered_position(game: Any, seed: int, tricks_left: int) -> GameState | None:
    """A Five Hundred misere position with at most ``tricks_left`` cards a hand, the auctions steered
    to misere as the fast path's check steers them (arena.fast.check), or None in 60 deals."""
    from arena.fast.check import _steer
    rng = random.Random(f"steered/{seed}")
    state = game.new_match(seed=f"steered/{seed}")
    while state.current_player() is not None and len(state.deal_results) < 60:
        if play_kind(state):
            if len(state.tricks) >= 10 - tricks_left and state.bid.misere:  # type: ignore[attr-defined]
                return state  # (the partners sitting out keep their ten cards)
            state.apply_id(rng.choice(state.legal_action_ids()))
        else:
            state.apply_id(_steer(game, state, state.legal_action_ids(), rng))
    return None


def test_at_the_last_trick_solve_equals_playing_it_out(registry):
    for name in ("five_hundred", "fifty_six", "all_fours", "bid_euchre"):
        game = registry.game(name)
        for seed in range(4):
            state = position(game, seed, 1)
            seat = state.current_player()
            hand, side = len(state.deal_results), game.side_of(seat)
            values = solve(state)
            for action, value in values.items():
                played = state.clone()
                played.apply(action)
                while len(played.deal_results) == hand:  # one card left each: every play is forced
                    (only,) = played.legal_action_ids()
                    played.apply_id(only)
                assert value == game.hand_value(played.deal_results[hand], side), (name, seed, action)


def test_the_value_is_each_game_s_own_hand_score(registry):
    """Five Hundred, Bid Euchre and All Fours: the hand's score change; 56: the card points won."""
    for name, key in (("five_hundred", "changes"), ("all_fours", "changes"), ("bid_euchre", "changes"),
                      ("fifty_six", "points")):
        game = registry.game(name)
        state = position(game, 5, 1)
        hand = len(state.deal_results)
        while len(state.deal_results) == hand:
            state.apply_id(state.legal_action_ids()[0])
        result = state.deal_results[hand]
        assert [game.hand_value(result, side) for side in range(game.num_sides)] == result[key]


def test_five_player_partners_score_with_the_contractor(registry):
    game = registry.game("five_hundred", {"players": 5})
    for seed in range(40):
        state = position(game, seed, 3)
        members = frozenset(state.members)  # type: ignore[attr-defined]
        if len(members) > 1:
            for seat in members:
                assert state.allies(seat) == members
            outside = next(s for s in range(5) if s not in members)
            assert state.allies(outside) == frozenset({outside})
            return
    pytest.fail("no five-player hand with a partner in 40 seeds")


def test_what_cannot_be_solved_is_refused_in_one_line(registry):
    game = registry.game("five_hundred")
    state = game.new_match(seed=1)
    with pytest.raises(SolverError, match=r"phase 'auction' \(kind 'bid'\), not in the card play"):
        solve(state)
    with pytest.raises(SolverError, match=r"got a dict, not a GameState: .*state.resample\(seat, rng\)"):
        solve(state.observation(0))  # type: ignore[arg-type]
    over = registry.game("bid_euchre", {"max_hands": 1}).new_match(seed=2)
    while over.current_player() is not None:
        over.apply_id(over.legal_action_ids()[0])
    with pytest.raises(SolverError, match="match is over"):
        solve(over)
    for error in (SolverError("x"), SolveTimeout("x")):
        assert isinstance(error, ArenaError) and "\n" not in str(error)


def test_a_time_limit_stops_a_long_solve(registry):
    state = position(registry.game("five_hundred"), 3, 10)
    with pytest.raises(SolveTimeout, match="no result within the limit"):
        solve(state, seconds=0.01)


INTERRUPTED = """
import random
from arena.players.hosts import BotTimeout, call_with_deadline
from arena.plugins import get_registry
from arena.solver import Solver
game = get_registry().game("fifty_six")
state, rng = game.new_match(seed=3), random.Random(3)
while game.page()["phases"][state.phase] != "play":
    state.apply_id(rng.choice(state.legal_action_ids()))
solver = Solver(state)  # a whole 56 hand from the first lead: minutes (a Five Hundred one is now under a second)
try:
    call_with_deadline(solver.root_values, 0.3)
except BotTimeout as exc:
    print("interrupted", solver.compiled, exc)
"""


@pytest.mark.skipif(not fast.available(), reason=f"no compiled fast path: {fast.why_unavailable()}")
def test_an_in_process_deadline_interrupts_a_solve_without_a_limit():
    """A bot in the arena's process that solves without ``seconds`` is still stopped at its
    deadline (SIGALRM): the C search lets signal handlers run every 512 positions. (Without that
    they ran only at the leaves' Python calls, new leaves being rarer as the search goes: 0.4-0.9 s
    late at a 2 s deadline against 0.06 s, measured; this guards the interruption itself.)"""
    out = subprocess.run([sys.executable, "-c", INTERRUPTED], capture_output=True, text=True, timeout=60)
    assert out.stdout.startswith("interrupted True"), out.stdout + out.stderr


@pytest.fixture
def python_search(monkeypatch):
    """The solver's search in Python (the breakages below patch it), not the extension's."""
    monkeypatch.setattr(solver_module.nodes, "search_compiled", lambda *args: None)


def test_a_key_without_the_trick_in_progress_is_caught(registry, monkeypatch, python_search):
    monkeypatch.setattr(Solver, "key", lambda self, done, trick, seat: (done, (), seat))
    found = mismatches(registry, [("bid_euchre", {}, 3), ("fifty_six", {}, 3)], POSITIONS)
    assert found, "the brute-force comparison did not notice a transposition key without the trick"


def test_a_side_playing_for_the_other_is_caught(registry, monkeypatch, python_search):
    monkeypatch.setattr(Solver, "maximises", lambda self, seat: seat not in self.allies if seat % 2 else seat in self.allies)
    found = mismatches(registry, [("five_hundred", {}, 3), ("all_fours", {}, 3)], POSITIONS)
    assert found, "the brute-force comparison did not notice seats playing against their own side"


def test_values_are_finite_numbers_for_every_legal_action(registry):
    state = position(registry.game("all_fours"), 2, 3)
    values = solve(state)
    assert sorted(values) == sorted(state.legal_actions())
    assert all(math.isfinite(v) for v in values.values())


needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


@needs_bwrap
def test_a_sandboxed_bot_solves_with_the_arena_runtime_alone(registry, tmp_path):
    """tests/sandbox_bots/solving.py plays two hands of 56 in a sandbox (which shows it the arena's
    runtime and its own code only), solving every last-tricks decision it has a choice in."""
    from arena.players.hosts import InProcessHost
    from arena.players.sandboxed import SandboxHost
    from arena.referee import Referee
    from bots.random_bot import RandomBot

    log = tmp_path / "solving.log"
    game = registry.game("fifty_six", {"max_hands": 2})
    hosts = [SandboxHost("tests.sandbox_bots.solving:make", {}, 0, log_path=str(log)),
             *(InProcessHost(RandomBot(seat)) for seat in (1, 2, 3))]
    try:
        result = Referee(game, hosts, ["solving", "random", "random", "random"], seed=4).play()
    finally:
        for host in hosts:
            host.close()
    assert result.termination.how in ("normal", "unfinished") and not result.faults, [f.as_dict() for f in result.faults]
    solved = [line for line in log.read_text().splitlines() if line.startswith("solved ")]
    assert solved, f"the bot never solved: its log says {log.read_text()[-2000:]!r}"
    # the compiled fast path loads inside the sandbox too, where it is built here
    assert f"fast path: {fast.available()}" in log.read_text(), log.read_text()[:2000]


DOC = Path(__file__).resolve().parents[1] / "docs" / "solver.md"


def _doc_block(first_line: str) -> str:
    match = re.search(rf"```python\n({re.escape(first_line)}.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert match, f"docs/solver.md has no python block starting {first_line!r}"
    return match.group(1)


def test_the_docs_example_solves_a_position(capsys):
    exec(compile(_doc_block("# solve a position"), str(DOC), "exec"), {})
    assert re.match(r"seat \d plays play \S+: \{'play ", capsys.readouterr().out)


def test_the_docs_bot_plays_a_match_and_solves(registry, tmp_path, monkeypatch):
    from arena.players.hosts import InProcessHost
    from arena.referee import Referee
    from bots.random_bot import RandomBot

    package = tmp_path / "my_bots"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "solving.py").write_text(_doc_block("# my_bots/solving.py"))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        module = importlib.import_module("my_bots.solving")
        calls = []
        monkeypatch.setattr(module, "solve", lambda state, **kw: calls.append(1) or solve(state, **kw))
        hosts = [InProcessHost(module.make({}, seat) if seat % 2 == 0 else RandomBot(seat)) for seat in range(4)]
        result = Referee(registry.game("bid_euchre", {"max_hands": 2}), hosts,
                         ["solving", "random", "solving", "random"], seed=3).play()
        assert result.termination.how in ("normal", "unfinished") and not result.faults, [f.as_dict() for f in result.faults]
        assert calls, "the docs' bot never solved"
    finally:
        for name in [n for n in sys.modules if n == "my_bots" or n.startswith("my_bots.")]:
            del sys.modules[name]


@pytest.mark.parametrize("name", ["five_hundred", "fifty_six", "all_fours", "bid_euchre"])
def test_equivalent_cards_are_merged_and_are_worth_the_same(registry, name):
    """Every game ranks its plays for the pruning (not None), some positions have a group of two or
    more, and the brute force gives every card of a group the same value."""
    game = registry.game(name)
    merged = 0
    for seed in range(60):
        state = position(game, seed, 3)
        ranks = state.play_ranks()
        assert ranks is not None
        want = brute_force_root(state)
        for group in equivalent_groups(state.legal_action_ids(), ranks):
            assert len({want[move] for move in group}) == 1, (seed, group, want)
            merged += len(group) > 1
    assert merged >= 3, f"{name}: only {merged} groups of equivalent cards in 60 positions"


def test_a_pruning_blind_to_the_other_cards_is_caught(registry, monkeypatch, python_search):
    blind = solver_module.equivalent_groups
    monkeypatch.setattr(solver_module, "equivalent_groups",
                        lambda moves, ranks: blind(moves, None if ranks is None else (ranks[0], [])))
    found = mismatches(registry, [("bid_euchre", {}, 3), ("all_fours", {}, 3)], POSITIONS)
    assert found, "the brute-force comparison did not notice cards merged across an opponent's card"


def test_the_grouping_rule_counts_an_equal_card_outside_as_between():
    """56 and Bid Euchre hold two copies of each card, and the copy played first wins: the mover's
    K and Q (nothing between) differ when another seat holds the other K."""
    mine = {10: (0, 2, 0), 11: (0, 3, 0), 12: (0, 5, 1), 20: (1, 2, 0)}
    assert equivalent_groups([10, 11, 12, 20], (mine, [(1, 4), (0, 1), (0, 6)])) == [[10, 11], [12], [20]]
    assert equivalent_groups([10, 11, 12, 20], (mine, [(0, 3)])) == [[10], [11], [12], [20]]
    assert equivalent_groups([10, 11, 12, 20], (mine, [(0, 2)])) == [[10], [11], [12], [20]]
    assert equivalent_groups([11, 10, 99], (mine, [])) == [[11, 10], [99]]  # the moves' order; unranked alone
    assert equivalent_groups([10, 11], None) == [[10], [11]]


@pytest.mark.parametrize("name, options", [("five_hundred", {}), ("bid_euchre", {}), ("all_fours", {}),
                                           ("fifty_six", {}), ("five_hundred", {"players": 3})])
def test_the_margin_is_the_side_s_value_less_the_others(registry, name, options):
    """``solve_ids(margin=True)`` maximises the mover's side's hand value less the mean of the
    other sides' (the search bot's endgame): the fast path and the engine agree with a plain
    minimax of that margin, and it is not the default's answer somewhere."""
    game = registry.game(name, options)
    margin = margin_value(game)
    differs = 0
    for seed in range(6):
        state = position(game, seed, 2)
        want = brute_force_root_with(state, margin)
        assert solve_ids(state, margin=True) == want, (name, seed)
        assert Solver(state, margin=True, use_fast=False).root_values() == want, (name, seed)
        differs += want != solve_ids(state)
    assert differs


def brute_force_root_with(state: GameState, value: Any) -> dict[int, float]:
    """:func:`brute_force_root` maximising ``value`` (a result row, a side -> a number)."""
    seat = state.current_player()
    assert seat is not None
    side, allies, hand = state.game.side_of(seat), state.allies(seat), len(state.deal_results)

    def minimax(s: GameState) -> float:
        mover = s.current_player()
        values = []
        for m in s.legal_action_ids():
            child = s.clone()
            child.apply_id(m)
            values.append(value(child.deal_results[hand], side) if len(child.deal_results) > hand else minimax(child))
        return max(values) if mover in allies else min(values)

    out = {}
    for move in state.legal_action_ids():
        child = state.clone()
        child.apply_id(move)
        out[move] = value(child.deal_results[hand], side) if len(child.deal_results) > hand else minimax(child)
    return out
