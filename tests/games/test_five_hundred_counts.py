"""Five Hundred for 2, 3, 5 and 6 players (docs/games/five_hundred.md §1, §2.2, §4, R-6.1, R-6.4,
R-8.5, R-9.4): TC-30, TC-31 and the rules that only these counts have."""

from __future__ import annotations

import pytest

from arena.errors import IllegalActionError
from arena.games.base import FixedDecks
from arena.games.five_hundred.cards import pack_for

try:
    from tests.games.test_five_hundred_support import game, run, start
except ImportError:  # pragma: no cover - when tests/games is not importable as a package
    from test_five_hundred_support import game, run, start


def test_tc30_three_players():
    g = game(players=3)
    assert g.num_sides == 3 and [g.side_of(s) for s in range(3)] == [0, 1, 2]
    calls = ["bid 7D", "pass", "pass"]  # dealer 0: seat 1 calls first
    st = run(g, 0, calls, tricks=[1] * 7 + [2, 2, 0])
    assert st.deal_results[0]["changes"] == [10, 180, 20] and not st.is_over()

    st = run(g, 0, calls, tricks=[1] * 6 + [2, 2, 0, 0], scores=[0, -360, 0])
    assert st.scores() == [20, -540, 20] and st.is_over()
    assert st.winners() == [0, 2] and st.ranking() == [0, 2, 0]  # a tie for highest is shared
    st = run(g, 0, calls, tricks=[1] * 6 + [2, 2, 0, 0], scores=[50, -360, 0])
    assert st.scores() == [70, -540, 20] and st.winner() == 0 and st.ranking() == [0, 2, 1]


def test_tc31_six_player_pack_and_trump_order():
    pack = pack_for(6)
    assert pack.size == 63
    count = {s: sum(1 for t in pack.tokens if t != "JK" and t[-1] == s) for s in "SCDH"}
    assert count == {"H": 16, "D": 16, "S": 15, "C": 15}
    hearts = pack.contexts[3]
    trumps = sorted((c for c in range(pack.size) if hearts.eff[c] == 3), key=lambda c: -hearts.value[3][c])
    assert [pack.tokens[c] for c in trumps] == (
        ["JK", "JH", "JD", "AH", "KH", "QH", "13H", "12H", "11H"] + [f"{r}H" for r in range(10, 1, -1)])
    nt = pack.contexts[4]
    clubs = sorted((c for c in range(pack.size) if nt.eff[c] == 1), key=lambda c: -nt.value[1][c])
    assert [pack.tokens[c] for c in clubs] == ["AC", "KC", "QC", "JC", "12C", "11C"] + [f"{r}C" for r in range(10, 1, -1)]


@pytest.mark.parametrize("players, size", [(2, 33), (3, 33), (4, 43), (5, 53), (6, 63)])
def test_packs_and_deals(players, size):
    g = game(players=players)
    assert g.pack.size == size and len(set(g.pack.tokens)) == size
    if players in (2, 3):
        assert {t[:-1] for t in g.pack.tokens if t != "JK"} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    if players == 5:
        assert sum(1 for t in g.pack.tokens if t != "JK") == 52
    st = g.new_match(decks=FixedDecks([g.pack.tokens], 0))
    assert all(h.bit_count() == 10 for h in st.hands) and st.kitty.bit_count() == 3
    assert st.current_player() == 1 % players


def test_two_players_dead_hand_and_alternating_deal():
    g = game(players=2)
    d = list(g.pack.tokens)
    st = g.new_match(decks=FixedDecks([d, d], 1))
    # Dealer 1: the dead hand (dealer's left) first, then the non-dealer 0, then the dealer.
    assert sorted(st.observation(0)["hand"]) == sorted(d[3:6] + d[14:18] + d[26:29])
    assert sorted(st.observation(1)["hand"]) == sorted(d[6:9] + d[18:22] + d[29:32])
    assert st.kitty == g.pack.mask_of([d[9], d[22], d[32]])
    dead = set(d[0:3] + d[10:14] + d[23:26])
    assert st.dead == g.pack.mask_of(dead)
    assert st.current_player() == 0  # the non-dealer calls first
    st.apply("pass")
    st.apply("pass")
    assert st.deal_results[0]["end"] == "thrown_in" and st.dealer == 0 and st.current_player() == 1
    for seat in (0, 1):
        obs = st.observation(seat)
        assert not dead & set(obs["hand"])


