"""Time controls: a limit per decision and, optionally, a bank with an increment (as chess clocks)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from arena.errors import ArenaError


MAX_SECONDS = 86400.0  # the longest limit, bank or increment: a day (more is a typing error, or unrepresentable)


@dataclass(frozen=True)
class TimeControl:
    """All figures are seconds.

    ``per_decision``: the most one decision may take. ``bank``: when set, a reserve shared by all of a
    seat's decisions; each decision may take at most ``min(per_decision, bank left)``, its time is
    taken from the bank, and ``increment`` is added back after it (Fischer increment).
    """

    per_decision: float = 5.0
    bank: float | None = None
    increment: float = 0.0

    def __post_init__(self) -> None:
        for name in ("per_decision", "bank", "increment"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise ArenaError(f"time control: {name} must be a number of seconds, not {value!r}")
            if value is not None and not value <= MAX_SECONDS:  # also refuses inf and nan
                raise ArenaError(f"time control: {name} must be at most {MAX_SECONDS:.0f} seconds (a day), not {value!r}")
        if not self.per_decision > 0:
            raise ArenaError(f"time control: per_decision must be > 0 seconds, not {self.per_decision!r}")
        if self.bank is not None and not self.bank > 0:
            raise ArenaError(f"time control: bank must be > 0 seconds or absent, not {self.bank!r}")
        if self.increment < 0:
            raise ArenaError(f"time control: increment must be >= 0 seconds, not {self.increment!r}")

    def as_dict(self) -> dict[str, Any]:
        return {"per_decision": self.per_decision, "bank": self.bank, "increment": self.increment}  # asdict(), faster

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TimeControl":
        unknown = set(data) - {"per_decision", "bank", "increment"}
        if unknown:
            raise ArenaError(f"time control: unknown key {sorted(unknown)[0]!r}; keys: per_decision, bank, increment")
        try:
            values: dict[str, Any] = {key: (None if value is None else float(value)) for key, value in data.items()}
            return cls(**values)
        except (TypeError, ValueError) as exc:
            raise ArenaError(f"time control: {exc}") from exc


class Clock:
    """One seat's clock during a match."""

    def __init__(self, control: TimeControl):
        self.control = control
        self.bank = control.bank
        self.used = 0.0
        self.decisions = 0

    def allowed(self) -> float:
        """The most the next decision may take."""
        if self.bank is None:
            return self.control.per_decision
        return max(0.0, min(self.control.per_decision, self.bank))

    def charge(self, elapsed: float) -> None:
        """Count one decision that took ``elapsed`` seconds (from the bank, plus the increment)."""
        self.used += elapsed
        self.decisions += 1
        bank = self.bank
        if bank is not None:
            self.bank = bank - elapsed + self.control.increment

    def view(self) -> dict[str, Any]:
        """What the bot is told about its time (added to every observation)."""
        return {"time_left": round(self.allowed(), 6), "bank_left": None if self.bank is None else round(self.bank, 6)}
