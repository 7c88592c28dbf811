"""Five Hundred on the web page (``Game.page``, docs/game-interface.md "The page"): the data the page
reads; the panels themselves (the contract grid, misère, the joker's suit, partners) are drawn by
``page.js`` beside this file."""

from pathlib import Path

from arena.games.base import page_text

TEXT = page_text(Path(__file__).with_name("text"))  # its words per language: text/*.json, text/rules.*.md
RULES = TEXT["en"]["rules"]  # the rules for players, in English: text/rules.en.md

PAGE = {
    "order": 0,  # the page's first game, its default
    "clockwise": True,
    "rules": RULES,
    "phases": {"auction": "bid", "partners": "bid", "nominate": "bid", "discard": "exchange", "play": "play",
               "over": "over"},
    "bowers": True,  # the jack of trumps and its twin are trumps (and sort with them)
    "module": "page.js",
    "text": TEXT,
}
