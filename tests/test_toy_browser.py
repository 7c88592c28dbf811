"""A fifth game on the page (issue #36, build 4): the server started with the toy game of
tests/plugins/toy_game.py plugged in, and a person who plays a whole toy game by clicking. The page
has no code for the toy: its play direction, rules text, contract line and phase kinds come from
the toy's own file through /api/games and the state messages."""

from __future__ import annotations


import pytest

from arena.plugins import get_registry
from arena.web.app import create_app
from tests.browser_support import launch, needs_chromium
from tests.ladder_support import serving

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is a test dependency")
pytestmark = needs_chromium

WAIT = 30_000  # ms, a bound on any one step


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    registry = get_registry()  # the toy is plugged in through $TRICK_ARENA_PLUGINS (tests/conftest.py)
    app = create_app(tmp_path_factory.mktemp("toy") / "web.db", registry=registry, pace=0.0, bot_isolation="inprocess")
    with serving(app) as url:
        yield url


def test_a_toy_game_plugged_in_plays_to_its_end_on_the_generic_page(base_url):
    with playwright.sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base_url + "/")
        page.wait_for_selector("#game-toy", timeout=WAIT)
        page.uncheck("#trick-pause")
        page.check("#game-toy")
        # the toy's rules text, from its own file, shown with the game picked
        page.click("#game-rules summary")
        assert "The first side to the target wins" in page.locator("#game-rules").inner_text(timeout=WAIT)
        page.select_option("#bot-1", "random")
        page.click("#start-new")
        page.wait_for_selector("#table", timeout=WAIT)
        played = 0
        for _ in range(200):
            page.wait_for_selector("#table[data-your-turn=true], #finished", timeout=WAIT)
            if page.locator("#finished").count():
                break
            if page.locator("#hand-end-close").count():  # a hand's end, shown until dismissed
                page.click("#hand-end-close")
            table = page.locator("#table")
            assert table.get_attribute("data-phase-kind") == "play"  # the toy's phase, by the one convention
            # its contract line, drawn by the toy's own hook
            assert "points to win" in page.locator("#contract").inner_text()
            decision = table.get_attribute("data-decision")
            page.locator("#hand [data-action]").first.click()
            page.wait_for_function(
                "d => { const t = document.querySelector('#table');"
                " return !t || t.dataset.decision !== d || t.dataset.yourTurn !== 'true' }", arg=decision, timeout=WAIT)
            played += 1
        assert page.locator("#finished").count() == 1
        assert played >= 1  # (a forced card, the only legal one, is played for the person)
        assert not errors, errors
        browser.close()


DATA_ONLY = {  # a made-up game's page data, as a one-file plugin game would declare it (no module)
    "name": "made_up", "title": "Made up", "page": {
        "clockwise": False, "rules": "One.\n\nTwo.", "phases": {"call": "bid", "play": "play", "over": "over"},
        "labels": {"call 1": "One trick", "call 2": "Two tricks", "pass": "Pass"},
        "groups": [{"title": "Call:", "prefix": "call "}, {"prefix": "pass"}],
        "prompts": {"bid": "Call your tricks", "play": "Lead or follow"}, "module": None}}
GENERIC = """async () => {
  const games = await import("/static/games.js");
  const rules = await games.loadRules("made_up");
  const { rows, used } = rules.panel({ phase: "call" }, ["call 1", "call 2", "pass", "claim"]);
  const ctx = { lines: { contract: "{seat:2} called 1" }, seatName: (s) => `Seat ${s}` };
  const contract = document.createElement("div");
  contract.append(rules.contract({}, ctx));
  return { rows: rows.filter(Boolean).map((r) => [...r.querySelectorAll("[data-action]")].map((b) => [b.dataset.action, b.textContent])),
           titles: rows.filter(Boolean).map((r) => r.querySelector(".row-title")?.textContent ?? null),
           used: [...used].sort(), prompt: rules.prompt({ phase: "call" }), kind: rules.phaseKind("call"),
           clockwise: rules.clockwise, contract: contract.textContent, rules: games.rulesText(rules.page).map((p) => p.textContent) };
}"""


def test_a_data_only_games_labels_groups_prompts_and_contract_line_on_the_generic_page(base_url):
    """What a game declares as data alone (labels, groups, prompts, phase kinds, its contract line)
    drawn by the generic page: games.js with a made-up game's description from /api/games."""
    with playwright.sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.goto(base_url + "/")
        page.wait_for_selector("#start-daily", timeout=WAIT)
        page.route("**/api/games", lambda route: route.fulfill(json=[DATA_ONLY]))
        got = page.evaluate(GENERIC)
        browser.close()
    assert got["rows"] == [[["call 1", "One trick"], ["call 2", "Two tricks"]], [["pass", "Pass"]]]
    assert got["titles"] == ["Call:", None]
    assert got["used"] == ["call 1", "call 2", "pass"]  # "claim", in no group, goes to the page's "Other" row
    assert (got["prompt"], got["kind"], got["clockwise"]) == ("Call your tricks", "bid", False)
    assert got["contract"] == "Seat 2 called 1"
    assert got["rules"] == ["One.", "Two."]
