"""Random seeded playouts of 56 across options and player counts, checking invariants after every
action: cards conserved, trick sizes and order, 56 points per hand, settlements as §10 says,
tables conserved, elimination and the end of the game as §11 says, illegal actions refused without
a trace, and observations that do not depend on the cards other seats hold."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from arena.errors import IllegalActionError
from arena.games.fifty_six import FiftySixGame, FiftySixState
from arena.games.fifty_six.cards import KIND_POINTS, TOKEN, pack_tokens, size, tokens
from arena.games.fifty_six.play import trick_winner

COMBOS = list(
    itertools.product(
        (4, 6, 8),
        ("pairs", "two_sides"),
        ("multiply", "additive"),
        ("capped", "uncapped"),
        ("at_zero", "cannot_pay"),
        ("two_only", "any"),
        (1, 4),
    )
)


def options_for(combo, rng: random.Random) -> dict:
    players, mode, payout, settlement, elimination, plus_noes, packet = combo
    options = {
        "players": players, "team_mode": mode, "double_payout": payout, "settlement": settlement,
        "elimination": elimination, "plus_noes_increment": plus_noes, "deal_packet": packet,
        "initial_tables": rng.choice((12, 12, 4, 1)),
    }
    if rng.random() < 0.2:
        options["max_hands"] = rng.randint(1, 4)
    return options


def expected_settlement(before, contractor, creditors, made, amount, level, options):
    """§10 written out again, independently of the engine."""
    win, loss = {28: (1, 2), 40: (2, 3), 48: (3, 4), 56: (4, 5)}[max(a for a in (28, 40, 48, 56) if a <= amount)]
    if options["double_payout"] == "multiply":
        win, loss = win * (1, 2, 4)[level], loss * (1, 2, 4)[level]
    else:
        win, loss = win + level, loss + level
    tables = list(before)
    capped = options["settlement"] == "capped"
    owed_too_much = set()
    if made:
        for team in creditors:
            pay = min(win, tables[team]) if capped else win
            owed_too_much |= {team} if win > tables[team] else set()
            tables[team] -= pay
            tables[contractor] += pay
    else:
        owed_too_much |= {contractor} if loss * len(creditors) > tables[contractor] else set()
        for team in creditors:
            pay = min(loss, tables[contractor]) if capped else loss
            tables[contractor] -= pay
            tables[team] += pay
    if options["elimination"] == "at_zero":
        out = [t for t in sorted({contractor, *creditors}) if tables[t] <= 0]
    else:
        out = sorted(owed_too_much)
    return tables, out


class Checker:
    def __init__(self, game: FiftySixGame, state, rng: random.Random):
        self.game, self.state, self.rng = game, state, rng
        self.total = sum(state.tables)
        self.alive = set(range(game.teams))
        self.active = list(range(game.players))
        self.results = 0
        self.hand_start()

    def hand_start(self):
        state = self.state
        deck = state.deals[-1]["deck"]
        assert Counter(deck) == Counter(pack_tokens(len(self.active)))
        held = Counter()
        per_seat = len(deck) // len(self.active)  # 12 with 4 active players, else 8 (§4.1)
        assert all(size(state.hands[s]) == per_seat for s in self.active)
        for seat in range(self.game.players):
            held.update(tokens(state.hands[seat]))
            assert (size(state.hands[seat]) > 0) == (seat in self.active)
        assert held == Counter(deck)
        assert state.active_seats == self.active
        self.tricks_seen = 0

    def after_action(self):
        state, game = self.state, self.game
        n = len(self.active)
        played = [TOKEN[k] for _, cards, _, _ in state.tricks for _, k in cards] + [TOKEN[k] for _, k in state.trick]
        in_hands = sum(size(h) for h in state.hands)
        assert in_hands + len(played) == len(state.deals[-1]["deck"])
        assert len(state.trick) < n
        assert sum(state.tables) == self.total
        if game.options["settlement"] == "capped":
            assert min(state.tables) >= 0
        if len(state.deal_results) > self.results:
            self.hand_end()
        if state.is_over():
            assert state.current_player() is None and state.legal_action_ids() == []
        else:
            assert state.current_player() in self.active and state.legal_action_ids()
            assert state.legal_action_ids() == sorted(state.legal_action_ids())
            if state.phase == "play" and len(state.tricks) != self.tricks_seen:
                self.check_tricks()

    def check_tricks(self):
        """The tricks completed since the last check (each is checked once)."""
        state = self.state
        n = len(self.active)
        for leader, cards, winner, points in state.tricks[self.tricks_seen:]:
            seats = [s for s, _ in cards]
            start = self.active.index(leader)
            assert seats == (self.active[start:] + self.active[:start])  # one card per active seat, in order
            kinds = [k for _, k in cards]
            assert cards[trick_winner(kinds, state.trump)][0] == winner
            assert points == sum(KIND_POINTS[k] for k in kinds)
        self.tricks_seen = len(state.tricks)
        sizes = {size(state.hands[s]) for s in self.active}
        assert max(sizes) - min(sizes) <= 1 and len(state.trick) + n * len(state.tricks) + sum(
            size(state.hands[s]) for s in self.active
        ) == len(state.deals[-1]["deck"])

    def hand_end(self):
        state, game = self.state, self.game
        index = self.results
        result = state.deal_results[index]
        self.results += 1
        assert sum(result["points"]) == 56  # §4.3 invariant
        assert sum(result["tricks_won"]) == len(pack_tokens(len(self.active))) // len(self.active)
        contract = result["contract"]
        before = [a - c for a, c in zip(result["scores"], result["changes"])]
        contractor, declarer = contract["side"], contract["declarer"]
        creditors = []
        i = self.active.index(declarer)
        for seat in self.active[i + 1:] + self.active[:i]:
            team = game.side_of(seat)
            if team != contractor and team not in creditors:
                creditors.append(team)
        made = result["points"][contractor] >= contract["amount"]
        assert made == result["made"]
        level = {1: 0, 2: 1, 4: 2}[contract["multiplier"]]
        tables, out = expected_settlement(before, contractor, creditors, made, contract["amount"], level, game.options)
        assert tables == result["scores"] and out == result["eliminated"], (result, tables, out)
        self.alive -= set(out)
        self.active = [s for s in self.active if game.side_of(s) in self.alive]
        limit = game.options["max_hands"]
        should_end = len(self.alive) <= 1 or (limit is not None and self.results >= limit)
        assert state.is_over() == should_end
        if game.options["team_mode"] == "two_sides" or game.players == 4:
            assert state.is_over() or not out
        if state.is_over():
            ranks = state.ranking()
            assert state.result()["end"] == ("elimination" if len(self.alive) == 1 else "hand_limit")
            assert all(ranks[t] < ranks[u] for t in self.alive for u in range(game.teams) if u not in self.alive)
            if len(self.alive) == 1:
                assert state.winner() == next(iter(self.alive))
        else:
            assert len(state.deals) == self.results + 1
            self.hand_start()

    def heavy(self):
        """Illegal actions change nothing; observations hide other seats' cards."""
        state, game = self.state, self.game
        seat = state.current_player()
        before = json.dumps([state.observation(s) for s in range(game.players)]) + json.dumps(state.record()["hands"][-1])
        illegal = [a for a in self.rng.sample(range(game.num_actions), 12) if a not in state.legal_action_ids()]
        for a in illegal[:3]:
            with pytest.raises(IllegalActionError):
                state.apply_id(a)
            with pytest.raises(IllegalActionError):
                state.apply(game.action_string(a))
        with pytest.raises(IllegalActionError):
            state.apply("bid 99 S")
        after = json.dumps([state.observation(s) for s in range(game.players)]) + json.dumps(state.record()["hands"][-1])
        assert before == after
        # Swap two other seats' hands of equal size: what ``seat`` sees must not change.
        others = [s for s in self.active if s != seat]
        pairs = [(a, b) for a, b in itertools.combinations(others, 2)
                 if size(state.hands[a]) == size(state.hands[b]) and state.hands[a] != state.hands[b]]
        if pairs:
            a, b = self.rng.choice(pairs)
            twin = state.clone()
            twin.hands[a], twin.hands[b] = twin.hands[b], twin.hands[a]
            for viewer in (seat, *[s for s in self.active if s not in (a, b)]):
                assert json.dumps(twin.observation(viewer)) == json.dumps(state.observation(viewer))
        obs = state.observation(seat)
        assert obs["legal_actions"] == state.legal_actions() and obs["to_act"] == seat
        assert all(state.observation(s)["legal_actions"] == [] for s in range(game.players) if s != seat)


