"""The pipe protocol between the arena and a Python bot in a process of its own (``process`` and
``sandbox`` isolation): framing, messages, garbage, observations as changes, and the bot's end of it
(:func:`serve`). Both ends are here, so that they change together; :data:`VERSION` names the
protocol (2: observations sent only when read, as changes to the last one).

The arena's end is :class:`arena.players.isolated.ProcessHost`; a launcher starts the bot process
and hands it one end of the pipe (:mod:`arena.players.isolated`, :mod:`arena.players.sandboxed`).
"""

from __future__ import annotations

import importlib
import io
import json
import marshal
import math
import os
import pickle
import select
import socket
import struct
import sys
import time
import traceback
from sys import getrefcount
from typing import Any, Mapping, overload

from arena.errors import ArenaError
from arena.players.base import MatchInfo, Player
from arena.players.hosts import MAX_ANSWER_BYTES, ignored_calls
from arena.players.launch import die_with_parent
from arena.referee.observation import LazyObservation, attach

VERSION = 2


def load_factory(path: str) -> Any:
    module, _, name = path.partition(":")
    target: Any = importlib.import_module(module)
    for part in name.split("."):
        target = getattr(target, part)
    return target


# -- the wire between the arena and the bot process ------------------------------------------------
#
# Each message is a 4-byte big-endian length and that many bytes, written with one system call and
# read with as few as the pipe allows (the arena polls one ``select.poll`` object kept per host).
# Arena -> bot: ``(verb, payload)`` marshalled, or pickled when it is not plain data (the bot process
# trusts the arena). A decision is ``("act", (known, changes))`` (see "observations" below). Bot -> arena:
# one tag byte and plain text, never a pickle, so that a hostile bot cannot make the arena run
# code by what it sends: ``o`` ok (nothing), ``s`` + UTF-8 an answer string, ``j`` + JSON an answer
# that is None, a bool or a number, ``g`` + UTF-8 the repr of any other answer (garbage),
# ``e`` + UTF-8 an exception's traceback, ``r`` + JSON ready (which notifications the bot ignores),
# ``n`` (during a decision) "send me the whole observation", answered by ``("observation", changes)``.
#
# Observations. Most of a decision's cost was building, sending and reading the whole observation,
# which many bots never read past ``legal_actions``. So a decision sends ``known`` (the referee's
# keys: ``legal_actions``, ``time_left``, ``bank_left``) and, only to a bot that has read a whole
# observation before, ``changes``; the bot process hands its bot a LazyObservation, as an
# in-process bot gets, which asks the arena (``n``) the first time the bot reads anything else. Both
# ends keep the last observation sent, each value marshalled on its own (:func:`encode_values`),
# and ``changes`` holds only the values that differ from it: ``("all", values)`` (the keys or their
# order changed) or ``("some", values)``. The bot's dict is made afresh from those bytes each
# time, so a bot that changes what it was given changes nothing the next observation is made from.

LENGTH = struct.Struct("!I")
# The longest message read from a bot process: an answer of MAX_ANSWER_BYTES and its tag, or an
# exception's traceback of as much (a longer traceback is cut by the bot process itself).
MESSAGE_LIMIT = MAX_ANSWER_BYTES + 1


def frame(data: bytes) -> bytes:
    """One message as it goes on the pipe: its length, then its bytes."""
    return LENGTH.pack(len(data)) + data


def write(fd: int, data: bytes) -> None:
    framed = frame(data)
    written = os.write(fd, framed)  # all of it, but for a long message on a full pipe
    if written < len(framed):
        _write_rest(fd, framed, written)


def _write_rest(fd: int, framed: bytes, written: int) -> None:
    view = memoryview(framed)[written:]
    while view:
        view = view[os.write(fd, view):]


class Oversized(Exception):
    """A message longer than the reader's limit (the rest of it is never read)."""

    def __init__(self, length: int, limit: int):
        self.length = length
        super().__init__(f"a message of {length} bytes, over the limit of {limit}")


