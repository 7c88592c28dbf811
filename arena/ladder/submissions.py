"""Submitting, replacing and retiring bots: a submission is a new *version* of a named bot.

:func:`submit` checks the request (kind, games, the author's rate limit, the bot's owner), installs
the version's files (:mod:`arena.ladder.install`) and stores it 'validating' (or 'refused' with the
reason when it does not install), then starts its validation in the background
(:mod:`arena.ladder.validation`). A version that becomes active retires the bot's previous one.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Hashable, Mapping

from arena.ladder import accounts, install, validation
from arena.ladder.accounts import AccountError, owned_bot
from arena.ladder.store import LadderStore

MAX_UPLOAD = 16 * 1024 * 1024  # bytes of one submission's file or archive (arena ladder --max-upload)
RATE_LIMIT = 10  # versions per author per hour (arena ladder --rate-limit)
RATE_WINDOW = 3600.0
KINDS = ("python", "program", "grpc")
_bot_locks: dict[Hashable, threading.Lock] = {}
_locks_lock = threading.Lock()


class SubmissionError(AccountError):
    """A refused request (nothing stored); ``status`` is the HTTP status."""


def max_upload(ladder: Any) -> int:
    return int(getattr(ladder, "max_upload", None) or MAX_UPLOAD)


def rate_limit(ladder: Any) -> int:
    return int(getattr(ladder, "rate_limit", None) or RATE_LIMIT)


def _lock(bot: Hashable) -> threading.Lock:
    with _locks_lock:
        return _bot_locks.setdefault(bot, threading.Lock())


def _games(ladder: Any, games: Any) -> list[str]:
    if isinstance(games, str):
        games = [g.strip() for g in games.split(",") if g.strip()]
    if not isinstance(games, list) or not games or not all(isinstance(g, str) for g in games):
        raise SubmissionError("\"games\" must list the games the bot plays, e.g. [\"five_hundred\"]", 400)
    played = sorted({entry.game for entry in getattr(getattr(ladder, "config", None), "ladders", ())})
    for game in games:
        if game not in played:
            raise SubmissionError(f"no ladder here plays {game!r}; the ladders' games: {', '.join(played) or 'none'}",
                                  400)
    return list(dict.fromkeys(games))


def _field(data: Mapping[str, Any], key: str, kind: str) -> Any:
    if key not in data or data[key] in (None, ""):
        raise SubmissionError(f"a {kind} submission needs \"{key}\"", 400)
    return data[key]


def _decoded(ladder: Any, data: Mapping[str, Any], key: str, kind: str) -> bytes:
    try:
        content = install.decode(_field(data, key, kind), f"\"{key}\"")
    except install.InstallError as exc:
        raise SubmissionError(str(exc), 400) from None
    limit = max_upload(ladder)
    if len(content) > limit:
        raise SubmissionError(f"the upload is {len(content)} bytes, over the limit of {limit}", 413)
    return content


def submit(ladder: Any, author: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Store a new version of ``data["name"]`` for ``author`` and start its validation; the version.

    SubmissionError (nothing stored) for a bad request: 400, 403 (another author's bot), 409, 413
    (over the size limit), 429 (over the rate limit). A version that does not install is stored
    'refused' with the reason, like one that fails validation."""
    store: LadderStore = ladder.store
    kind = data.get("kind")
    if kind not in KINDS:
        raise SubmissionError(f"\"kind\" must be one of {', '.join(KINDS)}, not {kind!r}", 400)
    games = _games(ladder, data.get("games"))
    content = b""
    filename = wanted = command = endpoint = None  # each kind sets its own
    if kind == "python":
        content = _decoded(ladder, data, "content_base64", kind)
        filename = _field(data, "filename", kind)
        wanted = data.get("bot") or None
        if not isinstance(filename, str) or wanted is not None and not isinstance(wanted, str):
            raise SubmissionError("\"filename\" and \"bot\" must be strings", 400)
    elif kind == "program":
        content = _decoded(ladder, data, "archive_base64", kind)
        command = _field(data, "command", kind)
        if not isinstance(command, str):
            raise SubmissionError("\"command\" must be a string", 400)
    else:
        try:  # a malformed endpoint is a bad request: nothing to store
            endpoint = install.check_endpoint(_field(data, "endpoint", kind))
        except install.InstallError as exc:
            raise SubmissionError(str(exc), 400) from None
    registry = getattr(ladder, "registry", None)
    name = data.get("name")
    if registry is not None and isinstance(name, str) and \
            any(name.casefold() == bot.casefold() for bot in registry.bots):  # kept for --house, in any case
        raise SubmissionError(f"the bot name {name!r} is an installed bot's (a house bot's name): choose another", 409)
    with _lock(("author", author)):  # counted and stored under one lock: two requests at once cannot both pass
        limit = rate_limit(ladder)
        recent = store.versions_since(author, time.time() - RATE_WINDOW)
        if recent >= limit:
            raise SubmissionError(f"{author} submitted {recent} versions in the last hour, the limit is {limit}: "
                                  "try again later", 429)
        name = owned_bot(store, author, name, create=True)
        if endpoint is not None:  # the author's key in its seat: every match start checks the endpoint answers it
            _check_endpoint_free(store, author, endpoint)
            endpoint = install.Installed(f"{endpoint.seat}?owner={accounts.endpoint_key(store, author)}", None)
        version, number = _store_version(ladder, store, name, kind, filename, content, wanted, command, endpoint, games)
    if version["status"] != "validating":  # refused as it installed
        return version
    if version["number"] != number:  # another process wrote a version of this bot meanwhile: its files differ
        store.set_status(version["id"], "refused", "submitted twice at once: submit again")
        return store.version(version["id"]) or version
    validation.start(ladder, version["id"])
    return version


