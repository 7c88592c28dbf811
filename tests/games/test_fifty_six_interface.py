"""56 and the shared interface: deck_for (the inverse of the deal), the shared vocabulary of
observations and hand results, how a match ends, hidden cards, and the engine's module layers."""

from __future__ import annotations

import ast
import json
import pathlib
import random
from collections import Counter

import pytest

from arena.games.base import HAND_RESULT_KEYS, OBSERVATION_KEYS, FixedDecks, MatchEnd
from arena.games.fifty_six import FiftySixGame
from arena.games.fifty_six.cards import pack_tokens, tokens
from arena.games.fifty_six.dealing import deal, deal_order, deck_for

try:
    from tests.games.test_fifty_six_support import calls, dominant, match, play_out
except ImportError:  # pragma: no cover
    from test_fifty_six_support import calls, dominant, match, play_out


def dealt(game: FiftySixGame, deck: list[str], dealer: int, active: list[int]) -> dict[int, list[str]]:
    hands = deal(deck, deal_order(active, dealer), game.packet, game.players)
    return {seat: sorted(tokens(hands[seat])) for seat in active}


# -- deck_for ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players, packet", [(4, 1), (4, 4), (6, 1), (6, 4), (8, 1), (8, 4)])
def test_deck_for_then_dealing_gives_back_those_hands(players, packet):
    game = FiftySixGame({"players": players, "deal_packet": packet})
    rng = random.Random(players * 10 + packet)
    for _ in range(20):
        pack = pack_tokens(players)
        rng.shuffle(pack)
        size = len(pack) // players
        hands = {seat: pack[seat * size:(seat + 1) * size] for seat in range(players)}
        dealer = rng.randrange(players)
        deck = deck_for(game, dealer, hands)
        assert Counter(deck) == Counter(pack_tokens(players))
        assert dealt(game, deck, dealer, list(range(players))) == {s: sorted(h) for s, h in hands.items()}
        # and through the engine: a match dealt from that deck shows each seat its hand
        state = game.new_match(decks=FixedDecks([deck], dealer))
        for seat in range(players):
            assert sorted(state.observation(seat)["hand"]) == sorted(hands[seat])


def test_deck_for_fills_unnamed_cards_in_a_fixed_order():
    game = FiftySixGame()
    hands = {1: ["JS", "JS", "TH"], 3: []}
    deck = deck_for(game, 2, hands)
    assert deck == deck_for(game, 2, hands)  # the same every time
    got = dealt(game, deck, 2, [0, 1, 2, 3])
    assert all(len(h) == 12 for h in got.values())
    assert Counter(got[1]) >= Counter(["JS", "JS", "10H"])
    # seat 0 (the lowest seat) takes the first unnamed cards of the canonical pack
    rest = list(pack_tokens(4))
    for card in ("JS", "JS", "10H"):
        rest.remove(card)
    assert got[0] == sorted(rest[:12])


def test_deck_for_after_a_knock_out():
    game = FiftySixGame({"players": 6})
    active = [1, 2, 4, 5]
    hands = dominant(active, [1, 4])
    deck = deck_for(game, 1, hands, active=active)
    assert len(deck) == 48  # four active players: 12 each (§4.1, §11.3)
    assert dealt(game, deck, 1, active) == {s: sorted(h) for s, h in hands.items()}


@pytest.mark.parametrize(
    "players, dealer, hands, active",
    [(4, 0, {0: ["JS"] * 3}, None), (4, 0, {0: ["7H"]}, None), (4, 0, {0: ["XX"]}, None),
     (4, 0, {0: ["9S"] * 13}, None), (4, 0, {4: ["JS"]}, None), (6, 1, {0: ["JS"]}, [1, 2, 4, 5]),
     (6, 0, {}, [1, 2, 4, 5]), (6, 1, {}, [1, 2, 4])],
    ids=["three_copies", "not_in_the_pack", "not_a_card", "too_many", "no_such_seat", "seat_not_active",
         "dealer_not_active", "three_players"],
)
def test_deck_for_refuses_hands_no_deal_gives(players, dealer, hands, active):
    game = FiftySixGame({"players": players})
    with pytest.raises(ValueError):
        deck_for(game, dealer, hands, active=active)


# -- the shared vocabulary ---------------------------------------------------------------------
def test_every_observation_carries_the_shared_keys():
    for players in (4, 6, 8):
        game = FiftySixGame({"players": players, "initial_tables": 2})
        state = game.new_match(seed=players)
        rng = random.Random(players)
        while True:
            for seat in range(players):
                obs = state.observation(seat)
                assert set(OBSERVATION_KEYS) <= set(obs)
                assert len(obs["hand_sizes"]) == players and obs["hand_sizes"][seat] == len(obs["hand"])
                assert sum(obs["tricks_won_by_seat"]) == sum(obs["tricks_won"]) == len(obs["tricks"])
                assert obs["last_trick"] == (obs["tricks"][-1] if obs["tricks"] else None)
                assert (obs["leader"] is None) == (obs["phase"] != "play")
                assert obs["hands_played"] == len(state.deal_results)
                if obs["last_result"] is not None:
                    assert obs["last_result"] == json.loads(json.dumps(state.deal_results[-1]))
            if state.is_over():
                break
            state.apply_id(rng.choice(state.legal_action_ids()))


