"""56 on the web page (``Game.page``, docs/game-interface.md "The page"): the data the page reads; the
two-step bid panel (the amount, then the bid's form) is drawn by ``page.js`` beside this file."""

from pathlib import Path

from arena.games.base import page_text

TEXT = page_text(Path(__file__).with_name("text"))  # its words per language: text/*.json, text/rules.*.md
RULES = TEXT["en"]["rules"]  # the rules for players, in English: text/rules.en.md

PAGE = {
    "clockwise": False,
    "rules": RULES,
    "phases": {"auction": "bid", "play": "play", "over": "over"},
    "ranks": ["J", "9", "A", "10", "K", "Q", "8", "7"],  # high to low in a plain suit
    "module": "page.js",
    "text": TEXT,
}
