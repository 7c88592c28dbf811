"""The worked cases TC-01 … TC-33 of docs/games/five_hundred.md §14 (four players), one test each."""

from __future__ import annotations

import pytest

from arena.errors import IllegalActionError
from arena.games.base import FixedDecks

try:
    from tests.games.test_five_hundred_support import cards, game, legal_cards, plan_hand, run, start
except ImportError:  # pragma: no cover - when tests/games is not importable as a package
    from test_five_hundred_support import cards, game, legal_cards, plan_hand, run, start

MIS_BY_0 = ["bid 6S", "bid 7S", "pass", "pass", "bid MIS", "pass"]  # dealer 3: seat 0 ends with MIS


def winner_of_last_trick(st) -> int:
    return st.observation(0)["last_trick"]["winner"]


def play_any(st, times: int = 1) -> None:
    """Play the first legal action ``times`` times."""
    for _ in range(times):
        st.apply(st.legal_actions()[0])


def test_tc01_deck():
    pack = game().pack.tokens
    assert len(pack) == 43 and len(set(pack)) == 43
    count = {s: sum(1 for t in pack if t != "JK" and t[-1] == s) for s in "SCDH"}
    assert count == {"H": 11, "D": 11, "S": 10, "C": 10}
    assert "JK" in pack
    assert not any(t[:-1] in ("2", "3") for t in pack if t != "JK")
    assert "4S" not in pack and "4C" not in pack and "4H" in pack and "4D" in pack


def test_tc02_deal_mapping():
    g = game()
    d = list(g.pack.tokens)
    st = g.new_match(decks=FixedDecks([d], 3))
    idx = lambda *r: sorted(d[i] for i in r)  # noqa: E731
    assert sorted(st.observation(0)["hand"]) == idx(0, 1, 2, 13, 14, 15, 16, 30, 31, 32)
    assert sorted(st.observation(3)["hand"]) == idx(9, 10, 11, 25, 26, 27, 28, 39, 40, 41)
    assert st.current_player() == 0  # the first caller
    for call in ["bid 6S", "pass", "pass", "pass"]:
        st.apply(call)
    assert sorted(st.observation(0)["kitty"]) == idx(12, 29, 42)


def test_tc03_ladder_order_and_values():
    g = game()
    bid = {b.text: b for b in g.bid_of[1:]}
    assert bid["7NT"].key < bid["MIS"].key < bid["8S"].key
    assert bid["8S"].value == 240 < bid["MIS"].value == 250
    assert bid["10D"].key < bid["OM"].key < bid["10H"].key
    assert bid["OM"].value == bid["10H"].value == 500
    assert [bid[t].value for t in ("6S", "8C", "9H", "10NT")] == [40, 260, 400, 520]
    ladder = [b.text for b in g.bid_of[1:]]
    assert ladder.index("7NT") + 1 == ladder.index("MIS") == ladder.index("8S") - 1


def test_tc04_legality_of_calls():
    g = game()
    st = start(g, [g.pack.tokens], 3)
    steps = [
        (0, "bid 6H", True), (1, "bid MIS", False), (1, "bid 7S", True), (2, "bid MIS", True),
        (3, "bid 7NT", False), (3, "bid 8S", True), (0, "bid MIS", False), (0, "bid OM", True),
        (1, "bid 10D", False), (1, "bid 10H", True),
    ]
    for seat, call, ok in steps:
        assert st.current_player() == seat
        if ok:
            assert call in st.legal_actions()
            st.apply(call)
        else:
            with pytest.raises(IllegalActionError):
                st.apply(call)
    for seat in (2, 3, 0):
        assert st.current_player() == seat
        st.apply("pass")
    c = st.observation(0)["contract"]
    assert (c["bid"], c["contractor"], c["side"]) == ("10H", 1, 1)
    assert st.phase == "discard"


