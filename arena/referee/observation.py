"""Observations that build themselves when they are first read.

Building a seat's observation (its history, the tricks, the contract, ...) costs the referee more
than the engine spends on the decision itself, and many bots read only ``legal_actions``. A
:class:`LazyObservation` is a ``dict`` that holds ``legal_actions`` (and whatever the referee adds:
``time_left``, ``bank_left``) from the start, and asks the engine for the rest the first time
anything else is read: another key, ``in``, ``len``, iteration, ``keys``/``values``/``items``,
``==``, ``repr``, ``json.dumps``, ``pickle``, ``copy``. What a bot sees is exactly what
``state.observation(seat)`` returns, in the same key order, with the referee's keys after it.

It must show the state *of its decision*: when the bot's answer is in, the referee calls
:meth:`LazyObservation.settle` on the observation if anything still holds it (a bot may keep one),
before it applies the action, so a late read never sees a later state.

The bot never gets the state through the observation: the two slots that hold it (the state and the
seat) are taken out of the class once it is made, so ``observation._state`` is no attribute at all;
only this module reads them (:func:`attach`, :func:`source`). An in-process bot runs in the arena's
own process and is trusted all the same (it could reach anything there); what every stored result
says is checked by replaying its record (``arena.tournaments.runner``). The engine's ``observation()`` must give ``legal_actions`` equal to
``state.legal_actions()`` for the seat to act (the game interface requires it).
"""

from __future__ import annotations

from typing import Any

_MISSING = object()


class LazyObservation(dict):
    """The observation of ``seat`` in ``state``; built on first use (see the module's doc)."""

    __slots__ = ("_state", "_seat", "__weakref__")

    # No __init__ of its own (dict's, in C, is faster): use :meth:`make`.
    @classmethod
    def make(cls, state: Any, seat: int, **known: Any) -> "LazyObservation":
        """The observation of ``seat`` in ``state``; ``known`` holds ``legal_actions`` (and the
        referee's keys): what is read without building the rest."""
        observation = cls(known)
        _set_state(observation, state)
        _set_seat(observation, seat)
        return observation

    # -- building ------------------------------------------------------------------------------
    def settle(self) -> None:
        """Build the whole observation now (from the state as it is), if not done yet."""
        state = source(self)
        if state is None:
            return
        _set_state(self, None)
        full = state.observation(_get_seat(self))
        added = dict.copy(self)  # legal_actions, the referee's keys, and anything the bot set
        dict.clear(self)
        dict.update(self, full)
        dict.update(self, added)

    @property
    def built(self) -> bool:
        return source(self) is None

    # -- reads that need the whole observation -----------------------------------------------
    def __missing__(self, key: Any) -> Any:
        if source(self) is None:
            raise KeyError(key)
        self.settle()
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        value = dict.get(self, key, _MISSING)
        if value is _MISSING:
            if source(self) is None:
                return default
            self.settle()
            return dict.get(self, key, default)
        return value

    def __contains__(self, key: object) -> bool:
        if dict.__contains__(self, key):
            return True
        self.settle()
        return dict.__contains__(self, key)

    def __iter__(self):
        self.settle()
        return dict.__iter__(self)

    def __reversed__(self):
        self.settle()
        return dict.__reversed__(self)

    def __len__(self) -> int:
        self.settle()
        return dict.__len__(self)

    def keys(self):
        self.settle()
        return dict.keys(self)

    def values(self):
        self.settle()
        return dict.values(self)

    def items(self):
        self.settle()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        self.settle()
        return dict.copy(self)

    def __eq__(self, other: object) -> bool:
        self.settle()
        if isinstance(other, LazyObservation):
            other.settle()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None

    def __repr__(self) -> str:
        self.settle()
        return dict.__repr__(self)

    def __or__(self, other: Any) -> Any:
        self.settle()
        return dict.__or__(dict.copy(self), other)

    def __ror__(self, other: Any) -> Any:
        self.settle()
        return dict.__ror__(dict.copy(self), other)

    # -- changes that need the whole observation first ---------------------------------------
    def __delitem__(self, key: Any) -> None:
        self.settle()
        dict.__delitem__(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        self.settle()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[Any, Any]:
        self.settle()
        return dict.popitem(self)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self.settle()
        return dict.setdefault(self, key, default)

    def clear(self) -> None:
        _set_state(self, None)
        dict.clear(self)

    # -- copies and pickles are plain dicts ------------------------------------------------------
    def __reduce_ex__(self, protocol: Any) -> Any:
        self.settle()
        return (dict, (dict.copy(self),))

    def __reduce__(self) -> Any:
        return self.__reduce_ex__(2)

    def __deepcopy__(self, memo: dict) -> dict[str, Any]:
        import copy

        self.settle()
        return copy.deepcopy(dict.copy(self), memo)

    def __copy__(self) -> dict[str, Any]:
        return self.copy()


# The slots that hold the state and the seat, out of the class (see the module's doc): set and read
# through their descriptors, here only.
_STATE_SLOT = LazyObservation.__dict__["_state"]
_SEAT_SLOT = LazyObservation.__dict__["_seat"]
delattr(LazyObservation, "_state")  # the slots are no class attributes mypy knows of
delattr(LazyObservation, "_seat")
_set_state = _STATE_SLOT.__set__
_set_seat = _SEAT_SLOT.__set__
_get_seat = _SEAT_SLOT.__get__
_get_state = _STATE_SLOT.__get__


def attach(observation: LazyObservation, state: Any, seat: int) -> None:
    """Make ``observation`` the one of ``seat`` in ``state`` (what :meth:`LazyObservation.make` does)."""
    _set_state(observation, state)
    _set_seat(observation, seat)


def source(observation: LazyObservation) -> Any:
    """The state ``observation`` is still to be built from; None once built (or never attached)."""
    try:
        return _get_state(observation)
    except AttributeError:  # the slot was never set
        return None
