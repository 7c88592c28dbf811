"""The pipe protocol's reader (arena/players/pipe.py): whole messages, however the bytes arrive.

Its usual case (one whole message in one read) is written out flat for speed; these check that it
hands everything else to the general loop: a message in parts, two messages in one read, a message
over the limit, the other end closing, a deadline passing.
"""

from __future__ import annotations

import os
import threading
import time

import pytest

from arena.players import pipe


@pytest.fixture
def ends():
    r, w = os.pipe()
    yield r, w
    for fd in (r, w):
        try:
            os.close(fd)
        except OSError:
            pass


@pytest.mark.parametrize("deadline", [None, 5.0])
def test_whole_messages_come_out_whole_however_the_bytes_arrive(ends, deadline):
    r, w = ends
    reader = pipe.Reader(r, limit=100)
    at = (lambda: None) if deadline is None else (lambda: time.perf_counter() + deadline)
    os.write(w, pipe.frame(b"one"))
    assert reader.read(at()) == b"one"
    os.write(w, pipe.frame(b"two") + pipe.frame(b"three"))  # two in one read
    assert reader.read(at()) == b"two"
    assert reader.read(at()) == b"three"
    framed = pipe.frame(b"in parts")

    def dribble() -> None:
        for i in range(len(framed)):
            os.write(w, framed[i:i + 1])
            time.sleep(0.002)

    thread = threading.Thread(target=dribble)
    thread.start()
    assert reader.read(at()) == b"in parts"
    thread.join()
    os.write(w, pipe.frame(b""))  # an empty message is a message
    assert reader.read(at()) == b""


def test_a_message_over_the_limit_is_refused_from_its_length_alone(ends):
    r, w = ends
    reader = pipe.Reader(r, limit=10)
    os.write(w, pipe.frame(b"x" * 11))
    with pytest.raises(pipe.Oversized):
        reader.read(time.perf_counter() + 5)


def test_the_other_end_closing_and_a_deadline_passing(ends):
    r, w = ends
    reader = pipe.Reader(r, limit=100)
    assert reader.read(time.perf_counter() + 0.01) is None  # nothing came
    os.write(w, pipe.frame(b"half")[:3])
    assert reader.read(time.perf_counter() + 0.01) is None  # part of one came: kept for the next read
    os.write(w, pipe.frame(b"half")[3:])
    assert reader.read(time.perf_counter() + 5) == b"half"
    os.close(w)
    with pytest.raises(EOFError):
        reader.read(time.perf_counter() + 5)


@pytest.mark.parametrize("seconds", [0.0, 0.2])
def test_the_arena_end_s_blocking_read_gives_up_at_its_limit(seconds):
    """The arena waits for an answer in a blocking read bounded by the socket's receive timeout
    (arena/players/isolated.py, _ArenaEnd); a limit of 0 must not become the socket's "no limit"."""
    import socket

    from arena.players.isolated import _ArenaEnd

    ours, theirs = socket.socketpair()
    end = _ArenaEnd(ours.fileno())
    rescue = threading.Timer(3.0, theirs.send, (b"late",))  # a read that never gives up gets this instead
    rescue.start()
    try:
        end.limit_reads(seconds)
        start = time.perf_counter()
        with pytest.raises(BlockingIOError):
            os.read(ours.fileno(), 16)
        assert time.perf_counter() - start < seconds + 1.0
        assert end.send(b"x" * 4_000_000, socket.MSG_DONTWAIT) < 4_000_000  # and writes never block
    finally:
        rescue.cancel()
        end.close()
        ours.close()
        theirs.close()
