"""Submitting through the ladder's API (arena/ladder/api.py) on a real server, and through the real
``arena register``, ``arena submit`` and ``arena retire`` commands in subprocesses."""

from __future__ import annotations

import base64
import http.client
import json
import os
import stat
import subprocess
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from arena.ladder import accounts, api, validation
from arena.players.sandbox import bwrap
from arena.web.app import create_app
from tests import ladder_support
from tests.ladder_bots import harness

pytestmark = pytest.mark.skipif(bwrap() is None, reason="the sandbox needs bubblewrap (bwrap)")


def call(url, method, path, body=None, token=None, raw=None):
    """(status, JSON answer) of one request."""
    data = raw if raw is not None else json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def settled(url, version, timeout=120.0):
    return ladder_support.wait_for(lambda: (lambda v: v if v["status"] != "validating" else None)(
        call(url, "GET", f"/api/ladder/versions/{version['id']}")[1]), timeout, f"version {version['id']}", 0.2)


@pytest.fixture
def served(tmp_path, registry):
    """A ladder object and its API on uvicorn: (ladder, URL)."""
    ladder = harness.make_ladder(tmp_path, registry, per_decision=1.0, max_upload=64 * 1024, rate_limit=4)
    app = create_app(tmp_path / "ladder.db", registry=registry, extra_routes=api.routes(ladder))
    with ladder_support.serving(app) as url:
        yield ladder, url
    assert validation.idle(120)
    ladder.store.close()


def module_body(name, file="first_legal.py", games=("five_hundred",)):
    return harness.python_body(name, harness.HERE / file, list(games))


def test_two_authors_each_own_their_bots(served):
    ladder, url = served
    status, alice = call(url, "POST", "/api/ladder/authors", {"name": "alice"})
    assert status == 201 and alice["name"] == "alice" and alice["token"]
    _, bob = call(url, "POST", "/api/ladder/authors", {"name": "bob"})
    assert call(url, "POST", "/api/ladder/authors", {"name": "alice"}) == (409, {"error": "the author name 'alice' is taken"})
    assert call(url, "POST", "/api/ladder/authors", {"name": "No Good"})[0] == 400

    status, version = call(url, "POST", "/api/ladder/bots", module_body("alpha"), alice["token"])
    assert status == 201 and version["status"] == "validating" and version["author"] == "alice"
    assert "path" not in version and "seat" not in version  # the server's paths stay on the server
    assert settled(url, version)["status"] == "active"

    status, refused = call(url, "POST", "/api/ladder/bots", module_body("alpha"), bob["token"])
    assert status == 403 and "another author's (alice)" in refused["error"]
    status, refused = call(url, "POST", "/api/ladder/bots/alpha/retire", {}, bob["token"])
    assert status == 403
    assert [v["status"] for v in ladder.store.versions(bot="alpha")] == ["active"]

    status, second = call(url, "POST", "/api/ladder/bots", module_body("alpha"), alice["token"])  # a new version
    assert status == 201 and second["number"] == 2
    assert settled(url, second)["status"] == "active"
    first = ladder.store.versions(bot="alpha")[0]
    assert first["status"] == "retired" and first["reason"] == "replaced by version 2"

    status, retired = call(url, "POST", "/api/ladder/bots/alpha/retire", {}, alice["token"])
    assert status == 200 and [v["number"] for v in retired["retired"]] == [2]
    assert [v["status"] for v in ladder.store.versions(bot="alpha")] == ["retired", "retired"]
    assert call(url, "POST", "/api/ladder/bots/nobody/retire", {}, alice["token"])[0] == 404


