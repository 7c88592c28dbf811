"""Accounts without ceremony: a name gets a token; the token is the author.

The token (``ta_`` and ``secrets.token_urlsafe(32)``) is shown once and stored only as its SHA-256 (hex). What
an author may do to a bot is decided in one place, :func:`owned_bot`: submit a version of a new
name (the bot becomes theirs) or of their own bot, and retire their own bot; another author's bot
is refused.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import TYPE_CHECKING, Any

from arena.errors import ArenaError
from arena.ladder.store import HOUSE, LadderStore, LadderStoreError

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

# Authors' and bots' names alike, always matched whole (re.fullmatch: a pattern ending in '$' also
# takes a trailing newline, and "heuristic\n" showed on the board as a house bot).
NAME = re.compile(r"[a-z0-9][a-z0-9_-]{1,31}")
RESERVED = frozenset({HOUSE, "random", "heuristic", "admin", "ladder", "api"})


class AccountError(ArenaError):
    """A refused account operation; ``status`` is the HTTP status the API answers with."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def is_name(name: Any) -> bool:
    return isinstance(name, str) and NAME.fullmatch(name) is not None


def reserved(name: str, registry: "Registry | None" = None) -> bool:
    """Whether ``name`` is the house's, a word of the ladder's or an installed (house) bot's name,
    in any case ("HOUSE", "Heuristic")."""
    folded = name.casefold()
    taken = set(RESERVED) | set(getattr(registry, "bots", None) or ())
    return any(folded == other.casefold() for other in taken)


def check_name(name: Any, what: str) -> str:
    if isinstance(name, str) and reserved(name):
        raise AccountError(f"{what} {name!r} is reserved", 409)
    if not is_name(name):
        raise AccountError(f"{what} {name!r} is not a name: 2 to 32 characters, lower-case letters, digits, '_' "
                           "and '-', starting with a letter or digit", 400)
    return name


TOKEN_PREFIX = "ta_"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


ENDPOINT_KEY_PREFIX = "ek_"


def endpoint_key(store: LadderStore, author: str) -> str:
    """The key ``author``'s gRPC endpoints must answer (BotDescription.owner_key): derived from their
    token's hash, so it needs no storing and names no secret. It is not a secret either: another
    author's server answers its own author's key, never the copier's, whoever knows either."""
    hashed = store.author_token_hash(author) or ""
    return ENDPOINT_KEY_PREFIX + hashlib.sha256(f"trick-arena endpoint key:{hashed}".encode()).hexdigest()[:32]


def register(store: LadderStore, name: Any, registry: "Registry | None" = None, pending: bool = False) -> str:
    """Register an author; their token (shown once). AccountError 409 when the name is taken or
    reserved (the house's, a house bot's: ``registry``'s installed bots). ``pending``: they may
    submit once the operator approves them (`arena ladder-approve`)."""
    name = check_name(name, "the author name")
    if reserved(name, registry):
        raise AccountError(f"the author name {name!r} is reserved (a house bot's name)", 409)
    # The prefix: a token never starts with '-' (one in 64 bare ones would, and `--token -x...` is
    # then read as an option), and a leaked one is recognisable (as secret scanners look for).
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    try:
        store.add_author(name, token_hash(token), pending=pending)
    except LadderStoreError:
        raise AccountError(f"the author name {name!r} is taken", 409) from None
    return token


def author_of(store: LadderStore, token: str | None, approved: bool = True) -> str:
    """The author whose token this is; AccountError 401 without a valid token. ``approved``: 403
    for an author still awaiting the operator's approval."""
    if not token:
        raise AccountError("no token: send the header 'Authorization: Bearer TOKEN' (register a name to get one)", 401)
    author = store.author_by_token_hash(token_hash(token))
    if author is None or author == HOUSE:
        raise AccountError("the token is not valid (register a name to get one)", 401)
    if approved and store.is_pending(author):
        raise AccountError(PENDING.format(author=author), 403)
    return author


PENDING = ("the author {author!r} awaits the operator's approval: this ladder approves new authors before "
           "they submit (ask its operator; docs/ladder.md, 'Approving authors')")


def owned_bot(store: LadderStore, author: str, bot: Any, *, create: bool) -> str:
    """The one ownership check: ``bot``'s name if ``author`` may change it. ``create``: a name
    nobody has yet becomes ``author``'s bot (a first submission); otherwise it must exist.
    AccountError 403 for another author's bot, 404 for a missing one, 409 for a house bot's name."""
    name = check_name(bot, "the bot name")
    found = store.bot(name)
    if found is None:
        if not create:
            raise AccountError(f"no bot is named {name!r}", 404)
        if reserved(name):
            raise AccountError(f"the bot name {name!r} is reserved", 409)
        try:
            store.add_bot(name, author)
        except LadderStoreError:  # taken meanwhile by another request
            found = store.bot(name)
        else:
            return name
    assert found is not None
    if found["author"] == HOUSE:
        raise AccountError(f"the bot {name!r} is a house bot of this ladder, not yours", 409)
    if found["author"] != author:
        raise AccountError(f"the bot {name!r} is another author's ({found['author']}): you may submit, replace "
                           "and retire only your own bots", 403)
    return name
