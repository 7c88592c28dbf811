"""Hostile bots for the sandbox tests (issue 21): one attacker, in both paths.

* :mod:`tests.hostile.attacker`: the attacks and the player that runs them (plays legal moves);
  ``make`` is its factory, for the plugin path (``tests.hostile.plugin`` registers it as
  ``sandbox-attacker``).
* ``cmd_bot.py``: the same player served over gRPC by a program the arena launches (``cmd:``), on
  ``$ARENA_BOT_SOCKET`` (a Unix socket, under the sandbox) or ``$ARENA_BOT_PORT``.

``attacker.py`` imports nothing of this package, so the launched program imports it from its own
directory (the only one of the checkout its sandbox sees).
"""