def test_tc05_passed_players_are_skipped():
    g = game()
    st = start(g, [g.pack.tokens], 3)
    for seat, call in [(0, "pass"), (1, "bid 6C"), (2, "pass"), (3, "bid 7D"), (1, "bid 7H"), (3, "pass")]:
        assert st.current_player() == seat
        st.apply(call)
    assert st.phase == "discard"
    assert (st.bid.text, st.contractor) == ("7H", 1)


def test_tc06_no_raise_after_the_others_pass():
    g = game()
    st = start(g, [g.pack.tokens], 3)
    for call in ["bid 6S", "pass", "pass", "pass"]:
        st.apply(call)
    assert st.phase == "discard" and st.bid.text == "6S"  # no further call for seat 0

    g = game(raise_after_others_pass=True)
    for extra, contract in (("bid 8S", "8S"), ("pass", "6S")):
        st = start(g, [g.pack.tokens], 3)
        for call in ["bid 6S", "pass", "pass", "pass"]:
            st.apply(call)
        assert st.phase == "auction" and st.current_player() == 0
        st.apply(extra)
        assert st.phase == "discard" and (st.bid.text, st.contractor) == (contract, 0)


def test_tc07_throw_in_and_a_late_opening_bid():
    g = game()
    st = start(g, [g.pack.tokens, g.pack.tokens], 3)
    for call in ["pass"] * 4:
        st.apply(call)
    assert st.scores() == [0, 0]
    assert st.deal_results[0]["end"] == "thrown_in" and st.deal_results[0]["changes"] == [0, 0]
    assert len(st.deals) == 2 and st.dealer == 0 and st.deals[1]["dealer"] == 0
    # The new dealer is seat 0, so the calls run 1, 2, 3, 0: the last seat to call opens (see the
    # docs: the case's "seats 0, 1, 2 pass and seat 3 bids" assumes dealer 2).
    for seat in (1, 2, 3):
        assert st.current_player() == seat
        st.apply("pass")
    st.apply("bid 6S")
    assert st.phase == "discard" and (st.bid.text, st.contractor) == ("6S", 0)


def test_tc08_american_auction():
    g = game(auction="american")
    st = start(g, [g.pack.tokens], 3)
    for call in ["bid 6S", "bid 7C", "pass", "bid 7D"]:
        st.apply(call)
    assert st.phase == "discard" and (st.bid.text, st.contractor) == ("7D", 3)


@pytest.mark.parametrize("lead, legal", [("AD", {"KD"}), ("4H", {"JD"}), ("7S", {"5S"}), ("AC", {"9C"})])
def test_tc09_left_bower_and_following(lead, legal):
    g = game()
    st = run(g, 3, ["bid 6H", "pass", "pass", "pass"], tricks=[0] * 6,
             held={1: cards("JD KD 5S 9C"), 0: [lead]})
    assert st.current_player() == 0
    st.apply(f"play {lead}")
    assert legal_cards(st) == legal


def test_tc10_right_bower_beats_left_bower():
    g = game()
    st = run(g, 3, ["pass", "bid 6H", "pass", "pass"], held={1: ["AC"], 2: ["JD"], 3: ["5C"], 0: ["JH"]},
             voids={2: "C", 0: "C"})
    for seat, card in [(1, "AC"), (2, "JD"), (3, "5C"), (0, "JH")]:
        assert st.current_player() == seat
        st.apply(f"play {card}")
    assert winner_of_last_trick(st) == 0


def test_tc11_joker_is_the_top_trump():
    g = game()
    st = run(g, 3, ["bid 6S", "pass", "pass", "pass"], tricks=[0] * 7,
             held={0: ["JS"], 1: cards("JK AH 7D"), 2: ["JC"], 3: ["AS"]})
    st.apply("play JS")
    assert legal_cards(st) == {"JK"}
    for card in ("JK", "JC", "AS"):
        st.apply(f"play {card}")
    assert winner_of_last_trick(st) == 1
    # Void in clubs: JC is a trump, so a club lead leaves every card playable.
    st = run(g, 3, ["bid 6S", "pass", "pass", "pass"], tricks=[0] * 6,
             held={0: ["KC"], 1: cards("JK JC AH 7D")})
    st.apply("play KC")
    assert legal_cards(st) == {"JK", "JC", "AH", "7D"}