class Reader:
    """Whole messages from a file descriptor; ``deadline`` (perf_counter time) bounds the wait.

    ``limit``: the longest message accepted (None: any); a longer one raises :class:`Oversized`
    as soon as its length is read, so the arena never holds more of a bot's answer than that.
    """

    def __init__(self, fd: int, limit: int | None = None):
        self.fd = fd
        self.limit = limit
        self.buffer = b""
        self.poller = select.poll()
        self.poller.register(fd, select.POLLIN)

    @overload
    def read(self, deadline: None = None) -> bytes: ...
    @overload
    def read(self, deadline: float | None) -> bytes | None: ...

    def read(self, deadline: float | None = None) -> bytes | None:
        """The next message; None when the deadline passed first. EOFError when the other end closed."""
        if not self.buffer:  # the usual case, written out flat: one whole message in one read
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left <= 0 or not self.poller.poll(max(1, math.ceil(left * 1000))):
                    return None
            chunk = os.read(self.fd, 4096)
            if len(chunk) >= 4:
                length = LENGTH.unpack_from(chunk)[0]
                if len(chunk) == 4 + length and (self.limit is None or length <= self.limit):
                    return chunk[4:]
            elif not chunk:
                raise EOFError("the other end closed the pipe")
            self.buffer = chunk
        return self._read_rest(deadline)

    def _read_rest(self, deadline: float | None) -> bytes | None:
        """:meth:`read` once bytes are buffered: a message in parts, more than one, or too long."""
        buffer = self.buffer
        while True:
            if len(buffer) >= 4:
                length = LENGTH.unpack_from(buffer)[0]
                if self.limit is not None and length > self.limit:
                    self.buffer = b""
                    raise Oversized(length, self.limit)
                end = 4 + length
                if len(buffer) >= end:
                    self.buffer = buffer[end:]
                    return buffer[4:end]
                want = end - len(buffer)
            else:
                want = 4
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left <= 0 or not self.poller.poll(max(1, math.ceil(left * 1000))):
                    self.buffer = buffer
                    return None
            chunk = os.read(self.fd, max(want, 4096))
            if not chunk:
                self.buffer = buffer
                raise EOFError("the other end closed the pipe")
            buffer += chunk


def answer(value: Any) -> bytes:
    """A bot's answer (or notification result) as the arena reads it (see above)."""
    if value is None:
        return b"o"
    if type(value) is str:
        try:
            return b"s" + value.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: JSON keeps them exactly
            return b"j" + json.dumps(value).encode("ascii")
    if type(value) in (bool, int, float):
        return b"j" + json.dumps(value).encode("ascii")
    return b"g" + _safe_repr(value).encode("utf-8", "replace")


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)[:200]
    except Exception as exc:  # a repr that raises is garbage too
        return f"<unprintable {type(value).__name__}: {type(exc).__name__}>"


def _redirect_output(output: Any) -> None:
    """The bot's standard output and error go into ``output``, the pipe of its log (whose arena end
    caps it: :class:`arena.players.logs.CappedLog`), never to the arena's own: what Python writes
    and what is written below it (C libraries, ``os.write``) alike."""
    os.dup2(output.fileno(), 1)
    os.dup2(output.fileno(), 2)
    output.close()
    sys.stdout = sys.stderr = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="replace",
                                               write_through=True)


