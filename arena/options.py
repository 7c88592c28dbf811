"""Game options (the variants): declared once per game, validated in one place.

A game declares a tuple of :class:`Option`. Values may come from the command line (strings such as
``on``/``off``/``490``), from TOML or JSON (native booleans and integers); both are normalised to
one canonical Python value so that records and tournament files compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from arena.errors import OptionError

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``kind`` is ``"bool"`` (on/off), ``"choice"`` (one of ``choices``; values may be strings or
    integers, and ``"off"`` may be one of them), or ``"int"`` (an integer in ``[minimum, maximum]``;
    ``None`` allowed when ``default`` is ``None``).
    """

    name: str
    default: Any
    kind: str
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    rule: str = ""  # the specification section that defines it, e.g. "R-8.4"

    def accepts(self) -> str:
        """Human text saying what values this option accepts."""
        if self.kind == "bool":
            return "on or off"
        if self.kind == "choice":
            return "one of " + ", ".join(_show(c) for c in self.choices)
        if self.minimum is not None and self.maximum is not None:
            text = f"an integer from {self.minimum} to {self.maximum}"
        elif self.minimum is not None:
            text = f"an integer from {self.minimum} up"
        elif self.maximum is not None:
            text = f"an integer up to {self.maximum}"
        else:
            text = "an integer"
        return text + (" or none" if self.default is None else "")

    def parse(self, value: Any) -> Any:
        """Return the canonical value, or raise :class:`OptionError` naming the option."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise self._bad(value)
        if self.kind == "choice":
            for choice in self.choices:
                if value == choice and type(value) is not bool:
                    return choice
                if isinstance(value, str) and value.strip().lower() == str(choice).lower():
                    return choice
                if choice is False and (value is False or str(value).lower() in _FALSE):
                    return False
            raise self._bad(value)
        if self.kind == "int":
            if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "")):
                if self.default is None:
                    return None
                raise self._bad(value)
            if isinstance(value, bool):
                raise self._bad(value)
            try:
                number = int(value) if isinstance(value, (int, str)) else None
            except ValueError:
                number = None
            if number is None or (isinstance(value, float)):
                raise self._bad(value)
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                raise self._bad(value)
            return number
        raise AssertionError(f"option {self.name} has unknown kind {self.kind}")

    def _bad(self, value: Any) -> OptionError:
        return OptionError(f"option {self.name!r}: {value!r} is not valid; it accepts {self.accepts()}")


def _show(value: Any) -> str:
    if value is False:
        return "off"
    if value is True:
        return "on"
    return str(value)


def show_value(value: Any) -> str:
    """The command-line spelling of an option value."""
    return "none" if value is None else _show(value)


@dataclass(frozen=True)
class OptionTable:
    """The declared options of one game."""

    game: str
    options: tuple[Option, ...] = field(default_factory=tuple)

    def __iter__(self):
        return iter(self.options)

    def names(self) -> list[str]:
        return [option.name for option in self.options]

    def resolve(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``given``; unknown names and bad values raise :class:`OptionError`."""
        given = dict(given or {})
        by_name = {option.name: option for option in self.options}
        unknown = sorted(set(given) - set(by_name))
        if unknown:
            raise OptionError(
                f"{self.game}: unknown option {unknown[0]!r}; known options: {', '.join(by_name)}"
            )
        return {
            name: option.parse(given[name]) if name in given else option.default
            for name, option in by_name.items()
        }


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """Parse ``name=value`` strings from the command line (``--option name=value``)."""
    result: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"option {item!r} is not of the form name=value")
        result[name.strip()] = value.strip()
    return result
