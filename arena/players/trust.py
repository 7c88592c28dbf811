"""Which seats are the arena's own: a tournament file without an ``isolation`` key sandboxes the
bots of anyone else (:func:`default_isolation`)."""

from __future__ import annotations

import functools
import importlib.metadata
import os
import shlex
import sys
from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

ARENA_DISTRIBUTION = "trick-arena"


def bundled(seat: str, registry: Registry) -> bool:
    """Whether a seat is the arena's own: what its seat kind says (``SeatKind.own``: a remote
    ``grpc://`` seat is, a ``cmd:`` program is when it runs the arena's own code), or, for an
    installed bot, whether it is of the arena's distribution."""
    from arena.players.seats import seat_kind_of

    seat = seat.strip()
    kind = seat_kind_of(registry, seat)
    if kind is not None:
        return kind.own(seat, registry)
    try:
        spec = registry.bot(seat)
    except Exception:
        return False
    top = str(getattr(spec.factory, "__module__", "")).split(".")[0]
    owners = _distributions().get(top, [])
    return any(owner.lower().replace("_", "-") == ARENA_DISTRIBUTION for owner in owners) or top in ("arena", "bots") \
        and _arena_file(sys.modules.get(str(spec.factory.__module__)))


def own_command(command: str, registry: Registry) -> bool:
    """Whether a ``cmd:`` program is the arena's own: ``arena serve-bot`` (or ``python -m
    arena.players.serve``) of a bot that is, or the bundled ``bots/js_random``."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if not words:
        return False
    if len(words) >= 3 and words[1] == "serve-bot" and _own_program(words[0], "arena"):
        return bundled(words[2], registry)
    if words[1:3] == ["-m", "arena.players.serve"] and len(words) >= 4 and _own_program(words[0], "python"):
        return bundled(words[3], registry)
    import bots

    own_dir = os.path.dirname(os.path.realpath(bots.__file__))
    scripts = [os.path.realpath(w) for w in words[1:] if w.endswith(".js")]
    return len(words) == 2 and os.path.basename(words[0]) == "node" and \
        bool(scripts) and scripts[0] == os.path.join(own_dir, "js_random", "bot.js")


@functools.lru_cache(maxsize=1)
def _distributions() -> Mapping[str, list[str]]:
    """Top-level import names to their distributions (read once: it scans every installed one)."""
    return importlib.metadata.packages_distributions()


def _own_program(word: str, kind: str) -> bool:
    """``word`` runs the arena's own ``arena`` script or its Python (not merely a program so named)."""
    import shutil

    found = shutil.which(word) if os.sep not in word else word
    if not found:
        return False
    here = os.path.dirname(os.path.abspath(sys.executable))
    if kind == "arena":
        return os.path.realpath(found) == os.path.realpath(os.path.join(here, "arena"))
    return os.path.realpath(found) == os.path.realpath(sys.executable)


def _arena_file(module: Any) -> bool:
    """The module is in the arena's checkout or installation (its `arena`/`bots` packages)."""
    import arena

    path = os.path.realpath(str(getattr(module, "__file__", "") or ""))
    root = os.path.dirname(os.path.dirname(os.path.realpath(arena.__file__)))
    return path.startswith(root + os.sep)


def default_isolation(seats: Iterable[str], registry: Registry) -> str:
    """``sandbox`` when any seat is not the arena's own (:func:`bundled`), else ``process``."""
    return "process" if all(bundled(seat, registry) for seat in seats) else "sandbox"
