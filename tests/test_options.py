"""Options are validated in one place, with errors that name the option and what it accepts."""

import pytest

from arena.errors import OptionError
from arena.options import Option, OptionTable, parse_assignments

TABLE = OptionTable(
    "demo",
    (
        Option("players", 4, "choice", "players", choices=(3, 4, 6)),
        Option("misere", True, "bool", "allow misere"),
        Option("cap", False, "choice", "defence cap", choices=(False, 490, 480)),
        Option("auction", "australian", "choice", "auction", choices=("australian", "american")),
        Option("max_hands", None, "int", "limit", minimum=1),
    ),
)


def test_defaults_and_normalised_values():
    assert TABLE.resolve({}) == {"players": 4, "misere": True, "cap": False, "auction": "australian", "max_hands": None}
    given = {"players": "6", "misere": "off", "cap": "490", "auction": "AMERICAN", "max_hands": "30"}
    assert TABLE.resolve(given) == {"players": 6, "misere": False, "cap": 490, "auction": "american", "max_hands": 30}
    assert TABLE.resolve({"cap": "off", "misere": False})["cap"] is False


@pytest.mark.parametrize(
    "given, words",
    [
        ({"colour": "red"}, ["unknown option 'colour'", "players"]),
        ({"players": 5}, ["'players'", "one of 3, 4, 6"]),
        ({"misere": "maybe"}, ["'misere'", "on or off"]),
        ({"cap": 500}, ["'cap'", "off, 490, 480"]),
        ({"max_hands": 0}, ["'max_hands'", "from 1"]),
        ({"max_hands": "many"}, ["'max_hands'", "integer"]),
        ({"players": True}, ["'players'"]),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(given, words):
    with pytest.raises(OptionError) as caught:
        TABLE.resolve(given)
    for word in words:
        assert word in str(caught.value)


def test_command_line_assignments():
    assert parse_assignments(["a=1", " b = on "]) == {"a": "1", "b": "on"}
    with pytest.raises(OptionError, match="name=value"):
        parse_assignments(["novalue"])
