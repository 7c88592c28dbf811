"""Bid Euchre on the web page (``Game.page``, docs/game-interface.md "The page"): the data the page
reads; the bids, trumps, the help exchange and ace no face are drawn by ``page.js`` beside this
file."""

RULES = """Bid Euchre: four players in two partnerships, a 24-card pack (9 to ace), six cards each. Each player in turn bids how many tricks their side will take, or passes; the highest bidder names trumps and leads.

A bid of all six tricks is played alone: with one card of help from the partner (bid help) or with none (bid moon). The jack of trumps is the highest trump and the other jack of its colour the next.

Follow suit if you can. Every trick is a point to the side that takes it, except that a side that fails its bid loses the bid instead. The first side to 32 points wins."""

PAGE = {
    "clockwise": True,
    "rules": RULES,
    "phases": {"discard": "exchange", "ace_no_face": "bid", "auction": "bid", "trump": "bid", "exchange": "exchange",
               "play": "play", "over": "over"},
    "bowers": True,  # the jack of trumps and its twin are trumps (and sort with them)
    "module": "page.js",
}
