"""Bid Euchre on the web page (``Game.page``, docs/game-interface.md "The page"): the data the page
reads; the bids, trumps, the help exchange and ace no face are drawn by ``page.js`` beside this
file."""

from pathlib import Path

from arena.games.base import page_text

TEXT = page_text(Path(__file__).with_name("text"))  # its words per language: text/*.json, text/rules.*.md
RULES = TEXT["en"]["rules"]  # the rules for players, in English: text/rules.en.md

PAGE = {
    "clockwise": True,
    "rules": RULES,
    "phases": {"discard": "exchange", "ace_no_face": "bid", "auction": "bid", "trump": "bid", "exchange": "exchange",
               "play": "play", "over": "over"},
    "bowers": True,  # the jack of trumps and its twin are trumps (and sort with them)
    "module": "page.js",
    "text": TEXT,
}