def test_two_players_scoring():
    g = game(players=2)
    st = run(g, 0, ["bid 6H", "pass"], tricks=[1] * 6 + [0] * 4)  # dealer 0: seat 1 bids
    assert st.deal_results[0]["changes"] == [40, 100]


def test_five_players_partners():
    g = game(players=5)
    assert g.num_sides == 5
    st = start(g, [g.pack.tokens], 4)
    for call in ["bid 7S", "pass", "pass", "pass", "pass"]:
        st.apply(call)
    assert st.phase == "partners" and st.current_player() == 0
    assert st.legal_actions() == ["partners none", "partners 1", "partners 2", "partners 3", "partners 4"]
    with pytest.raises(IllegalActionError):
        st.apply("partners 1 2")  # two partners need an 8-level contract
    st.apply("partners 3")
    assert st.phase == "discard" and st.observation(2)["contract"]["partners"] == [3]

    st = start(g, [g.pack.tokens], 4)
    for call in ["bid 8S", "pass", "pass", "pass", "pass"]:
        st.apply(call)
    legal = st.legal_actions()
    assert len(legal) == 11 and "partners 1 3" in legal and not any("0" in a for a in legal)

    st = start(g, [g.pack.tokens], 4)  # misère: no partners, nobody sits out
    for call in ["bid 7S", "bid MIS", "pass", "pass", "pass", "pass"]:
        st.apply(call)
    assert st.phase == "discard" and st.contractor == 1 and st.members == (1,)


def test_five_players_scoring_and_a_partner_going_out():
    g = game(players=5)
    calls = ["bid 8S", "pass", "pass", "pass", "pass"]
    st = run(g, 4, calls, partners="partners 1 3", tricks=[0, 1, 3, 0, 1, 3, 0, 1, 2, 4])
    assert st.deal_results[0]["changes"] == [240, 240, 10, 240, 10]
    st = run(g, 4, calls, partners="partners 1 3", tricks=[0, 1, 3, 0, 1, 3, 0, 1, 2, 4],
             scores=[0, 300, 0, 0, 0])
    assert st.is_over() and st.winner() == 1  # the contractor is short, the partner wins
    st = run(g, 4, calls, partners="partners none", tricks=[0] * 7 + [2, 3, 4])
    assert st.deal_results[0]["changes"] == [-240, 0, 10, 10, 10]


@pytest.mark.parametrize("teams, sides, trick", [("2x3", 2, 4), ("3x2", 3, 5)])
def test_six_players_teams_and_misere_sit_out(teams, sides, trick):
    g = game(players=6, six_player_teams=teams)
    assert g.num_sides == sides
    partners = [s for s in range(6) if g.side_of(s) == g.side_of(0) and s != 0]
    assert partners == ([2, 4] if teams == "2x3" else [3])
    calls = ["bid 6S", "bid 7S", "pass", "pass", "pass", "pass", "bid MIS", "pass"]  # dealer 5
    st = run(g, 5, calls, tricks=[1, 1, 1])
    assert st.observation(1)["sitting_out"] == partners
    assert all(len(t[1]) == trick for t in st.tricks)
    assert st.bid.text == "MIS" and st.contractor == 0


def test_six_players_scoring():
    g = game(players=6)
    calls = ["pass", "bid 6NT", "pass", "pass", "pass", "pass"]  # dealer 5: seat 1 bids
    st = run(g, 5, calls, tricks=[1, 3, 5, 1, 3, 5, 0, 2, 4, 0])
    assert st.deal_results[0]["changes"] == [40, 120]
    g = game(players=6, six_player_teams="3x2")
    st = run(g, 5, calls, tricks=[1, 4, 1, 4, 1, 4, 0, 2, 5, 2])
    assert st.deal_results[0]["changes"] == [10, 120, 30]
