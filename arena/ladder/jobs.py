"""The ladder's install queue: a submission's install and validation run here, in the background,
never in the request that submitted it (an sdist's build may take minutes).

:func:`enqueue` takes a stored 'validating' version (its upload saved by :func:`save_upload`) and
returns at once; :data:`WORKERS` threads take the versions in order, install each
(arena.ladder.install) and validate it (arena.ladder.validation). The queue is bounded: at most
:data:`PER_AUTHOR` versions of one author waiting or running, :data:`QUEUED` in all; over either,
:func:`check_room` refuses the submission (429, 503) before anything is stored. :func:`position`
is a version's place (0: being installed or validated now). A version that does not install is
'refused' with the reason and its files are removed; so is one whose install fails unexpectedly.
A validation the arena itself failed (arena.players.hosts.ArenaFailure) leaves the version
'validating', with the reason, and queues it again :data:`ARENA_RETRY_SECONDS` later.
"""

from __future__ import annotations

import collections
import json
import logging
import shutil
import threading
import time
import weakref
from pathlib import Path
from typing import Any

from arena.ladder import install, validation
from arena.ladder.accounts import AccountError

WORKERS = 2  # installs and validations at once
QUEUED = 100  # versions waiting or running, in all
PER_AUTHOR = 3  # ... of one author
ARENA_RETRY_SECONDS = 60.0  # a validation the arena itself failed is queued again after this
log = logging.getLogger(__name__)


class _Queue:
    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.waiting: collections.deque[tuple[int, str]] = collections.deque()  # (version id, author)
        self.running: dict[int, str] = {}
        self.threads: list[threading.Thread] = []

    def authors(self) -> list[str]:
        return [author for _, author in self.waiting] + list(self.running.values())


_queues: "weakref.WeakSet[_Queue]" = weakref.WeakSet()
_queues_lock = threading.Lock()


def _queue(ladder: Any) -> _Queue:
    """The ladder's queue (kept on the ladder object: one per ladder)."""
    with _queues_lock:
        queue = getattr(ladder, "_install_queue", None)
        if queue is None:
            queue = _Queue()
            ladder._install_queue = queue
            _queues.add(queue)
        return queue


def _limits(ladder: Any) -> tuple[int, int]:
    return int(getattr(ladder, "queue_limit", None) or QUEUED), int(getattr(ladder, "queue_per_author", None) or PER_AUTHOR)


def check_room(ladder: Any, author: str) -> None:
    """AccountError 429 when ``author`` has their share of the queue, 503 when it is full."""
    total, per_author = _limits(ladder)
    queue = _queue(ladder)
    with queue.cond:
        authors = queue.authors()
    mine = authors.count(author)
    if mine >= per_author:
        raise AccountError(f"{author} has {mine} submissions waiting to be installed and validated, the limit: "
                           "submit again when one is done", 429)
    if len(authors) >= total:
        raise AccountError(f"the ladder's install queue is full ({len(authors)} submissions): try again in a few "
                           "minutes", 503)


def position(ladder: Any, version_id: int) -> int | None:
    """0 while the version is installed or validated, N when N-1 wait before it, None when not queued."""
    queue = _queue(ladder)
    with queue.cond:
        if version_id in queue.running:
            return 0
        for index, (waiting, _) in enumerate(queue.waiting):
            if waiting == version_id:
                return index + 1
    return None


# -- uploads waiting for their install ---------------------------------------------------------------
def _pending(ladder: Any, version_id: int) -> Path:
    return Path(ladder.data_dir).resolve() / "queue" / str(version_id)


def save_upload(ladder: Any, version_id: int, content: bytes, details: dict[str, Any]) -> None:
    """Keep a version's upload until its install (a restarted ladder installs it then)."""
    folder = _pending(ladder, version_id)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "upload").write_bytes(content)
    (folder / "details.json").write_text(json.dumps(details), encoding="utf-8")


def _forget_upload(ladder: Any, version_id: int) -> None:
    shutil.rmtree(_pending(ladder, version_id), ignore_errors=True)


