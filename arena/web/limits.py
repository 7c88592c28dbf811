"""Rate limits of both servers (`arena serve`, `arena ladder`): token buckets per client address
and in all, for what costs the server something lasting (a new player, a new table, a new author).

A :class:`Limit` is a burst and a refill rate; a :class:`Limiter` holds one bucket per client
address and one for everyone, and :meth:`Limiter.take` either takes a token from both or says how
long to wait (:class:`Limited`: answered 429 with ``Retry-After`` and a one-line reason). Buckets
of addresses that are full again are forgotten, so a million addresses cost nothing lasting.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from starlette.responses import Response


@dataclass(frozen=True)
class Limit:
    """``burst`` at once, then one more every ``every`` seconds."""

    burst: int
    every: float

    def __post_init__(self) -> None:
        if self.burst < 1 or not self.every > 0:
            raise ValueError(f"a limit is a burst of at least 1 and a positive refill time, not {self}")

    def describe(self) -> str:
        if self.every >= 3600:
            return f"{self.burst} at once, then one every {self.every / 3600:g} h"
        if self.every >= 60:
            return f"{self.burst} at once, then one every {self.every / 60:g} min"
        return f"{self.burst} at once, then one every {self.every:g} s"


class Limited(Exception):
    """Over a limit: ``retry_after`` whole seconds until a token is back; ``message``, one line."""

    def __init__(self, message: str, retry_after: float):
        self.message = message
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(message)


class _Bucket:
    __slots__ = ("tokens", "at")

    def __init__(self, tokens: float, at: float):
        self.tokens, self.at = tokens, at

    def level(self, limit: Limit, now: float) -> float:
        return min(float(limit.burst), self.tokens + (now - self.at) / limit.every)


class Limiter:
    """One kind of thing (``what``, e.g. "new tables") limited per address (``per_address``) and in
    all (``overall``, None: no overall limit)."""

    def __init__(self, what: str, per_address: Limit, overall: Limit | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.what = what
        self.per_address = per_address
        self.overall = overall
        self.clock = clock
        self._buckets: dict[str, _Bucket] = {}
        self._all = _Bucket(float(overall.burst), clock()) if overall is not None else None
        self._lock = threading.Lock()

    def take(self, address: str) -> None:
        """Take one token for ``address`` (and one of everyone's); :class:`Limited` when there is none."""
        with self._lock:
            now = self.clock()
            self._forget(now)
            bucket = self._buckets.get(address) or _Bucket(float(self.per_address.burst), now)
            mine = bucket.level(self.per_address, now)
            if mine < 1:
                wait = (1 - mine) * self.per_address.every
                raise Limited(f"too many {self.what} from your address ({self.per_address.describe()}): "
                              f"try again in {math.ceil(wait)} s", wait)
            if self._all is not None and self.overall is not None:
                everyone = self._all.level(self.overall, now)
                if everyone < 1:
                    wait = (1 - everyone) * self.overall.every
                    raise Limited(f"too many {self.what} on this server just now ({self.overall.describe()} "
                                  f"for everyone): try again in {math.ceil(wait)} s", wait)
                self._all.tokens, self._all.at = everyone - 1, now
            bucket.tokens, bucket.at = mine - 1, now
            self._buckets[address] = bucket

    def _forget(self, now: float) -> None:
        if len(self._buckets) < 1024:
            return
        full = [key for key, b in self._buckets.items() if b.level(self.per_address, now) >= self.per_address.burst]
        for key in full:
            del self._buckets[key]


def parse_limit(text: str, option: str) -> Limit:
    """``BURST/SECONDS`` (e.g. ``5/600``: five at once, then one every ten minutes) as a Limit;
    ValueError with the option's name otherwise."""
    burst, _, every = text.partition("/")
    try:
        return Limit(int(burst), float(every))
    except ValueError:
        raise ValueError(f"{option} {text!r}: give BURST/SECONDS, e.g. 5/600 (five at once, then one every "
                         "600 s), with a burst of at least 1") from None


def too_many(limited: Limited) -> "Response":
    """The 429 answer of ``limited``: ``{"error": reason, "code": "limit", "retry_after": s}`` and
    ``Retry-After`` (the page says the code in its own language)."""
    from starlette.responses import JSONResponse

    return JSONResponse({"error": limited.message, "code": "limit", "retry_after": limited.retry_after}, status_code=429,
                        headers={"Retry-After": str(limited.retry_after)})


@dataclass(frozen=True)
class ServeLimits:
    """What one person, and one address, may hold of `arena serve` (docs/web.md, "Limits")."""

    new_players: Limit = Limit(20, 60.0)  # player rows made per address (a first nickname or table)
    new_players_overall: Limit = Limit(200, 1.0)
    new_tables: Limit = Limit(20, 30.0)  # tables opened per address
    new_tables_overall: Limit = Limit(100, 0.5)
    tables_per_player: int = 4  # tables running at once for one person
    tables_overall: int = 256  # tables running at once in all
    idle_tables: float = 1800.0  # seconds a table may wait for its person's move before it is put aside
    bot_workers: int = 0  # decisions at once of people past half their budget (0: one per CPU)
    bot_seconds: float = 30.0  # seconds of bot decisions per person per minute
    ranked_daily_per_address: int = 3  # ranked daily sets per client address, game and UTC day
