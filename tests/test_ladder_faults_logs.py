"""Faults charged to the right party, and logs an author can use (issue 31, findings 7 and 8).

* The arena's own failure while setting up a seat (here a broken pipe to its fork server, the
  failure seen setting up a house seat) is played again and, when it persists, recorded as the
  arena's: no fault on the bot, no probation, no rating; a bot's own failure stays the bot's.
* Probation looks at a version's recent matches only: old faults come off.
* A forfeit is a loss on the bot page and in head to head, as it is in the rating.
* An author downloads their own bot's logs (nobody else can); empty logs are not kept; a bot's
  logs are kept within a budget, oldest dropped first; flooding past the cap is a fault.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from arena.ladder.config import parse
from arena.ladder.scheduler import Ladder
from arena.ladder.store import LadderStore
from arena.players import isolated
from arena.plugins import get_registry

TINY = {"game": "all_fours", "players": 2, "options": {"max_hands": 2}}


def _ladder(tmp_path, name: str, rounds_config: dict[str, Any] | None = None, **kwargs: Any) -> Ladder:
    registry = get_registry()
    config = parse({"ladder": [dict(TINY, **(rounds_config or {}))]}, "test", registry)
    store = LadderStore(tmp_path / f"{name}.db")
    said: list[str] = []
    ladder = Ladder(store, registry, config, tmp_path / f"{name}_files", executor="inline", log=said.append,
                    **kwargs)
    ladder.said = said  # type: ignore[attr-defined]
    return ladder


def _break_spawns(monkeypatch, bot_path: str, times: int | None) -> list[int]:
    """The arena's fork server fails (BrokenPipeError) when it starts ``bot_path``'s process, the
    first ``times`` times (None: always): the arena's failure, inside the arena's own host code."""
    calls = [0]
    spawn = isolated.ProcessHost._spawn

    def broken(self: isolated.ProcessHost) -> None:
        if self.path == bot_path:
            calls[0] += 1
            if times is None or calls[0] <= times:
                raise BrokenPipeError(32, "Broken pipe")
        spawn(self)

    monkeypatch.setattr(isolated.ProcessHost, "_spawn", broken)
    return calls


def _faults(store: LadderStore) -> list[dict[str, Any]]:
    return [f for d in store.deal_sets(limit=10_000) for m in d["matches"] for f in (m["result"] or {}).get("faults", [])]


def test_an_arena_failure_setting_up_a_seat_is_played_again_and_not_charged(tmp_path, monkeypatch):
    calls = _break_spawns(monkeypatch, "bots.random_bot:make", times=2)
    ladder = _ladder(tmp_path, "retried", seed=2, pairings=1, house=["heuristic", "random"])
    ladder.run(rounds=1)
    store = ladder.store
    [deal_set] = store.deal_sets()
    assert calls[0] >= 3  # two failures, then the match played
    assert _faults(store) == [], _faults(store)  # nobody charged: the arena failed, not random
    first = store.match(deal_set["matches"][0]["id"])
    assert first is not None and len(first["record"]["arena_retries"]) == 2
    assert "BrokenPipeError" in first["record"]["arena_retries"][0]
    assert all(m["result"]["termination"]["how"] in ("normal", "unfinished") for m in deal_set["matches"])
    assert deal_set["rated"] and {r["bot"] for r in store.ratings("all_fours/2")} == {"heuristic", "random"}


def test_an_arena_failure_that_persists_is_the_arenas_never_rated_nor_probation(tmp_path, monkeypatch):
    _break_spawns(monkeypatch, "bots.random_bot:make", times=None)
    ladder = _ladder(tmp_path, "persists", seed=2, pairings=2, house=["heuristic", "random"])
    # it goes on: the arena's failure ends neither the match table nor the ladder (a ladder that put
    # random on probation instead would wait for submissions: stopped after a while, and failed below)
    thread = threading.Thread(target=ladder.run, kwargs={"rounds": 3}, daemon=True)
    thread.start()
    thread.join(300)
    finished = not thread.is_alive()
    if not finished:
        ladder.stop()
        thread.join(60)
    store = ladder.store
    assert _faults(store) == []
    assert finished
    deal_sets = store.deal_sets(limit=100)
    assert len(deal_sets) == 6 and all(d["rated"] for d in deal_sets)
    for deal_set in deal_sets:
        for match in deal_set["matches"]:
            termination = match["result"]["termination"]
            assert termination["how"] == "arena_error" and "BrokenPipeError" in termination["message"], termination
    assert store.ratings("all_fours/2") == []  # never rated ...
    assert {v["bot"]: v["status"] for v in store.versions()} == {"heuristic": "active", "random": "active"}  # ... nor on probation
    assert store.pairs([v["id"] for v in store.versions()]) == []  # nor anyone's win or loss
    assert any("the arena's failure" in line for line in ladder.said), ladder.said  # said to the operator


def test_a_bots_own_failure_to_start_stays_the_bots(tmp_path, registry):
    """The control: a program that exits before serving is its own crash, not the arena's."""
    from arena.matches import MatchSpec, play_match

    spec = MatchSpec.single("all_fours", ['cmd:python3 -c "import sys; sys.exit(3)"', "random"],
                            options={"players": 2, "max_hands": 2}, isolation="process")
    result = play_match(spec, registry, tolerant=True)
    [fault] = result.faults
    assert fault.seat == 0 and fault.kind.value == "crash" and "exited with code 3 before serving" in fault.message
    assert result.termination.how == "forfeit" and "arena_retries" not in result.record


