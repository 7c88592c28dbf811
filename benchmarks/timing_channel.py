"""The CPU timing channel between two sandboxed partners: its capacity, measured.

    python benchmarks/timing_channel.py [--bits 200] [--slot-ms 50] [--repeat 3]

Two sandboxes (the arena's own :class:`arena.players.sandbox.Sandbox`, filter and all) run
benchmarks/timing_channel_bot.py: the sender spins or sleeps in each slot of the wall clock to send
a random bit, the receiver counts its own loop rounds in each slot and reads a 1 where it got fewer
than the median. Measured twice: with every sandbox on the same one CPU (what the arena does: the
launcher's ``--cpu``) and with the sandboxes free to use every CPU (as before). Prints, for each,
the raw rate (bits/s), the error rate and the capacity of that binary symmetric channel
(rate x (1 - H(error))). docs/security.md, "Side doors between sandboxes", quotes a run.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from unittest import mock

from arena.players import sandbox
from arena.players.limits import Limits

BOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "timing_channel_bot.py")
INSIDE = "/bench/timing_channel_bot.py"


def run(role: str, start: float, slot_ms: float, bits: str) -> tuple[sandbox.Sandbox, int]:
    box = sandbox.Sandbox(Limits(), [os.path.realpath(sys.executable), "-S", INSIDE, role, str(start), str(slot_ms), bits],
                          binds=[*sandbox._python_binds(), "--ro-bind", BOT, INSIDE])
    read, write = os.pipe()
    box.start(stdout=write)
    os.close(write)
    return box, read


def once(bits: str, slot_ms: float) -> float:
    """The error rate of one transmission."""
    start = time.time() + 3.0  # both sandboxes are up by then
    sender, sender_out = run("send", start, slot_ms, bits)
    receiver, out = run("receive", start, slot_ms, bits)
    text = b""
    while chunk := os.read(out, 65536):
        text += chunk
    for box, fd in ((sender, sender_out), (receiver, out)):
        box.kill()
        os.close(fd)
    counts = [int(word) for word in text.split()]
    if len(counts) != len(bits):
        raise SystemExit(f"the receiver said {text[-300:]!r}")
    middle = statistics.median(counts)
    received = "".join("1" if count < middle else "0" for count in counts)
    return sum(a != b for a, b in zip(bits, received)) / len(bits)


def entropy(p: float) -> float:
    return 0.0 if p in (0.0, 1.0) else -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bits", type=int, default=200)
    parser.add_argument("--slot-ms", type=float, default=50.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rate = 1000.0 / args.slot_ms
    for label, cpu in (("pinned to one CPU (now)", sandbox.match_cpu()), ("free to use every CPU (before)", None)):
        errors = []
        with mock.patch.object(sandbox, "match_cpu", return_value=cpu):
            for seed in range(args.repeat):
                rng = random.Random(seed)
                bits = "".join(rng.choice("01") for _ in range(args.bits))
                errors.append(once(bits, args.slot_ms))
        error = statistics.mean(errors)
        print(f"{label}: {rate:.0f} bit/s raw, error rate {error:.3f} (runs {', '.join(f'{e:.3f}' for e in errors)}), "
              f"capacity {rate * (1 - entropy(min(error, 0.5))):.1f} bit/s")


if __name__ == "__main__":
    main()