def test_tc12_no_trump_played():
    g = game()
    st = run(g, 3, ["pass", "pass", "bid 6D", "pass"], held={2: ["10S"], 3: ["QS"], 0: ["4H"], 1: ["KS"]},
             voids={0: "S"})
    for card in ("10S", "QS", "4H", "KS"):
        st.apply(f"play {card}")
    assert winner_of_last_trick(st) == 1


def test_tc13_following_with_the_suitless_joker_in_nt():
    g = game()
    calls = ["bid 7NT", "pass", "pass", "pass"]
    st = run(g, 3, calls, tricks=[1] * 6, held={0: cards("JK 6C AH 9D"), 1: ["KC"]}, nominate="none")
    st.apply("play KC")
    play_any(st, 2)
    assert st.current_player() == 0 and legal_cards(st) == {"6C"}

    st = run(g, 3, calls, tricks=[3] * 8, held={0: cards("JK AH"), 3: ["QD"]}, nominate="none")
    st.apply("play QD")
    assert legal_cards(st) == {"JK", "AH"}
    st.apply("play JK")
    play_any(st, 2)
    assert winner_of_last_trick(st) == 0


def test_tc14_leading_the_suitless_joker():
    g = game()
    calls = ["bid 8NT", "pass", "pass", "pass"]
    held = {2: cards("JK 5S 9H 8D 7C 6C QH")}
    st = run(g, 3, calls, tricks=[(0, "S"), (0, "H"), (2, "S")], held=held)
    obs = st.observation(2)
    assert obs["suits_led"] == ["S", "H"] and st.current_player() == 2
    plain = {f"play {t}" for t in held[2] if t != "JK"}
    assert set(st.legal_actions()) == plain | {"play JK C", "play JK D"}
    st.apply("play JK C")
    for _ in range(3):
        hand = st.observation(st.current_player())["hand"]
        clubs = {t for t in hand if t.endswith("C")}
        if clubs:
            assert legal_cards(st) <= clubs
        play_any(st)
    assert winner_of_last_trick(st) == 2
    assert st.observation(0)["suits_led"] == ["S", "C", "H"]

    st = run(g, 3, calls, tricks=[(0, "S"), (0, "H"), (0, "C"), (0, "D"), (0, "S"), (2, "H")],
             held={2: cards("JK 9H 8D 7C")})
    assert set(st.legal_actions()) == {"play 9H", "play 8D", "play 7C"}

    st = run(g, 3, calls, tricks=[0] * 8 + [2], held={2: ["JK"]})
    assert set(st.legal_actions()) == {"play JK S", "play JK C", "play JK D", "play JK H"}

    st = run(game(joker_lead_last_trick_only=True), 3, calls, tricks=[(0, "S"), (0, "H"), (2, "S")], held=held)
    assert "play JK C" not in st.legal_actions() and set(st.legal_actions()) == plain
    with pytest.raises(IllegalActionError):
        st.apply("play JK C")


def test_tc15_forced_joker_in_misere():
    g = game()
    st = run(g, 3, MIS_BY_0, tricks=[3] * 7, held={3: ["10S"], 0: ["5S"], 1: cards("JK 8H 6D")})
    assert st.observation(0)["sitting_out"] == [2]
    st.apply("play 10S")
    st.apply("play 5S")
    assert st.current_player() == 1 and legal_cards(st) == {"JK"}
    st.apply("play JK")
    assert winner_of_last_trick(st) == 1
    assert st.phase == "play" and len(st.deals) == 1  # no early end: the contractor did not win

    st = run(g, 3, ["bid 7NT", "pass", "pass", "pass"], tricks=[3] * 7,
             held={3: ["10S"], 0: ["5S"], 1: cards("JK 8H 6D")})
    st.apply("play 10S")
    st.apply("play 5S")
    assert legal_cards(st) == {"JK", "8H", "6D"}


