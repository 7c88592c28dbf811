"""Validation before a version plays: one smoke match per game it declares.

The match is the ladder's (its game, options, time control and limits) with ``max_hands`` 2, the
new version in every seat of side 0 and ``random`` elsewhere, every fault a forfeit. No fault of
the version: it becomes 'active'. Otherwise 'refused', with the fault's cause as the reason its
author sees ("does not start: ...", "illegal answer: ...", "malformed answer: ...", "too slow:
...", "crashes: ..."). A Python version's seat is sandboxed whatever the match's isolation; a
program's match runs at ``sandbox`` isolation so the program is sandboxed too.

Validations run in background threads of the ladder process, at most :data:`AT_ONCE` at a time.
"""

from __future__ import annotations

import dataclasses
import logging
import shutil
import threading
from typing import TYPE_CHECKING, Any, Mapping

from arena.ladder import install
from arena.ladder.store import LadderStore
from arena.matches import MatchSpec, play_match
from arena.players.hosts import ArenaFailure
from arena.referee.faults import FaultPolicy

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

AT_ONCE = 2
HANDS = 2  # the smoke match's max_hands
OPPONENT = "random"
_slots = threading.BoundedSemaphore(AT_ONCE)
_running: set[int] = set()
_running_lock = threading.Lock()
log = logging.getLogger(__name__)

_PREFIX = {"illegal": "illegal answer", "malformed": "malformed answer", "timeout": "too slow", "crash": "crashes",
           "log_flood": "floods its log"}


def entry_for(config: Any, game: str, registry: "Registry | None" = None) -> Any:
    """The ladder entry (arena.ladder.config.LadderEntry) that plays ``game``: the one at the
    game's default player count where there are several, else the first; None if none does."""
    entries = [entry for entry in getattr(config, "ladders", ()) if entry.game == game]
    if len(entries) > 1 and registry is not None:
        default = registry.game(game).players
        entries.sort(key=lambda entry: entry.players != default)
    return entries[0] if entries else None


def smoke_spec(registry: "Registry", entry: Any, seat: str, kind: str, index: int = 0) -> MatchSpec:
    options = dict(entry.options)
    game = registry.game(entry.game, options)
    if "max_hands" in game.options:
        options["max_hands"] = HANDS
        game = registry.game(entry.game, options)
    bots = [seat if game.side_of(s) == 0 else OPPONENT for s in range(game.players)]
    names = ["candidate" if bot == seat else OPPONENT for bot in bots]
    spec = MatchSpec.single(entry.game, bots, seed=f"validation/{index}", options=game.options, names=names,
                            time_control=entry.time_control, policy=FaultPolicy.uniform("forfeit"),
                            isolation="sandbox" if kind == "program" else "process")
    return dataclasses.replace(spec, limits=dict(entry.limits))


def reason_of(result: Mapping[str, Any], candidate_seats: set[int]) -> str | None:
    """Why the version is refused, from its smoke match's result (None: no fault of its own)."""
    for fault in result.get("faults", ()):
        if fault.get("seat") not in candidate_seats:
            continue
        kind = str(fault.get("kind"))
        message = str(fault.get("message", "")).strip()
        if kind == "crash" and ("could not be set up" in message or message.startswith("during start")
                                or "did not start" in message or "could not be created" in message):
            return f"does not start: {message}"
        answer = fault.get("answer")
        shown = f" (answered {answer!r})" if kind in ("illegal", "malformed") and answer is not None else ""
        return f"{_PREFIX.get(kind, kind)}: {message}{shown}"
    return None


def scrub(ladder: Any, text: str) -> str:
    """A reason as its author may see it: no path of the server's, neither the ladder's own directory
    nor where its Python is installed (a program's ``python3`` is the ladder's)."""
    import os

    directory = getattr(ladder, "data_dir", None)
    if directory:
        for form in {os.path.realpath(directory), os.path.abspath(directory)}:
            text = text.replace(form, "LADDER_FILES")
    for path, shown in python_paths():
        text = text.replace(path, shown)
    return text


