"""A client of a ladder's authors' API (arena/ladder/api.py), on urllib alone: register, submit,
wait for validation, retire, read your bot's logs. Every failure is an ArenaError of one line: what, and why."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import tarfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from arena.errors import ArenaError

TIMEOUT = 600.0  # seconds for one request (an upload's installation runs before the answer)
_SKIPPED = ("__pycache__", ".git", ".venv", "node_modules/.cache")


class LadderClientError(ArenaError):
    """A request to the ladder failed: the server's refusal, or why it could not be reached."""


def base_url(server: str) -> str:
    parts = urllib.parse.urlsplit(server if "://" in server else f"http://{server}")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LadderClientError(f"--server {server!r} is not a URL like http://HOST:PORT")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def token_path(server: str) -> Path:
    """Where ``arena register --save`` keeps the token for ``server``: ~/.config/trick-arena/token-HOST_PORT."""
    host = urllib.parse.urlsplit(base_url(server)).netloc
    return Path.home() / ".config" / "trick-arena" / f"token-{re.sub(r'[^A-Za-z0-9._-]', '_', host)}"


def save_token(path: Path, token: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(token + "\n")
    os.chmod(path, 0o600)


def read_token(server: str, token: str | None = None, token_file: str | None = None) -> str:
    if token:
        return token
    path = Path(token_file) if token_file else token_path(server)
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        hint = "" if token_file else " (arena register --save writes it; or give --token / --token-file)"
        raise LadderClientError(f"cannot read the token file {path}: {exc.strerror}{hint}") from None
    if not text:
        raise LadderClientError(f"the token file {path} is empty")
    return text


def request(server: str, method: str, path: str, body: Any = None, token: str | None = None,
            timeout: float = TIMEOUT) -> Any:
    url = base_url(server) + path
    data = json.dumps(body).encode("utf-8") if body is not None else None
    headers = {"Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    call = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(call, timeout=timeout) as answer:
            return json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read()).get("error") or exc.reason
        except (ValueError, AttributeError, OSError):
            message = exc.reason
        raise LadderClientError(f"{method} {url}: {exc.code}: {message}") from None
    except urllib.error.URLError as exc:
        raise LadderClientError(f"cannot reach the ladder at {base_url(server)}: {exc.reason}") from None
    except (OSError, ValueError) as exc:  # timeouts, resets, an answer that is not JSON
        raise LadderClientError(f"{method} {url}: {exc}") from None


def register(server: str, name: str) -> dict[str, Any]:
    return request(server, "POST", "/api/ladder/authors", {"name": name})


def pack(path: str) -> bytes:
    """A program's files as a .tar.gz: a directory's contents (its top is the archive's top), or an
    existing .tar.gz / .zip archive as it is."""
    source = Path(path)
    if source.is_file():
        return source.read_bytes()
    if not source.is_dir():
        raise LadderClientError(f"--program {path}: no such directory or archive")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for item in sorted(source.rglob("*")):
            relative = item.relative_to(source)
            if any(part in _SKIPPED for part in relative.parts) or item.suffix == ".pyc":
                continue
            if item.is_symlink():
                raise LadderClientError(f"--program {path}: {relative} is a symbolic link; the ladder takes plain "
                                        "files only")
            archive.add(item, arcname=str(relative), recursive=False)
    return buffer.getvalue()


def submission(name: str, games: list[str], *, python: str | None = None, bot: str | None = None,
               program: str | None = None, command: str | None = None, endpoint: str | None = None) -> dict[str, Any]:
    """The JSON body of a submission."""
    body: dict[str, Any] = {"name": name, "games": games}
    if python:
        try:
            content = Path(python).read_bytes()
        except OSError as exc:
            raise LadderClientError(f"--python {python}: cannot read it: {exc.strerror}") from None
        body.update(kind="python", filename=os.path.basename(python),
                    content_base64=base64.b64encode(content).decode("ascii"))
        if bot:
            body["bot"] = bot
    elif program:
        if not command:
            raise LadderClientError("--program needs --command \"CMD ... {socket}\" (how to start it)")
        body.update(kind="program", command=command, archive_base64=base64.b64encode(pack(program)).decode("ascii"))
    elif endpoint:
        body.update(kind="grpc", endpoint=endpoint)
    else:
        raise LadderClientError("give one of --python FILE, --program DIR_OR_ARCHIVE or --endpoint grpc://HOST:PORT")
    return body


def submit(server: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    return request(server, "POST", "/api/ladder/bots", body, token)


def wait(server: str, version_id: int, timeout: float = TIMEOUT, every: float = 1.0) -> dict[str, Any]:
    """Poll a version until its validation is over (status no longer 'validating')."""
    deadline = time.monotonic() + timeout
    while True:
        version = request(server, "GET", f"/api/ladder/versions/{version_id}")
        if version.get("status") != "validating":
            return version
        if time.monotonic() > deadline:
            raise LadderClientError(f"version {version_id} is still validating after {timeout:.0f} s")
        time.sleep(every)


def retire(server: str, token: str, name: str) -> dict[str, Any]:
    return request(server, "POST", f"/api/ladder/bots/{urllib.parse.quote(name, safe='')}/retire", {}, token)


def logs(server: str, token: str, name: str, match: int) -> dict[str, Any]:
    """Your bot ``name``'s logs of match ``match`` (arena.ladder.logs)."""
    return request(server, "GET", f"/api/ladder/bots/{urllib.parse.quote(name, safe='')}/logs/{int(match)}",
                   token=token)