def play_checked(options: dict, seed: int, heavy_rate: float = 0.02) -> FiftySixState:
    game = FiftySixGame(options)
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    checker = Checker(game, state, rng)
    pass_bias = rng.choice((0.0, 0.5, 0.85))
    while not state.is_over():
        legal = state.legal_action_ids()
        if rng.random() < heavy_rate:
            checker.heavy()
        if state.phase == "auction" and rng.random() < pass_bias:
            action = legal[0]  # pass
        else:
            action = rng.choice(legal)
        if rng.random() < 0.5:
            state.apply_id(action)
        else:
            state.apply(game.action_string(action))
        checker.after_action()
    return state


def test_playouts_every_option_combination():
    """192 combinations, one match each (the 1000-match run is the slow test below)."""
    rng = random.Random(56)
    for i, combo in enumerate(COMBOS):
        play_checked(options_for(combo, rng), seed=i, heavy_rate=0.01)


@pytest.mark.slow
def test_playouts_a_thousand_matches():
    rng = random.Random(5656)
    matches = 0
    for round_ in range(6):
        for i, combo in enumerate(COMBOS):
            play_checked(options_for(combo, rng), seed=100_000 + round_ * 1000 + i, heavy_rate=0.01)
            matches += 1
    assert matches >= 1000


def test_knockouts_happen_and_the_game_goes_on():
    """8-player pairs: teams drop out and the game goes on with 6 and then 4 players, the pack
    and hand size following the active count (the Checker checks each deal against §4.1)."""
    dealt = set()
    for seed in range(40):
        state = play_checked({"players": 8, "initial_tables": 3}, seed=seed, heavy_rate=0.0)
        active = 8
        for deal, result in zip(state.deals, state.deal_results):
            dealt.add((active, len(deal["deck"])))
            active = len(result["seats_left"])
        if {(8, 64), (6, 48), (4, 48)} <= dealt:
            break
    assert {(8, 64), (6, 48), (4, 48)} <= dealt
