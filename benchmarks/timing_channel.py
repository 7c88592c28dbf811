"""The CPU timing channel between two sandboxed partners: its capacity, measured.

    python benchmarks/timing_channel.py [--bits 200] [--slot-ms 50] [--repeat 3]

Two sandboxes (the arena's own :class:`arena.players.sandbox.Sandbox`, filter and all) run
benchmarks/timing_channel_bot.py: the sender spins or sleeps in each slot of the wall clock to send
a random bit, the receiver counts its own loop rounds in each slot and reads a 1 where it got fewer
than the median. Measured twice: with every sandbox on the same one CPU (what the arena does: the
launcher's ``--cpu``) and with the sandboxes free to use every CPU (as before). Prints, for each,
the raw rate (bits/s), the error rate and the capacity of that binary symmetric channel
(rate x (1 - H(error))). Then, as the arena runs a match (each bot paused between its calls, so the
two never run at once), the channel that is left: the sender's thinking time, which its partner
reads from the clock between its own decisions. docs/security.md, "Side doors between sandboxes",
quotes a run. Run it from the checkout (its bots are in tests/sandbox_bots).
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


def in_turns(bits: str, log_dir: str) -> tuple[float, float]:
    """(error rate, seconds) of the channel left when a match's bots take turns (paused between
    calls): a sandboxed sender spends 20 ms on a decision for a 1, none for a 0; a sandboxed
    receiver, asked after each, reads the gap between the starts of its own decisions."""
    from arena.players.base import MatchInfo
    from arena.players.sandboxed import SandboxHost

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # its bots: tests/sandbox_bots

    info = MatchInfo("toy", {}, 0, ("a", "b"))
    log = os.path.join(log_dir, "receiver.log")
    sender = SandboxHost("tests.sandbox_bots:make_latency", {"bits": bits}, 0)
    receiver = SandboxHost("tests.sandbox_bots:make_latency", {}, 1, log_path=log)
    observation = {"legal_actions": ["play 9S"]}
    began = time.perf_counter()
    try:
        for host in (sender, receiver):
            host.start(info, 10)
        receiver.decide(observation, 10)
        for _ in bits:
            sender.decide(observation, 10)
            receiver.decide(observation, 10)
    finally:
        for host in (sender, receiver):
            host.close()
    seconds = time.perf_counter() - began
    with open(log) as handle:
        starts = [float(line.split()[1]) for line in handle if line.startswith("CALL")]
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    middle = (min(gaps) + max(gaps)) / 2
    received = "".join("1" if gap > middle else "0" for gap in gaps)
    return sum(a != b for a, b in zip(bits, received)) / len(bits), seconds


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
    import tempfile

    with tempfile.TemporaryDirectory() as log_dir:
        rng = random.Random(0)
        bits = "".join(rng.choice("01") for _ in range(args.bits))
        error, seconds = in_turns(bits, log_dir)
    per_decision = 1 - entropy(min(error, 0.5))
    print(f"in a match, bots taking turns (paused between calls): the CPU channel is gone (tests/test_sandbox_turns.py); "
          f"the sender's thinking time read by its partner: error rate {error:.3f}, capacity {per_decision:.2f} bit "
          f"a decision of the sender's ({len(bits) * per_decision / seconds:.1f} bit/s at 20 ms for a 1)")


if __name__ == "__main__":
    main()
