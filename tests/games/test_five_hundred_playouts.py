"""Seeded random playouts of Five Hundred across option combinations and player counts, checking
invariants after every action (cards conserved, trick sizes, scoring §8, the end rules §9, legal
actions, illegal actions refused without change, no hidden card in any observation)."""

from __future__ import annotations

import random

import pytest

from arena.errors import IllegalActionError
from arena.games.five_hundred import FiveHundredGame
from arena.games.five_hundred.state import DISCARD, PLAY

STRAIN = {"S": 0, "C": 1, "D": 2, "H": 3, "NT": 4}
MISERE = {"MIS": 250, "OM": 500, "BM": 500}

CONFIGS = [
    ({}, 160),
    ({"auction": "american"}, 60),
    ({"allow_blind_misere": True}, 60),
    ({"allow_blind_misere": True, "auction": "american", "sans_kitty": True}, 40),
    ({"sans_kitty": True, "joker_lead_last_trick_only": True}, 60),
    ({"raise_after_others_pass": True, "defence_cap": 490}, 60),
    ({"defence_cap": 480, "misere_requires_seven": False}, 60),
    ({"allow_misere": False, "allow_open_misere": False, "max_hands": 6}, 40),
    ({"players": 2}, 80),
    ({"players": 2, "allow_blind_misere": True, "auction": "american"}, 30),
    ({"players": 3}, 80),
    ({"players": 3, "sans_kitty": True, "defence_cap": 490}, 30),
    ({"players": 5}, 80),
    ({"players": 5, "allow_blind_misere": True, "raise_after_others_pass": True}, 30),
    ({"players": 6}, 60),
    ({"players": 6, "six_player_teams": "3x2"}, 60),
    ({"players": 6, "six_player_teams": "3x2", "auction": "american", "joker_lead_last_trick_only": True}, 30),
]


def choose(rng: random.Random, st, ids: list[int]) -> int:
    """Mostly passes and low bids in the auction (so that matches last several hands)."""
    look = st.game.look_id
    if look in ids and rng.random() < 0.9:
        return look
    if st.phase == "auction" and ids[0] == 0:
        roll = rng.random()
        if roll < 0.65:
            return 0
        return rng.choice(ids[1:4] or ids) if roll < 0.92 else rng.choice(ids)
    return rng.choice(ids)


def expected_changes(g, row, before):
    """§8 recomputed from a hand's result row."""
    changes = [0] * g.num_sides
    if row["end"] == "thrown_in":
        return changes
    contract = row["contract"]
    text, c, seats, taken = contract["bid"], contract["contractor"], contract["seats"], row["tricks_won_by_seat"]
    if text in MISERE:
        changes[g.side_of(c)] = MISERE[text] if taken[c] == 0 else -MISERE[text]
        return changes
    base = text.removesuffix("-SK")
    level, strain = int(base[:-1] if not base.endswith("NT") else base[:-2]), STRAIN[base[-2:] if base.endswith("NT") else base[-1]]
    value = 40 + 20 * strain + 100 * (level - 6)
    t = sum(taken[s] for s in seats)
    points = (250 if t == 10 and value < 250 else value) if t >= level else -value
    contracting = {g.side_of(s) for s in seats}
    for side in contracting:
        changes[side] = points
    cap = g.options["defence_cap"] or None
    for side in range(g.num_sides):
        if side not in contracting:
            award = 10 * sum(taken[s] for s in g.seats_of(side))
            if cap:
                award = 0 if before[side] >= cap else min(award, cap - before[side])
            changes[side] = award
    return changes


def check_hand_row(g, st, row, before):
    assert row["changes"] == expected_changes(g, row, before)
    assert row["scores"] == [b + d for b, d in zip(before, row["changes"])]
    if row["end"] == "thrown_in":
        assert row["match_end"] in (None, "hand_limit")
        return
    seats, made, scores = row["contract"]["seats"], row["made"], row["scores"]
    wins = made and any(scores[g.side_of(s)] >= 500 for s in seats)
    loses = not made and any(scores[g.side_of(s)] <= -500 for s in seats)
    if row["match_end"] == "target":
        assert wins and st.is_over()
        ranks = st.ranking()
        assert any(ranks[g.side_of(s)] == 0 and scores[g.side_of(s)] >= 500 for s in seats)
    elif row["match_end"] == "losing_score":
        assert loses and st.is_over()
        assert all(st.ranking()[g.side_of(s)] > 0 for s in seats if scores[g.side_of(s)] <= -500)
    else:
        assert not wins and not loses


