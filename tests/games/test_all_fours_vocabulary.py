"""The shared vocabulary (arena/games/base.py), match_end, deck_for, hidden_cards and the module layers."""

from __future__ import annotations

import ast
import pathlib
import random

from arena.games.all_fours import AllFoursGame
from arena.games.all_fours.dealing import deck_for
from arena.games.base import HAND_RESULT_KEYS, OBSERVATION_KEYS, FixedDecks, MatchEnd


def finished(options, seed):
    game = AllFoursGame(options)
    rng = random.Random(seed)
    state = game.new_match(seed=f"vocabulary/{seed}")
    observations = []
    while not state.is_over():
        observations.append(state.observation(state.current_player()))
        state.apply_id(rng.choice(state.legal_action_ids()))
    return state, observations


def test_observations_and_hand_results_carry_the_shared_keys():
    for options in ({}, {"players": 2}, {"illegal_play_mode": "penalize"}):
        state, observations = finished(options, 1)
        n = state.game.players
        for obs in observations + [state.observation(s) for s in range(n)]:
            assert set(OBSERVATION_KEYS) <= set(obs)
            assert obs["active_seats"] == list(range(n)) and len(obs["hand_sizes"]) == n
            assert sum(obs["tricks_won"]) == sum(obs["tricks_won_by_seat"]) == len(obs["tricks"])
            assert obs["last_trick"] == (obs["tricks"][-1] if obs["tricks"] else None)
            assert obs["hands_played"] == obs["hand_index"] + (obs["phase"] == "over")
        for result in state.deal_results:
            assert set(HAND_RESULT_KEYS) <= set(result)
            assert len(result["tricks_won"]) == 2 and sum(result["tricks_won"]) == len(result["tricks"])
            assert all(set(t) == {"leader", "cards", "winner"} for t in result["tricks"])
            assert result["contract"] is None or result["contract"]["trump"] == result["trump"]
        assert state.observation(0)["last_result"] is state.deal_results[-1]


def test_match_end():
    state, _ = finished({}, 2)
    assert state.match_end() is MatchEnd.TARGET and state.result()["end"] == "target"
    assert "how" not in state.result()
    state, _ = finished({"max_hands": 1, "target_score": 100}, 2)
    assert state.match_end() is MatchEnd.HAND_LIMIT and state.unfinished
    fresh = AllFoursGame().new_match(seed=1)
    assert not fresh.is_over() and fresh.match_end() is None and fresh.result()["end"] is None
    penalties = [finished({"illegal_play_mode": "penalize"}, seed)[0] for seed in range(40)]
    assert any(s.match_end() is MatchEnd.PENALTY for s in penalties)
    for s in penalties:
        assert (s.match_end() is MatchEnd.PENALTY) == (s.deal_results[-1]["end"] == "lost_by_revoke")


def test_deck_for_is_the_inverse_of_the_deal():
    for options, dealer in (({}, 3), ({"players": 2, "deal_packet": 1}, 0), ({"deal_packet": 1}, 1)):
        game = AllFoursGame(options)
        n = game.players
        hands = {seat: [c + "HSDC"[seat] for c in ("2", "5", "9", "J", "K", "A")] for seat in range(n)}
        deck = deck_for(game, dealer, hands, turn_up="10H")
        state = game.new_state(FixedDecks([deck], first_dealer=dealer))
        for seat in range(n):
            assert sorted(state.observation(seat)["hand"]) == sorted(hands[seat])
        assert state.observation(0)["turn_up"] == "10H"


def test_hidden_cards_are_never_shown():
    game = AllFoursGame()
    rng = random.Random(4)
    state = game.new_match(seed=4)
    while not state.is_over():
        for seat in range(4):
            obs = dict(state.observation(seat))
            del obs["last_result"]  # the previous deal's cards, dealt again since
            shown = set(str(obs).replace("'", " ").replace(",", " ").replace("[", " ").replace("]", " ").split())
            hidden = state.hidden_cards(seat)
            assert not shown & hidden and not set(obs["hand"]) & hidden
            assert len(hidden) + len(obs["hand"]) + len(obs["turn_ups"]) + len(obs["trick"]) \
                + sum(len(t["cards"]) for t in obs["tricks"]) == 52
        state.apply_id(rng.choice(state.legal_action_ids()))


def test_modules_import_only_lower_layers():
    order = ["options", "page", "cards", "actions", "dealing", "auction", "play", "scoring", "view", "state", "fast", "game",
             "plugin"]
    rank = {name: index for index, name in enumerate(order)}
    package = pathlib.Path(__file__).resolve().parents[2] / "arena" / "games" / "all_fours"
    for name in order:
        tree = ast.parse((package / f"{name}.py").read_text())
        guarded = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                   for n in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and id(node) not in guarded and (node.module or "").startswith("arena.games.all_fours"):
                target = node.module.removeprefix("arena.games.all_fours").lstrip(".")
                for module in [target] if target else [alias.name for alias in node.names]:
                    assert rank[module] < rank[name], f"{name} imports {module}"
