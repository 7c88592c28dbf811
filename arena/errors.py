"""Named errors. Each says what was wrong, where, and why (see STYLE: errors are named types)."""

from __future__ import annotations


class ArenaError(Exception):
    """Base class of every error the arena raises on purpose."""


class OptionError(ArenaError, ValueError):
    """A game option is unknown or has a value the option does not accept."""


class UnknownGameError(ArenaError, LookupError):
    """No installed game has this name."""


class UnknownBotError(ArenaError, LookupError):
    """No installed bot has this name."""


class PluginError(ArenaError):
    """A plugin failed to load or registered something malformed."""


class IllegalActionError(ArenaError, ValueError):
    """An action was offered that is not legal at this point of the game.

    The state is left unchanged. ``action``, ``seat``, ``phase`` and ``legal`` say exactly what
    was refused and what would have been accepted.
    """

    def __init__(self, action: object, seat: int | None, phase: str, legal: list[str], why: str = ""):
        self.action = action
        self.seat = seat
        self.phase = phase
        self.legal = legal
        shown = ", ".join(legal[:12]) + (", ..." if len(legal) > 12 else "")
        reason = f" ({why})" if why else ""
        super().__init__(
            f"illegal action {action!r} by seat {seat} in phase {phase!r}{reason}; legal: [{shown}]"
        )


class RecordError(ArenaError, ValueError):
    """A game record is malformed or does not replay.

    ``hand`` and ``action_index`` (both from 0) locate the failing action when there is one.
    """

    def __init__(
        self,
        message: str,
        *,
        hand: int | None = None,
        action_index: int | None = None,
        seat: int | None = None,
        action: object = None,
        legal: list[str] | None = None,
    ):
        self.hand = hand
        self.action_index = action_index
        self.seat = seat
        self.action = action
        self.legal = legal
        super().__init__(message)

    def as_dict(self) -> dict:
        data: dict = {"message": str(self)}
        for key in ("hand", "action_index", "seat", "action", "legal"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        return data