def check_state(g, st):
    pack = g.pack
    if st.is_over():
        assert st.current_player() is None and st.legal_action_ids() == []
        return
    legal = st.legal_action_ids()
    assert legal and legal == sorted(legal) and st.current_player() is not None
    played = 0
    for _, trick, _, _ in st.tricks:
        assert len(trick) == st.nactive and len({s for s, _ in trick}) == st.nactive
        assert not any(st.sitting >> s & 1 for s, _ in trick)
        for _, card in trick:
            played |= 1 << card
    for _, card in st.trick:
        played |= 1 << card
    assert len(st.trick) < st.nactive
    held = 0
    total = 0
    for h in st.hands:
        assert not held & h
        held |= h
        total += h.bit_count()
    kitty_out = st.bid is not None and not st.bid.sans_kitty and st.stage >= DISCARD
    parts = [held, st.dead, played, st.discards] + ([] if kitty_out else [st.kitty])
    assert sum(p.bit_count() for p in parts) == pack.size
    union = 0
    for p in parts:
        union |= p
    assert union == pack.all
    if st.stage == PLAY:
        done = len(st.tricks)
        in_trick = {s for s, _ in st.trick}
        for s in range(g.players):
            expected = 10 if st.sitting >> s & 1 else 10 - done - (s in in_trick)
            assert st.hands[s].bit_count() == expected


def visible_cards(g, st, seat) -> set[str]:
    pack = g.pack
    allowed = set(pack.cards(st.hands[seat])) if st.seen >> seat & 1 else set()
    for _, trick, _, _ in st.tricks:
        allowed |= {pack.tokens[c] for _, c in trick}
    allowed |= {pack.tokens[c] for _, c in st.trick}
    if st.deal_results:  # the previous deal's tricks are public (last_result)
        allowed |= {card for trick in st.deal_results[-1]["tricks"] for _, card in trick["cards"]}
    if st.exposed:
        allowed |= set(pack.cards(st.hands[st.contractor]))
    if seat == st.contractor:
        allowed |= set(pack.cards(st.discards))
        if st.stage == DISCARD:
            allowed |= set(pack.cards(st.kitty))
    return allowed


def words(obj, out: set[str]) -> set[str]:
    """Every word of every string in an observation, except bids ("bid 7D" names no card)."""
    kind = type(obj)
    if kind is dict:
        for key, value in obj.items():
            if key not in ("bid", "contract") or type(value) is not str:
                words(value, out)
    elif kind is list:
        for value in obj:
            words(value, out)
    elif kind is str and not obj.startswith("bid "):
        out.update(obj.split())
    return out


def check_observations(g, st):
    tokens = set(g.pack.tokens)
    for seat in range(g.players):
        obs = st.observation(seat)
        seen = words(obs, set()) & tokens
        leaked = seen - visible_cards(g, st, seat)
        assert not leaked, f"seat {seat} sees {leaked}"
        if seat != st.contractor:
            assert obs["phase"] != "nominate"
            assert not any(a.startswith("discard") or a == "nominate none" for _, a in obs["history"])
        if not st.seen >> seat & 1:
            assert obs["hand"] == []
        assert obs["legal_actions"] == (st.legal_actions() if st.current_player() == seat else [])


def check_illegal(g, st, rng):
    legal = set(st.legal_action_ids())
    wrong = rng.randrange(g.num_actions)
    if wrong in legal:
        return
    seat = st.current_player()
    before = (len(st.deals), len(st.deals[-1]["actions"]), st.observation(seat), st.scores())
    with pytest.raises(IllegalActionError):
        st.apply_id(wrong)
    with pytest.raises(IllegalActionError):
        st.apply(g.action_string(wrong))
    with pytest.raises(IllegalActionError):
        st.apply("bid 11NT")
    assert before == (len(st.deals), len(st.deals[-1]["actions"]), st.observation(seat), st.scores())


def play_match(g, seed, deep: bool):
    rng = random.Random(seed)
    st = g.new_match(seed=seed)
    rows = 0
    before = st.scores()
    step = 0
    while not st.is_over():
        ids = st.legal_action_ids()
        if deep and step % 7 == 0:
            check_observations(g, st)
        if step % 11 == 0:
            check_illegal(g, st, rng)
        st.apply_id(choose(rng, st, ids))
        step += 1
        while rows < len(st.deal_results):
            row = st.deal_results[rows]
            check_hand_row(g, st, row, before)
            before = row["scores"]
            rows += 1
        check_state(g, st)
    assert rows == len(st.deals) and st.is_over()
    if st.deal_results[-1]["match_end"] == "hand_limit":
        assert st.unfinished and len(st.deals) == g.options["max_hands"]
    check_observations(g, st)
    return st


@pytest.mark.parametrize("options, matches", CONFIGS, ids=[repr(o) for o, _ in CONFIGS])
def test_random_playouts(options, matches):
    g = FiveHundredGame({"max_hands": 16, **options})
    hands = 0
    for m in range(matches):
        st = play_match(g, f"{sorted(options.items())}/{m}", deep=m % 4 == 0)
        hands += len(st.deals)
    assert hands >= matches


def test_playouts_cover_enough_matches():
    assert sum(m for _, m in CONFIGS) >= 1000
