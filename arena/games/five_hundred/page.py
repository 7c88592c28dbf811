"""Five Hundred on the web page (``Game.page``, docs/game-interface.md "The page"): the data the page
reads; the panels themselves (the contract grid, misère, the joker's suit, partners) are drawn by
``page.js`` beside this file."""

RULES = """Five Hundred: ten cards each and a three-card kitty. In the auction each player in turn bids a number of tricks (6 to 10) in a trump suit or no trumps, or misère (to take no trick), or passes; a bid must be worth more than the one before (the grid shows each contract's points).

The highest bidder takes the kitty and discards three cards, then leads. The joker is the highest trump; in no trumps and misère it has no suit unless the contractor gives it one. Follow suit if you can; the highest trump, or else the highest card of the suit led, wins the trick.

A side that makes its contract scores its value, and loses it if it fails; the other side scores 10 for each trick it takes. A side wins by reaching 500 with a contract it made, and loses at -500."""

PAGE = {
    "order": 0,  # the page's first game, its default
    "clockwise": True,
    "rules": RULES,
    "phases": {"auction": "bid", "partners": "bid", "nominate": "bid", "discard": "exchange", "play": "play",
               "over": "over"},
    "bowers": True,  # the jack of trumps and its twin are trumps (and sort with them)
    "module": "page.js",
}
