"""The ladder's "done when", end to end in a real browser: a fresh ``arena ladder`` (a subprocess,
its own store), Debian's chromium watching ``/ladder`` from before anything is submitted; three
authors register and submit from the command line a Python bot (a module with ``make``), a
sandboxed program (its files and a command with ``{socket}``) and a gRPC endpoint they run
themselves (``arena serve-bot``); the board, without a reload, ranks all three after their matches,
in rating order. Then a bot's page: its rating history chart and a replay that opens. And what an
author may not do: retire another's bot (refused by the CLI, with the reason), and a broken
submission is refused, its reason on its author's view of the submission page.

With ARENA_DOCS_IMAGES=1 the board's screenshot is written to docs/images/ladder-board.png."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import textwrap
import threading
from pathlib import Path

import pytest

from tests.browser_support import launch, needs_chromium
from tests.ladder_support import ARENA, FRESH_ENV, get, ladder_running, register, retire, submit

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is a test dependency")

ROOT = Path(__file__).resolve().parents[1]
LADDER_FILE = """
[[ladder]]
game = "all_fours"
players = 2
options = { max_hands = 2 }
time_control = { per_decision = 10.0 }
"""
MODULE_BOT = '''
"""The first legal action, always."""
from arena.players.base import Player


class FirstLegal(Player):
    def act(self, observation):
        return observation["legal_actions"][0]


def make(settings, seed):
    return FirstLegal()
'''
PROGRAM_BOT = '''
"""A program: a gRPC bot server on the Unix socket it is given, playing the last legal action."""
import sys
import threading

from arena.players.base import Player
from arena.players.serve import serve_player


class LastLegal(Player):
    def act(self, observation):
        return observation["legal_actions"][-1]


if __name__ == "__main__":
    server = serve_player(lambda settings, seed: LastLegal(), name="last-legal", socket_path=sys.argv[1])
    threading.Event().wait()  # the server lives as long as this process (and its reference)
'''
BROKEN_BOT = '''
raise RuntimeError("this bot is broken at import")


def make(settings, seed):
    return None
'''
WAIT_MS = 420_000  # the most the board may take to rank the three (sandboxed starts on a loaded machine)


def _grpc_endpoint(tmp_path: Path, key: str) -> tuple[subprocess.Popen, str]:
    """``arena serve-bot random`` on a free port, as its author runs it (answering their endpoint
    key); its grpc:// address."""
    process = subprocess.Popen([*ARENA, "serve-bot", "random", "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env={**FRESH_ENV, "ARENA_OWNER_KEY": key},
                               cwd=tmp_path)
    seen = []
    for line in process.stdout:  # type: ignore[union-attr]
        seen.append(line)
        found = re.search(r"grpc://[\d.]+:\d+", line)
        if found is not None:  # what it prints later is read (and dropped) so its pipe never fills
            threading.Thread(target=process.stdout.read, daemon=True).start()  # type: ignore[union-attr]
            return process, found.group(0)
    process.kill()
    process.wait(timeout=30)
    raise AssertionError(f"arena serve-bot printed no address: {''.join(seen)[-2000:]!r}")


def _ranked(page) -> list[dict]:
    return page.eval_on_selector_all("#board tbody tr[data-bot]", """rows => rows.map(r => ({
        bot: r.dataset.bot, rank: r.dataset.rank, rating: r.dataset.rating, matches: Number(r.dataset.matches),
        status: r.dataset.status, text: r.innerText}))""")


@needs_chromium
def test_three_authors_bots_of_three_kinds_are_ranked_on_the_live_board(tmp_path):
    (tmp_path / "ladder.toml").write_text(LADDER_FILE)
    (tmp_path / "first_legal.py").write_text(textwrap.dedent(MODULE_BOT))
    (tmp_path / "program").mkdir()
    (tmp_path / "program" / "bot.py").write_text(textwrap.dedent(PROGRAM_BOT))
    (tmp_path / "broken.py").write_text(textwrap.dedent(BROKEN_BOT))
    endpoints: list[tuple[subprocess.Popen, str]] = []

    def endpoint(key: str) -> str:  # started once its author has their key
        endpoints.append(_grpc_endpoint(tmp_path, key))
        return endpoints[-1][1]

    try:
        with ladder_running(tmp_path, "--config", str(tmp_path / "ladder.toml"), "--workers", "1", "--seed", "7",
                            env=FRESH_ENV) as ladder, \
                playwright.sync_playwright() as p:
            browser = launch(p)
            try:
                _play_it_through(tmp_path, ladder, browser, endpoint)
            finally:
                browser.close()
            assert ladder.process.poll() is None, ladder.stderr()
    finally:
        for endpoint_process, _ in endpoints:
            endpoint_process.terminate()
            endpoint_process.wait(timeout=30)


def _play_it_through(tmp_path: Path, ladder, browser, start_endpoint) -> None:
    url = ladder.url
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{url}/ladder")
    page.wait_for_selector("#board[data-ladder='all_fours/2']")
    assert "No bot plays this ladder yet" in page.inner_text("#board")
    page.evaluate("window.__loadedOnce = true")  # gone if the page were reloaded

    tokens = {name: tmp_path / f"{name}.token" for name in ("ann", "bob", "cat")}
    for name, path in tokens.items():
        assert len(register(url, name, path, env=FRESH_ENV)) >= 32
    done = submit(url, tokens["ann"], "firstlegal", "--python", str(tmp_path / "first_legal.py"), "--games", "all_fours",
                  env=FRESH_ENV)
    assert done.returncode == 0 and "firstlegal version 1" in done.stdout, done.stdout + done.stderr
    done = submit(url, tokens["bob"], "lastlegal", "--program", str(tmp_path / "program"),
                  "--command", "python3 bot.py {socket}", "--games", "all_fours", env=FRESH_ENV)
    assert done.returncode == 0 and "lastlegal version 1" in done.stdout, done.stdout + done.stderr
    key = get(f"{url}/api/ladder/me", tokens["cat"].read_text().strip())[1]["endpoint_key"]
    done = submit(url, tokens["cat"], "remote", "--endpoint", start_endpoint(key), "--games", "all_fours",
                  env=FRESH_ENV)
    assert done.returncode == 0 and "remote version 1" in done.stdout, done.stdout + done.stderr

    # One author cannot touch another's bot: bob retiring ann's is refused, and nothing changes.
    done = retire(url, tokens["bob"], "firstlegal", env=FRESH_ENV)
    assert done.returncode != 0
    assert "another author's (ann)" in done.stderr and "403" in done.stderr, done.stderr

    # A broken submission is refused, with its reason (the CLI waits for the validation).
    broken = submit(url, tokens["ann"], "broken", "--python", str(tmp_path / "broken.py"), "--games", "all_fours",
                    "--wait", "--timeout", "300", env=FRESH_ENV)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    refusal = re.search(r"refused: (.+)", broken.stdout)
    assert refusal is not None and "broken at import" in refusal.group(1), broken.stdout

    # The board, without a reload, ranks the three once each has played and been rated.
    try:
        page.wait_for_function("""() => {
            const rows = [...document.querySelectorAll('#board tbody tr[data-bot]')];
            const ranked = rows.filter(r => r.dataset.rank !== '' && Number(r.dataset.matches) > 0 && r.dataset.rating !== '');
            return ['firstlegal', 'lastlegal', 'remote'].every(b => ranked.some(r => r.dataset.bot === b));
        }""", timeout=WAIT_MS, polling=500)
    except playwright.TimeoutError:
        status, board = get(f"{url}/api/ladder/board")
        mine = {name: get(f"{url}/api/ladder/me", path.read_text().strip())[1] for name, path in tokens.items()}
        raise AssertionError(f"the board did not rank the three: the page shows {_ranked(page)}; the server's board "
                             f"{board}; the authors' versions {mine}; the ladder's stderr {ladder.stderr()[-3000:]}")
    assert page.evaluate("window.__loadedOnce") is True
    rows = [r for r in _ranked(page) if r["rank"]]
    assert sorted(r["bot"] for r in rows) == ["firstlegal", "lastlegal", "remote"]
    assert [int(r["rank"]) for r in rows] == [1, 2, 3], rows
    ratings = [float(r["rating"]) for r in rows]
    assert ratings == sorted(ratings, reverse=True), rows  # ranked in rating order
    assert all(r["matches"] > 0 and r["status"] == "active" for r in rows), (rows, ladder.stderr()[-3000:])
    assert int(page.get_attribute("#board", "data-changes")) > 0
    status, board = get(f"{url}/api/ladder/board")
    assert status == 200 and board["changes"] >= int(page.get_attribute("#board", "data-changes"))
    kinds = {row["bot"]: (row["kind"], row["author"]) for row in board["rows"]}
    assert kinds["firstlegal"] == ("python", "ann") and kinds["lastlegal"] == ("program", "bob")
    assert kinds["remote"] == ("grpc", "cat")
    assert "broken" not in kinds  # refused: not on the board
    assert not errors, errors
    shot = tmp_path / "ladder-board.png"
    page.screenshot(path=str(shot), full_page=True)
    if os.environ.get("ARENA_DOCS_IMAGES") == "1":
        shutil.copyfile(shot, ROOT / "docs" / "images" / "ladder-board.png")

    # A bot's page: its history chart and a replay that opens.
    page.click("#board tr[data-bot='lastlegal'] a")
    page.wait_for_selector("#history svg.history-chart polyline.mu")
    assert page.url == f"{url}/ladder/bots/lastlegal"
    assert "bob" in page.inner_text("#bot-name")
    assert page.locator("#history svg circle").count() >= 1
    replay = page.locator("#recent a.replay").first
    href = replay.get_attribute("href")
    assert href and re.fullmatch(r"/ladder/matches/\d+/replay", href)
    replay.click()
    page.wait_for_selector("#controls")
    assert "replay" in page.title().lower() and "lastlegal v1" in page.content()
    page.click("#next")  # it steps
    assert page.inner_text("#position").strip()

    # The broken submission's reason is on its author's view (the submission page, ann's token).
    page.goto(f"{url}/ladder/submit")
    page.fill("#token", tokens["ann"].read_text().strip())
    page.dispatch_event("#token", "change")
    row = page.locator("#my-bots tr[data-bot='broken']")
    row.wait_for()
    assert row.get_attribute("data-status") == "refused"
    assert refusal.group(1).strip()[:60] in row.inner_text()
    assert page.locator("#my-bots tr[data-bot='firstlegal'][data-status='active']").count() == 1
    assert not errors, errors


@needs_chromium
def test_the_submission_page_registers_submits_and_retires(tmp_path):
    """The page's own way in: a name registered (the token shown once, kept in the browser), a
    module chosen in the file input and submitted (read in the page, posted as base64), its status
    turning active in place; a broken one refused with its reason; the bot retired from the page."""
    (tmp_path / "ladder.toml").write_text(LADDER_FILE)
    (tmp_path / "first_legal.py").write_text(textwrap.dedent(MODULE_BOT))
    (tmp_path / "broken.py").write_text(textwrap.dedent(BROKEN_BOT))
    with ladder_running(tmp_path, "--config", str(tmp_path / "ladder.toml"), "--workers", "1",
                        env=FRESH_ENV) as ladder, playwright.sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("dialog", lambda dialog: dialog.accept())  # the retire button's confirmation
            page.goto(f"{ladder.url}/ladder/submit")
            page.wait_for_selector("#games input[value='all_fours']:checked")  # the only game: chosen already
            page.fill("#bot-name", "pagebot")
            page.click("#submit-form button[type=submit]")
            page.wait_for_selector("#submit-error:not([hidden])")
            assert "register a name or give your token first" in page.inner_text("#submit-error")
            page.fill("#author-name", "dora")
            page.click("#register-form button")
            page.wait_for_selector("#token-box:not([hidden])")
            token = page.inner_text("#token-shown").strip()
            assert len(token) >= 32 and page.input_value("#token") == token
            assert page.evaluate("localStorage.getItem('arena-ladder-token')") == token
            page.fill("#author-name", "dora")
            page.click("#register-form button")  # the name is taken now: the server's reason
            page.wait_for_selector("#register-error:not([hidden])")
            assert "taken" in page.inner_text("#register-error")

            page.set_input_files("#python-file", str(tmp_path / "first_legal.py"))
            page.click("#submit-form button[type=submit]")
            page.wait_for_selector("#submit-result:not([hidden])")
            assert page.inner_text("#submit-result").startswith("pagebot v1: ")
            page.wait_for_selector("#my-bots tr[data-bot='pagebot'][data-status='active']", timeout=300_000)

            page.fill("#bot-name", "pagebroken")
            page.set_input_files("#python-file", str(tmp_path / "broken.py"))
            page.click("#submit-form button[type=submit]")
            refused = page.locator("#my-bots tr[data-bot='pagebroken'][data-status='refused']")
            refused.wait_for(timeout=300_000)
            assert "broken at import" in refused.locator("td.reason").inner_text()

            # The token stays in this browser: a reload shows the same bots.
            page.reload()
            page.wait_for_selector("#my-bots tr[data-bot='pagebot']")
            page.click("#my-bots tr[data-bot='pagebot'] button.retire")
            page.wait_for_selector("#my-bots tr[data-bot='pagebot'][data-status='retired']")
            status, me = get(f"{ladder.url}/api/ladder/me", token)
            assert status == 200 and {(v["bot"], v["status"]) for v in me["versions"]} == {
                ("pagebot", "retired"), ("pagebroken", "refused")}
            assert not errors, errors
        finally:
            browser.close()


@needs_chromium
def test_the_board_and_a_bots_page_on_a_store_filled_by_hand(tmp_path, registry):
    """The pages on known data (tests/test_ladder_board.py's store): the board's rows in rank order,
    retired and unrated rows unranked after them, a tab per ladder, a store write shown without a
    reload; a bot's page with both versions' history (the retired one grey), its fault's cause and
    head to head."""
    from types import SimpleNamespace

    from arena.ladder import web
    from arena.ladder.store import LadderStore
    from arena.web.app import create_app
    from tests.ladder_support import serving
    from tests.test_ladder_board import LADDER, fill

    db = tmp_path / "ladder.db"
    store = LadderStore(db)
    versions, _ = fill(store)
    store.set_meta("ladders", '["all_fours/2", "five_hundred/4"]')
    ladder = SimpleNamespace(store=store, registry=registry, stopping=threading.Event())
    app = create_app(db, registry=registry, extra_routes=web.routes(ladder))
    with serving(app) as url, playwright.sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{url}/ladder")
            page.wait_for_selector(f"#board[data-ladder='{LADDER}'] tr[data-bot]")
            rows = _ranked(page)
            assert [(r["bot"], r["rank"]) for r in rows] == [("gamma", "1"), ("alpha", "2"), ("beta", "3"), ("delta", ""),
                                                            ("alpha", "")]
            assert "faults in 1 of 2 matches (50%): crash: boom" in rows[0]["text"]
            assert "not rated" in rows[3]["text"] and "replaced by version 2" in rows[4]["text"]
            retired = page.locator("#board tr[data-status='retired'] td.rating")
            assert retired.evaluate("c => getComputedStyle(c).color") == "rgb(153, 153, 153)"  # greyed
            assert page.locator("#board tr[data-bot='gamma'] svg.interval-bar rect").count() == 1
            assert "Round 4 · 8 of 8 scheduled matches played · 4 deal sets rated" in page.inner_text("#board-counts")
            page.evaluate("window.__loadedOnce = true")
            store.set_status(versions["b"]["id"], "probation", "faults in 3 of 6 matches (50%): timeout: slow")
            page.wait_for_selector("#board tr[data-bot='beta'][data-status='probation']")
            assert "timeout: slow" in page.inner_text("#board tr[data-bot='beta']")
            assert page.get_attribute("#board", "data-changes") == str(store.changes())
            page.click("#ladder-tabs button[data-ladder='five_hundred/4']")
            page.wait_for_selector("#board[data-ladder='five_hundred/4']")
            assert "No bot plays this ladder yet" in page.inner_text("#board") and page.url.endswith("five_hundred%2F4")
            assert page.evaluate("window.__loadedOnce") is True

            page.goto(f"{url}/ladder/bots/alpha")
            page.wait_for_selector("#history svg.history-chart")
            assert page.locator("#history g.series").count() == 2
            assert page.locator("#history g.series.retired polyline.mu").get_attribute("stroke") == "#999"
            assert page.locator("#versions tr[data-status='retired']").count() == 1
            assert "no answer within 1.0 s" in page.inner_text("#faults")
            head = page.locator("#head-to-head tr[data-opponent='beta'] td")
            assert [head.nth(i).inner_text() for i in range(2, 5)] == ["2", "1", "0"]
            assert page.locator("#recent tr[data-deal-set]").count() == 4
            assert not errors, errors
        finally:
            browser.close()
            ladder.stopping.set()
            store.close()
