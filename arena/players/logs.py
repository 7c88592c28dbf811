"""A launched process's standard output and error, into a log file of capped size.

The process writes into a pipe, never into the file itself, so no write of its own (``os.write`` on
fd 1, a C library, a child it started) can make the file grow past the cap: a thread of the arena
copies the pipe into the file up to ``limit`` bytes, then writes one note and drains the rest unread
(so the process never blocks on a full pipe).
"""

from __future__ import annotations

import os
import tempfile
import threading

from arena.players.limits import LOG_LIMIT

TRUNCATED = "\n[arena: the log was cut here at {limit} bytes; the rest of the bot's output was dropped]\n"


class CappedLog:
    """The log at ``path`` (a temporary file when None, removed at :meth:`close`; a given path is
    kept, for the user to read), fed by the pipes of :meth:`pipe`."""

    def __init__(self, path: str | None = None, limit: int = LOG_LIMIT):
        self.limit = limit
        self.keep = path is not None
        if path is None:
            fd, path = tempfile.mkstemp(prefix="arena-bot-", suffix=".log")
            os.close(fd)
        else:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        self.path = path
        self.file = open(path, "ab", buffering=0)
        self.written = 0
        self.cut = False
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def pipe(self) -> int:
        """A new pipe into the log, for one process (a replaced process gets another; the cap is
        shared): the write end, to be the process's stdout and stderr and closed by
        :meth:`started` once it runs."""
        read_fd, write_fd = os.pipe()
        self.drain(read_fd)
        return write_fd

    def drain(self, read_fd: int) -> None:
        """Copy what comes through ``read_fd`` (the read end of a process's output pipe, which the log
        now owns) into the log, up to the cap."""
        thread = threading.Thread(target=self._drain, args=(read_fd,), name=f"log:{os.path.basename(self.path)}",
                                  daemon=True)
        thread.start()
        self.threads = [t for t in self.threads if t.is_alive()] + [thread]

    @staticmethod
    def started(write_fd: int) -> None:
        """Close the arena's copy of the write end once the process has its own."""
        try:
            os.close(write_fd)
        except OSError:
            pass

    def _drain(self, read_fd: int) -> None:
        while True:
            try:
                chunk = os.read(read_fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            with self.lock:
                if self.cut:
                    continue
                room = self.limit - self.written
                try:
                    self.file.write(chunk[:room])
                    self.written += min(room, len(chunk))
                    if len(chunk) > room:
                        self.cut = True
                        self.file.write(TRUNCATED.format(limit=self.limit).encode())
                except (OSError, ValueError):
                    self.cut = True
        try:
            os.close(read_fd)
        except OSError:
            pass

    def tail(self, limit: int = 800) -> str:
        """The last characters written so far ("" when none)."""
        try:
            with open(self.path, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                handle.seek(max(0, handle.tell() - limit))
                return handle.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    def close(self, wait: float = 2.0) -> None:
        """After the process is gone: finish copying, close the file (and remove a temporary one)."""
        for thread in self.threads:  # a grandchild still holding a pipe open: stop waiting for it
            thread.join(wait)
        try:
            with self.lock:
                self.file.close()
        except OSError:
            pass
        if not self.keep:
            try:
                os.unlink(self.path)
            except OSError:
                pass


def last_output(log: CappedLog, limit: int = 800) -> str:
    """The end of what a bot printed, for the cause of a crash ("" when it printed nothing)."""
    text = log.tail(limit)
    return f"; its last output: {text}" if text else ""
