"""Ladder accounts (arena/ladder/accounts.py): a name gets a token, only its hash is stored, and one
check decides what an author may do to a bot."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from arena.ladder import accounts
from arena.ladder.accounts import AccountError
from arena.ladder.store import LadderStore


@pytest.fixture
def store(tmp_path):
    store = LadderStore(tmp_path / "ladder.db")
    yield store
    store.close()


def test_a_name_gets_a_token_stored_only_as_its_sha256(store, tmp_path):
    token = accounts.register(store, "alice")
    assert len(token) >= 40 and token != accounts.register(store, "bob")
    rows = sqlite3.connect(tmp_path / "ladder.db").execute("SELECT name, token_hash FROM ladder_authors").fetchall()
    stored = dict(rows)["alice"]
    assert stored == hashlib.sha256(token.encode()).hexdigest() and token not in str(rows)
    assert accounts.author_of(store, token) == "alice"


def test_a_taken_or_reserved_name_is_409_and_a_malformed_one_400(store):
    accounts.register(store, "alice")
    for name, status in (("alice", 409), ("house", 409), ("Alice", 400), ("a", 400), ("x" * 33, 400),
                         ("-dash", 400), ("with space", 400), (None, 400), (7, 400)):
        with pytest.raises(AccountError) as refused:
            accounts.register(store, name)
        assert refused.value.status == status, name
    assert store.authors() == ["alice"]


def test_no_token_or_a_wrong_one_is_401(store):
    token = accounts.register(store, "alice")
    for given in (None, "", token + "x", token.upper(), "Bearer " + token):
        with pytest.raises(AccountError) as refused:
            accounts.author_of(store, given)
        assert refused.value.status == 401
    store.ensure_house("random", ["five_hundred"])  # the house author has an empty hash: no token is it
    with pytest.raises(AccountError):
        accounts.author_of(store, "")


def test_an_author_changes_only_their_own_bots(store):
    accounts.register(store, "alice")
    accounts.register(store, "bob")
    assert accounts.owned_bot(store, "alice", "alice-bot", create=True) == "alice-bot"
    assert store.bot("alice-bot") == {"name": "alice-bot", "author": "alice"}
    assert accounts.owned_bot(store, "alice", "alice-bot", create=False) == "alice-bot"  # a new version: hers
    for create in (True, False):
        with pytest.raises(AccountError) as refused:
            accounts.owned_bot(store, "bob", "alice-bot", create=create)
        assert refused.value.status == 403 and "another author's (alice)" in str(refused.value)
    with pytest.raises(AccountError) as missing:
        accounts.owned_bot(store, "bob", "nobody-bot", create=False)
    assert missing.value.status == 404 and store.bot("nobody-bot") is None
    store.ensure_house("heuristic", ["five_hundred"])
    with pytest.raises(AccountError) as house:
        accounts.owned_bot(store, "bob", "heuristic", create=True)
    assert house.value.status == 409
    with pytest.raises(AccountError) as bad:
        accounts.owned_bot(store, "bob", "../etc", create=True)
    assert bad.value.status == 400


def test_every_token_passes_as_a_command_line_value(store, registry):
    """A bare urlsafe token starts with '-' one time in 64, and `arena submit --token -x...` is then
    read as an option (CI once failed on exactly that); tokens start with ta_ so none ever does."""
    from arena.commandline import build_parser

    parser = build_parser(registry)
    for n in range(200):
        token = accounts.register(store, f"author{n}")
        assert token.startswith(accounts.TOKEN_PREFIX)
        args = parser.parse_args(["submit", "--server", "http://127.0.0.1:8000", "--token", token, "bot",
                                  "--endpoint", "grpc://127.0.0.1:1", "--games", "all_fours"])
        assert args.token == token
