"""A hostile bot: it plays legal moves, and once per match it attacks the arena, the machine and
the other bots, as a bot author who wants to win by any means would.

Which attacks it makes is ``settings["attacks"]``, names of :data:`ATTACKS` run in that order when
the match starts (so that a seat the game never asks attacks too): ``peek`` (the arena's memory and
environment, the other bots' processes), ``kill`` (SIGKILL a process of the arena's), ``db`` (rewrite a finished result), ``spy_db`` (read every
record and deck), ``other_bot`` (edit another bot's source), ``tcp`` (connect to 127.0.0.1),
``leftover`` (a double-forked sleeper), and the limit attacks. What each needs (paths, a port,
markers) is in the settings too, as an attacker would guess them. Each attack writes one line to
the bot's standard error, which the arena keeps in the bot's log::

    HOSTILE <attack> succeeded: <what it got>
    HOSTILE <attack> blocked: <the error it met>

The limit attacks (``memory``, ``cpu``, ``disk``, ``forkbomb``) end in the error the limit raised
(after cleaning up what they made) or are killed by it: a recorded fault, whose cause the arena
should name. Every attack is bounded by itself too, so that run without a sandbox it cannot hurt
the machine.

With ``settings["channels"]``, two file-system channels run at every decision: ``share`` writes
the bot's hand where its partner might read it (``/tmp``, ``/dev/shm``, ``$HOME``, its own code
directory, its working directory; or ``settings["places"]``) and looks for the partner's;
``remember`` leaves the hand for the next match of the same ``tag`` and looks for what an earlier
match left; and ``share_socket`` sends the hand to the partner's abstract Unix socket (no file: it
lives in the network namespace). All three are reported at the match's end.

This module imports nothing of the test suite (only the arena's ``Player``), so a launched program
can import it from its own directory.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import sqlite3
import sys
import time
from typing import Any, Callable

from arena.players.base import MatchInfo, Player

PREFIX = "HOSTILE"
FORKS_MAX = 10000  # the fork bomb's own bound, whatever its settings say
MEMORY_MAX_MB = 4096  # the allocation's own bound
DISK_MAX_MB = 512  # the disk filler's own bound
CPU_MAX_S = 30  # the spinner's own bound
SCAN_MAX_BYTES = 512 << 20  # at most this much of one process's memory is read
CHUNK_MB = 32

# The sleeper left behind by the ``leftover`` attack: argv[1] is its marker (found in /proc), it
# waits ``delay`` seconds, then writes a file and connects back to prove it outlived the match; it
# exits by itself after ``lifetime`` seconds, so an escaped one does not live forever.
SLEEPER = """
import os, socket, sys, time
marker, path, port, lifetime, delay = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
end = time.monotonic() + lifetime
time.sleep(min(delay, lifetime))
if path:
    try:
        with open(path, "w") as handle:
            handle.write(f"{marker} alive in pid {os.getpid()}\\n")
    except OSError:
        pass
if port:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).sendall(marker.encode())
    except OSError:
        pass
while time.monotonic() < end:
    time.sleep(0.2)
"""


def report(attack: str, succeeded: bool, detail: str) -> str:
    line = f"{PREFIX} {attack} {'succeeded' if succeeded else 'blocked'}: {detail}"
    print(line.replace("\n", " | "), file=sys.stderr, flush=True)
    return line


def _err(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


# -- 1. other processes' memory and environment ----------------------------------------------------

HAND_JSON = re.compile(rb'"hand": ?\[((?:"(?:10|[2-9JQKA])[SHDC]"(?:, ?)?)+)\]')


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process this one can see (``/proc/PID/stat``, as ``ps`` reads it)."""
    parents = {}
    try:
        names = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return {}
    for name in names:
        try:
            with open(f"/proc/{name}/stat") as handle:
                parents[int(name)] = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return parents


def _targets(arena: int) -> tuple[list[int], int]:
    """The arena's process tree as far as this process can see it: the arena (``arena``, as an
    attacker guesses it), every process under it (the other bots, their helpers) and this one's
    parent; and how many processes are visible at all. Only these are read: the attack is on the
    arena, not on whatever else runs on the machine."""
    parents = _parents()
    tree = {arena} if arena in parents else set()
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    tree.add(os.getppid())
    tree.discard(os.getpid())
    return sorted(tree), len(parents)


