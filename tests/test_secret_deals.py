"""Secret deals (issue 31): no bot predicts a hidden card better than chance.

The attack is made for real: ``hostile-deal-spy`` (tests/hostile/dealspy.py), sandboxed where
bubblewrap works (else in a process), brute-forces the run's seed from its own seed with the
arena's formula and deals every candidate with the arena's own code, then logs the hands it
predicts for the other seats. Each test reads those lines from the bots' logs and scores them
against the records' decks (the operator's view). With the deals from the run's secret it must
rebuild nothing and guess no better than chance, in ``arena run``, ``arena match`` and the ladder;
the controls give the same runs a public seed, and there the same bot knows every card — so these
tests would catch a leak.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Iterable

import pytest

from arena.plugins import get_registry
from arena.store import Store
from tests.ladder_support import arena, ladder_running, register, submit, wait_for

ROOT = Path(__file__).resolve().parents[1]
SPY = "hostile-deal-spy"
SPY_FILE = ROOT / "tests" / "hostile" / "dealspy.py"
CHANCE_BOUND = 0.5  # of the hidden cards: chance is 6 of 46 unseen (about 0.13); a rebuilt deal is 1.0


def _isolation() -> str:
    try:
        from arena.players.sandbox import check_available

        check_available()
    except Exception:  # no bubblewrap (or no user namespaces) here: the process level
        return "process"
    return "sandbox"


ISOLATION = _isolation()


# -- reading the attack's reports ------------------------------------------------------------------
def _reports(logs: Path) -> list[tuple[int, dict[str, Any]]]:
    """(match number, report) of every DEALSPY line in a folder of ``match-NNNN-seat-S.log`` files."""
    found = []
    for path in sorted(logs.glob("match-*-seat-*.log")):
        number = int(path.name.split("-")[1])
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("DEALSPY "):
                found.append((number, json.loads(line[len("DEALSPY "):])))
    return found


def _dealt(record: dict[str, Any]) -> dict[int, list[str]]:
    """Every seat's cards as dealt in the record's first hand (from its deck: no seed needed)."""
    game = get_registry().game(record["game"], record["options"])
    first = record["hands"][0]
    state = game.start_hand(first["dealer"], first["deck"])
    return {seat: list(state.observation(seat)["hand"]) for seat in range(game.players)}


def _score(pairs: Iterable[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    """How many deals the spy rebuilt, and how many of the other seats' cards it named right."""
    rebuilt = hits = hidden = reports = 0
    for report, record in pairs:
        reports += 1
        dealt = _dealt(record)
        rebuilt += report["found"] is not None
        for seat, cards in report["predicted"].items():
            hits += len(set(cards) & set(dealt[int(seat)]))
            hidden += len(dealt[int(seat)])
    return {"reports": reports, "rebuilt": rebuilt, "hits": hits, "hidden": hidden,
            "share": hits / hidden if hidden else 0.0}


