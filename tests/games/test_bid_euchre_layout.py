"""The Bid Euchre engine's module layers (docs/games/bid_euchre.md, the engine modules) and deck_for."""

from __future__ import annotations

import ast
import pathlib

import pytest

import arena.games.bid_euchre as package
from arena.games.bid_euchre import BidEuchreGame, deck_for
from arena.games.bid_euchre.dealing import deal
from arena.games.bid_euchre.cards import TOKENS

# Lowest first: a module may import only modules of a lower layer (higher ones under TYPE_CHECKING).
LAYER = {"options": 0, "cards": 0, "page": 0, "actions": 1, "dealing": 2, "auction": 2, "play": 2, "scoring": 2,
         "view": 3, "state": 4, "fast": 4, "game": 5, "plugin": 6}


def imports(path: pathlib.Path) -> list[tuple[str, bool]]:
    tree = ast.parse(path.read_text())
    guarded = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            guarded.update(id(sub) for sub in ast.walk(node))
    return [(node.module.rsplit(".", 1)[1], id(node) in guarded) for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("arena.games.bid_euchre.")]


def test_modules_import_only_lower_layers():
    folder = pathlib.Path(package.__file__).parent
    assert set(LAYER) <= {p.stem for p in folder.glob("*.py")}
    for path in folder.glob("*.py"):
        if path.stem not in LAYER:
            continue
        for other, guarded in imports(path):
            assert guarded or LAYER[other] < LAYER[path.stem], f"{path.stem} imports {other}"
        assert "def bits(" not in path.read_text()  # the shared arena.games.bitmask.bits only


@pytest.mark.parametrize("options", [{}, {"joker": True}, {"deck": "double48"}])
def test_deck_for_deals_the_hands_it_is_given(options):
    game = BidEuchreGame(options)
    hands = {1: ["AS", "TS", "JH"], 3: ["9D"] * (2 if game.double else 1)}
    for dealer in range(4):
        deck = deck_for(game, dealer, hands, extra="JK" if game.joker else None)
        assert sorted(deck) == sorted(game.pack)
        counts, _ = deal(deck, dealer, game.tricks, game.joker)
        for seat, cards in hands.items():
            held = [TOKENS[t] for t in range(25) for _ in range(counts[seat][t])]
            assert all(held.count(c.replace("T", "10")) >= cards.count(c) for c in cards)
        if game.joker:
            assert deck[-1] == "JK" and counts[dealer][24] == 1
