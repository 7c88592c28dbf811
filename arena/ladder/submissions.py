"""Submitting, replacing and retiring bots: a submission is a new *version* of a named bot.

:func:`submit` checks the request (kind, games, the author's rate limit and share of the install
queue, the bot's owner), stores the version 'validating' with its upload kept aside, and returns at
once: the version is installed (:mod:`arena.ladder.install`) and validated
(:mod:`arena.ladder.validation`) in the ladder's bounded background queue (:mod:`arena.ladder.jobs`).
A version that becomes active retires the bot's previous one.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Hashable, Mapping

from arena.ladder import accounts, install, jobs
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
    """Store a new version of ``data["name"]`` for ``author``, 'validating', and queue its install
    and validation (arena.ladder.jobs); the version, at once.

    SubmissionError (nothing stored) for a bad request: 400, 403 (another author's bot), 409, 413
    (over the size limit), 429 (over the rate limit, or the author's share of the queue), 503 (the
    queue is full). A version that does not install is then 'refused' with the reason, like one
    that fails validation, and its files are removed."""
    store: LadderStore = ladder.store
    kind = data.get("kind")
    if kind not in KINDS:
        raise SubmissionError(f"\"kind\" must be one of {', '.join(KINDS)}, not {kind!r}", 400)
    games = _games(ladder, data.get("games"))
    content = b""
    details: dict[str, Any] = {}
    seat = ""  # a python or program version gets its seat once installed
    if kind == "python":
        content = _decoded(ladder, data, "content_base64", kind)
        filename = _field(data, "filename", kind)
        wanted = data.get("bot") or None
        if not isinstance(filename, str) or wanted is not None and not isinstance(wanted, str):
            raise SubmissionError("\"filename\" and \"bot\" must be strings", 400)
        details = {"filename": filename, "bot": wanted}
    elif kind == "program":
        content = _decoded(ladder, data, "archive_base64", kind)
        command = _field(data, "command", kind)
        if not isinstance(command, str):
            raise SubmissionError("\"command\" must be a string", 400)
        details = {"command": command, "limit": max_upload(ladder)}
    else:
        try:  # a malformed endpoint is a bad request: nothing to store
            seat = install.check_endpoint(_field(data, "endpoint", kind)).seat
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
        jobs.check_room(ladder, author)
        name = owned_bot(store, author, name, create=True)
        if kind == "grpc":  # the author's key in its seat: every match start checks the endpoint answers it
            _check_endpoint_free(store, author, seat)
            seat = f"{seat}?owner={accounts.endpoint_key(store, author)}"
        version = store.add_version(name, kind, seat, games, "validating")
        if kind != "grpc":
            try:
                jobs.save_upload(ladder, version["id"], content, details)
            except OSError as exc:
                store.set_status(version["id"], "refused", f"the server could not keep the upload: {exc.strerror}")
                return store.version(version["id"]) or version
        jobs.enqueue(ladder, version["id"], author)
    return version


def _check_endpoint_free(store: LadderStore, author: str, seat: str) -> None:
    """One endpoint, one author: its host and port (whatever the scheme) are not another author's."""
    mine = install.endpoint_target(seat)
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


def public(version: Mapping[str, Any], ladder: Any = None) -> dict[str, Any]:
    """What the API shows of a version (not its files' path on the server); with ``ladder``, its
    place in the install queue (``queue``: 0 being installed or validated, N with N-1 before it)."""
    shown = {key: version.get(key) for key in ("id", "bot", "number", "kind", "games", "status", "reason", "created",
                                               "author")}
    if ladder is not None and version.get("status") == "validating":
        shown["queue"] = jobs.position(ladder, int(version["id"]))
    return shown