def test_no_token_is_401_and_bad_requests_400(served):
    ladder, url = served
    _, alice = call(url, "POST", "/api/ladder/authors", {"name": "alice"})
    assert call(url, "POST", "/api/ladder/bots", module_body("alpha"))[0] == 401
    assert call(url, "POST", "/api/ladder/bots", module_body("alpha"), alice["token"] + "x")[0] == 401
    assert call(url, "POST", "/api/ladder/bots/alpha/retire", {})[0] == 401
    token = alice["token"]
    for body, message in (
        ({**module_body("alpha"), "kind": "zip"}, "\"kind\" must be one of"),
        ({**module_body("alpha"), "games": ["chess"]}, "no ladder here plays 'chess'"),
        ({**module_body("alpha"), "games": []}, "\"games\" must list"),
        ({**module_body("alpha"), "content_base64": "@@@"}, "not valid base64"),
        ({"name": "alpha", "kind": "program", "games": ["five_hundred"], "archive_base64": ""}, "needs \"archive_base64\""),
        ({**module_body("Alpha")}, "is not a name"),
    ):
        status, answer = call(url, "POST", "/api/ladder/bots", body, token)
        assert status == 400 and message in answer["error"], (body.get("kind"), answer)
    status, answer = call(url, "POST", "/api/ladder/bots", module_body("heuristic"), token)
    assert status == 409 and "an installed bot's" in answer["error"]  # kept for the house bots
    status, answer = call(url, "POST", "/api/ladder/bots", token=token, raw=b"{not json")
    assert status == 400 and answer == {"error": "the request's body is not JSON"}
    assert call(url, "GET", "/api/ladder/versions/999")[0] == 404
    assert ladder.store.bots() == []  # nothing of a refused request was stored


def test_an_upload_over_the_limit_is_413_before_and_while_reading(served):
    ladder, url = served
    _, alice = call(url, "POST", "/api/ladder/authors", {"name": "alice"})
    big = {"name": "big", "kind": "python", "games": ["five_hundred"], "filename": "big.py",
           "content_base64": base64.b64encode(b"#" * (200 * 1024)).decode()}
    status, answer = call(url, "POST", "/api/ladder/bots", big, alice["token"])
    assert status == 413 and "over the limit" in answer["error"]
    # no Content-Length (chunked): counted while reading
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    chunks = (b"x" * 65536 for _ in range(3))  # over the limit; small enough to be sent before the answer
    try:
        connection.request("POST", "/api/ladder/bots", body=chunks, encode_chunked=True,
                           headers={"Authorization": f"Bearer {alice['token']}", "Content-Type": "application/json"})
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered and closed before the client's last bytes (a loaded machine): read its answer
    answer = connection.getresponse()
    assert answer.status == 413 and "over the limit" in json.loads(answer.read())["error"]
    connection.close()
    # just under the limit when decoded, but the decoded file is over it: 413 too
    over = {"name": "big", "kind": "python", "games": ["five_hundred"], "filename": "big.py",
            "content_base64": base64.b64encode(b"#" * (64 * 1024 + 1)).decode()}
    status, answer = call(url, "POST", "/api/ladder/bots", over, alice["token"])
    assert status == 413 and "65537 bytes" in answer["error"]
    assert ladder.store.bots() == []


def test_more_versions_than_the_rate_limit_is_429(served):
    ladder, url = served
    _, alice = call(url, "POST", "/api/ladder/authors", {"name": "alice"})
    _, bob = call(url, "POST", "/api/ladder/authors", {"name": "bob"})
    for number in range(4):  # the limit: 4 an hour (refused versions count too)
        body = {**module_body("syntax"), "filename": "syntax.py", "content_base64": base64.b64encode(b"def (").decode()}
        status, version = call(url, "POST", "/api/ladder/bots", body, alice["token"])
        assert status == 201
        assert settled(url, version)["status"] == "refused"  # out of the install queue (3 an author at once)
    status, answer = call(url, "POST", "/api/ladder/bots", module_body("other"), alice["token"])
    assert status == 429 and "the limit is 4" in answer["error"]
    assert call(url, "POST", "/api/ladder/bots", module_body("bobs"), bob["token"])[0] == 201  # per author


def test_an_internal_error_is_json_without_a_traceback(served, monkeypatch):
    ladder, url = served
    _, alice = call(url, "POST", "/api/ladder/authors", {"name": "alice"})
    from arena.ladder import submissions

    def broken(*args, **kwargs):
        raise ZeroDivisionError("secret detail")

    monkeypatch.setattr(submissions, "submit", broken)
    status, answer = call(url, "POST", "/api/ladder/bots", module_body("alpha"), alice["token"])
    assert status == 500 and answer == {"error": "internal error (logged on the server)"}


# -- the commands ---------------------------------------------------------------------------------

def arena(*args, env=None, cwd=None):
    return subprocess.run([*ladder_support.ARENA, *args], capture_output=True, text=True, timeout=300,
                          env=env or ladder_support.ENV, cwd=cwd)


