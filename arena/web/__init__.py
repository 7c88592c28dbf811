"""Browser play (`arena serve`): a person takes a seat beside the bots. See docs/web.md.

``store`` the SQLite store · ``human`` the human seat kind · ``table`` a running table ·
``daily`` the daily deal and its par · ``board`` the leaderboard · ``app`` the Starlette
application · ``command`` the ``arena serve`` command. ``static/`` holds the page.
"""
