"""The daily deal and its par.

The deal seed of a game's daily deal on a UTC date is HMAC-SHA256(server secret, "game|date"):
the same for everyone on that server, unknowable without the secret (kept in the store, never
sent out). The bots' seeds follow from it (arena.matches.seat_seed), so everyone plays the same
cards in the same seat against the same bots. The par is that very match with the bundled
``heuristic`` bot in the person's seat (its seed too): played once per game and date, stored.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import threading
from typing import TYPE_CHECKING, Any

from arena.deals import Deals
from arena.matches import play_match, seat_seed
from arena.web.human import PREFIX
from arena.web.store import WebStore
from arena.results import margin
from arena.web.table import match_spec

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

PAR_BOT = "heuristic"
HUMAN_SEAT = 0


def daily_seed(secret: bytes, game: str, date: str) -> int:
    """The deal seed of ``game``'s daily deal on ``date`` (YYYY-MM-DD, UTC): 64 bits of the HMAC."""
    digest = hmac.new(secret, f"{game}|{date}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def utc_today() -> datetime.date:
    return datetime.datetime.now(datetime.timezone.utc).date()


def table_spec(game: Any, *, table_id: str, bots: list[str], deal_seed: int, nickname: str | None,
               human_time: float, human_seat: int = HUMAN_SEAT, keyed: bool = False) -> dict[str, Any]:
    """A table's stored spec: the person in ``human_seat``, ``bots`` in the other seats in order.
    ``keyed`` (an ordinary table): the bots' seeds are HMACs keyed by the secret deal seed, so a
    bot's seed tells nothing of the deal; else (the daily deal) arena.matches.seat_seed of it."""
    seat_bots = list(bots)
    seat_bots.insert(human_seat, PREFIX + table_id)
    names = [(nickname or "person") if seat == human_seat else bot for seat, bot in enumerate(seat_bots)]
    return {
        "game": game.name,
        "options": dict(game.options),
        "human_seat": human_seat,
        "bots": seat_bots,
        "seats": names,
        "deal_seed": deal_seed,
        "bot_seeds": [Deals(secret=deal_seed.to_bytes(8, "big")).bot_seed(f"match/0/seat/{seat}") if keyed
                      else seat_seed(deal_seed, 0, seat) for seat in range(game.players)],
        "time_control": {"per_decision": float(human_time), "bank": None, "increment": 0.0},
    }


_PAR_LOCKS: dict[tuple[str, str, str], threading.Lock] = {}
_PAR_LOCKS_LOCK = threading.Lock()


def par(store: WebStore, registry: "Registry", game_name: str, date: str) -> dict[str, Any]:
    """The par of ``game_name``'s daily deal on ``date``: played now if not stored yet (once)."""
    known = store.par(game_name, date)
    if known is not None:
        return known
    with _PAR_LOCKS_LOCK:
        lock = _PAR_LOCKS.setdefault((store.path, game_name, date), threading.Lock())
    with lock:
        known = store.par(game_name, date)
        if known is not None:
            return known
        game = registry.game(game_name, {})
        spec = table_spec(game, table_id="par", bots=[PAR_BOT] * (game.players - 1),
                          deal_seed=daily_seed(store.secret(), game_name, date), nickname=None, human_time=60.0)
        spec["bots"][HUMAN_SEAT] = PAR_BOT
        spec["seats"][HUMAN_SEAT] = f"par ({PAR_BOT})"
        result = play_match(match_spec(spec), registry)
        # the leaderboard's margin: the side's score less the best other side's
        par_margin = int(margin(result.scores, game.side_of(HUMAN_SEAT), max))
        store.set_par(game_name, date, par_margin, list(result.scores), result.record)
        return {"margin": par_margin, "scores": list(result.scores)}
