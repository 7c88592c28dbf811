"""Authors who reach nothing of each other's (issue 31, attacks 4-6), against a real `arena ladder`:

* the path tricks: a program's command naming another version's folder (``/usr/../...``, ``..``,
  an absolute path, a link in its own upload) is refused with a reason that names nothing of the
  server, and the ladder's pages and API show no host path at all;
* the endpoint copy: another author's ``grpc://`` endpoint, submitted as one's own, is refused
  (one endpoint, one author; an endpoint answers its own author's key at every match start);
* names: a trailing newline, and reserved names in another case, are refused.

The control: the same authors' honest submissions become active and play."""

from __future__ import annotations

import base64
import io
import json
import os
import sys
import tarfile
import time
import urllib.error
import urllib.request

import pytest

from arena.players.sandbox import bwrap
from tests import ladder_support
from tests.ladder_bots import harness

pytestmark = pytest.mark.skipif(bwrap() is None, reason="the sandbox needs bubblewrap (bwrap)")

LADDER_FILE = """
[[ladder]]
game = "all_fours"
players = 2
options = { max_hands = 1 }
time_control = { per_decision = 10.0 }
"""
PROGRAM = (harness.HERE / "program" / "bot.py").read_bytes()


def call(url, method, path, body=None, token=None):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode() if body is not None else None,
                                     method=method, headers={"Content-Type": "application/json",
                                                             **({"Authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def archive(files, links=()):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, (data, mode) in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), mode
            tar.addfile(info, io.BytesIO(data))
        for name, target in links:
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            tar.addfile(info)
    return base64.b64encode(buffer.getvalue()).decode()


def program(name, command, files=None, links=()):
    return {"name": name, "kind": "program", "games": ["all_fours"], "command": command,
            "archive_base64": archive(files or {"bot.py": (PROGRAM, 0o644)}, links)}


def settled(url, version, timeout=240.0):
    return ladder_support.wait_for(lambda: (lambda v: v if v["status"] != "validating" else None)(
        call(url, "GET", f"/api/ladder/versions/{version['id']}")[1]), timeout, f"version {version['id']}", 0.3)


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    """A real ladder (all_fours for 2, one hand a match, the house's random) with two authors:
    alice, whose program and endpoint are honest, and mallory."""
    from arena.players.serve import serve_player
    from tests.ladder_bots.first_legal import make

    tmp_path = tmp_path_factory.mktemp("authors")
    (tmp_path / "ladder.toml").write_text(LADDER_FILE)
    with ladder_support.ladder_running(tmp_path, "--config", str(tmp_path / "ladder.toml"), "--workers", "1",
                                       "--house", "random") as running:
        url = running.url
        status, alice = call(url, "POST", "/api/ladder/authors", {"name": "alice"})
        assert status == 201, alice
        _, mallory = call(url, "POST", "/api/ladder/authors", {"name": "mallory"})
        # alice's server answers her endpoint key; it listens on every address (another is another target)
        server = serve_player(make, name="alice-remote", host="0.0.0.0", owner_key=alice.get("endpoint_key"))
        try:
            shebang = f"#!{os.path.realpath(sys.executable)}\n".encode()
            _, prog = call(url, "POST", "/api/ladder/bots", program("alice-prog", "./bot.py {socket}",
                                                                  {"bot.py": (shebang + PROGRAM, 0o755)}), alice["token"])
            _, remote = call(url, "POST", "/api/ladder/bots", {"name": "alice-remote", "kind": "grpc", "games": [
                "all_fours"], "endpoint": f"grpc://127.0.0.1:{server.port}"}, alice["token"])
            for version in (prog, remote):
                assert settled(url, version)["status"] == "active", settled(url, version)
            found = [p for p in tmp_path.rglob("files") if p.parent.parent.name == "alice-prog"]
            assert found, "alice's program has no files folder"
            yield {"url": url, "tmp": tmp_path, "alice": alice, "mallory": mallory, "server": server,
                   "alice_files": str(found[0].resolve()), "ladder": running}
        finally:
            server.stop(1.0)


def test_the_path_tricks_are_refused_and_leak_nothing(ladder):
    url, token, victim = ladder["url"], ladder["mallory"]["token"], ladder["alice_files"]
    up = "/".join([".."] * 3)  # from mallory's files/ to versions/
    tricks = [
        program("mal-usr", f"/usr/../{victim.lstrip('/')}/bot.py {{socket}}"),
        program("mal-usr-arg", f"python3 /usr/..{victim}/bot.py {{socket}}"),
        program("mal-abs", f"{victim}/bot.py {{socket}}"),
        program("mal-dots", f"python3 {up}/alice-prog/1/files/bot.py {{socket}}"),
        program("mal-socket", f"python3 bot.py {{socket}}{victim}/bot.py"),
        program("mal-link", "python3 theirs/bot.py {socket}", links=[("theirs", victim)]),
    ]
    for body in tricks:
        status, version = call(url, "POST", "/api/ladder/bots", body, token)
        assert status in (201, 400), version
        version = settled(url, version) if status == 201 else {"status": "refused", "reason": version["error"]}
        assert version["status"] == "refused", (body["command"], version)
        reason = version["reason"]
        assert "outside" in reason or "own files" in reason or "a link" in reason or "{socket}" in reason, reason
        for secret in (victim, str(ladder["tmp"]), os.path.realpath(ladder["tmp"])):  # the server's paths
            assert secret not in reason, (body["command"], reason)
    # the control: mallory's honest program is taken and plays
    status, honest = call(url, "POST", "/api/ladder/bots", program("mal-honest", "python3 bot.py {socket}"), token)
    assert status == 201 and settled(url, honest)["status"] == "active", settled(url, honest)


def test_another_authors_endpoint_is_refused_and_the_own_one_plays(ladder):
    url, token, port = ladder["url"], ladder["mallory"]["token"], ladder["server"].port
    for endpoint in (f"grpc://127.0.0.1:{port}", f"grpc://127.0.0.1.:{port}", f"grpcs://127.0.0.1:{port}"):
        status, answer = call(url, "POST", "/api/ladder/bots", {"name": "mal-copy", "kind": "grpc", "games": [
            "all_fours"], "endpoint": endpoint}, token)
        assert status == 409 and "another author's" in answer["error"], (endpoint, answer)
    # another address of the same server: a new target, but the server answers alice's key, not mallory's
    status, copy = call(url, "POST", "/api/ladder/bots", {"name": "mal-copy", "kind": "grpc", "games": ["all_fours"],
                                                         "endpoint": f"grpc://127.0.0.2:{port}"}, token)
    assert status == 201, copy
    copy = settled(url, copy)
    assert copy["status"] == "refused" and "endpoint key" in copy["reason"], copy
    assert "ek_" not in copy["reason"]  # neither key is shown


def test_an_endpoint_that_stops_answering_its_key_fails_at_the_match_start():
    from arena.players.base import MatchInfo
    from arena.players.hosts import BotCrash
    from arena.players.remote import GrpcHost
    from arena.players.serve import serve_player
    from tests.ladder_bots.first_legal import make

    server = serve_player(make, name="keyed", owner_key="ek_right")
    info = MatchInfo(game="all_fours", options={}, seat=0, seating=("a", "b"), time_control={"per_decision": 5.0})
    try:
        good = GrpcHost(f"grpc://127.0.0.1:{server.port}?owner=ek_right")
        good.start(info, 10.0)  # the control
        good.close()
        wrong = GrpcHost(f"grpc://127.0.0.1:{server.port}?owner=ek_other")
        with pytest.raises(BotCrash, match="does not answer its author's endpoint key"):
            wrong.start(info, 10.0)
        wrong.close()
    finally:
        server.stop(1.0)


@pytest.mark.parametrize("name", ["alice\n", "heuristic\n", "house\n", "HOUSE", "Heuristic", "Random", "SEARCH",
                                  "search", "bob\r", " bob", "bo b"])
def test_malformed_and_reserved_names_are_refused(ladder, name):
    url, token = ladder["url"], ladder["mallory"]["token"]
    status, answer = call(url, "POST", "/api/ladder/authors", {"name": name})
    assert status in (400, 409) and "token" not in answer, (name, answer)
    status, answer = call(url, "POST", "/api/ladder/bots", program(name, "python3 bot.py {socket}"), token)
    assert status in (400, 409), (name, answer)
    assert name not in json.dumps(call(url, "GET", "/api/ladder/board?ladder=all_fours/2")[1])


def test_no_page_or_api_answer_shows_a_host_path(ladder):
    url = ladder["url"]
    # the control: matches with alice's program and endpoint (and mallory's honest program) were played
    def played():
        board = call(url, "GET", "/api/ladder/board?ladder=all_fours/2")[1]
        counts = {row["bot"]: row["matches"] for row in board["rows"]}
        return counts if all(counts.get(b, 0) > 0 for b in ("alice-prog", "alice-remote")) else None

    ladder_support.wait_for(played, 300, "alice's bots to play")
    secrets = {str(ladder["tmp"]), os.path.realpath(ladder["tmp"]), "ladder_files", "?owner=", "ek_",
               f"127.0.0.1:{ladder['server'].port}"}
    pages = ["/ladder", "/ladder/submit", "/api/ladder/board?ladder=all_fours/2", "/api/ladder/board"]
    for bot in ("alice-prog", "alice-remote", "mal-honest", "random"):
        pages += [f"/api/ladder/bots/{bot}", f"/ladder/bots/{bot}"]
    ids = set()
    for bot in ("alice-prog", "alice-remote"):
        for deal_set in ladder_support.get(f"{url}/api/ladder/bots/{bot}")[1].get("recent", []):
            ids.update(m["id"] for m in deal_set.get("matches", []))
    assert ids, "no match listed"
    for match in sorted(ids)[:6]:
        pages += [f"/api/ladder/matches/{match}", f"/ladder/matches/{match}/replay"]
    pages += [f"/api/ladder/versions/{n}" for n in range(1, 12)]
    for page in pages:
        status, body = ladder_support.get(url + page)
        text = body if isinstance(body, str) else json.dumps(body)
        for secret in secrets:
            assert secret not in text, (page, secret, text[max(0, text.find(secret) - 200):text.find(secret) + 200])
    shown = ladder_support.get(f"{url}/api/ladder/matches/{min(ids)}")[1]["spec"]
    assert all(" v" in bot or bot == "random" for bot in shown["bots"]), shown["bots"]  # versions by their names
