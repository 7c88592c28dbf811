"""Bots for tests/test_sandbox.py: each runs into one of the sandbox's limits on purpose (only when
its setting says so, so that the same bot can also play normally)."""

from __future__ import annotations

import os
import sys
from typing import Any, Mapping

from arena.players.base import Player


class Limited(Player):
    """Plays the first legal action; ``settings["do"]`` picks what it does at its first decision."""

    def __init__(self, settings: Mapping[str, Any], seed: int):
        self.do = settings.get("do", "")
        self.done = False

    def act(self, observation: dict[str, Any]) -> str:
        if not self.done:
            self.done = True
            getattr(self, f"_{self.do}", lambda: None)()
        return observation["legal_actions"][0]

    def _spin(self) -> None:  # past the CPU-time limit
        while True:
            pass

    def _allocate(self) -> None:  # past the address-space limit
        self.hoard = bytearray(4 * 1024 * 1024 * 1024)

    def _touch(self) -> None:  # past the cgroup's memory limit, within the address space
        self.hoard = [bytearray(16 * 1024 * 1024) for _ in range(64)]

    def _write(self) -> None:  # past the file-size limit, in its own /tmp
        with open("/tmp/big", "wb") as handle:
            while True:
                handle.write(b"x" * 65536)

    def _print(self) -> None:  # far more output than its log keeps
        for _ in range(4096):
            sys.stdout.write("y" * 1023 + "\n")
        sys.stdout.flush()
        os.write(2, b"z" * (1024 * 1024))

    def _look(self) -> None:  # what it sees of the machine, printed into its log
        print("UID", os.getuid(), "ENV", sorted(os.environ), "ROOT", sorted(os.listdir("/")), flush=True)
        print("SITE", sorted(os.listdir("/sandbox/site")), flush=True)


def make(settings: Mapping[str, Any], seed: int) -> Player:
    return Limited(settings, seed)
