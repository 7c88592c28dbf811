"""Random seeded playouts (over 1000 matches) checked action by action against a reference model.

The reference model below re-implements the rules at the level of card tokens, straight from the
wording of docs/games/all_fours.md (§6-§11), and follows each match from the decks the engine dealt: it must
agree with the engine on who acts, the legal actions, every scoring event in order, the scores,
when a record entry ends (hand counted, pack exhausted, game won) and who deals next. On top of
that the engine's own state is checked for conservation of cards and hand sizes, observations for
leaks, and illegal actions for leaving the state unchanged.
"""

from __future__ import annotations

import json
import random

import pytest

from arena.errors import IllegalActionError
from arena.games.all_fours import AllFoursGame
from arena.games.all_fours.cards import ALL_CARDS, PACK

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
COUNT = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}
KICK = {"trinidad": {"A": 1, "6": 2, "J": 3}, "tobago": {"A": 1, "2": 2, "J": 3}}


def suit(card):
    return card[-1]


def rank(card):
    return RANKS.index(card[:-1])


class Reference:
    """All Fours by the letter of the rules page, on tokens (slow and plain on purpose)."""

    def __init__(self, options, dealer):
        self.o, self.n, self.dealer = options, options["players"], dealer
        self.scores, self.over, self.winner, self.entries = [0, 0], False, None, 0
        self.expect_deal = True

    # §6
    def deal(self, deck):
        n, d = self.n, self.dealer
        self.order = [(d + i) % n for i in range(1, n + 1)]
        self.hands = {s: [] for s in range(n)}
        stock = list(deck)
        for _ in range(6 // self.o["deal_packet"]):
            for s in self.order:
                for _ in range(self.o["deal_packet"]):
                    self.hands[s].append(stock.pop(0))
        self.stock, self.turn_ups, self.events = stock, [], []
        self.trump, self.trick, self.tricks, self.pending, self.barred = None, [], [], [], [False, False]
        self.won = {0: [], 1: []}
        self.expect_deal, self.entry_end = False, None
        self.phase, self.to_act = "stand_or_beg", self.order[0]
        self.turn()
        if self.over:
            self.end("won")

    def turn(self):
        card = self.stock.pop(0)
        self.turn_ups.append(card)
        points = KICK[self.o["kick_values"]].get(card[:-1], 0)
        first = len(self.turn_ups) == 1
        if first or self.o["kick_scores_on_same_suit_turnups"] or suit(card) != suit(self.turn_ups[0]):
            if points:
                self.score("kick", self.dealer % 2, points)

    def score(self, item, side, points):
        self.scores[side] += points
        self.events.append((item, side, points))
        if self.scores[side] >= self.o["target_score"]:
            self.over, self.winner = True, side

    def end(self, how):
        self.entries += 1
        self.entry_end = how
        self.phase, self.to_act = None, None
        if not self.over and self.o["max_hands"] is not None and self.entries >= self.o["max_hands"]:
            self.over = True
        if not self.over:
            if how != "redeal":
                self.dealer = (self.dealer + 1) % self.n
            self.expect_deal = True

    # §8.2
    def lawful(self, seat):
        hand, trick, trump = self.hands[seat], [c for _, c in self.trick], self.trump
        if not trick:
            return set(hand)
        led = suit(trick[0])
        if led == trump:
            trumps = [c for c in hand if suit(c) == trump]
            return set(trumps or hand)
        allowed = [c for c in hand if suit(c) in (led, trump)] if any(suit(c) == led for c in hand) else list(hand)
        in_trick = [rank(c) for c in trick if suit(c) == trump]
        if self.o["no_undertrump"] and in_trick:
            lower = [c for c in allowed if suit(c) == trump and rank(c) < max(in_trick)]
            if lower and len(lower) < len(allowed):
                allowed = [c for c in allowed if c not in lower]
        return set(allowed)

    def legal(self):
        if self.phase == "stand_or_beg":
            return {"stand", "beg"}
        if self.phase == "give_or_run":
            return {"give one", "run"}
        if self.phase == "play":
            cards = self.hands[self.to_act] if self.o["illegal_play_mode"] == "penalize" else self.lawful(self.to_act)
            return {"play " + c for c in cards}
        return set()

    def start_play(self, trump):
        self.trump = trump
        self.dealt = {s: list(h) for s, h in self.hands.items()}
        self.phase, self.to_act = "play", self.order[0]

    def act(self, action):
        seat = self.to_act
        if action == "stand":
            self.start_play(suit(self.turn_ups[0]))
        elif action == "beg":
            self.phase, self.to_act = "give_or_run", self.dealer
        elif action == "give one":
            self.score("give one", self.order[0] % 2, 1)
            if self.over:
                return self.end("won")
            self.start_play(suit(self.turn_ups[0]))
        elif action == "run":
            while True:
                if len(self.stock) < 3 * self.n + 1:
                    return self.end("redeal")
                for s in self.order:
                    self.hands[s] += self.stock[:3]
                    del self.stock[:3]
                self.turn()
                if self.over:
                    return self.end("won")
                if suit(self.turn_ups[-1]) != suit(self.turn_ups[0]):
                    return self.start_play(suit(self.turn_ups[-1]))
        else:
            self.play(seat, action.split()[1])

    def play(self, seat, card):
        if card not in self.lawful(seat):
            trick = [c for _, c in self.trick]
            serious = (
                suit(trick[0]) == self.trump and suit(card) != self.trump
                and any(suit(c) == self.trump and rank(c) >= RANKS.index("10") for c in self.hands[seat])
            )
            self.pending.append((seat, serious))
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.n:
            self.to_act = (seat + 1) % self.n
            return
        trumps = [(rank(c), s) for s, c in self.trick if suit(c) == self.trump]
        led = suit(self.trick[0][1])
        winner = max(trumps)[1] if trumps else max((rank(c), s) for s, c in self.trick if suit(c) == led)[1]
        self.won[winner % 2] += [c for _, c in self.trick]
        self.tricks.append(self.trick)
        self.trick = []
        for offender, serious in self.pending:
            if serious:
                self.over, self.winner = True, 1 - offender % 2
                self.events.append(("serious revoke", offender % 2, 0))
                self.pending = []
                return self.end("lost_by_revoke")
            self.barred[offender % 2] = True
            self.score("revoke", 1 - offender % 2, 1)
            if self.over:
                self.pending = []
                return self.end("won")
        self.pending = []
        if self.hands[winner]:
            self.to_act = winner
            return
        self.count()

    def count(self):  # §9.2, stopping at the target (§10.2)
        holder = {c: s for s, h in self.dealt.items() for c in h}
        trumps = sorted((c for c in holder if suit(c) == self.trump), key=rank)
        items = []
        if trumps:
            items.append(("high", holder[trumps[-1]] % 2, 1))
            items.append(("low", holder[trumps[0]] % 2, 1))
            jack = "J" + self.trump
            if jack in holder:
                taker = 0 if jack in self.won[0] else 1
                items.append(("jack", taker, 1 if taker == holder[jack] % 2 else self.o["hang_jack_points"]))
        counts = [sum(COUNT.get(c[:-1], 0) for c in self.won[side]) for side in (0, 1)]
        side = 0 if counts[0] > counts[1] else 1 if counts[1] > counts[0] else None
        if side is None and self.o["game_tie"] == "eldest":
            side = self.order[0] % 2
        if side is not None and not self.barred[side]:
            items.append(("game", side, 1))
        for item in items:
            self.score(*item)
            if self.over:
                return self.end("won")
        self.end("played")


def check_engine_state(state, n):
    """Cards conserved; trick and hand sizes consistent."""
    parts = list(state.hands) + list(state.captured) + [sum(1 << c for c in state.trick)]
    parts += [sum(1 << c for c in state.turn_ups), sum(1 << c for c in state.deck[state.pos:])]
    union, total = 0, 0
    for part in parts:
        union |= part
        total += bin(part).count("1")
    assert union == ALL_CARDS and total == 52
    if state.phase == "play":
        assert len(state.trick) < n and len(set(state.trick_seats)) == len(state.trick_seats)
        base = 6 + 3 * state.runs - len(state.tricks)
        for seat in range(n):
            assert bin(state.hands[seat]).count("1") == base - (seat in state.trick_seats)
    elif state.phase in ("stand_or_beg", "give_or_run"):
        assert state.runs == 0 and all(bin(h).count("1") == 6 for h in state.hands)


def tokens_in(value, out):
    if isinstance(value, str):
        for word in value.split():
            if word in PACK:
                out.add(word)
    elif isinstance(value, dict):
        for item in value.values():
            tokens_in(item, out)
    elif isinstance(value, list):
        for item in value:
            tokens_in(item, out)
    else:
        assert value is None or isinstance(value, (int, bool)), value
    return out


def check_observations(state, n):
    public = {PACK[c] for c in state.turn_ups} | {PACK[c] for c in state.trick}
    public |= {PACK[c] for _, cards, _ in state.tricks for c in cards}
    for seat in range(n):
        obs = state.observation(seat)
        json.dumps(obs)
        own = {PACK[c] for c in range(52) if state.hands[seat] >> c & 1}
        assert set(obs["hand"]) == own
        # last_result is the previous entry's result as recorded (public); the rest shows only this entry
        assert obs["last_result"] == (state.deal_results[-1] if state.deal_results else None)
        assert tokens_in({k: v for k, v in obs.items() if k != "last_result"}, set()) <= own | public, f"seat {seat} sees hidden cards"
        assert obs["legal_actions"] == (state.legal_actions() if state.current_player() == seat else [])


COMBOS = [
    {},
    {"players": 2},
    {"deal_packet": 1, "kick_values": "tobago"},
    {"players": 2, "deal_packet": 1, "no_undertrump": True},
    {"no_undertrump": True, "game_tie": "eldest", "hang_jack_points": 1},
    {"kick_scores_on_same_suit_turnups": False, "target_score": 7},
    {"players": 2, "kick_scores_on_same_suit_turnups": False, "game_tie": "eldest"},
    {"illegal_play_mode": "penalize"},
    {"players": 2, "illegal_play_mode": "penalize", "no_undertrump": True},
    {"max_hands": 3, "first_dealer": "random"},
    {"players": 2, "max_hands": 2, "target_score": 30},
    {"target_score": 21, "deal_packet": 1},
]
MATCHES = 90  # per combination: 1080 in all


def play_match(game, seed, rng, lawful_bias=0.0):
    state = game.new_match(seed=seed)
    n = game.players
    first = state.deals[0]
    ref = Reference(game.options, first["dealer"])
    actions = 0
    while True:
        if ref.expect_deal:
            assert len(state.deals) == ref.entries + 1 and state.deals[-1]["dealer"] == ref.dealer
            ref.deal(state.deals[-1]["deck"])
        while ref.entry_end is not None:  # the entry just closed: compare its result
            result = state.deal_results[ref.entries - 1]
            assert [(p["item"], p["side"], p["points"]) for p in result["points"]] == ref.events
            assert result["scores"] == ref.scores and result["end"] == ref.entry_end
            ref.entry_end = None
            if ref.expect_deal:
                assert len(state.deals) == ref.entries + 1 and state.deals[-1]["dealer"] == ref.dealer
                ref.deal(state.deals[-1]["deck"])
        assert state.is_over() == ref.over and state.scores() == ref.scores
        if state.is_over():
            break
        seat = state.current_player()
        assert seat == ref.to_act and state.phase == ref.phase
        legal = state.legal_actions()
        assert legal and set(legal) == ref.legal() and state.legal_action_ids() == sorted(state.legal_action_ids())
        check_engine_state(state, n)
        if actions % 7 == 0:
            check_observations(state, n)
        if actions % 11 == 0:  # an illegal action changes nothing
            illegal = [a for a in range(game.num_actions) if a not in state.legal_action_ids()]
            before = (json.dumps(state.record()), json.dumps(state.observation(seat)))
            with pytest.raises(IllegalActionError):
                state.apply_id(rng.choice(illegal))
            with pytest.raises(IllegalActionError):
                state.apply("pass")
            assert (json.dumps(state.record()), json.dumps(state.observation(seat))) == before
        choice = legal
        if lawful_bias and state.phase == "play" and rng.random() < lawful_bias:
            choice = state.observation(seat)["lawful_actions"]
        action = rng.choice(choice)
        if actions % 2:
            state.apply(action)
        else:
            state.apply_id(game.action_id(action))
        ref.act(action)
        actions += 1
    # §10: the end of the game
    scores, target = state.scores(), game.options["target_score"]
    if state.result()["end"] == "target":
        assert scores[state.winner()] >= target and scores[1 - state.winner()] < target
    elif state.result()["end"] == "hand_limit":
        assert max(scores) < target and len(state.deals) == game.options["max_hands"]
        assert state.ranking() == [int(scores[0] < scores[1]), int(scores[1] < scores[0])]
    else:
        assert state.result()["end"] == "penalty" and max(scores) < target
    assert state.winner() == ref.winner or state.result()["end"] == "hand_limit"
    return state


@pytest.mark.parametrize("index", range(len(COMBOS)))
def test_random_playouts_match_the_reference(index):
    game = AllFoursGame(COMBOS[index])
    rng = random.Random(index)
    bias = 0.9 if game.penalize else 0.0
    ends = set()
    for match in range(MATCHES):
        state = play_match(game, f"playout/{index}/{match}", rng, bias)
        ends |= {r["end"] for r in state.deal_results}
    assert "played" in ends
    if game.max_hands is None:
        assert "won" in ends
        if game.players == 4:
            assert "redeal" in ends  # the pack ran out while being run
    if game.penalize:
        assert "lost_by_revoke" in ends


def test_clone_is_independent():
    game = AllFoursGame({})
    state = game.new_match(seed=3)
    rng = random.Random(0)
    for _ in range(10):
        state.apply_id(rng.choice(state.legal_action_ids()))
    before = json.dumps(state.record())
    copy = state.clone()
    while not copy.is_over():
        copy.apply_id(rng.choice(copy.legal_action_ids()))
    assert json.dumps(state.record()) == before and not state.is_over()
