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


class Ticker(Player):
    """What a partner timing the CPU it shares would do: a thread of its own notes the time every
    millisecond (``TICK t``), and each decision is 20 ms of computing, its span noted (``CALL a b``);
    times from ``time.monotonic``, which every sandbox shares."""

    def __init__(self, settings: Mapping[str, Any], seed: int):
        import threading

        threading.Thread(target=self._tick, daemon=True).start()

    @staticmethod
    def _tick() -> None:
        import time

        while True:
            os.write(1, f"TICK {time.monotonic():.6f}\n".encode())  # one write a line: two threads write
            time.sleep(0.001)

    def act(self, observation: dict[str, Any]) -> str:
        import time

        begin = time.monotonic()
        while time.monotonic() < begin + 0.02:
            pass
        os.write(1, f"CALL {begin:.6f} {time.monotonic():.6f}\n".encode())
        return observation["legal_actions"][0]


def make_ticker(settings: Mapping[str, Any], seed: int) -> Player:
    return Ticker(settings, seed)


class Latency(Player):
    """The channel left when bots take turns: a sender (``settings["bits"]``) spends 20 ms on a
    decision for a 1 and none for a 0; a receiver notes when each of its decisions starts
    (``CALL t``), the gaps telling how long the others took (benchmarks/timing_channel.py)."""

    def __init__(self, settings: Mapping[str, Any], seed: int):
        self.bits = str(settings.get("bits", ""))
        self.index = 0

    def act(self, observation: dict[str, Any]) -> str:
        import time

        now = time.monotonic()
        if not self.bits:
            os.write(1, f"CALL {now:.6f}\n".encode())
        elif self.index < len(self.bits):
            if self.bits[self.index] == "1":
                while time.monotonic() < now + 0.02:
                    pass
            self.index += 1
        return observation["legal_actions"][0]


def make_latency(settings: Mapping[str, Any], seed: int) -> Player:
    return Latency(settings, seed)