def test_trump_names_the_contract_strain_once_the_auction_is_over():
    game, state = match(dominant([0, 1, 2, 3], [0, 2]), dealer=3)
    assert state.observation(0)["trump"] is None  # not known during the auction
    calls(state, (0, "bid 28 NT"), (1, "pass"), (2, "pass"), (3, "pass"))
    assert state.observation(1)["trump"] == "NT"
    game, state = match(dominant([0, 1, 2, 3], [0, 2]), dealer=3)
    calls(state, (0, "bid 28 D"), (1, "pass"), (2, "pass"), (3, "pass"))
    obs = state.observation(1)
    assert obs["trump"] == "D" and obs["leader"] == 0 and obs["trick"] == []


@pytest.mark.parametrize("strong, end", [([0, 2], "made"), ([1, 3], "lost")])
def test_a_hand_result_carries_the_shared_keys(strong, end):
    game, state = match(dominant([0, 1, 2, 3], strong), dealer=3)
    calls(state, (0, "bid 30 S"), (1, "pass"), (2, "pass"), (3, "pass"))
    play_out(state)
    result = state.deal_results[0]
    assert set(HAND_RESULT_KEYS) <= set(result)
    assert result["end"] == end and result["made"] == (end == "made")
    assert result["tricks_won"] == ([12, 0] if strong == [0, 2] else [0, 12])
    assert len(result["tricks"]) == 12 and result["tricks"][0]["leader"] == 0
    assert all(set(t) == {"leader", "cards", "winner", "points"} for t in result["tricks"])
    assert sum(t["points"] for t in result["tricks"]) == 56
    assert result["contract"]["amount"] == 30 and result["seats_left"] == [0, 1, 2, 3]
    assert state.observation(0)["last_result"] == result
    seen = state.observation(1)["last_result"]  # each observation has a copy of its own: changing it changes nothing
    seen["tricks"][0]["cards"].clear()
    seen["contract"]["amount"] = 56
    assert result["tricks"][0]["cards"] and result["contract"]["amount"] == 30
    assert state.observation(2)["last_result"] == result


def test_match_end_elimination_and_hand_limit():
    game, state = match(dominant([0, 1, 2, 3], [0, 2]), dealer=3, initial_tables=1)
    assert state.match_end() is None and state.result()["end"] is None
    calls(state, (0, "bid 28 S"), (1, "pass"), (2, "pass"), (3, "pass"))
    play_out(state)
    assert state.match_end() is MatchEnd.ELIMINATION and state.result()["end"] == "elimination"
    assert "ended" not in state.result() and state.result()["eliminated"] == [1]
    state = FiftySixGame({"max_hands": 1}).new_match(seed=2)
    play_out(state)
    assert state.is_over() and state.unfinished
    assert state.match_end() is MatchEnd.HAND_LIMIT and state.result()["end"] == "hand_limit"


def test_hidden_cards_are_the_other_hands_less_what_the_seat_sees():
    game, state = match(dominant([0, 1, 2, 3], [0, 2]), dealer=3)
    for seat in range(4):
        mine = set(state.observation(seat)["hand"])
        others = {c for s in range(4) if s != seat for c in state.observation(s)["hand"]}
        assert state.hidden_cards(seat) == frozenset(others - mine)
    calls(state, (0, "bid 28 S"), (1, "pass"), (2, "pass"), (3, "pass"))
    state.apply_id(state.legal_action_ids()[0])
    led = state.observation(1)["trick"][0][1]
    assert led not in state.hidden_cards(1)
    hidden = state.hidden_cards(1)
    text = json.dumps({k: v for k, v in state.observation(1).items() if k != "last_result"})
    assert not any(f'"{card}"' in text for card in hidden)


# -- module layers ----------------------------------------------------------------------------
LAYERS = {"options": 0, "cards": 0, "page": 0, "actions": 1, "dealing": 2, "auction": 2, "play": 2, "scoring": 2,
          "view": 3, "state": 4, "fast": 4, "game": 5, "plugin": 6}


def test_engine_modules_import_only_lower_layers():
    """options/cards -> actions -> dealing/auction/play/scoring -> view -> state -> game -> plugin;
    a module may name a higher one only under ``if TYPE_CHECKING:``."""
    root = pathlib.Path(__file__).resolve().parents[2] / "arena" / "games" / "fifty_six"
    assert {p.stem for p in root.glob("*.py")} == set(LAYERS) | {"__init__"}
    for name, layer in LAYERS.items():
        tree = ast.parse((root / f"{name}.py").read_text())
        for node in tree.body:  # top-level statements; an ``if TYPE_CHECKING:`` block is skipped
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("arena.games.fifty_six"):
                continue
            names = [a.name for a in node.names] if node.module == "arena.games.fifty_six" else [node.module.split(".")[-1]]
            for imported in names:
                assert LAYERS[imported] < layer, f"{name} imports {imported}"
