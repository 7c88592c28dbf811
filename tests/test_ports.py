"""Ports for launched bots (arena.players.ports). A port from ``bind(0)`` lies in the OS's
ephemeral range, where every outgoing connection takes its local port too: under the stress test's
gRPC load a connection took a launched bot's port before the bot bound it, and the bot "crashed"
with "Address already in use" (1 start in 500, CI of 5 December 2026)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

from arena.players import ports
from arena.players.ports import candidate_ports, ephemeral_range, free_port


def test_a_launched_bots_port_is_outside_the_range_outgoing_connections_use(tmp_path):
    low, high = ephemeral_range()
    chosen = [free_port(path=str(tmp_path / "reserved.json")) for _ in range(50)]
    assert all(not low <= port <= high for port in chosen), chosen


def test_outgoing_connections_do_not_take_the_ports_handed_out(tmp_path):
    """The race itself, without luck: open many outgoing connections and see none of their local
    ports among the ports handed out."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(200)
        clients = [socket.create_connection(server.getsockname()) for _ in range(100)]
        try:
            local = {client.getsockname()[1] for client in clients}
            chosen = {free_port(path=str(tmp_path / "reserved.json")) for _ in range(100)}
        finally:
            for client in clients:
                client.close()
    assert not local & chosen


def test_no_two_launches_get_one_port_while_their_bots_start_even_from_two_processes(tmp_path):
    path = str(tmp_path / "reserved.json")
    other = subprocess.run(
        [sys.executable, "-c", "from arena.players.ports import free_port\n"
         f"print(*[free_port(path={path!r}) for _ in range(300)])"],
        capture_output=True, text=True, check=True).stdout.split()
    ours = [free_port(path=path) for _ in range(300)]
    assert len(set(ours) | {int(port) for port in other}) == 600


def test_a_port_something_listens_on_is_never_handed_out(tmp_path, monkeypatch):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        busy = listener.getsockname()[1]
        monkeypatch.setattr(ports, "candidate_ports", lambda ephemeral: range(busy, busy + 1))
        assert free_port(path=str(tmp_path / "reserved.json")) != busy  # the OS's choice instead


def test_reservations_expire_and_a_torn_or_foreign_file_is_started_afresh(tmp_path):
    path = tmp_path / "reserved.json"
    for foreign in ("{not json", "[1, 2]", '{"x": "soon"}'):
        path.write_text(foreign)
        port = free_port(path=str(path))
        saved = json.loads(path.read_text())
        assert list(saved) == [str(port)] and saved[str(port)] > time.time(), foreign
    path.write_text(json.dumps({"20001": time.time() - 1}))
    free_port(path=str(path))
    assert "20001" not in json.loads(path.read_text())


def test_the_candidates_fall_on_the_roomier_side_of_the_ephemeral_range():
    assert candidate_ports((32768, 60999)) == range(20000, 32768)
    assert candidate_ports((1024, 40000)) == range(40001, 65536)
    assert not candidate_ports((1024, 65535))


def test_an_unreadable_range_file_gives_linuxs_default(tmp_path):
    assert ephemeral_range(str(tmp_path / "missing")) == (32768, 60999)


def test_a_link_planted_as_the_reservation_file_is_not_written_through(tmp_path):
    target = tmp_path / "precious"
    target.write_text("keep me")
    (tmp_path / "reserved.json").symlink_to(target)
    assert 0 < free_port(path=str(tmp_path / "reserved.json")) < 65536
    assert target.read_text() == "keep me"