def test_tc16_misere_contractor_with_a_nominated_joker():
    g = game()
    st = run(g, 3, MIS_BY_0, tricks=[1] * 7, held={0: cards("JK 4H 5D"), 1: ["7C"]}, nominate="H")
    assert st.observation(1)["contract"]["joker_suit"] == "H"
    st.apply("play 7C")
    play_any(st)  # seat 3
    assert st.current_player() == 0 and legal_cards(st) == {"JK", "4H", "5D"}
    st.apply("play JK")
    last = st.observation(0)["last_trick"]
    assert last["winner"] != 0
    won_with = dict((s, t) for s, t in last["cards"])[last["winner"]]
    assert won_with.endswith("C")

    st = run(g, 3, MIS_BY_0, tricks=[3] * 8, held={0: cards("JK 5D"), 3: ["9H"]}, nominate="H")
    st.apply("play 9H")
    assert legal_cards(st) == {"JK"}
    st.apply("play JK")
    play_any(st)  # seat 1 completes the trick
    result = st.deal_results[0]
    assert result["early_end"] and result["tricks_played"] == 9 and not result["made"]
    assert result["changes"] == [-250, 0] and st.scores() == [-250, 0]
    assert len(st.deals) == 2  # the hand ended at once; the next deal is under way


def test_tc17_misere_contractor_who_does_not_nominate():
    g = game()
    st = run(g, 3, MIS_BY_0, tricks=[1] * 3, held={0: ["JK"], 1: ["6S"]}, voids={0: "S"}, nominate="none")
    st.apply("play 6S")
    play_any(st)  # seat 3
    assert legal_cards(st) == {"JK"}
    st.apply("play JK")
    result = st.deal_results[0]
    assert result["early_end"] and result["tricks_won_by_seat"][0] == 1
    assert st.scores() == [-250, 0]


def test_tc18_nominated_joker_in_nt():
    g = game()
    calls = ["bid 8NT", "pass", "pass", "pass"]
    st = run(g, 3, calls, tricks=[1] * 5, held={0: ["JK"], 1: ["AD"]}, nominate="D")
    st.apply("play AD")
    play_any(st, 2)
    st.apply("play JK")
    assert winner_of_last_trick(st) == 0

    st = run(g, 3, calls, tricks=[1] * 5, held={0: ["JK"], 1: ["AS"]}, voids={0: "S"}, nominate="D")
    st.apply("play AS")
    play_any(st, 2)
    st.apply("play JK")
    assert winner_of_last_trick(st) == 1

    st = run(g, 3, calls, tricks=[1] * 8, held={0: cards("JK 7D"), 1: ["9D"]}, nominate="D")
    st.apply("play 9D")
    play_any(st, 2)
    assert legal_cards(st) == {"JK", "7D"}


def scored(g, dealer, calls, winners, scores=None, **plan):
    """Play a whole planned hand and return (state, that hand's result row)."""
    st = run(g, dealer, calls, scores=scores, tricks=winners, **plan)
    return st, st.deal_results[0]


def test_tc19_scoring_a_made_contract():
    st, result = scored(game(), 3, ["bid 7H", "pass", "pass", "pass"], [0, 2] * 4 + [1, 3])
    assert result["made"] and result["tricks_won"] == [8, 2]
    assert result["changes"] == [200, 20] and st.scores() == [200, 20]


@pytest.mark.parametrize("bid, expected", [("6NT", 250), ("7NT", 250), ("8S", 250), ("8C", 260), ("10S", 440)])
def test_tc20_slam(bid, expected):
    st, result = scored(game(), 3, [f"bid {bid}", "pass", "pass", "pass"], [0, 2] * 5)
    assert result["changes"] == [expected, 0]