def _quiet_child() -> None:
    """A bot process leaves Ctrl-C to its arena (which stops it), and dies with its parent."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()


def serve(conn: Any, path: str, settings: Mapping[str, Any], seed: int, cpus: Any = None,
          output: Any = None) -> None:
    """The child's loop: make the player, then answer one message at a time until told to close.

    ``output``: the write end of the pipe of the bot's log (its standard output and error go there).

    ``cpus``: the CPUs the arena's process may run on, which the bot process then keeps to (a fork
    of the fork server would otherwise have the fork server's): see :func:`arena.players.isolated.arena_cpus`.
    """
    os.environ["ARENA_BOT_PROCESS"] = "1"  # lets a bot know it is isolated
    _quiet_child()
    if output is not None:
        _redirect_output(output)
    if cpus:
        try:
            os.sched_setaffinity(0, cpus)
        except OSError:  # a CPU the arena had is not ours: run wherever the system lets us
            pass
    fd = conn.fileno()
    try:
        player: Player = load_factory(path)(dict(settings), seed)
    except Exception:
        write(fd, error(traceback.format_exc(limit=-3)))
        return
    warm_up()
    write(fd, b"r" + json.dumps({"ignores": sorted(ignored_calls(player))}).encode("utf-8"))
    _answer(fd, player)


def _answer(fd: int, player: Player) -> None:
    """:func:`serve`'s loop: one message at a time until told to close.

    The usual decision is written flat, as the arena's end writes it (``ProcessHost.decide``): one
    whole message in one read, the referee's keys only, an answer string. On one CPU every Python
    call between the system calls costs several times its warm price after the switch from the
    arena's process, and the bot's end is half of each round trip. Anything else goes through
    the general reading below, from where it stands.
    """
    reader = Reader(fd)
    view = SeatView(fd, reader)
    read, act = reader.read, view.act
    os_read, os_write, loads, unpack, pack = os.read, os.write, marshal.loads, LENGTH.unpack_from, LENGTH.pack
    value: Any  # what the player's call returned (start_match returns nothing)
    while True:
        chunk = b""
        if not reader.buffer:
            try:
                chunk = os_read(fd, 4096)
            except OSError:
                return
            if not chunk:
                return
        if chunk[4:5] == b"m" and unpack(chunk)[0] == len(chunk) - 4:  # one whole marshalled message
            verb, payload = loads(chunk[5:])
            # (known, no changes): SeatView.act's lazy case and answer()'s for an ASCII string, written
            # in (calling both instead: 2 % fewer decisions a second, fresh processes on one CPU)
            if verb == "act" and payload[1] is None:
                view.current = False
                observation = LazyObservation(payload[0])
                attach(observation, view, 0)
                try:
                    try:
                        value = player.act(observation)
                    finally:
                        if getrefcount(observation) > 2 and not observation.built:  # the cheaper test first
                            observation.settle()  # the bot kept it: fix it to this decision
                        del observation
                except Exception:
                    write(fd, error(traceback.format_exc(limit=-3)))
                    continue
                out = b"s" + value.encode("utf-8") if type(value) is str and value.isascii() else answer(value)
                framed = pack(len(out)) + out
                written = os_write(fd, framed)
                if written != len(framed):  # a long answer on a full pipe
                    _write_rest(fd, framed, written)
                continue
        else:  # anything else: the general reading, from where it stands
            reader.buffer += chunk
            try:
                data = read()
            except (EOFError, OSError):
                return
            verb, payload = load_message(data)
        try:
            if verb == "act":
                value = act(player, *payload)
            elif verb == "start":
                player.start_match(MatchInfo(**payload))
                value = None
            elif verb in ("end_hand", "end_match"):
                value = getattr(player, verb)(payload)
            elif verb == "close":
                player.close()
                write(fd, b"o")
                return
            else:
                value = None
        except Exception:
            write(fd, error(traceback.format_exc(limit=-3)))
            continue
        write(fd, answer(value))


class _Echo(Player):
    def act(self, observation: Mapping[str, Any]) -> str:
        return str(observation["legal_actions"][0])


def warm_up(rounds: int = 16) -> None:
    """Answer a few decisions with the very loop the bot's will go through (:func:`_answer`, with a
    bot of its own) over a socket pair of its own, before the bot process says it is ready: a
    fresh process otherwise pays inside its first decision (and its clock) for running this code
    the first time, the interpreter's specialisation of it among that (92 µs against 22 µs for
    later ones on one CPU; 67 µs with this). Each message is a record of the socket pair, read
    whole, as a decision's message is off the pipe."""
    try:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    except OSError:  # no such sockets here: the first decisions pay for it
        return
    with ours, theirs:
        decision = frame(message("act", ({"legal_actions": ["pass"], "time_left": 1.0, "bank_left": None}, None)))
        for _ in range(rounds):
            ours.send(decision)
        ours.send(frame(message("close", None)))
        _answer(theirs.fileno(), _Echo())
        reader = Reader(ours.fileno())
        for _ in range(rounds + 1):
            decode(reader.read())


def encode_values(observation: Mapping[str, Any]) -> dict[str, bytes]:
    """Each value of a whole observation marshalled on its own (version 2: no references between
    objects, so equal values give equal bytes)."""
    dumps = marshal.dumps
    return {key: dumps(value, 2) for key, value in observation.items()}