def _set_back(store: LadderStore, version_id: int, seconds: float) -> None:
    """Make ``version_id``'s matches ``seconds`` older (as if that much time had passed)."""
    with store._transaction() as db:
        db.execute("UPDATE ladder_matches SET finished = finished - ? WHERE deal_set IN (SELECT d.id FROM "
                   "ladder_deal_sets d, json_each(d.lineup) WHERE json_each.value = ?)", (seconds, version_id))
        db.execute("UPDATE ladder_deal_sets SET finished = finished - ? WHERE id IN (SELECT d.id FROM "
                   "ladder_deal_sets d, json_each(d.lineup) WHERE json_each.value = ?)", (seconds, version_id))


def test_probation_counts_recent_matches_only(tmp_path):
    ladder = _ladder(tmp_path, "window", seed=3, pairings=2, house=["heuristic", "random"])
    store = ladder.store
    store.add_author("dead-author", "x")
    store.add_bot("dead", "dead-author")
    dead = store.add_version("dead", "grpc", "grpc://127.0.0.1:9", ["all_fours"], "active")["id"]
    with store._transaction() as db:  # a long clean history: 1,000 matches without a fault, rated before today
        db.execute("INSERT INTO ladder_ratings(version, ladder, mu, sigma, deal_sets, matches, faults) "
                   "VALUES (?, 'all_fours/2', 30.0, 1.0, 500, 1000, 0)", (dead,))
    ladder.run(rounds=3)  # now its endpoint is dead: every match it plays is a fault
    version = store.version(dead)
    assert version is not None and version["status"] == "probation", (version, store.rating(dead, "all_fours/2"))
    assert version["reason"].startswith("faults in ") and "of its last " in version["reason"]
    assert ladder.review_probation() == []  # its faults are recent: it stays on probation

    _set_back(store, dead, 2 * 24 * 3600)  # two days later: its faults have left the window
    assert ladder.review_probation() == [dead]
    assert store.version(dead)["status"] == "active"
    assert any("off probation" in line for line in ladder.said)
    played = store.rating(dead, "all_fours/2")["matches"]
    while store.version(dead)["status"] == "active" and store.last_round() < 10:  # it plays again, still dead ...
        ladder.run(rounds=store.last_round() + 1)
    assert store.rating(dead, "all_fours/2")["matches"] >= played + 5
    assert store.version(dead)["status"] == "probation"  # ... and is back on probation after 5 matches


def test_a_forfeit_is_shown_as_the_loss_it_is_rated(tmp_path):
    from arena.ladder import board

    # bad-illegal answers an illegal action at its first decision: it forfeits every match at 0-0
    ladder = _ladder(tmp_path, "forfeit", seed=1, pairings=1, house=["heuristic", "bad-illegal"])
    ladder.run(rounds=1)
    store = ladder.store
    [deal_set] = store.deal_sets()
    assert all(m["result"]["termination"]["how"] == "forfeit" for m in deal_set["matches"])
    ids = {v["bot"]: v["id"] for v in store.versions()}
    rated = {r["bot"]: r["mu"] for r in store.ratings("all_fours/2")}
    assert rated["heuristic"] > rated["bad-illegal"]  # rated as a loss ...
    page = board.bot_page(store, "bad-illegal")
    assert [d["outcome"] for d in page["recent"]] == ["lost"]  # ... shown as one on its page
    assert [(h["opponent"], h["won"], h["drawn"], h["lost"]) for h in page["head_to_head"]] == [("heuristic", 0, 0, 1)]
    other = board.bot_page(store, "heuristic")
    assert [d["outcome"] for d in other["recent"]] == ["won"]
    assert [(h["won"], h["drawn"], h["lost"]) for h in other["head_to_head"]] == [(1, 0, 0)]
    assert ids