def test_tc21_failed_contract():
    st, result = scored(game(), 3, ["pass", "bid 9D", "pass", "pass"], [1, 3] * 4 + [0, 2])
    assert not result["made"] and result["changes"] == [20, -380]


def test_tc22_misere_results():
    g = game()
    calls = ["bid 7S", "bid MIS", "pass", "pass", "pass"]
    st, result = scored(g, 3, calls, [0, 2] * 5)
    assert result["contract"]["bid"] == "MIS" and result["sitting_out"] == [3]
    assert result["made"] and result["changes"] == [0, 250]

    deck, actions = plan_hand(g, 3, ["bid OM", "pass", "pass", "pass"], tricks=[1, 0])
    st = start(g, [deck], 3)
    for i, action in enumerate(actions):
        if i == len(actions) - 3:  # trick 1 is complete: the OM hand is public
            assert st.observation(1)["exposed"] == st.observation(0)["hand"]
            assert len(st.observation(1)["exposed"]) == 9
        st.apply(action)
    result = st.deal_results[0]
    assert result["changes"] == [-500, 0] and result["early_end"]
    assert st.is_over() and st.winner() == 1  # -500 loses (R-9.1 step 2)

    g = game(allow_blind_misere=True)
    calls = ["bid BM", "look", "pass", "look", "pass", "look", "pass"]
    st, result = scored(g, 3, calls, [1, 3] * 5)
    assert result["contract"]["bid"] == "BM" and result["changes"] == [500, 0]
    assert st.is_over() and st.winner() == 0


def test_tc23_misere_turn_order():
    g = game()
    deck, actions = plan_hand(g, 3, ["bid 7S", "bid MIS", "pass", "pass", "pass"], tricks=[0, 2] * 5)
    st = start(g, [deck], 3)
    seats = []
    for action in actions:
        if action.startswith("play"):
            seats.append(st.current_player())
        st.apply(action)
        if len(st.deals) == 1 and st.tricks:
            assert len(st.tricks[-1][1]) == 3
    assert seats[:3] == [1, 2, 0] and 3 not in seats and len(seats) == 30
    assert st.deal_results[0]["changes"] == [0, 250]


def test_tc24_open_misere_exposure():
    g = game()
    st = run(g, 3, ["pass", "pass", "bid OM", "pass"], tricks=[1])
    obs = st.observation(3)
    assert obs["exposed"] is not None and sorted(obs["exposed"]) == sorted(st.observation(2)["hand"])
    assert len(obs["exposed"]) == 9 and obs["sitting_out"] == [0]
    st = run(g, 3, ["pass", "pass", "bid OM", "pass"])
    assert st.observation(3)["exposed"] is None
    hand2 = set(st.observation(2)["hand"])
    for seat in (0, 1, 3):
        assert not hand2 & _tokens(st.observation(seat))


