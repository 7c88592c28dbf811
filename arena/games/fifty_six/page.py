"""56 on the web page (``Game.page``, docs/game-interface.md "The page"): the data the page reads; the
two-step bid panel (the amount, then the bid's form) is drawn by ``page.js`` beside this file."""

RULES = """56 is played by 4, 6 or 8 players in teams, with two copies of a short pack (J 9 A 10 K Q high to low, and 8 7 below them with eight players). Jacks are worth 3 points, nines 2, aces and tens 1, the rest nothing: 56 points in all.

Each hand begins with an auction: each player in turn bids a number of points from 28 to 56 with a trump suit (in one of several forms), or no trumps, or passes; a bid may be doubled and redoubled. The side that wins the auction must take at least that many card points in its tricks.

Follow suit if you can; the highest trump, or else the highest card of the suit led, wins the trick. After the hand the teams pay or receive tables (counters); a team with no tables left is out, and the last team holding tables wins."""

PAGE = {
    "clockwise": False,
    "rules": RULES,
    "phases": {"auction": "bid", "play": "play", "over": "over"},
    "ranks": ["J", "9", "A", "10", "K", "Q", "8", "7"],  # high to low in a plain suit
    "module": "page.js",
}