def python_paths() -> list[tuple[str, str]]:
    """Where the ladder's Python is, as (path, what an author is shown), longest first."""
    import os
    import sys

    pairs = [(python, "python3") for python in {os.path.realpath(sys.executable), sys.executable}]
    pairs += [(prefix + os.sep, "PYTHON/") for prefix in {sys.prefix, sys.base_prefix, os.path.realpath(sys.base_prefix)}]
    return sorted(pairs, key=lambda pair: -len(pair[0]))


def validate(ladder: Any, version_id: int, registry: "Registry | None" = None) -> dict[str, Any] | None:
    """Play the smoke matches of a 'validating' version and set it 'active' or 'refused' (with the
    reason). Returns the version as stored afterwards; a version not 'validating' is left alone."""
    store: LadderStore = ladder.store
    registry = registry or getattr(ladder, "registry", None)
    if registry is None:
        from arena.plugins import get_registry

        registry = get_registry()
    version = store.version(version_id)
    if version is None or version["status"] != "validating":
        return version
    try:
        reason = _smoke(ladder, registry, version)
    except ArenaFailure as exc:  # the arena's own failure, every try: not the bot's, so no refusal
        log.warning("validating version %s: the arena failed: %s", version_id, exc)
        if store.version(version_id)["status"] == "validating":  # type: ignore[index]
            store.set_status(version_id, "validating", scrub(ladder, f"the arena failed while validating it, not the "
                                                                     f"bot; it will be validated again: {exc}"))
        return store.version(version_id)
    except Exception as exc:  # never the ladder's end: the version is refused with what went wrong
        log.exception("validating version %s", version_id)
        reason = f"does not start: {type(exc).__name__}: {exc}"
    current = store.version(version_id)
    if current is None or current["status"] != "validating":  # retired meanwhile: leave it so
        return current
    if reason:
        discard_files(ladder, current)  # before it reads 'refused': nothing of it stays on disk by then
        store.set_status(version_id, "refused", scrub(ladder, reason))
    else:
        store.set_status(version_id, "active")  # (and no reason left of an earlier failure of the arena)
    return store.version(version_id)


def discard_files(ladder: Any, version: Mapping[str, Any]) -> None:
    """Remove a version's installed files (it will never play) and forget their path."""
    if version["kind"] in ("python", "program"):
        shutil.rmtree(version["path"] or install.version_dir(ladder.data_dir, version["bot"], version["number"]),
                      ignore_errors=True)
        ladder.store.set_installed(version["id"], version["seat"], "")


def _smoke(ladder: Any, registry: "Registry", version: Mapping[str, Any]) -> str | None:
    if not version["games"]:
        return "it declares no game"
    for index, game in enumerate(version["games"]):
        entry = entry_for(getattr(ladder, "config", None), game, registry)
        if entry is None:
            return f"{game}: no ladder plays this game"
        spec = smoke_spec(registry, entry, version["seat"], version["kind"], index)
        result = play_match(spec, registry, tolerant=True).as_dict()
        seats = {s for s, bot in enumerate(spec.bots) if bot == version["seat"]}
        reason = reason_of(result, seats)
        if reason:
            return f"{game}: {reason}" if len(version["games"]) > 1 else reason
    return None


def start(ladder: Any, version_id: int) -> threading.Thread | None:
    """Validate ``version_id`` in a background thread (once: a version already being validated is
    not started twice)."""
    with _running_lock:
        if version_id in _running:
            return None
        _running.add(version_id)

    def run() -> None:
        try:
            with _slots:
                validate(ladder, version_id)
        finally:
            with _running_lock:
                _running.discard(version_id)

    thread = threading.Thread(target=run, name=f"ladder-validate-{version_id}", daemon=True)
    thread.start()
    return thread


def idle(timeout: float) -> bool:
    """Wait until no validation runs, nor any install queue (arena.ladder.jobs) has work (a
    ladder stopping, a test ending); False after ``timeout``."""
    import time

    from arena.ladder import jobs

    deadline = time.monotonic() + timeout
    if not jobs.idle(timeout):
        return False
    while True:
        with _running_lock:
            if not _running:
                return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def resume(ladder: Any) -> list[threading.Thread]:
    """Start the validation of every version still 'validating' (a ladder killed mid-validation)."""
    threads = [start(ladder, version["id"]) for version in ladder.store.versions(status="validating")]
    return [thread for thread in threads if thread is not None]
