"""The HTML board opened in a real browser (headless Chromium from Debian's package, driven by
Playwright with its executable path set; Playwright's own browser download does not work here)."""

from __future__ import annotations

import pytest

from arena import board
from arena.store import Store
from tests.board_support import play
from tests.browser_support import launch, needs_chromium

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is a test dependency")


@needs_chromium
def test_the_html_board_renders_its_table_and_plot(tmp_path, registry):
    play(tmp_path, registry).close()
    store = Store(tmp_path / "r.db")
    data = board.board_data(store)
    store.close()
    page = tmp_path / "board.html"
    page.write_text(board.html_page(data))
    with playwright.sync_playwright() as p:
        browser = launch(p)
        try:
            view = browser.new_page(viewport={"width": 1200, "height": 900})
            view.goto(page.as_uri())
            rows = view.locator("#board tbody tr")
            assert rows.count() == 3
            names = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(3)]
            assert sorted(names) == ["misfit", "random", "random-2"]
            assert view.locator("#head-to-head tr").count() == 4
            first_cell = view.locator("#head-to-head tr").nth(1).locator("td").first  # the board's rule is not its
            assert first_cell.evaluate("c => getComputedStyle(c).fontWeight") == "400"
            assert first_cell.evaluate("c => getComputedStyle(c).textAlign") == "right"
            plot = view.locator("#rating-plot svg")
            box = plot.bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 150
            assert view.locator("#rating-plot svg path").count() >= 3  # one line per bot at least
            assert "illegal" in view.locator("#board").inner_text()  # the misfit's faults are shown
            view.screenshot(path=str(tmp_path / "board.png"), full_page=True)
        finally:
            browser.close()
    assert (tmp_path / "board.png").stat().st_size > 10_000


@needs_chromium
def test_from_the_board_a_click_opens_a_replay_that_steps_card_by_card(tmp_path, registry):
    from arena.cli import _show_board

    store = play(tmp_path, registry)
    page = tmp_path / "board.html"
    try:
        _show_board(store, as_json=False, html_path=str(page))  # what `arena run --html` and `arena board --html` do
    finally:
        store.close()
    with playwright.sync_playwright() as p:
        browser = launch(p)
        try:
            view = browser.new_page(viewport={"width": 1200, "height": 900})
            view.goto(page.as_uri())
            assert view.locator("#matches tbody tr").count() == 18  # 3 deal sets x 3 lineups x 2 rotations
            assert view.locator("#rating-plot svg [id^=band-]").count() == 3  # a mu ± sigma band per bot
            assert view.locator("#faults tr").count() > 1  # the misfit's faults, one row each
            view.locator("#matches a.replay").nth(4).click()
            view.wait_for_selector("#hands")
            assert "match-0004.html" in view.url
            assert view.locator("#position").inner_text().startswith("hand 1 of")

            def cards() -> list[str]:
                return view.locator("#hands .card").evaluate_all("cs => cs.map(c => c.dataset.card)")

            def table() -> list[str]:
                return view.locator("#trick .card").evaluate_all("cs => cs.map(c => c.dataset.card)")

            dealt = cards()
            assert len(dealt) == 8  # the toy game deals four cards to each of two seats
            view.locator("#next").click()
            first = table()
            assert len(first) == 1 and first[0] in dealt and first[0] not in cards()  # the card left its hand
            view.keyboard.press("ArrowRight")
            assert len(table()) == 2 and "wins the trick" in view.locator("#trick").inner_text()
            assert len(cards()) == 6
            view.keyboard.press("ArrowLeft")
            assert table() == first
            view.keyboard.press("Home")
            assert cards() == dealt and table() == []
            view.locator("#next-hand").click()  # a toy match is one hand: past its last, the last step
            position = view.locator("#position").inner_text()
            assert position.startswith("hand 1 of 1") and position.endswith("step 9 of 9")
            assert "scores" in view.locator("#note").inner_text() and cards() == []
            view.locator("#first").click()
            assert cards() == dealt
            view.goto(page.as_uri())
            href = view.locator("#matches a.record").first.get_attribute("href")
            assert (tmp_path / href).is_file()
        finally:
            browser.close()
