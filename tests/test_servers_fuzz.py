"""No 500s: every endpoint of both servers (the ladder's API and pages, the web tables' API and
pages, one application as `arena ladder` serves them) is fuzzed with Hypothesis: any method, path
parameter, query, headers and body (JSON of the fields the endpoints read, with values of any
type, or bytes). None may answer 500: bad input is a 4xx that says why."""

from __future__ import annotations

import base64
import io
import json
import struct
import zipfile
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from starlette.testclient import TestClient

from arena.ladder import accounts, api, validation
from arena.ladder import web as ladder_web
from arena.web.app import create_app
from tests.ladder_bots import harness

ROUTES = [  # (methods, path template)
    (("POST",), "/api/ladder/authors"), (("POST",), "/api/ladder/bots"), (("POST",), "/api/ladder/bots/{}/retire"),
    (("GET",), "/api/ladder/versions/{}"), (("GET",), "/ladder"), (("GET",), "/ladder/submit"),
    (("GET",), "/ladder/bots/{}"), (("GET",), "/ladder/matches/{}/replay"), (("GET",), "/api/ladder/board"),
    (("GET",), "/api/ladder/bots/{}"), (("GET",), "/api/ladder/matches/{}"), (("GET",), "/api/ladder/me"),
    (("GET",), "/"), (("GET", "POST"), "/api/me"), (("GET",), "/api/games"), (("GET", "POST"), "/api/tables"),
    (("GET",), "/api/tables/{}"), (("GET",), "/api/tables/{}/record"), (("GET",), "/tables/{}/replay"),
    (("GET",), "/api/leaderboard"), (("GET",), "/ladder/static/{}"), (("GET",), "/static/{}"),
    (("GET",), "/games/{}/{}"),
]
FIELDS = ["name", "kind", "games", "filename", "content_base64", "bot", "archive_base64", "command", "endpoint",
          "nickname", "game", "mode", "players", "options", "bots", "type", "action", "decision"]
QUERY = ["ladder", "game", "date"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                    st.text(max_size=40), st.sampled_from(["five_hundred", "python", "program", "grpc", "daily",
                                                           "new", "grpc://127.0.0.1:1", "x.py", "all", "today",
                                                           "heuristic", "\ud800", "a" * 300, "2026-02-30"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8),
                                                                       inner, max_size=4)), max_leaves=8)
def _zip(files: dict[str, bytes]) -> str:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return base64.b64encode(buffer.getvalue()).decode()


def _lying_zip() -> str:
    data = bytearray(base64.b64decode(_zip({"bot.py": b"#" * 2000})))
    struct.pack_into("<I", data, data.index(b"PK\x01\x02") + 24, 20)  # says 20 bytes unpacked
    return base64.b64encode(bytes(data)).decode()


# Valid requests of each endpoint (the first of each list is tried most), some of whose fields the
# fuzzer replaces (by a value awkward for that field, or any value) or drops.
TEMPLATES = {
    "/api/ladder/bots": [
        {"name": "fuzz-bot", "kind": "program", "games": ["five_hundred"], "command": "python3 bot.py {socket}",
         "archive_base64": _zip({"bot.py": b"print()"})},
        {"name": "fuzz-mod", "kind": "python", "games": ["five_hundred"], "filename": "broken.py",
         "content_base64": base64.b64encode(b"def (").decode()},
        {"name": "fuzz-grpc", "kind": "grpc", "games": ["five_hundred"], "endpoint": "grpc://127.0.0.1:1"}],
    "/api/tables": [{"game": "five_hundred", "mode": "new"}],
    "/api/me": [{"nickname": "fuzzer"}],
    "/api/ladder/authors": [{"name": "fuzz-author"}],
}
AWKWARD = {
    "command": ["python3 " + "b" * 300 + ".py {socket}", "python3 bot.py {socket} \x00", "python3 ../x {socket}", ""],
    "archive_base64": [_lying_zip(), "", "@@"],
    "content_base64": [_lying_zip(), base64.b64encode(b"\x00").decode()],
    "filename": ["a" * 300 + ".py", "../x.py", "x.whl", "x.tar.gz"],
    "endpoint": ["grpc://" + "h" * 300 + ":1", "grpc://127.0.0.1:99999", "grpc://[::1", "grpcs://x:1"],
    "nickname": ["\ud800", " ", "a" * 30], "name": ["a" * 300, "\ud800", "house"],
    "games": [["five_hundred", 1], ["five_hundred"] * 50, []], "bot": ["", 1],
    "players": [10**20, -1, "4"], "options": [{"max_hands": 10**20}, {"max_hands": "x"}, {"": None}],
    "bots": [["heuristic"] * 3, [None] * 3, ["search", "random", 1]], "mode": ["daily"], "game": [["x"], {}],
}