def _tokens(obj) -> set[str]:
    """Every card token inside an observation (in any string)."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for value in obj.values():
            found |= _tokens(value)
    elif isinstance(obj, (list, tuple)):
        for value in obj:
            found |= _tokens(value)
    elif isinstance(obj, str):
        for word in obj.split():
            found.add(word)
    return found


def test_tc25_kitty_exchange():
    g = game()
    kitty = cards("AS KH 4D")
    deck, _ = plan_hand(g, 3, ["pass", "pass", "bid 6S", "pass"], kitty=kitty)
    st = start(g, [deck], 3)
    for call in ["pass", "pass", "bid 6S", "pass"]:
        st.apply(call)
    obs = st.observation(2)
    assert len(obs["hand"]) == 13 and sorted(obs["kitty"]) == sorted(kitty)
    assert all(st.observation(s)["kitty"] is None for s in (0, 1, 3))
    own = [t for t in obs["hand"] if t not in kitty][:2]
    discards = ["AS"] + own
    for t in discards:
        st.apply(f"discard {t}")
    assert len(st.observation(2)["hand"]) == 10 and sorted(st.observation(2)["discards"]) == sorted(discards)
    for seat in (0, 1, 3):
        seen = _tokens(st.observation(seat))
        assert not seen & set(discards) - set(st.observation(seat)["hand"])
    while len(st.deals) == 1:
        play_any(st)
    played = {g.action_string(a).split()[1] for _, a in st.deals[0]["actions"] if g.action_string(a).startswith("play")}
    assert not played & set(discards)
    assert not _tokens(st.deal_results[0]) & set(discards)


def test_tc26_winning_by_contract():
    st, result = scored(game(), 3, ["bid 7S", "pass", "pass", "pass"], [0] * 7 + [1] * 3, scores=[420, 0])
    assert st.scores() == [560, 30]
    assert st.is_over() and st.winner() == 0 and st.ranking() == [0, 1]


def test_tc27_defensive_points_do_not_win():
    g = game()
    b_makes_7 = ["pass", "bid 7S", "pass", "pass"]  # dealer 3
    hand1 = plan_hand(g, 3, b_makes_7, tricks=[1] * 7 + [0] * 3)
    st = start(g, [hand1[0]], 3, scores=[480, 300])
    for action in hand1[1]:
        st.apply(action)
    assert st.scores() == [510, 440] and not st.is_over()

    b_makes_6 = ["bid 6C", "pass", "pass", "pass"]  # dealer 0: seat 1 calls first
    hand2 = plan_hand(g, 0, b_makes_6, tricks=[1] * 6 + [0] * 4)
    st = start(g, [hand1[0], hand2[0]], 3, scores=[480, 300])
    for action in hand1[1] + hand2[1]:
        st.apply(action)
    assert st.scores() == [550, 500] and st.is_over() and st.winner() == 1

    a_makes_6 = ["pass", "bid 6S", "pass", "pass"]  # seat 2 bids
    hand2 = plan_hand(g, 0, a_makes_6, tricks=[2] * 6 + [1] * 4)
    st = start(g, [hand1[0], hand2[0]], 3, scores=[480, 300])
    for action in hand1[1] + hand2[1]:
        st.apply(action)
    assert st.scores() == [550, 480] and st.is_over() and st.winner() == 0


def test_tc28_going_out_backwards():
    st, _ = scored(game(), 3, ["bid 7D", "pass", "pass", "pass"], [0] * 5 + [1] * 5, scores=[-380, 0])
    assert st.scores() == [-560, 50] and st.is_over() and st.winner() == 1 and st.ranking() == [1, 0]
    st, _ = scored(game(), 3, ["bid 7D", "pass", "pass", "pass"], [0] * 6 + [1] * 4, scores=[-320, 0])
    assert st.scores() == [-500, 40] and st.is_over() and st.winner() == 1


@pytest.mark.parametrize("cap", [490, 480])
def test_tc29_defensive_cap(cap):
    g = game(defence_cap=cap)
    hand1 = plan_hand(g, 3, ["pass", "bid 6S", "pass", "pass"], tricks=[0] * 5 + [1] * 5)
    st = start(g, [hand1[0]], 3, scores=[470, 0])
    for action in hand1[1]:
        st.apply(action)
    assert st.scores() == [cap, -40]
    if cap == 480:
        return
    hand2 = plan_hand(g, 0, ["bid 6S", "pass", "pass", "pass"], tricks=[0] * 3 + [1] * 7)
    hand3 = plan_hand(g, 1, ["bid 6S", "pass", "pass", "pass"], tricks=[2] * 6 + [1] * 4)
    st = start(g, [hand1[0], hand2[0], hand3[0]], 3, scores=[470, 0])
    for action in hand1[1] + hand2[1]:
        st.apply(action)
    assert st.scores() == [490, 0] and not st.is_over()
    for action in hand3[1]:
        st.apply(action)
    assert st.scores() == [530, 40] and st.is_over() and st.winner() == 0


def test_tc32_misere_without_a_seven_bid():
    g = game(misere_requires_seven=False)
    st = start(g, [g.pack.tokens], 3)
    assert "bid MIS" in st.legal_actions()
    st.apply("bid 8S")
    assert "bid MIS" not in st.legal_actions()
    g = game(allow_misere=False, allow_open_misere=False, allow_blind_misere=False)
    st = start(g, [g.pack.tokens], 3)
    legal = st.legal_actions()
    assert legal[0] == "pass" and len(legal) == 26
    assert all(a == "pass" or a[4:-1].isdigit() or a.endswith("NT") for a in legal)
    assert g.action_id("bid MIS") is None and g.action_id("bid OM") is None


def test_tc33_sans_kitty():
    g = game(sans_kitty=True)
    ladder = [b.text for b in g.bid_of[1:]]
    assert ladder.index("7H") + 1 == ladder.index("7H-SK") == ladder.index("7NT") - 1
    assert g.bid_of[g.action_id("bid 7NT-SK")].key == 92 and g.bid_of[g.action_id("bid 10D-SK")].key == 222
    deck, actions = plan_hand(g, 3, ["bid 7H-SK", "pass", "pass", "pass"], tricks=[0] * 7 + [1] * 3)
    assert not any(a.startswith("discard") for a in actions)
    st = start(g, [deck], 3)
    for action in actions[:4]:
        st.apply(action)
    assert st.phase == "play" and st.observation(0)["kitty"] is None and len(st.observation(0)["hand"]) == 10
    for action in actions[4:]:
        st.apply(action)
    assert st.deal_results[0]["changes"] == [200, 30]


def test_r5_7_blind_misere_look_and_hidden_hands():
    g = game(allow_blind_misere=True)
    st = start(g, [g.pack.tokens], 3)
    assert st.observation(0)["hand"] == [] and st.legal_actions() == ["bid BM", "look"]
    st.apply("look")
    assert len(st.observation(0)["hand"]) == 10 and "bid BM" not in st.legal_actions()
    st.apply("bid 6S")
    st.apply("bid BM")  # seat 1 bids blind
    assert st.observation(1)["hand"] == [] and st.observation(1)["blind"] == [1, 2, 3]
    st.apply("look")
    st.apply("bid 10H")  # seat 2 overcalls BM
    assert st.legal_actions() == ["look"]  # seat 3: BM is no longer above the high bid
    st.apply("look")
    st.apply("pass")
    st.apply("pass")  # seat 0
    assert st.current_player() == 1 and len(st.observation(1)["hand"]) == 10  # shown automatically
    assert st.legal_actions() == ["pass", "bid 10NT"]
    st.apply("pass")
    assert (st.bid.text, st.contractor) == ("10H", 2)
    history = st.observation(3)["history"]
    assert [1, "bid BM"] in history and [0, "look"] in history

    g = game(allow_blind_misere=True, auction="american")
    st = start(g, [g.pack.tokens], 3)
    for call in ["bid BM", "look", "bid 10H", "look", "pass", "look", "pass"]:
        st.apply(call)
    assert (st.bid.text, st.contractor) == ("10H", 1)
    assert len(st.observation(0)["hand"]) == 10  # every hand is seen once the auction is over


def test_r6_3_2_a_declined_nomination_is_invisible():
    g = game()
    deck, actions = plan_hand(g, 3, ["bid 7NT", "pass", "pass", "pass"], held={0: ["JK"]}, nominate="none")
    st = start(g, [deck], 3)
    for action in actions[:-1]:
        st.apply(action)
    assert st.phase == "nominate" and st.observation(0)["phase"] == "nominate"
    assert all(st.observation(s)["phase"] == "discard" for s in (1, 2, 3))
    st.apply(actions[-1])
    assert [0, "nominate none"] in st.observation(0)["history"]
    for s in (1, 2, 3):
        obs = st.observation(s)
        assert obs["contract"]["joker_suit"] is None
        assert [h for h in obs["history"] if h[0] == 0] == [[0, "bid 7NT"]]
