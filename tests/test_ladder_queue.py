"""The ladder's install queue (arena/ladder/jobs.py) on a real server: a submission returns at once
with its place in the queue while installs are slow, the board answers meanwhile, the queue is
bounded per author, and a submission that fails to install (a zip whose sizes lie, a command word
over 255 characters, a crash of the install itself) is refused with its reason, leaves no files,
and never answers 500."""

from __future__ import annotations

import base64
import io
import os
import struct
import threading
import zipfile
from concurrent.futures import ThreadPoolExecutor

import pytest

from arena.ladder import api, install, validation
from arena.ladder import web as ladder_web
from arena.players.sandbox import bwrap
from arena.web.app import create_app
from tests import ladder_support
from tests.ladder_bots import harness
from tests.test_ladder_submit import call, module_body, settled

pytestmark = pytest.mark.skipif(bwrap() is None, reason="the sandbox needs bubblewrap (bwrap)")


@pytest.fixture
def served(tmp_path, registry):
    ladder = harness.make_ladder(tmp_path, registry, per_decision=1.0, max_upload=64 * 1024)
    app = create_app(tmp_path / "ladder.db", registry=registry,
                     extra_routes=api.routes(ladder) + ladder_web.routes(ladder))
    with ladder_support.serving(app) as url:
        yield ladder, url
    assert validation.idle(120)
    ladder.store.close()


def test_submissions_return_at_once_and_queue_while_installs_are_slow(served, monkeypatch):
    ladder, url = served
    gate = threading.Event()
    slow = install.install_python
    monkeypatch.setattr(install, "install_python", lambda *args: (gate.wait(60), slow(*args))[1])  # a long build
    tokens = [call(url, "POST", "/api/ladder/authors", {"name": f"author{i}"})[1]["token"] for i in range(4)]
    try:
        with ThreadPoolExecutor(12) as pool:  # 4 authors x 3 submissions at once, each answered at once
            futures = [pool.submit(call, url, "POST", "/api/ladder/bots", module_body(f"bot{a}-{n}"), token)
                       for a, token in enumerate(tokens) for n in range(3)]
            answers = [future.result(timeout=30) for future in futures]
        assert [status for status, _ in answers] == [201] * 12, answers
        assert all(v["status"] == "validating" for _, v in answers)
        assert all(isinstance(v["queue"], int) for _, v in answers), answers

        def places():
            found = sorted(call(url, "GET", f"/api/ladder/versions/{v['id']}")[1]["queue"] for _, v in answers)
            return found if found == [0, 0] + list(range(1, 11)) else None

        ladder_support.wait_for(places, 30, "two versions being installed and ten waiting in order", 0.2)
        status, board = ladder_support.get(url + "/api/ladder/board")  # the board answers meanwhile
        assert status == 200 and "rows" in board
        status, refused = call(url, "POST", "/api/ladder/bots", module_body("one-more"), tokens[0])
        assert status == 429 and "3 submissions waiting" in refused["error"], refused  # each author's share
        status, mine = ladder_support.get(url + "/api/ladder/me", tokens[3])
        assert status == 200 and all(isinstance(v["queue"], int) for v in mine["versions"]), mine
    finally:
        gate.set()
    for _, version in answers:
        assert settled(url, version)["status"] == "active"
    assert not os.listdir(os.path.join(ladder.data_dir, "queue"))  # every upload was installed and let go


def _lying_zip() -> bytes:
    """A zip whose central directory says bot.py unpacks to 20 bytes: it unpacks to 2,000."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bot.py", "#" * 2000)
    data = bytearray(buffer.getvalue())
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 20)  # its uncompressed size
    return bytes(data)


@pytest.mark.parametrize("archive, command, reason", [
    (_lying_zip(), "python3 bot.py {socket}", "the archive is damaged"),
    (None, "python3 " + "b" * 300 + ".py {socket}", "does not start"),
    (None, "python3 bot.py {socket} \x00", "NUL"),
])
def test_a_failed_install_is_refused_with_its_reason_and_leaves_no_files(served, archive, command, reason):
    ladder, url = served
    _, alice = call(url, "POST", "/api/ladder/authors", {"name": "alice"})
    if archive is None:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as zipped:
            zipped.writestr("bot.py", (harness.HERE / "program" / "bot.py").read_bytes())
        archive = buffer.getvalue()
    body = {"name": "liar", "kind": "program", "games": ["five_hundred"], "command": command,
            "archive_base64": base64.b64encode(archive).decode()}
    status, version = call(url, "POST", "/api/ladder/bots", body, alice["token"])
    assert status == 201, version
    done = settled(url, version)
    assert done["status"] == "refused" and reason in done["reason"], done
    assert ladder.store.version(version["id"])["path"] == ""
    assert not os.path.exists(install.version_dir(ladder.data_dir, "liar", 1))
    assert not os.path.exists(os.path.join(ladder.data_dir, "queue", str(version["id"])))


def test_an_install_that_crashes_is_refused_not_a_500(served, monkeypatch):
    ladder, url = served
    _, alice = call(url, "POST", "/api/ladder/authors", {"name": "alice"})

    def broken(directory, *args):
        install.fresh(directory)
        (directory / "half-written").write_bytes(b"x")
        raise ZeroDivisionError("a bug in the install")

    monkeypatch.setattr(install, "install_python", broken)
    status, version = call(url, "POST", "/api/ladder/bots", module_body("alpha"), alice["token"])
    assert status == 201, version
    done = settled(url, version)
    assert done["status"] == "refused" and "the server failed while installing it" in done["reason"], done
    assert "ZeroDivisionError" not in done["reason"]
    assert not os.path.exists(install.version_dir(ladder.data_dir, "alpha", 1))


def test_a_queued_version_is_installed_when_the_ladder_starts_again(tmp_path, registry):
    from arena.ladder import jobs

    ladder = harness.make_ladder(tmp_path, registry, per_decision=1.0)
    ladder.store.add_author("alice", "")
    ladder.store.add_bot("later", "alice")
    left = ladder.store.add_version("later", "python", "", ["five_hundred"], "validating")
    jobs.save_upload(ladder, left["id"], (harness.HERE / "first_legal.py").read_bytes(),
                     {"filename": "first_legal.py", "bot": None})
    try:
        jobs.resume(ladder)  # what a restarted ladder does
        assert jobs.idle(120, ladder)
        assert ladder.store.version(left["id"])["status"] == "active"
    finally:
        ladder.store.close()