@st.composite
def _mutated(draw: st.DrawFn, path: str) -> bytes:
    body = dict(draw(st.sampled_from(TEMPLATES[path])))
    for key in draw(st.lists(st.sampled_from(sorted(body, key=lambda k: k not in AWKWARD)), min_size=1, max_size=2)):
        choice = draw(st.integers(0, 2))
        if choice < 2 and key in AWKWARD:
            body[key] = draw(st.sampled_from(AWKWARD[key]))
        elif choice < 2:
            body[key] = draw(VALUES)
        else:
            body.pop(key, None)
    return json.dumps(body).encode()


def _bodies(path: str) -> st.SearchStrategy[bytes | None]:
    anything = st.one_of(st.none(), st.binary(max_size=200), st.dictionaries(
        st.sampled_from(FIELDS), VALUES, max_size=6).map(lambda d: json.dumps(d).encode()))
    return _mutated(path) | anything if path in TEMPLATES else anything


PARAMS = st.one_of(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40),
                   st.integers(-1, 10**20).map(str), st.sampled_from(["..", "%00", "1", "abc", "a" * 300]))


@pytest.fixture(scope="module")
def client(tmp_path_factory, registry):
    tmp_path = tmp_path_factory.mktemp("fuzz")
    ladder = harness.make_ladder(tmp_path, registry, per_decision=1.0, rate_limit=10**6)
    ladder.queue_per_author = 10**6  # every submission is tried, none refused for being one too many
    token = accounts.register(ladder.store, "fuzzer")
    app = create_app(tmp_path / "ladder.db", registry=registry, pace=0.0,
                     extra_routes=api.routes(ladder) + ladder_web.routes(ladder))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        player = test_client.get("/api/me").cookies.get("arena_player")
        yield test_client, token, player
    validation.idle(60)
    ladder.store.close()


@pytest.mark.parametrize("route", ROUTES, ids=[f"{'+'.join(m)} {p}" for m, p in ROUTES])
def test_no_endpoint_answers_500(client, route):
    methods, template = route
    test_client, token, player = client

    @settings(max_examples=120 if template in TEMPLATES else 25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def fuzz(data):
        method = data.draw(st.sampled_from(methods) | st.sampled_from(["PUT", "DELETE", "GET"]), "method")
        path = template.format(*(quote(data.draw(PARAMS, "param"), safe="") for _ in range(template.count("{}"))))
        query = data.draw(st.dictionaries(st.sampled_from(QUERY), st.sampled_from(
            ["five_hundred", "five_hundred/4", "yesterday", "9999-01-01"]) | st.text(max_size=20), max_size=2), "query")
        headers = {"content-type": "application/json"}
        authorization = data.draw(st.sampled_from([f"Bearer {token}", "Bearer x", "Basic y", "Bearer ", None]))
        if authorization is not None:
            headers["authorization"] = authorization
        test_client.cookies = {"arena_player": data.draw(st.sampled_from([player, "x", "a" * 200, ""]))}
        body = data.draw(_bodies(template), "body") if method != "GET" else None
        response = test_client.request(method, path, params=query, content=body, headers=headers)
        assert response.status_code != 500, (method, path, query, body and body[:300], response.text[:300])

    fuzz()