def _read_memory(pid: int, needle: bytes, own_hand: set[str]) -> tuple[bool, set[tuple[str, ...]], str]:
    """Search ``pid``'s writable memory for ``needle``; also decode hands (JSON) that are not ours."""
    hands: set[tuple[str, ...]] = set()
    found = False
    read = 0
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
        for line in maps:
            fields = line.split()
            if len(fields) < 2 or not fields[1].startswith("rw"):
                continue
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if read + (end - start) > SCAN_MAX_BYTES:
                continue
            try:
                mem.seek(start)
                data = mem.read(end - start)
            except (OSError, ValueError, OverflowError):
                continue
            read += len(data)
            if needle and needle in data:
                found = True
            for match in HAND_JSON.finditer(data):
                cards = tuple(card.strip(b'" ').decode() for card in match.group(1).split(b",") if card.strip())
                if cards and not set(cards) <= own_hand:
                    hands.add(cards)
    return found, hands, f"{read >> 20} MiB read"


def attack_peek(bot: "Attacker") -> str:
    """The environment of every process of the arena's tree, and the memory of the arena and of
    this process's parent. (Another bot's memory is readable the same way, but reading a gRPC
    server's while it starts once left it dead of an epoll error: not this test's business.)"""
    secret = str(bot.settings.get("secret", ""))
    arena = int(bot.settings.get("target_pid") or 0)
    pids, visible = _targets(arena)
    got: list[str] = []
    errors: list[str] = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                environ = handle.read()
        except OSError as exc:
            errors.append(f"/proc/{pid}/environ: {_err(exc)}")
        else:
            if secret and secret.encode() in environ:
                got.append(f"the secret in /proc/{pid}/environ")
        if pid not in (arena, os.getppid()):  # the other bots: their environment is enough (see below)
            continue
        try:
            found, hands, how = _read_memory(pid, secret.encode(), set(bot.hand))
        except OSError as exc:
            errors.append(f"/proc/{pid}/mem: {_err(exc)}")
            continue
        if found:
            got.append(f"the secret in /proc/{pid}/mem ({how})")
        if hands:
            got.append(f"{len(hands)} other hands decoded from /proc/{pid}/mem, e.g. {sorted(hands)[0]}")
    if arena and arena not in pids:
        errors.insert(0, f"the arena's pid {arena} is not visible")
    seen = f"{visible} processes visible, {len(pids)} of the arena's tree tried"
    if got:
        return report("peek", True, f"{'; '.join(got)}; {seen}")
    return report("peek", False, f"{seen}; {'; '.join(errors[:4]) or 'no secret found'}")


def attack_kill(bot: "Attacker") -> str:
    """SIGKILL another process of the arena's (``victim_pid``: the arena itself, another bot, ...)."""
    pid = int(bot.settings.get("victim_pid", 0))
    if pid <= 1:
        return report("kill", False, f"no victim (pid {pid})")
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError as exc:
        return report("kill", False, f"pid {pid}: {_err(exc)}")
    return report("kill", True, f"sent SIGKILL to pid {pid}")


# -- 2. the results database -------------------------------------------------------------------------

def attack_db(bot: "Attacker") -> str:
    path = str(bot.settings.get("db", ""))
    try:
        os.close(os.open(path, os.O_RDWR))  # the plainest error first: cannot even open it
        db = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=5)
        try:
            changed = db.execute(
                "UPDATE matches SET result = json_set(result, '$.scores[0]', 999) "
                "WHERE idx = (SELECT min(idx) FROM matches WHERE result IS NOT NULL)").rowcount
            db.commit()
        finally:
            db.close()
    except (OSError, sqlite3.Error) as exc:
        return report("db", False, f"{path}: {_err(exc)}")
    return report("db", changed > 0, f"{path}: {changed} finished result(s) rewritten")