def changes(sent: dict[str, bytes] | None, values: dict[str, bytes]) -> tuple[str, dict[str, bytes]]:
    """What the other end needs to turn ``sent`` into ``values`` (see "observations" above)."""
    if sent is None or list(sent) != list(values):
        return "all", values
    get = sent.get
    return "some", {key: data for key, data in values.items() if get(key) != data}


class SeatView:
    """The bot process's end of the observations (see "observations" above): the last whole
    observation it got, and the LazyObservation it gives the bot for each decision."""

    def __init__(self, fd: int, reader: "Reader"):
        self.fd = fd
        self.reader = reader
        self.values: dict[str, bytes] = {}
        self.current = False  # ``values`` are this decision's

    def apply(self, changes: tuple[str, dict[str, bytes]]) -> None:
        how, values = changes
        if how == "all":
            self.values = dict(values)
        else:
            self.values.update(values)
        self.current = True

    def observation(self, seat: int) -> dict[str, Any]:
        """The whole observation of this decision (LazyObservation's ``state.observation(seat)``)."""
        if not self.current:
            write(self.fd, b"n")
            verb, changes = load_message(self.reader.read())
            if verb != "observation":
                raise ArenaError(f"the arena answered a request for the observation with {verb!r}")
            self.apply(changes)
        loads = marshal.loads
        return {key: loads(data) for key, data in self.values.items()}

    def act(self, player: Player, known: dict[str, Any], changes: tuple[str, dict[str, bytes]] | None) -> Any:
        self.current = False
        if changes is not None:
            self.apply(changes)
            return player.act({**self.observation(0), **known})
        observation = LazyObservation(known)
        attach(observation, self, 0)
        try:
            return player.act(observation)
        finally:
            if not observation.built and getrefcount(observation) > 2:
                observation.settle()  # the bot kept it: fix it to this decision (as the referee does)


def error(text: str) -> bytes:
    """An ``e`` message: the traceback, its end kept when it is too long for the arena to read."""
    data = text.encode("utf-8", "replace")
    if len(data) > MAX_ANSWER_BYTES:
        data = b"...(cut)\n" + data[-(MAX_ANSWER_BYTES - 16):]
    return b"e" + data


def message(verb: str, payload: Any) -> bytes:
    """An arena -> bot message: ``m`` + marshal (plain data: the usual case, and the fastest), else
    ``p`` + pickle."""
    if type(payload) is not dict and isinstance(payload, dict):
        payload = dict(payload)  # a LazyObservation: the whole observation, as a plain dict
    try:
        return b"m" + marshal.dumps((verb, payload))
    except ValueError:  # not plain data (a custom object somewhere)
        return b"p" + pickle.dumps((verb, payload), pickle.HIGHEST_PROTOCOL)


def load_message(data: bytes) -> tuple[str, Any]:
    return marshal.loads(data[1:]) if data[:1] == b"m" else pickle.loads(data[1:])


def decode(data: bytes) -> tuple[str, Any]:
    """(kind, value) of a message from the bot process: kind is ok, error, garbage or ready.

    Whatever the bytes, this returns: a message that does not decode is garbage (a fault of the bot).
    """
    try:
        return _decode_strict(data)
    except (ValueError, RecursionError) as exc:  # bad UTF-8 or JSON (UnicodeDecodeError, JSONDecodeError: ValueErrors)
        return "garbage", f"an unreadable message from the bot process ({len(data)} bytes: {type(exc).__name__})"


def _decode_strict(data: bytes) -> tuple[str, Any]:
    tag, body = data[:1], data[1:]
    if tag == b"s":
        return "ok", body.decode("utf-8")
    if tag == b"o":
        return "ok", None
    if tag == b"j":
        return "ok", json.loads(body)
    if tag == b"g":
        return "garbage", body.decode("utf-8", "replace")
    if tag == b"e":
        return "error", body.decode("utf-8", "replace")
    if tag == b"n" and not body:
        return "need", None
    if tag == b"r":
        value = json.loads(body)
        return ("ready", value) if isinstance(value, dict) else ("garbage", f"a malformed ready message ({len(data)} bytes)")
    return "garbage", f"an unreadable message from the bot process ({len(data)} bytes)"