def test_the_commands_register_submit_each_kind_wait_and_retire(served, tmp_path):
    ladder, url = served
    ladder.rate_limit = 10
    home = tmp_path / "home"
    env = {**ladder_support.ENV, "HOME": str(home)}
    done = arena("register", "--server", url, "carol", "--save", env=env)
    assert done.returncode == 0, done.stderr
    token, printed = done.stdout.splitlines()[0], done.stdout.splitlines()
    saved = home / ".config" / "trick-arena" / f"token-127.0.0.1_{urlsplit(url).port}"
    assert saved.read_text().strip() == token and stat.S_IMODE(saved.stat().st_mode) == 0o600

    done = arena("submit", "--server", url, "carol-module", "--python", str(harness.HERE / "first_legal.py"),
                 "--games", "five_hundred", "--wait", env=env)  # the token from the saved file
    assert done.returncode == 0, done.stderr + done.stdout
    assert done.stdout.splitlines()[0].startswith("carol-module version 1 (id ") and done.stdout.strip().endswith("active")

    program = tmp_path / "program"
    program.mkdir()
    (program / "bot.py").write_bytes((harness.HERE / "program" / "bot.py").read_bytes())
    (program / "__pycache__").mkdir()
    (program / "__pycache__" / "junk.pyc").write_bytes(b"junk")
    done = arena("submit", "--server", url, "carol-program", "--program", str(program), "--command",
                 "python3 bot.py {socket}", "--games", "five_hundred", "--wait", env=env)
    assert done.returncode == 0, done.stderr + done.stdout
    files = os.path.join(ladder.data_dir, "versions", "carol-program", "1", "files")
    assert sorted(os.listdir(files)) == ["bot.py"]

    from arena.players.serve import serve_player
    from tests.ladder_bots.first_legal import make

    key = accounts.endpoint_key(ladder.store, "carol")
    assert key.startswith("ek_") and printed[1] == f"endpoint key: {key}"  # `arena register` printed it
    server = serve_player(make, name="carol-remote", owner_key=key)
    try:
        token_file = tmp_path / "token"
        token_file.write_text(token + "\n")
        done = arena("submit", "--server", url, "--token-file", str(token_file), "carol-remote", "--endpoint",
                     f"grpc://127.0.0.1:{server.port}", "--games", "five_hundred", "--wait")
        assert done.returncode == 0, done.stderr + done.stdout
    finally:
        server.stop(1.0)

    done = arena("submit", "--server", url, "--token", token, "carol-slow", "--python",
                 str(harness.HERE / "too_slow.py"), "--games", "five_hundred", "--wait")
    assert done.returncode == 1 and done.stdout.splitlines()[-1].startswith("refused: too slow: "), done.stdout

    wheel = harness.build_wheel(tmp_path)
    done = arena("submit", "--server", url, "--token", token, "carol-wheel", "--python", str(wheel),
                 "--bot", "sample_first", "--games", "five_hundred,fifty_six", "--wait")
    assert done.returncode == 0, done.stderr + done.stdout
    assert ladder.store.versions(bot="carol-wheel")[0]["games"] == ["five_hundred", "fifty_six"]

    statuses = {v["bot"]: v["status"] for v in ladder.store.versions(author="carol")}
    assert statuses == {"carol-module": "active", "carol-program": "active", "carol-remote": "active",
                        "carol-slow": "refused", "carol-wheel": "active"}

    done = arena("retire", "--server", url, "carol-module", env=env)
    assert done.returncode == 0 and "carol-module retired (versions: 1)" in done.stdout
    assert ladder.store.versions(bot="carol-module")[0]["status"] == "retired"


def test_the_commands_fail_in_one_line(served, tmp_path):
    ladder, url = served
    env = {**ladder_support.ENV, "HOME": str(tmp_path / "nohome")}
    done = arena("submit", "--server", url, "x1", "--python", str(harness.HERE / "first_legal.py"), "--games",
                 "five_hundred", env=env)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "cannot read the token file" in done.stderr and "arena register --save" in done.stderr
    done = arena("submit", "--server", url, "--token", "wrong", "x1", "--python", str(harness.HERE / "first_legal.py"),
                 "--games", "five_hundred")
    assert done.returncode == 2 and ": 401: the token is not valid" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    done = arena("register", "--server", "http://127.0.0.1:1", "dave")
    assert done.returncode == 2 and "cannot reach the ladder at http://127.0.0.1:1" in done.stderr
    done = arena("submit", "--server", url, "--token", "t", "x1", "--program", str(tmp_path), "--games", "five_hundred")
    assert done.returncode == 2 and "--program needs --command" in done.stderr