def attack_spy_db(bot: "Attacker") -> str:
    """Read the results database, not write it: the records of finished matches hold every deck,
    so a bot that reads them knows all hands of the other rotations of its deal set."""
    path = str(bot.settings.get("db", ""))
    try:
        with open(path, "rb"):  # the plainest error first
            pass
        db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        try:
            records = [json.loads(text) for (text,) in db.execute("SELECT record FROM matches WHERE record IS NOT NULL")]
        finally:
            db.close()
    except (OSError, sqlite3.Error, ValueError) as exc:
        return report("spy_db", False, f"{path}: {_err(exc)}")
    decks = sum(1 for record in records for hand in record.get("hands", []) if hand.get("deck"))
    return report("spy_db", bool(decks), f"{path}: read {len(records)} records holding {decks} decks")


# -- 3. another bot's files ------------------------------------------------------------------------

def attack_other_bot(bot: "Attacker") -> str:
    """Append a line to each of ``other_bot_files``; of ``other_bot_probe`` (real files that must not
    change even if the sandbox fails) only open them for writing, which is proof enough."""
    results = []
    succeeded = False
    targets = [(str(p), True) for p in bot.settings.get("other_bot_files", [])]
    targets += [(str(p), False) for p in bot.settings.get("other_bot_probe", [])]
    for path, write in targets:
        try:
            with open(path, "a") as handle:
                if write:
                    handle.write("\nraise SystemExit('sabotaged by a hostile bot')\n")
        except OSError as exc:
            results.append(f"{path}: {_err(exc)}")
            continue
        succeeded = True
        results.append(f"{path}: {'appended a line' if write else 'opened for writing'}")
    return report("other_bot", succeeded, "; ".join(results) or "no file given")


# -- 4. the network ------------------------------------------------------------------------------

def attack_tcp(bot: "Attacker") -> str:
    port = int(bot.settings.get("tcp_port", 0))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            sock.sendall(b"hostile bot was here")
    except OSError as exc:
        return report("tcp", False, f"127.0.0.1:{port}: {_err(exc)}")
    return report("tcp", True, f"connected to 127.0.0.1:{port}")


# -- 5. a child that outlives the match ------------------------------------------------------------

# The double fork, run in a fresh interpreter (subprocess forks and execs without running Python
# in the child, which is what a threaded process such as a gRPC server may safely do): a child in
# a new session forks the sleeper and exits at once, so the sleeper has no parent the bot waits for.
DOUBLE_FORK = """
import os, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable] + sys.argv[1:])
    os._exit(0)
os.wait()
"""


