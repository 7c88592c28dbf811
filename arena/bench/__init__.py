"""``arena bench``: measure the engines and the arena against their limits and against a peer.

Groups of figures, one module each (run in this order):

* :mod:`arena.bench.engines` — random playouts through the game interface (strings and ids);
* :mod:`arena.bench.fastpath` — the compiled card play (arena.fast): its check against the engines at a
  million positions, and its speed beside theirs;
* :mod:`arena.bench.solver` — the exact solver's time per solve, 4 tricks before the end and from the first lead;
* :mod:`arena.bench.referee` — in-process matches against the bare engine loop;
* :mod:`arena.bench.isolated` — process-isolated bots against a raw pipe round trip;
* :mod:`arena.bench.remote` — gRPC bots against a bare gRPC call;
* :mod:`arena.bench.sandbox` — sandboxed bots (bubblewrap): start-up, and decisions/s against ``process``;
* :mod:`arena.bench.tournaments` — matches/s with one worker and one per core; peak memory;
* :mod:`arena.bench.web` — 50 simultaneous browser-protocol games against one `arena serve`;
* :mod:`arena.bench.peer` — OpenSpiel's euchre beside our Bid Euchre (optional ``bench`` extra).

``arena.bench.cli`` registers the ``bench`` command through the plugin hook (an entry point
like any plugin's); ``python -m arena.bench`` runs it on its own. docs/performance.md explains every figure.
"""

from __future__ import annotations

from arena.bench.cli import GROUPS, cmd_bench, run_bench

__all__ = ["GROUPS", "cmd_bench", "run_bench"]
