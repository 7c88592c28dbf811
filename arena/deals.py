"""Where a run's cards come from: a secret no bot can read, or a seed its operator made public.

A run (``arena run``, ``arena match``, the ladder) makes a 32-byte secret when it starts
(:func:`secrets.token_bytes`) and keeps it in its store, so that resuming deals the same cards.
Every deal seed and every bot's seed is derived from it by HMAC-SHA256 with a label naming what it
seeds: knowing some of them (a bot knows its own seed) tells nothing of the others or of the
secret. Deal seeds reach only the arena's referee and the operator's store, never a bot.

An operator who wants the same deals in fresh runs gives a **public seed** instead (``seed = N`` in
a tournament file, ``--seed N``): the seeds are then the plain formulas of it the arena has always
used, and whoever knows the seed knows every deal.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import zlib
from dataclasses import dataclass
from typing import Any

from arena.errors import ArenaError

SECRET_BYTES = 32


@dataclass(frozen=True)
class Deals:
    """The source of a run's deal seeds and bot seeds: ``secret`` (bytes) or ``public_seed``."""

    secret: bytes | None = None
    public_seed: int | str | None = None

    def __post_init__(self) -> None:
        if (self.secret is None) == (self.public_seed is None):
            raise ValueError("Deals: give a secret or a public seed, exactly one")

    @classmethod
    def fresh(cls) -> "Deals":
        """A new secret: a run that names no seed."""
        return cls(secret=secrets.token_bytes(SECRET_BYTES))

    @classmethod
    def of(cls, public_seed: int | str | None) -> "Deals":
        """The public seed when one is given, else a fresh secret."""
        return cls.fresh() if public_seed is None else cls(public_seed=public_seed)

    @property
    def public(self) -> bool:
        return self.public_seed is not None

    def deal_seed(self, label: str) -> int | str:
        """The seed of the deals labelled ``label`` (e.g. ``dealset/3``)."""
        if self.public_seed is not None:
            return f"{self.public_seed}/{label}"
        return _keyed(self.secret, "deals/" + label, 8) >> 1  # 63 bits: any JSON reader keeps it exact

    def bot_seed(self, label: str) -> int:
        """A bot's seed (32 bits, as bots have always had), e.g. for ``match/12/seat/0``."""
        if self.public_seed is not None:
            return zlib.crc32(f"{self.public_seed}/{label}".encode())
        return _keyed(self.secret, "bot/" + label, 4)

    def other_seed(self, label: str) -> int | str:
        """A seed for the arena's own choices (the ladder's matchmaking): public or keyed."""
        if self.public_seed is not None:
            return self.public_seed
        return _keyed(self.secret, "arena/" + label, 8)

    # -- kept in a store (as JSON text) --------------------------------------------------------
    def to_json(self) -> str:
        if self.secret is None:
            return json.dumps({"public_seed": self.public_seed})
        return json.dumps({"secret": self.secret.hex()})

    @classmethod
    def from_json(cls, text: str, where: str) -> "Deals":
        """Read back :meth:`to_json`; damage is an ArenaError naming ``where``."""
        try:
            data = json.loads(text)
            if "secret" in data:
                secret = bytes.fromhex(data["secret"])
                if len(secret) != SECRET_BYTES:
                    raise ValueError
                return cls(secret=secret)
            seed = data["public_seed"]
            if not isinstance(seed, (int, str)) or isinstance(seed, bool):
                raise ValueError
            return cls(public_seed=seed)
        except (TypeError, ValueError, KeyError, AttributeError):
            raise ArenaError(f"{where}: the stored deals (secret or seed) are damaged") from None

    def describe(self) -> str:
        """One line for the operator (never the secret itself)."""
        if self.public_seed is not None:
            return f"deals from the public seed {self.public_seed!r}: whoever knows it knows every deal"
        return "deals from a secret kept in the store"


def _keyed(secret: Any, label: str, size: int) -> int:
    digest = hmac.new(secret, label.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:size], "big")
