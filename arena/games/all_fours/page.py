"""All Fours on the web page (``Game.page``, docs/game-interface.md "The page"): the data the page
reads; stand, beg, give one and run the pack, and the turned-up cards, are drawn by ``page.js``
beside this file."""

RULES = """All Fours (Trinidad rules): six cards each. The dealer turns up a card that proposes trumps, and scores for it if it is an ace, six or jack (the kick).

The eldest, on the dealer's right, stands (keeps that suit as trumps) or begs. After a beg the dealer either gives the eldest's side one point, or runs the pack: three more cards each and a new turn-up, until a new suit turns up.

Follow suit or trump; with neither, play any card. After the tricks, High (the highest trump out), Low (the lowest), Jack (the jack of trumps, to who takes it) and Game (the most card points in tricks) score a point each. The first side to 14 wins, the moment it gets there."""

PAGE = {
    "clockwise": False,
    "rules": RULES,
    "phases": {"stand_or_beg": "bid", "give_or_run": "bid", "play": "play", "over": "over"},
    "module": "page.js",
}