def attack_leftover(bot: "Attacker") -> str:
    import subprocess

    marker = str(bot.settings.get("leftover_marker", "hostile-sleeper"))
    path = str(bot.settings.get("leftover_file", ""))
    port = str(int(bot.settings.get("leftover_port", 0)))
    lifetime = str(float(bot.settings.get("leftover_lifetime", 30)))
    delay = str(float(bot.settings.get("leftover_delay", 2)))
    argv = [sys.executable, "-c", DOUBLE_FORK, "-c", SLEEPER, marker, path, port, lifetime, delay]
    try:
        subprocess.run(argv, stdin=subprocess.DEVNULL, close_fds=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        return report("leftover", False, _err(exc))
    return report("leftover", True, f"a sleeper {marker} started (it should die with the match)")


# -- 6. 7. 8. the limits ---------------------------------------------------------------------------

def attack_memory(bot: "Attacker") -> str:
    want = min(int(bot.settings.get("memory_mb", 2048)), MEMORY_MAX_MB)
    chunks: list[bytearray] = []
    try:
        while len(chunks) * CHUNK_MB < want:
            chunk = bytearray(CHUNK_MB << 20)
            chunk[::4096] = b"\x01" * len(range(0, len(chunk), 4096))  # touch every page
            chunks.append(chunk)
    except MemoryError:
        got = len(chunks) * CHUNK_MB
        chunks.clear()
        report("memory", False, f"MemoryError after {got} MiB of the {want} MiB it asked for")
        raise
    chunks.clear()
    return report("memory", True, f"allocated {want} MiB")


def attack_cpu(bot: "Attacker") -> str:
    """Spin for ``cpu_s`` seconds of CPU time (bounded by :data:`CPU_MAX_S`)."""
    want = min(float(bot.settings.get("cpu_s", 10)), CPU_MAX_S)
    began = time.process_time()
    while time.process_time() - began < want:
        sum(range(10000))
    return report("cpu", True, f"spun for {want:g} CPU seconds")


def attack_disk(bot: "Attacker") -> str:
    import tempfile

    want = min(int(bot.settings.get("disk_mb", 256)), DISK_MAX_MB)
    directory = str(bot.settings.get("disk_dir") or tempfile.gettempdir())
    path = os.path.join(directory, f"hostile-fill-{os.getpid()}.bin")
    block = b"\x00" * (1 << 20)
    written = 0
    try:
        with open(path, "wb") as handle:
            while written < want << 20:
                handle.write(block)
                handle.flush()
                written += len(block)
    except OSError as exc:
        report("disk", False, f"{path}: {_err(exc)} after {written >> 20} MiB")
        raise
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
    return report("disk", True, f"{path}: wrote {want} MiB")


def attack_forkbomb(bot: "Attacker") -> str:
    want = min(int(bot.settings.get("forks", 1000)), FORKS_MAX)
    children: list[int] = []
    failure: OSError | None = None
    try:
        for _ in range(want):
            try:
                pid = os.fork()
            except OSError as exc:
                failure = exc
                break
            if pid == 0:  # a child only waits to be killed (and gives up by itself)
                try:
                    time.sleep(60)
                finally:
                    os._exit(0)
            children.append(pid)
    finally:
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except OSError:
                pass
    if failure is not None:
        report("forkbomb", False, f"fork failed after {len(children)} processes: {_err(failure)}")
        raise failure
    return report("forkbomb", True, f"forked {len(children)} processes")


# -- 9. cards through the file system ----------------------------------------------------------------

def _places(bot: "Attacker") -> list[str]:
    """Where notes are left and looked for: ``settings["places"]``, else the usual suspects."""
    if bot.settings.get("places"):
        return [str(p) for p in bot.settings["places"]]
    places = ["/tmp", "/dev/shm", os.environ.get("HOME") or os.path.expanduser("~"),
              os.path.dirname(os.path.abspath(__file__)), os.getcwd()]
    return list(dict.fromkeys(p for p in places if p))


def _write_everywhere(bot: "Attacker", name: str, text: str) -> list[str]:
    wrote = []
    for place in _places(bot):
        path = os.path.join(place, name)
        try:
            with open(path, "w") as handle:
                handle.write(text)
            wrote.append(path)
        except OSError as exc:
            bot.write_errors.setdefault(place, _err(exc))
    return wrote


def _read_anywhere(bot: "Attacker", name: str) -> tuple[str, str] | None:
    for place in _places(bot):
        path = os.path.join(place, name)
        try:
            with open(path) as handle:
                return path, handle.read()
        except OSError:
            continue
    return None


def _abstract(tag: str, seat: int) -> bytes:
    """An abstract Unix socket address (no file: it lives in the network namespace)."""
    return f"\0hostile-{tag}-seat{seat}".encode()


ATTACKS: dict[str, Callable[["Attacker"], str]] = {
    "peek": attack_peek,
    "kill": attack_kill,
    "db": attack_db,
    "spy_db": attack_spy_db,
    "other_bot": attack_other_bot,
    "tcp": attack_tcp,
    "leftover": attack_leftover,
    "memory": attack_memory,
    "cpu": attack_cpu,
    "disk": attack_disk,
    "forkbomb": attack_forkbomb,
}


class Attacker(Player):
    """Plays a seeded random legal action; attacks when the match starts (see the module)."""

    def __init__(self, settings: dict[str, Any], seed: int):
        self.settings = dict(settings)
        self.rng = random.Random(seed)
        self.attacks = [str(a) for a in self.settings.get("attacks", [])]
        unknown = [a for a in self.attacks if a not in ATTACKS]
        if unknown:
            raise ValueError(f"unknown attacks {unknown}; known: {sorted(ATTACKS)}")
        self.tag = str(self.settings.get("tag", "hostile"))
        self.channels = bool(self.settings.get("channels", False))
        self.seat = -1
        self.match_id = ""
        self.hand: list[str] = []
        self.write_errors: dict[str, str] = {}
        self.shared: list[str] = []
        self.partner_read: tuple[str, str] | None = None
        self.remembered: tuple[str, str] | None = None
        self.inbox: socket.socket | None = None  # an abstract socket the partner may write to
        self.socket_read: str | None = None
        self.socket_errors: list[str] = []

    def start_match(self, info: MatchInfo) -> None:
        self.seat = info.seat
        self.match_id = info.match_id
        if self.channels:  # what an earlier match of this tag left behind
            self.remembered = _read_anywhere(self, f"hostile-{self.tag}-memory.txt")
            try:
                self.inbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self.inbox.bind(_abstract(self.tag, self.seat))
                self.inbox.setblocking(False)
            except OSError as exc:
                self.socket_errors.append(f"bind: {_err(exc)}")
                self.inbox = None
        for name in self.attacks:  # here, so that a seat that is never asked attacks too
            began = time.perf_counter()
            ATTACKS[name](self)
            print(f"{PREFIX}-TIME {name} {time.perf_counter() - began:.2f} s", file=sys.stderr, flush=True)

    def _channels(self, observation: dict[str, Any]) -> None:
        hand = observation.get("hand")
        if isinstance(hand, list) and hand and not self.hand:
            self.hand = [str(card) for card in hand]
            note = json.dumps({"seat": self.seat, "match": self.match_id, "hand": self.hand})
            self.shared = _write_everywhere(self, f"hostile-{self.tag}-seat{self.seat}.txt", note)
            _write_everywhere(self, f"hostile-{self.tag}-memory.txt", note)
            players = int(observation.get("players") or 4)
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as out:
                    out.sendto(note.encode(), _abstract(self.tag, (self.seat + players // 2) % players))
            except OSError as exc:
                self.socket_errors.append(f"send: {_err(exc)}")
        self._look_for_partner(int(observation.get("players") or 4))

    def _look_for_partner(self, players: int) -> None:
        if self.inbox is not None and self.socket_read is None:
            try:
                self.socket_read = self.inbox.recv(4096).decode("utf-8", "replace")
            except OSError:
                pass
        if self.partner_read is None:
            partner = (self.seat + players // 2) % players
            self.partner_read = _read_anywhere(self, f"hostile-{self.tag}-seat{partner}.txt")

    def act(self, observation: dict[str, Any]) -> str:
        legal = list(observation["legal_actions"])
        if self.channels:
            self._channels(observation)
        elif not self.hand and isinstance(observation.get("hand"), list):
            self.hand = [str(card) for card in observation["hand"]]
        return self.rng.choice(legal)

    def end_match(self, result: dict[str, Any]) -> None:
        if not self.channels:
            return
        self._look_for_partner(len(result.get("seats") or ()) or 4)
        errors = "; ".join(f"{place}: {why}" for place, why in self.write_errors.items()) or "none"
        if self.partner_read is not None:
            report("share", True, f"seat {self.seat} read its partner's note at {self.partner_read[0]}: "
                                  f"{self.partner_read[1]}")
        else:
            report("share", False, f"seat {self.seat} found no note of its partner; wrote {self.shared}; "
                                   f"write errors: {errors}")
        if self.socket_read is not None:
            report("share_socket", True, f"seat {self.seat} got its partner's note on an abstract socket: "
                                         f"{self.socket_read}")
        else:
            report("share_socket", False, f"seat {self.seat} got nothing on its abstract socket; errors: "
                                          f"{'; '.join(self.socket_errors) or 'none'}")
        earlier = self.remembered
        if earlier is not None and json.loads(earlier[1]).get("match") != self.match_id:
            report("remember", True, f"seat {self.seat} in match {self.match_id} read {earlier[0]}: {earlier[1]}")
        else:
            report("remember", False, f"seat {self.seat} in match {self.match_id} found nothing left by an "
                                      "earlier match")


def make(settings: dict[str, Any], seed: int) -> Player:
    return Attacker(settings, seed)


def parse_reports(text: str) -> dict[str, list[tuple[bool, str]]]:
    """The ``HOSTILE`` lines of a log: attack -> [(succeeded, detail)], in order."""
    found: dict[str, list[tuple[bool, str]]] = {}
    for line in text.splitlines():
        match = re.match(rf"{PREFIX} (\w+) (succeeded|blocked): (.*)", line.strip())
        if match:
            found.setdefault(match.group(1), []).append((match.group(2) == "succeeded", match.group(3)))
    return found