# -- logs an author can use ------------------------------------------------------------------------

TALKER = '''"""Says one line of 1,000 bytes when it is made (each match), then plays the first legal action."""
from arena.players.base import Player


class Talker(Player):
    def act(self, observation):
        return observation["legal_actions"][0]


def make(settings, seed):
    print("talker " + "t" * 992, flush=True)
    return Talker()
'''

FLOODER = '''"""Writes 256 KiB when it is made (each match): far past the ladder's 8 KiB log cap."""
import sys

from arena.players.base import Player


class Flooder(Player):
    def act(self, observation):
        return observation["legal_actions"][0]


def make(settings, seed):
    sys.stdout.write("flood " * 45000)
    sys.stdout.flush()
    return Flooder()
'''

LOG_CAP = 8 * 1024
BUDGET = 2500  # two of the talker's 1,000-byte logs, not three


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """A ladder (in this process, inline, real sandboxes) where alice's talker, bob's flooder and
    the house random bot played two rounds, with an 8 KiB log cap and a 2,500-byte log budget;
    its authors' API on a real server. Yields (ladder, url, tokens)."""
    from arena.ladder import accounts, api
    from arena.players.sandbox import bwrap
    from arena.web.app import create_app
    from tests import ladder_support

    if bwrap() is None:
        pytest.skip("the sandbox needs bubblewrap (bwrap)")
    tmp_path = tmp_path_factory.mktemp("logs")
    ladder = _ladder(tmp_path, "logs", {"limits": {"log_size": LOG_CAP}}, seed=7, pairings=3, house=["random"],
                     log_budget=BUDGET)
    store = ladder.store
    tokens = {}
    for author, bot, source in (("alice", "talker", TALKER), ("bob", "flooder", FLOODER)):
        tokens[author] = accounts.register(store, author)
        folder = tmp_path / bot
        folder.mkdir()
        (folder / f"{bot}_bot.py").write_text(source)
        store.add_bot(bot, author)
        store.add_version(bot, "python", f"pybot:{folder}#{bot}_bot:make", ["all_fours"], "active")
    ladder.run(rounds=2)
    app = create_app(tmp_path / "logs.db", registry=ladder.registry, extra_routes=api.routes(ladder))
    with ladder_support.serving(app) as url:
        yield ladder, url, tokens
    store.close()


def _matches_of(store: LadderStore, bot: str) -> list[dict[str, Any]]:
    """The matches ``bot`` played, oldest first, with the seats it held."""
    found = []
    for deal_set in reversed(store.deal_sets(limit=1000)):
        for match in deal_set["matches"]:
            seats = [s for s, name in enumerate(match["spec"]["seats"]) if name.startswith(bot + " v")]
            if seats:
                found.append(dict(match, held=seats))
    return found


def test_an_author_downloads_their_own_bots_log_and_nobody_else_can(logged, tmp_path):
    from tests.ladder_support import arena, get

    ladder, url, tokens = logged
    newest = _matches_of(ladder.store, "talker")[-1]
    token_file = tmp_path / "alice.token"
    token_file.write_text(tokens["alice"])
    done = arena("logs", "--server", url, "--token-file", str(token_file), "talker", str(newest["id"]))
    assert done.returncode == 0, done.stderr
    assert f"== talker v1, match {newest['id']}, seat {newest['held'][0]}: 1000 bytes" in done.stdout
    assert "talker " + "t" * 992 in done.stdout

    path = f"/api/ladder/bots/talker/logs/{newest['id']}"
    status, answer = get(url + path, tokens["alice"])
    assert status == 200 and answer["logs"][0]["kept"] and answer["logs"][0]["text"].startswith("talker t")
    assert get(url + path, tokens["bob"])[0] == 403  # another author
    assert get(url + path)[0] == 401  # no token
    assert get(url + path, "ta_not-a-token")[0] == 401
    done = arena("logs", "--server", url, "--token", tokens["bob"], "talker", str(newest["id"]))
    assert done.returncode != 0 and "403" in done.stderr and "another author's" in done.stderr
    other = next(m for m in _matches_of(ladder.store, "flooder") if m["id"] not in
                 {t["id"] for t in _matches_of(ladder.store, "talker")})
    assert get(url + f"/api/ladder/bots/talker/logs/{other['id']}", tokens["alice"])[0] == 404  # not its match
    # bob reads his own flooder's newest log (kept whatever the budget): cut at the cap
    newest_flood = _matches_of(ladder.store, "flooder")[-1]
    status, answer = get(url + f"/api/ladder/bots/flooder/logs/{newest_flood['id']}", tokens["bob"])
    assert status == 200 and LOG_CAP <= answer["logs"][0]["size"] < LOG_CAP + 200
    assert "the log was cut here" in answer["logs"][0]["text"]


