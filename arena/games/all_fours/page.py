"""All Fours on the web page (``Game.page``, docs/game-interface.md "The page"): the data the page
reads; stand, beg, give one and run the pack, and the turned-up cards, are drawn by ``page.js``
beside this file."""

from pathlib import Path

from arena.games.base import page_text

TEXT = page_text(Path(__file__).with_name("text"))  # its words per language: text/*.json, text/rules.*.md
RULES = TEXT["en"]["rules"]  # the rules for players, in English: text/rules.en.md

PAGE = {
    "clockwise": False,
    "rules": RULES,
    "phases": {"stand_or_beg": "bid", "give_or_run": "bid", "play": "play", "over": "over"},
    "module": "page.js",
    "text": TEXT,
}