# -- the queue's work ----------------------------------------------------------------------------------
def enqueue(ladder: Any, version_id: int, author: str) -> None:
    """Install (if it has no seat yet) and validate ``version_id`` in the background."""
    queue = _queue(ladder)
    with queue.cond:
        if version_id in queue.running or any(v == version_id for v, _ in queue.waiting):
            return
        queue.waiting.append((version_id, author))
        queue.threads = [thread for thread in queue.threads if thread.is_alive()]
        while len(queue.threads) < WORKERS:
            thread = threading.Thread(target=_work, args=(ladder, queue), name="ladder-install", daemon=True)
            queue.threads.append(thread)
            thread.start()
        queue.cond.notify()


def _work(ladder: Any, queue: _Queue) -> None:
    while True:
        with queue.cond:
            if not queue.waiting:  # nothing to do: the thread ends (enqueue starts another)
                queue.threads = [t for t in queue.threads if t is not threading.current_thread()]
                return
            version_id, author = queue.waiting.popleft()
            queue.running[version_id] = author
        try:
            _install_and_validate(ladder, version_id)
        except Exception:  # never the worker's end: the version is refused, the next one goes on
            log.exception("ladder: installing version %s", version_id)
            _refuse(ladder, version_id, "the server failed while installing it (logged on the server): submit again")
        finally:
            with queue.cond:
                queue.running.pop(version_id, None)


def _refuse(ladder: Any, version_id: int, reason: str) -> None:
    """Refused with ``reason``, its files removed (nothing of a failed install stays on disk)."""
    store = ladder.store
    version = store.version(version_id)
    _forget_upload(ladder, version_id)
    if version is None:
        return
    validation.discard_files(ladder, version)  # first: once it reads 'refused', its files are gone
    if version["status"] == "validating":
        store.set_status(version_id, "refused", validation.scrub(ladder, reason))


def _install_and_validate(ladder: Any, version_id: int) -> None:
    store = ladder.store
    version = store.version(version_id)
    if version is None or version["status"] != "validating":  # retired while it waited
        _forget_upload(ladder, version_id)
        return
    if not version["seat"]:
        folder = _pending(ladder, version_id)
        try:
            content = (folder / "upload").read_bytes()
            details = json.loads((folder / "details.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return _refuse(ladder, version_id, "its upload was lost (the server stopped before installing it): "
                           "submit again")
        directory = install.version_dir(ladder.data_dir, version["bot"], version["number"])
        try:
            if version["kind"] == "python":
                installed = install.install_python(directory, details["filename"], content, details.get("bot"))
            else:
                installed = install.install_program(directory, content, details["command"],
                                                    max(install.MAX_UNPACKED, 4 * len(content), 4 * details["limit"]))
            if installed.games is not None:
                missing = [g for g in version["games"] if g not in installed.games]
                if missing:
                    raise install.InstallError(f"the bot does not play {', '.join(missing)}: it plays "
                                               f"{', '.join(installed.games)}")
        except install.InstallError as exc:
            return _refuse(ladder, version_id, str(exc))
        _forget_upload(ladder, version_id)
        store.set_installed(version_id, installed.seat, str(directory))
    done = validation.validate(ladder, version_id)  # (a refused version's files are gone with it)
    if done is not None and done["status"] == "validating":  # the arena failed, not the bot: again later
        timer = threading.Timer(ARENA_RETRY_SECONDS, enqueue, (ladder, version_id, done["author"]))
        timer.daemon = True
        timer.start()


def resume(ladder: Any) -> None:
    """Queue again every version a stopped ladder left 'validating' (installed or not)."""
    for version in ladder.store.versions(status="validating"):
        enqueue(ladder, version["id"], version["author"])


def idle(timeout: float, ladder: Any = None) -> bool:
    """Wait until no queue (of ``ladder``, or of any) has work; False after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        if ladder is not None:
            queues = [_queue(ladder)]
        else:
            with _queues_lock:
                queues = list(_queues)
        if all(not (q.waiting or q.running) for q in queues):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)