def test_empty_logs_are_not_kept(logged):
    ladder, _, _ = logged
    files = sorted(p.name for p in (ladder.data_dir / "logs").iterdir())
    random_seats = {f"match-{m['id']:04d}-seat-{s}.log" for m in _matches_of(ladder.store, "random") for s in m["held"]}
    assert random_seats and not random_seats & set(files)  # the house bot printed nothing: no file
    assert all(((ladder.data_dir / "logs") / name).stat().st_size > 0 for name in files)
    assert files  # the control: what the others printed is kept


def test_a_bots_logs_keep_within_the_budget_oldest_dropped_first(logged):
    ladder, url, tokens = logged
    from tests.ladder_support import get

    talker = _matches_of(ladder.store, "talker")
    assert len(talker) >= 3
    kept = [(m["id"], s) for m in talker for s in m["held"]
            if ((ladder.data_dir / "logs") / f"match-{m['id']:04d}-seat-{s}.log").exists()]
    held = [(m["id"], s) for m in talker for s in m["held"]]
    assert kept == held[-2:]  # the two newest fit the budget; the older ones were dropped
    version = ladder.store.versions(bot="talker")[0]["id"]
    assert ladder.store.log_bytes(version) <= BUDGET
    status, answer = get(url + f"/api/ladder/bots/talker/logs/{talker[0]['id']}", tokens["alice"])
    assert status == 200 and answer["logs"][0]["kept"] is False and answer["logs"][0]["text"] == ""


def test_flooding_past_the_log_cap_is_a_fault(logged):
    ladder, _, _ = logged
    store = ladder.store
    flooder = _matches_of(store, "flooder")
    assert flooder
    for match in flooder:
        floods = [f for f in match["result"]["faults"] if f["kind"] == "log_flood"]
        assert [f["seat"] for f in floods] == match["held"], match["result"]["faults"]
        assert floods[0]["response"] == "recorded" and f"cap of {LOG_CAP} bytes" in floods[0]["message"]
    version = store.versions(bot="flooder")[0]
    rating = store.rating(version["id"], "all_fours/2")
    assert rating is not None and rating["faults"] == rating["matches"] == len(flooder)  # each counts
    assert version["status"] == "probation" and "log_flood" in version["reason"]
    for match in _matches_of(store, "talker"):  # the control: a bot within the cap has no fault
        assert not [f for f in match["result"]["faults"] if f["seat"] in match["held"]]
    assert store.versions(bot="talker")[0]["status"] == "active"


def _aborting_launcher(monkeypatch, times: int | None) -> list[int]:
    """The arena's launcher aborts (SIGABRT) before it runs the bot's program, the first ``times``
    times (None: always): the start-up abort of the first-run issue, the arena's failure."""
    import sys

    from arena.players import command

    calls = [0]
    real = command.launcher

    def aborting(argv, **kwargs):
        calls[0] += 1
        if times is None or calls[0] <= times:
            return [sys.executable, "-I", "-S", "-c", "import os, signal; os.kill(os.getpid(), signal.SIGABRT)"]
        return real(argv, **kwargs)

    monkeypatch.setattr(command, "launcher", aborting)
    return calls


SERVED = 'cmd:{python} -m arena.players.serve random --port {{port}}'


def _launched_spec():
    import sys

    from arena.matches import MatchSpec

    return MatchSpec.single("all_fours", [SERVED.format(python=sys.executable), "random"],
                            options={"players": 2, "max_hands": 2}, isolation="process")


def test_the_launchers_start_up_abort_is_the_arenas_not_the_bots(monkeypatch):
    from arena.tournaments.executors import play_spec

    calls = _aborting_launcher(monkeypatch, times=1)
    outcome = play_spec(_launched_spec())  # what every executor runs
    assert outcome["result"]["faults"] == [], outcome["result"]["faults"]  # not charged to the program
    assert outcome["result"]["termination"]["how"] in ("normal", "unfinished")
    retries = __import__("json").loads(outcome["record"])["arena_retries"]
    assert calls[0] == 2 and len(retries) == 1 and "launcher died before it started the program" in retries[0]

    _aborting_launcher(monkeypatch, times=None)  # it always aborts: the arena's error, after 3 tries
    outcome = play_spec(_launched_spec())
    termination = outcome["result"]["termination"]
    assert termination["how"] == "arena_error" and "exit code -6" in termination["message"], termination
    assert outcome["result"]["faults"] == []