def _store_pairs(db: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    store = Store(db, readonly=True)
    try:
        return [(report, store.record(number)) for number, report in _reports(Path(str(db)[:-3] + "_logs"))]
    finally:
        store.close()


def _blind(score: dict[str, Any]) -> None:
    assert score["reports"] >= 2, score
    assert score["rebuilt"] == 0, f"the spy rebuilt {score['rebuilt']} deals from its seed: {score}"
    assert score["share"] < CHANCE_BOUND, f"the spy named {score['hits']} of {score['hidden']} hidden cards: {score}"


def _sighted(score: dict[str, Any]) -> None:
    assert score["reports"] >= 2, score
    assert score["rebuilt"] == score["reports"] and score["hits"] == score["hidden"], score


# -- arena run -------------------------------------------------------------------------------------
TOURNAMENT = f"""
[tournament]
name = "spied"
game = "all_fours"
deal_sets = 2
isolation = "{ISOLATION}"
{{seed}}
[options]
players = 2
max_hands = 1

[time_control]
per_decision = 30.0

[[bots]]
bot = "{SPY}"

[[bots]]
bot = "random"
"""


def _run(tmp_path: Path, name: str, seed_line: str = "") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(TOURNAMENT.replace("{seed}", seed_line))
    db = tmp_path / f"{name}.db"
    done = arena("run", str(path), "--db", str(db), "--quiet")
    assert done.returncode == 0, done.stdout + done.stderr
    return db


def test_arena_run_a_bot_cannot_rebuild_the_deals_from_its_seed(tmp_path):
    _blind(_score(_store_pairs(_run(tmp_path, "secret"))))


def test_arena_run_control_with_the_files_public_seed_the_spy_knows_every_card(tmp_path):
    _sighted(_score(_store_pairs(_run(tmp_path, "public", "seed = 2026"))))


# -- arena match -----------------------------------------------------------------------------------
def _match(tmp_path: Path, name: str, *extra: str) -> Path:
    db = tmp_path / f"{name}.db"
    done = arena("match", SPY, "random", "--game", "all_fours", "--option", "players=2", "--option", "max_hands=1",
                 "--isolation", ISOLATION, "--per-decision", "30", "--max-deal-sets", "2", "--batch", "2",
                 "--quiet", "--db", str(db), *extra)
    assert done.returncode == 0, done.stdout + done.stderr
    return db


def test_arena_match_a_bot_cannot_rebuild_the_deals_from_its_seed(tmp_path):
    _blind(_score(_store_pairs(_match(tmp_path, "secret"))))


def test_arena_match_control_with_a_public_seed_the_spy_knows_every_card(tmp_path):
    _sighted(_score(_store_pairs(_match(tmp_path, "public", "--seed", "7"))))


# -- the ladder ------------------------------------------------------------------------------------
LADDER = '[[ladder]]\ngame = "all_fours"\nplayers = 2\noptions = { max_hands = 1 }\ntime_control = { per_decision = 30.0 }\n'


def _ladder_score(tmp_path: Path, *args: str) -> dict[str, Any]:
    """A real ladder (house bot ``random``), the spy submitted by an author as a Python file: the
    score of its reports in the first two rounds' matches."""
    (tmp_path / "ladder.toml").write_text(LADDER)
    db = tmp_path / "ladder.db"
    with ladder_running(tmp_path, "--config", str(tmp_path / "ladder.toml"), "--house", "random", "--workers", "1",
                        "--pairings", "1", *args) as ladder:
        token = tmp_path / "spy.token"
        register(ladder.url, "spy", token)
        done = submit(ladder.url, token, "dealspy", "--python", str(SPY_FILE), "--games", "all_fours")
        assert done.returncode == 0, done.stdout + done.stderr

        def played() -> bool:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
                return conn.execute("SELECT COUNT(*) FROM ladder_deal_sets WHERE finished IS NOT NULL").fetchone()[0] >= 2

        wait_for(played, 300, "two finished deal sets")
        pairs = []
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
            for number, report in _reports(tmp_path / "ladder_files" / "logs"):
                row = conn.execute("SELECT record FROM ladder_matches WHERE id = ?", (number,)).fetchone()
                if row and row[0]:
                    pairs.append((report, json.loads(row[0])))
        assert ladder.process.poll() is None, ladder.stderr()
    return _score(pairs)


@pytest.mark.slow
def test_the_ladder_a_submitted_bot_cannot_rebuild_the_deals_from_its_seed(tmp_path):
    _blind(_ladder_score(tmp_path))


@pytest.mark.slow
def test_the_ladder_control_with_a_public_seed_the_spy_knows_every_card(tmp_path):
    _sighted(_ladder_score(tmp_path, "--seed", "3"))


# -- the secret: kept, and new in every fresh run --------------------------------------------------
def _deal_seeds(db: Path) -> list[Any]:
    store = Store(db, readonly=True)
    try:
        return [spec["deal_seed"] for spec, _ in store.results()]
    finally:
        store.close()


def test_two_fresh_runs_of_one_file_deal_differently_and_each_keeps_its_secret(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(TOURNAMENT.replace("{seed}", "").replace(SPY, "heuristic").replace(ISOLATION, "inprocess"))
    seeds = []
    for name in ("one", "two"):
        db = tmp_path / f"{name}.db"
        assert arena("run", str(path), "--db", str(db), "--quiet").returncode == 0
        store = Store(db, readonly=True)
        deals = store.deals()
        records = [store.record(i) for i in range(store.counts()[1])]
        store.close()
        assert deals is not None and not deals.public
        # the stored secret is what dealt every match (the same deck in both rotations of a deal set)
        assert [r["seed"] for r in records] == [deals.deal_seed(f"dealset/{i // 2}") for i in range(len(records))]
        assert records[0]["hands"][0]["deck"] == records[1]["hands"][0]["deck"]
        seeds.append(_deal_seeds(db))
    assert not set(seeds[0]) & set(seeds[1])


def test_a_resumed_series_deals_its_later_deal_sets_from_its_stored_secret(tmp_path):
    from arena.comparison import series as series_module
    from arena.deals import Deals
    from arena.comparison.command import build_series
    from arena.commandline import build_parser
    from arena.tournaments.executors import ExecutorKind, InlineExecutor

    registry = get_registry()
    args = build_parser(registry).parse_args(["match", "random", "random", "--game", "toy", "--option", "target=3",
                                              "--isolation", "inprocess", "--max-deal-sets", "4", "--elo1", "1"])
    series = build_series(args, registry)

    class Interrupting:  # the registry, with an inline executor interrupted after three matches
        def __getattr__(self, name):
            return getattr(registry, name)

        def executor(self, name):
            class Executor(InlineExecutor):
                def run(self, specs):
                    for count, item in enumerate(super().run(specs)):
                        if count == 3:
                            raise KeyboardInterrupt
                        yield item

            return ExecutorKind("inline", "interrupted", lambda workers, options: Executor())

    db = tmp_path / "series.db"
    with pytest.raises(KeyboardInterrupt):
        series_module.run(series, Interrupting(), db, executor="inline", batch=2)
    store = Store(db)
    secret = store.deals()
    store.close()
    series_module.run(series, registry, db, executor="inline", batch=2)
    store = Store(db, readonly=True)
    assert store.deals() == secret and secret is not None and not secret.public
    specs = [spec for spec, _ in store.results()]
    store.close()
    assert len({spec["deal_set"] for spec in specs}) == 4  # deal sets scheduled before and after the resume
    game = registry.game("toy", {"target": 3})
    expected = series.specs(game, 0, 4, secret)
    assert [(s["deal_seed"], s["bot_seeds"]) for s in specs] == [(e.deal_seed, list(e.bot_seeds)) for e in expected]
    fresh = series.specs(game, 0, 4, Deals.fresh())
    assert not {e.deal_seed for e in fresh} & {s["deal_seed"] for s in specs}


# -- the ladder's pages: a deal set's cards are public once it is over -----------------------------
def test_a_ladder_match_is_sealed_on_every_page_until_its_deal_set_is_over(tmp_path, registry):
    """Rotation 0 of a deal set is played, rotation 1 (the same cards) is not: its record, replay,
    scores and seeds are nowhere on the pages or the API; once rotation 1 is stored, all are."""
    import threading
    from types import SimpleNamespace

    from arena.ladder import web
    from arena.ladder.store import LadderStore
    from arena.matches import MatchSpec, play_match
    from arena.web.app import create_app
    from tests.ladder_support import get, serving
    from tests.test_ladder_board import LADDER, _spec, fill

    spec = MatchSpec.single("all_fours", ["random", "random"], seed=3, options={"players": 2, "max_hands": 1},
                            names=["alpha v2", "beta v1"])
    record = play_match(spec, registry).record
    db = tmp_path / "ladder.db"
    store = LadderStore(db)
    versions, _ = fill(store, record)
    lineup = [versions["a2"], versions["b"]]
    [deal_set] = store.schedule_round(9, [(LADDER, [v["id"] for v in lineup], "s/9", [_spec(lineup, r) for r in range(2)])])
    first, second = store.deal_set(deal_set)["matches"]
    fault = {"seat": 0, "kind": "illegal", "answer": "play ZZ", "message": "illegal action 'play ZZ'; legal: play 2C, "
             "play 8S", "hand": 0, "action_index": 1, "response": "substitute", "substituted": "play 2C"}
    result = {"scores": [7, 3], "ranking": [0, 1], "faults": [fault], "termination": {"how": "normal"}}
    store.save_match(first["id"], result, record)
    ladder = SimpleNamespace(store=store, registry=registry, stopping=threading.Event())
    app = create_app(db, registry=registry, extra_routes=web.routes(ladder))
    try:
        with serving(app) as url:
            status, match = get(f"{url}/api/ladder/matches/{first['id']}")
            assert status == 200 and match["record"] is None and match["result"] is None and match["replay"] is None
            assert "deal_seed" not in match["spec"] and "bot_seeds" not in match["spec"] and match["sealed"]
            status, page = get(f"{url}/ladder/matches/{first['id']}/replay")
            assert status == 404 and "not finished" in page and record["hands"][0]["deck"][0] not in page
            _, bot = get(f"{url}/api/ladder/bots/alpha")
            [row] = [d for d in bot["recent"] if d["id"] == deal_set]
            assert [(m["scores"], m["replay"]) for m in row["matches"]] == [(None, None), (None, None)]
            assert not [f for f in bot["faults"] if f["deal_set"] == deal_set]  # its message names the cards

            store.save_match(second["id"], result, record)  # the deal set is over: all of it is public
            status, match = get(f"{url}/api/ladder/matches/{first['id']}")
            assert match["record"] == record and match["spec"]["deal_seed"] == "x" and "sealed" not in match
            assert get(f"{url}/ladder/matches/{first['id']}/replay")[0] == 200
            _, bot = get(f"{url}/api/ladder/bots/alpha")
            [row] = [d for d in bot["recent"] if d["id"] == deal_set]
            assert [m["scores"] for m in row["matches"]] == [[7, 3], [7, 3]]
            assert len([f for f in bot["faults"] if f["deal_set"] == deal_set]) == 1  # alpha's seat 0 of rotation 0
    finally:
        ladder.stopping.set()
        store.close()


# -- a store's deals: kept, checked on restart, damage named ---------------------------------------
def test_a_ladder_keeps_its_secret_and_a_restart_must_not_name_a_seed(tmp_path, registry):
    from arena.ladder.config import parse
    from arena.ladder.scheduler import Ladder, LadderError
    from arena.ladder.store import LadderStore

    config = parse({"ladder": [{"game": "all_fours", "players": 2}]}, "test", registry)

    def start(name: str, **kwargs: Any) -> Ladder:
        store = LadderStore(tmp_path / f"{name}.db")
        try:
            return Ladder(store, registry, config, tmp_path / f"{name}_files", executor="inline",
                          log=lambda m: None, **kwargs)
        except BaseException:
            store.close()
            raise

    first = start("secret")
    secret = first.deals
    first.store.close()
    assert not secret.public
    again = start("secret")
    assert again.deals == secret  # a restart deals from the same secret
    again.store.close()
    with pytest.raises(LadderError, match="comes? from the secret in its store: give no --seed"):
        start("secret", seed=4)
    start("seeded", seed=4).store.close()
    with pytest.raises(LadderError, match=r"public deals \(seeded 4\): give --seed 4"):
        start("seeded")
    legacy = LadderStore(tmp_path / "legacy.db")  # a ladder made before secrets: its seed (0) was public
    legacy.set_meta("seed", "0")
    legacy.close()
    with pytest.raises(LadderError, match=r"public deals \(seeded 0\): give --seed 0"):
        start("legacy")
    assert start("legacy", seed=0).deals.public_seed == 0


def test_a_damaged_stored_secret_is_named_not_guessed(tmp_path, registry):
    from arena.comparison import series as series_module
    from arena.comparison.command import build_series
    from arena.commandline import build_parser
    from arena.errors import ArenaError

    def series(budget: str) -> Any:
        return build_series(build_parser(registry).parse_args(
            ["match", "random", "random", "--game", "toy", "--option", "target=3", "--isolation", "inprocess",
             "--max-deal-sets", budget]), registry)

    db = tmp_path / "s.db"
    series_module.run(series("2"), registry, db, executor="inline", batch=1)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = '{\"secret\": \"abc\"}' WHERE key = 'deals'")
    bigger = series("4")  # more deal sets: the stored secret must be read to deal them
    with pytest.raises(ArenaError, match=f"{db}: the stored deals \\(secret or seed\\) are damaged"):
        series_module.run(bigger, registry, db, executor="inline", batch=1)



# -- web tables ------------------------------------------------------------------------------------
def test_a_new_web_tables_bot_seeds_are_keyed_by_its_secret_deal_seed(tmp_path):
    """A new game deals from its own random seed; its bots' seeds are HMACs keyed by it, never the
    public formula of it (crc32) against which a bot could test candidate deal seeds. (The daily
    deal keeps its own scheme: its fairness is another issue's.)"""
    import zlib

    from starlette.testclient import TestClient

    from tests.web_support import make_app, new_table

    db = tmp_path / "web.db"
    with TestClient(make_app(db)) as client:
        tables = [new_table(client, game="all_fours", mode="new") for _ in range(2)]
    with sqlite3.connect(db) as conn:
        specs = [json.loads(conn.execute("SELECT spec FROM tables WHERE id = ?", (t,)).fetchone()[0]) for t in tables]
    assert specs[0]["deal_seed"] != specs[1]["deal_seed"]
    for spec in specs:
        deal_seed, seats = spec["deal_seed"], range(len(spec["bots"]))
        assert spec["bot_seeds"] != [zlib.crc32(f"{deal_seed}/match/0/seat/{s}".encode()) for s in seats]
        from arena.deals import Deals

        keyed = Deals(secret=deal_seed.to_bytes(8, "big"))
        assert spec["bot_seeds"] == [keyed.bot_seed(f"match/0/seat/{s}") for s in seats]
