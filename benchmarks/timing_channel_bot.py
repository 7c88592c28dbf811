"""One partner of the timing channel (benchmarks/timing_channel.py): stdlib only, run in a sandbox.

    timing_channel_bot.py send|receive START SLOT_MS BITS

Slots are cut from the wall clock, which every sandbox shares (no time namespace): slot k runs
from START + k * SLOT_MS. The sender spins through a slot for a 1 and sleeps through it for a 0;
the receiver spins through every slot and prints how many loop rounds it got in each (it gets
fewer when the sender competes with it for its CPU).
"""

import sys
import time


def main() -> None:
    role, start, slot, bits = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]) / 1000, sys.argv[4]
    counts = []
    for index, bit in enumerate(bits):
        begin, end = start + index * slot, start + (index + 1) * slot
        while time.time() < begin:
            time.sleep(min(0.001, max(0.0, begin - time.time())))
        rounds = 0
        if role == "receive" or bit == "1":
            while time.time() < end:
                rounds += 1
        else:
            time.sleep(max(0.0, end - time.time()))
        counts.append(rounds)
    if role == "receive":
        print(" ".join(map(str, counts)), flush=True)


main()
