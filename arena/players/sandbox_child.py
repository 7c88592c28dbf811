"""The process inside a bot's sandbox: ``python -S -B -m arena.players.sandbox_child FD``.

FD is its end of the socket pair to the arena (passed through bubblewrap). The first message says
which bot to make (its factory's path, settings and seed); then it is the loop of an isolated bot
process (:func:`arena.players.pipe.serve`), on the same wire.
"""

from __future__ import annotations

import sys


class _Connection:
    def __init__(self, fd: int):
        self.fd = fd

    def fileno(self) -> int:
        return self.fd


def main(argv: list[str]) -> int:
    from arena.players.pipe import Reader, load_message, serve

    fd = int(argv[1])
    verb, payload = load_message(Reader(fd).read())
    if verb != "init":
        return 2
    serve(_Connection(fd), payload["path"], payload["settings"], payload["seed"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
