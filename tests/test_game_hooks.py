"""Issue #36, build 4: each game package carries what the page shows and what a searcher needs,
so the layers above the engines never branch on a game's name, and a fifth game (the toy of
tests/plugins/toy_game.py, one file) plays on the page's API and under the bundled ``search`` bot
with no edit to either."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.matches import MatchSpec, play_match
from arena.players.base import MatchInfo
from arena.plugins import get_registry
from tests.web_support import make_app

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ("five_hundred", "fifty_six", "all_fours", "bid_euchre")
# The generic layers: the page, the web server, the search bot.
GENERIC = ("arena/web/static/*.js", "arena/web/static/*.html", "arena/web/static/*.css", "arena/web/*.py",
           "bots/search/*.py", "arena/solver.py", "arena/fast/__init__.py", "arena/fast/nodes.py")
# Places where a bundled game's name is data, not a branch (each with the reason).
ALLOWED: dict[str, str] = {}
PHASE_KINDS = {"bid", "exchange", "play", "over"}


@pytest.fixture(scope="module")
def registry():
    return get_registry()  # with the toy, plugged in through $TRICK_ARENA_PLUGINS (tests/conftest.py)


def test_no_generic_layer_names_a_bundled_game():
    found = []
    for pattern in GENERIC:
        for path in sorted(ROOT.glob(pattern)):
            rel = str(path.relative_to(ROOT))
            for number, line in enumerate(path.read_text().splitlines(), 1):
                for name in BUNDLED:
                    if re.search(rf"\b{name}\b", line) and rel not in ALLOWED:
                        found.append(f"{rel}:{number}: {line.strip()[:100]}")
    assert not found, "a generic layer names a game (put it behind a game's hook):\n" + "\n".join(found)


def test_every_game_declares_its_page_and_phase_kinds(registry):
    for name, cls in registry.games.items():
        page = registry.game(name, {}).page()
        assert isinstance(page["clockwise"], bool), name
        assert page["rules"].strip(), f"{name} has no rules text for the page"
        assert set(page["phases"].values()) <= PHASE_KINDS, (name, page["phases"])


@pytest.mark.parametrize("name", BUNDLED)
def test_each_phase_a_bundled_game_shows_has_a_kind(registry, name):
    game = registry.game(name, {"max_hands": 3})
    kinds = game.page()["phases"]
    seen = set()
    for seed in range(3):
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while True:
            seen |= {state.observation(seat)["phase"] for seat in range(game.players)}
            if state.is_over():
                break
            state.apply_id(rng.choice(state.legal_action_ids()))
    assert seen <= set(kinds), f"{name}: phases without a kind: {sorted(seen - set(kinds))}"


def test_the_conformance_kit_refuses_a_phase_without_a_kind():
    from arena.testing import ConformanceError, check
    from tests.plugins.toy_game import ToyGame

    class Undeclared(ToyGame):  # a plugin author's slip: the toy's phases not declared
        name = "undeclared_toy"

        def page(self):
            return {**super().page(), "phases": {"over": "over"}}

    with pytest.raises(ConformanceError, match=r"\['phase'\] is 'play', to which Game.page\(\)\['phases'\] gives no kind"):
        check(Undeclared, "vocabulary", players=2)


def test_the_api_serves_each_games_page(tmp_path, registry):
    with TestClient(make_app(tmp_path / "web.db", registry=registry)) as client:
        games = client.get("/api/games").json()
    by_name = {g["name"]: g for g in games}
    assert by_name["toy"]["page"]["rules"].startswith("Toy tricks")
    assert by_name["toy"]["page"]["phases"] == {"play": "play", "over": "over"}
    assert by_name["five_hundred"]["page"]["module"], "Five Hundred's panels come from its package"
    assert games[0]["name"] == "five_hundred", "the game listed first (the page's default) is the lowest order"


def test_a_games_page_module_is_served_from_its_package_and_nothing_else_is(tmp_path, registry):
    with TestClient(make_app(tmp_path / "web.db", registry=registry)) as client:
        module = client.get("/games/five_hundred/page.js")
        assert module.status_code == 200 and "javascript" in module.headers["content-type"]
        assert "export default" in module.text
        for path in ("/games/five_hundred/game.py", "/games/toy/page.js", "/games/nope/page.js"):
            refused = client.get(path)
            assert refused.status_code == 404 and "no page module" in refused.text, path
        assert client.get("/games/five_hundred/..%2Fgame.py").status_code == 404


def test_the_search_bot_plays_a_whole_toy_match(registry):
    """Through the referee (the bot found by the registry, as any match finds it) ..."""
    spec = MatchSpec(index=0, game="toy", options={"target": 3}, deal_seed="toy-search", seats=("search", "random"),
                     bots=("search", "random"), settings=({"samples": 4, "seconds": 0.2}, {}), bot_seeds=(1, 2))
    result = play_match(spec, registry)
    assert result.record["result"]["over"] and result.termination.how == "normal", result.termination
    assert not result.faults, result.faults


def test_the_search_bot_really_searches_the_toy(registry):
    """... and in hand, to see that it searched every decision (no error, no fallback)."""
    from bots.search import make

    game = registry.game("toy", {"target": 2})
    state = game.new_match(seed="toy-search")
    bot = make({"samples": 6, "seconds": 5}, seed=3)
    bot.start_match(MatchInfo("toy", dict(game.options), 0, ()))
    rng = random.Random(0)
    while not state.is_over():
        seat = state.current_player()
        if seat == 0:
            state.apply(bot.act(state.observation(0)))
        else:
            state.apply_id(rng.choice(state.legal_action_ids()))
    stats = bot.searcher.stats
    assert not stats.errors, stats.errors
    assert stats.rollouts > 0


def test_the_search_bot_refuses_a_game_without_the_search_hooks_at_the_start(registry, monkeypatch):
    """A game whose engine has no ``deck_for`` could only ever get search's fallback moves: the
    bot says so when the match starts, instead of playing them unannounced."""
    import bots.search
    from arena.games.base import Game
    from tests.plugins.toy_game import ToyGame

    class Hookless(ToyGame):
        deck_for = Game.deck_for

    monkeypatch.setattr(bots.search, "bundled_game", lambda name, options: Hookless(options))
    bot = bots.search.make({"samples": 4}, seed=1)
    with pytest.raises(ValueError, match="search cannot play 'toy': its engine has no search hooks"):
        bot.start_match(MatchInfo("toy", {"target": 2}, 0, ()))