def _store_version(ladder: Any, store: LadderStore, name: str, kind: str, filename: Any, content: bytes, wanted: Any,
                   command: Any, endpoint: Any, games: list[str]) -> tuple[dict[str, Any], int]:
    """Install the new version's files and store it: refused with the reason, or validating."""
    with _lock(name):
        number = 1 + max((v["number"] for v in store.versions(bot=name)), default=0)
        directory = install.version_dir(ladder.data_dir, name, number)
        try:
            if kind == "python":
                installed = install.install_python(directory, filename, content, wanted)
            elif kind == "program":
                installed = install.install_program(directory, content, command,
                                                    max(install.MAX_UNPACKED, 4 * max_upload(ladder)))
            else:
                installed = endpoint
            if installed.games is not None:
                missing = [g for g in games if g not in installed.games]
                if missing:
                    raise install.InstallError(f"the bot does not play {', '.join(missing)}: it plays "
                                               f"{', '.join(installed.games)}")
        except install.InstallError as exc:
            return store.add_version(name, kind, "", games, "refused", validation.scrub(ladder, str(exc)),
                                     str(directory) if directory.exists() else ""), number
        return store.add_version(name, kind, installed.seat, games, "validating", "",
                                 str(directory) if kind != "grpc" else ""), number


def _check_endpoint_free(store: LadderStore, author: str, endpoint: install.Installed) -> None:
    """One endpoint, one author: its host and port (whatever the scheme) are not another author's."""
    mine = install.endpoint_target(endpoint.seat)
    for version in store.versions():
        if version["kind"] == "grpc" and version["author"] != author and version["seat"] \
                and install.endpoint_target(version["seat"]) == mine:
            raise SubmissionError(f"the endpoint {mine} is another author's bot: an endpoint plays for one author "
                                  "only (yours answers your endpoint key, see docs/submitting.md)", 409)


def retire(ladder: Any, author: str, name: Any) -> list[dict[str, Any]]:
    """Retire ``author``'s bot: every version that plays or waits to play stops (its history stays)."""
    store: LadderStore = ladder.store
    name = owned_bot(store, author, name, create=False)
    retired = []
    for version in store.versions(bot=name):
        if version["status"] in ("active", "probation", "validating"):
            store.set_status(version["id"], "retired", "retired by its author")
            retired.append(store.version(version["id"]))
    return [v for v in retired if v is not None]


def public(version: Mapping[str, Any]) -> dict[str, Any]:
    """What the API shows of a version (not its files' path on the server)."""
    return {key: version.get(key) for key in ("id", "bot", "number", "kind", "games", "status", "reason", "created",
                                              "author")}
