"""Hardening (issue 22): whatever a bot answers, whatever a user types or a file holds, the arena
ends with a recorded fault or a one-line error, and loses nothing it finished."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from arena.players.seats import make_host
from arena.players.hosts import MAX_ANSWER_BYTES
from arena.players.isolated import ProcessHost
from arena.players.pipe import decode as _decode
from arena.referee import FaultPolicy, Referee, TimeControl
from arena.referee.faults import MAX_ANSWER_CHARS, MAX_MESSAGE_CHARS

ROOT = Path(__file__).resolve().parents[1]


def _play(registry, names, *, isolation="inprocess", policy=None, per_decision=2.0, settings=None, game=None):
    game = game or registry.game("toy", {"target": 6})
    hosts = [make_host(registry, name, game=game.name, seed=seat, isolation=isolation,
                       settings=(settings or {}).get(seat)) for seat, name in enumerate(names)]
    try:
        return Referee(game, hosts, names, seed=1, time_control=TimeControl(per_decision), policy=policy).play()
    finally:
        for host in hosts:
            host.close()


# -- 1. any bytes a bot sends are a fault of that bot ----------------------------------------------

@pytest.mark.parametrize("raw", [b"j{", b"s\xff\xfe\xfd\xfc", b"r{", b"r[1]", b"e\xff", b"", b"zzz",
                                 b"j" + b"[" * 100000])
def test_any_bytes_decode_to_a_kind(raw):
    kind, value = _decode(raw)
    assert kind in ("ok", "garbage", "error")
    json.dumps(value)


@pytest.mark.parametrize("raw", ["j{", "s\xff\xfe", "r{"])
def test_undecodable_bytes_on_the_pipe_are_a_malformed_answer_of_that_bot(registry, raw):
    result = _play(registry, ["hostile-raw-bytes", "random"], isolation="process", settings={0: {"raw": raw}})
    assert result.termination.how == "forfeit"
    fault = result.termination.forfeit
    assert (fault.seat, fault.kind.value) == (0, "malformed")
    assert "unreadable message" in str(fault.answer) or "malformed ready" in str(fault.answer)


# -- 2. what is read of a bot, and kept of it, is bounded ------------------------------------------

@pytest.mark.parametrize("isolation", ["inprocess", "process"])
def test_a_huge_answer_is_kept_as_a_bounded_excerpt(registry, isolation):
    result = _play(registry, ["hostile-huge", "random"], isolation=isolation)
    fault = result.termination.forfeit
    assert fault.kind.value == "malformed"
    assert len(json.dumps(result.as_dict())) < 20_000
    assert len(json.dumps(result.record)) < 40_000
    assert len(str(fault.answer)) <= MAX_ANSWER_CHARS + 40
    assert len(fault.message) <= MAX_MESSAGE_CHARS + 40


def test_an_isolated_bot_answer_over_the_limit_is_never_read_whole(registry):
    result = _play(registry, ["hostile-huge", "random"], isolation="process",
                   settings={0: {"size": MAX_ANSWER_BYTES + 1}})
    fault = result.termination.forfeit
    assert fault.kind.value == "malformed"
    assert f"over the limit of {MAX_ANSWER_BYTES}" in fault.answer


@pytest.mark.parametrize("isolation", ["inprocess", "process"])
def test_a_huge_exception_message_is_cut(registry, isolation):
    result = _play(registry, ["hostile-huge-raise", "random"], isolation=isolation)
    fault = result.termination.forfeit
    assert fault.kind.value == "crash"
    assert len(fault.message) <= MAX_MESSAGE_CHARS + 40
    assert "characters in all" in fault.message


# -- 3. a gRPC bot does not choose its own fault kind ------------------------------------------------

def _aborting_server(code, details):
    """A Player server whose Decide fails at once with ``code``; yields its address."""
    import contextlib
    from concurrent import futures

    import grpc

    from arena.v1 import player_pb2 as pb

    @contextlib.contextmanager
    def serve():
        def describe(request, context):
            return pb.BotDescription(name="aborting", protocol_version=pb.PROTOCOL_VERSION_1).SerializeToString()

        def decide(request, context):
            context.abort(code, details.format(size=len(request)))

        handler = grpc.method_handlers_generic_handler("arena.v1.Player", {
            "Describe": grpc.unary_unary_rpc_method_handler(describe),
            "StartMatch": grpc.unary_unary_rpc_method_handler(lambda request, context: b""),
            "Decide": grpc.unary_unary_rpc_method_handler(decide),
            "EndHand": grpc.unary_unary_rpc_method_handler(lambda request, context: b""),
            "EndMatch": grpc.unary_unary_rpc_method_handler(lambda request, context: b""),
        })
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=2), handlers=[handler])
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        try:
            yield f"grpc://127.0.0.1:{port}"
        finally:
            server.stop(0)

    return serve()


def test_a_grpc_bot_answering_deadline_exceeded_at_once_crashes_rather_than_times_out(registry):
    import grpc

    policy = FaultPolicy.from_dict({"timeout": "substitute", "crash": "forfeit"})
    with _aborting_server(grpc.StatusCode.DEADLINE_EXCEEDED, "I say I ran out of time") as url:
        result = _play(registry, [url, "random"], policy=policy, per_decision=5.0)
    fault = result.faults[0]
    assert (fault.kind.value, fault.response.value) == ("crash", "forfeit"), fault.message
    assert "within its limit" in fault.message


def test_a_crafted_resource_exhausted_is_the_bot_s_fault(registry):
    import grpc

    # Worded as gRPC words a refused request, with the very size of the arena's request.
    with _aborting_server(grpc.StatusCode.RESOURCE_EXHAUSTED, "Received message larger than max ({size} vs. 1)") as url:
        result = _play(registry, [url, "random"])
    fault = result.termination.forfeit
    assert (fault.seat, fault.kind.value) == (0, "crash")
    assert "every bot must accept" in fault.message, fault.message


# -- 4. a bot's output is never the arena's ----------------------------------------------------------

def _arena(*args, **kwargs):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "arena.cli", *args], capture_output=True, text=True,
                          timeout=300, **kwargs)


@pytest.mark.parametrize("isolation", ["inprocess", "process"])
def test_play_json_stays_json_when_a_bot_prints(isolation):
    done = _arena("play", "toy", "--seats", "hostile-printing,random", "--isolation", isolation, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["termination"]["how"] == "normal"
    if isolation == "process":  # its own log: not even the arena's standard error
        assert "chatter" not in done.stderr


def test_an_isolated_bot_s_log_is_capped(tmp_path):
    from arena.players.logs import CappedLog

    log = CappedLog(str(tmp_path / "bot.log"), limit=10)
    write_end = log.pipe()
    os.write(write_end, b"0123456789abcdef")
    os.write(write_end, b"more")
    os.close(write_end)
    log.close()
    assert (tmp_path / "bot.log").read_bytes().startswith(b"0123456789\n[arena: the log was cut here at 10 bytes")


# -- 5. no bot gets the live state, and every stored result is checked by replaying its record --------

def test_an_in_process_bot_cannot_reach_the_live_state_through_its_observation(registry):
    from arena.records import replay

    result = _play(registry, ["hostile-cheating", "random"])
    assert 999 not in result.scores
    assert replay(result.record, registry.game).state.scores() == result.scores


def test_a_bot_that_changes_its_hand_results_changes_nothing_of_the_match(registry):
    from arena.records import replay

    result = _play(registry, ["hostile-tamper", "random"])
    assert all(999 not in hand["scores"] for hand in result.hands)
    assert replay(result.record, registry.game).state.scores() == result.scores


def _one_match(registry, tmp_path, bots=("random", "random")):
    from arena.tournaments import config as tournament_config
    from arena.tournaments import schedule
    from arena.tournaments.executors import play_spec

    config = tournament_config.parse({
        "tournament": {"game": "toy", "deal_sets": 1, "isolation": "inprocess"},
        "options": {"target": 6},
        "bots": [{"name": f"b{i}", "bot": bot} for i, bot in enumerate(bots)],
    }, "t.toml", registry)
    spec = schedule.build(config, registry.game("toy", {"target": 6}))[0]
    return spec, play_spec(spec)


def test_a_result_that_agrees_with_its_record_is_stored_as_it_is(registry, tmp_path):
    from arena.tournaments.integrity import checked

    spec, outcome = _one_match(registry, tmp_path)
    assert checked(spec, outcome["result"], outcome["record"], registry) == outcome["result"]


@pytest.mark.parametrize("tamper", ["scores", "ranking", "record", "deck", "json"])
def test_a_tampered_or_corrupt_result_is_flagged_and_made_from_its_record(registry, tmp_path, tamper):
    from arena.tournaments.integrity import checked

    spec, outcome = _one_match(registry, tmp_path)
    result, record = dict(outcome["result"]), json.loads(outcome["record"])
    truth = list(result["scores"])
    if tamper == "scores":
        result["scores"] = [490, 0]
    elif tamper == "ranking":
        result["ranking"] = result["ranking"][::-1]
    elif tamper == "record":
        record["hands"][0]["actions"] = record["hands"][0]["actions"][:-1]
    elif tamper == "deck":
        deck = record["hands"][0]["deck"]
        deck[0], deck[1] = deck[1], deck[0]
    text = "{not json" if tamper == "json" else json.dumps(record)
    stored = checked(spec, result, text, registry)
    assert stored.get("integrity"), stored
    if tamper in ("scores", "ranking"):
        assert stored["scores"] == truth and stored["ranking"] == outcome["result"]["ranking"]


# -- 6. one careless seat does not stop a tournament --------------------------------------------------

def _config(registry, bots, isolation="process", **head):
    from arena.tournaments import config as tournament_config

    return tournament_config.parse({
        "tournament": {"game": "toy", "deal_sets": 1, "isolation": isolation, **head},
        "options": {"target": 6},
        "bots": [{"name": f"b{i}", "bot": bot} for i, bot in enumerate(bots)],
    }, "t.toml", registry)


@pytest.mark.parametrize("seat, words", [
    ("grpc://localhost", "a host and a port"),
    ("grpc://localhost:50051/player", "a host and a port"),
    ("cmd:python 'unbalanced", "cannot parse the command"),
    ("cmd:", "is empty"),
    ("cmd:   ", "is empty"),
    ("hostile-lambda", "cannot run in a process of its own"),
])
def test_a_seat_that_cannot_work_is_refused_when_the_file_is_checked(registry, seat, words):
    from arena.tournaments.config import TournamentFileError

    with pytest.raises(TournamentFileError, match="bots\\[0\\].bot") as caught:
        _config(registry, [seat, "random"])
    assert words in str(caught.value)


def test_a_lambda_factory_is_fine_in_process(registry):
    _config(registry, ["hostile-lambda", "random"], isolation="inprocess")


@pytest.mark.parametrize("isolation", ["inprocess", "process"])
def test_a_factory_that_raises_is_a_recorded_crash_and_the_tournament_goes_on(registry, tmp_path, isolation):
    from arena.tournaments import runner

    config = _config(registry, ["hostile-broken-factory", "random"], isolation=isolation)
    store = runner.run(config, registry, tmp_path / "t.db", executor="inline", progress=False)
    try:
        assert store.counts() == (2, 2)
        for spec, result in store.results():
            broken = spec["seats"].index("b0")
            fault = result["termination"]["fault"]
            assert (fault["seat"], fault["kind"]) == (broken, "crash")
            assert "this factory is broken" in fault["message"]
    finally:
        store.close()


def test_a_command_that_never_becomes_ready_is_a_crash_of_its_seat(registry):
    import shlex
    import sys

    from arena.players.command import CommandHost
    from arena.referee.faults import FaultPolicy

    game = registry.game("toy", {"target": 6})
    command = shlex.join([sys.executable, "-c", "import time; time.sleep(60)"])
    hosts = [CommandHost(command, startup_timeout=0.5), make_host(registry, "random", game="toy", seed=1)]
    try:
        result = Referee(game, hosts, ["cmd", "random"], policy=FaultPolicy.uniform("substitute", 3)).play()
    finally:
        for host in hosts:
            host.close()
    assert result.termination.how == "forfeit"
    assert [f.kind.value for f in result.faults] == ["crash"] * 3
    assert "health check" in result.faults[0].message


def test_play_refuses_a_bad_seat_before_playing():
    done = _arena("play", "toy", "--seats", "grpc://localhost,random")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "a host and a port" in done.stderr


# -- 7. Ctrl-C, SIGTERM and kill -9: stopped at once, nothing lost, no process left --------------------

def _tree(pgid):
    import os

    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry))
    return found


def _alive(pids):
    import os

    alive = []
    for pid in pids:
        try:
            if open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z":
                alive.append(pid)
        except OSError:
            pass
    return alive


def _stored(db):
    import sqlite3

    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
            return connection.execute("SELECT COUNT(result) FROM matches").fetchone()[0]
    except sqlite3.Error:
        return 0


def _started(args, cwd, db):
    """The arena command ``args`` running in a session of its own once it has stored a match: the
    process, the processes of its group then, its environment and the time to give up waiting."""
    import os
    import subprocess
    import time

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env=env)
    give_up = time.monotonic() + 240  # a guard against a hang, not a measurement
    while _stored(db) < 1 and process.poll() is None and time.monotonic() < give_up:
        time.sleep(0.2)
    assert process.poll() is None, process.communicate()
    return process, _tree(process.pid), env, give_up


@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "kill-9"])
def test_an_interrupted_run_stops_keeps_its_matches_and_leaves_no_process(tmp_path, how):
    import os
    import signal
    import subprocess
    import sys
    import time

    (tmp_path / "t.toml").write_text(
        '[tournament]\ngame = "toy"\ndeal_sets = 200\nisolation = "process"\nparallel = 2\n'
        '[options]\ntarget = 50\n[[bots]]\nbot = "random"\n[[bots]]\nname = "r2"\nbot = "bad-raising"\n'
        '[bots.settings]\nafter = 100000\n')
    db = tmp_path / "t.db"
    args = [sys.executable, "-m", "arena.cli", "run", "t.toml", "--db", str(db), "--quiet"]
    process, processes, env, give_up = _started(args, tmp_path, db)
    assert len(processes) >= 4  # the arena, its workers, their fork servers and bots
    if how == "ctrl-c":
        os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
    elif how == "sigterm":
        os.kill(process.pid, signal.SIGTERM)
    else:
        os.kill(process.pid, signal.SIGKILL)  # the arena's process alone
    out, err = process.communicate(timeout=120)
    while _alive(processes) and time.monotonic() < give_up:
        time.sleep(0.2)
    assert _alive(processes) == []
    assert "Traceback" not in err
    if how != "kill-9":
        assert process.returncode == 130
        assert err.count("\n") == 1 and "resume with: arena run t.toml --db" in err, err
    assert 1 <= _stored(db) < 400  # stopped mid-run: 400 matches take seconds (24 were once all played before the signal came)
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    assert _stored(db) == 400


@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_an_interrupted_match_series_stops_at_once_keeps_its_matches_and_resumes(tmp_path, how):
    """`arena match` as `arena run` above: it used to finish every match under way first, and SIGTERM
    killed it without a word."""
    import os
    import signal
    import subprocess
    import sys
    import time

    db = tmp_path / "m.db"
    args = [sys.executable, "-m", "arena.cli", "match", "random", "bad-raising", "--game", "toy", "--option",
            "target=50", "--setting", "B.after=100000", "--isolation", "process", "--workers", "2",
            "--max-deal-sets", "200", "--alpha", "1e-12", "--beta", "1e-12", "--db", str(db), "--quiet"]
    process, processes, env, give_up = _started(args, tmp_path, db)
    if how == "ctrl-c":
        os.killpg(process.pid, signal.SIGINT)
    else:
        os.kill(process.pid, signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    while _alive(processes) and time.monotonic() < give_up:
        time.sleep(0.2)
    assert _alive(processes) == []
    assert process.returncode == 130 and "Traceback" not in err
    assert err.count("\n") == 1 and "matches are stored in" in err and "resume with the same command" in err, err
    assert 1 <= _stored(db) < 400  # stopped mid-series
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    assert _stored(db) == 400


@pytest.mark.slow
def test_an_arena_killed_while_its_pool_workers_start_leaves_none():
    """A worker asks to die with the arena when it starts; an arena killed with -9 before that
    (while the spawned worker imports) used to leave it idle forever (6 of 20 kills here). It now
    checks that its parent is still the arena and exits if not."""
    import os
    import random
    import signal
    import subprocess
    import sys
    import time

    child = ("import time\nfrom arena.tournaments.executors import LocalPoolExecutor\n"
             "pool = LocalPoolExecutor(2, pin=False)\npool.pool.submit(time.sleep, 30)\ntime.sleep(60)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rng = random.Random(1)
    left = []
    for _ in range(12):
        process = subprocess.Popen([sys.executable, "-c", child], start_new_session=True, env=env,
                                   stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.05, 0.6))  # somewhere in the workers' start-up
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        time.sleep(1.0)
        stray = _tree(process.pid)  # the killed arena's process group
        for pid in stray:
            os.kill(pid, signal.SIGKILL)
        left += stray
    assert left == []


# -- 8. one run per database ----------------------------------------------------------------------------

def test_a_second_run_on_a_database_in_use_is_told_so(registry, tmp_path):
    import os

    from arena.store import RunLock, StoreError
    from arena.tournaments import runner

    db = tmp_path / "new.db"
    first = RunLock(db)
    try:
        with pytest.raises(StoreError, match=f"database {db} is in use by another arena run \\(pid {os.getpid()}\\)"):
            runner.run(_config(registry, ["random", "random"], isolation="inprocess"), registry, db,
                       executor="inline", progress=False)
        assert not db.exists()  # the second run touched nothing
    finally:
        first.release()
    store = runner.run(_config(registry, ["random", "random"], isolation="inprocess"), registry, db,
                       executor="inline", progress=False)
    assert store.counts() == (2, 2)
    store.close()


def test_simultaneous_runs_on_one_new_database_never_fail_with_a_traceback(tmp_path):
    import os
    import subprocess
    import sys

    (tmp_path / "t.toml").write_text('[tournament]\ngame = "toy"\ndeal_sets = 2\nisolation = "inprocess"\n'
                                     '[options]\ntarget = 6\n[[bots]]\nbot = "random"\n[[bots]]\nname = "r2"\nbot = "random"\n')
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "arena.cli", "run", "t.toml", "--db", "same.db", "--quiet", "--executor", "inline"]
    runs = [subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            for _ in range(4)]
    outcomes = [(run.wait(300), run.communicate()[1]) for run in runs]
    assert all("Traceback" not in err for _, err in outcomes), outcomes
    assert all(code == 0 or (code == 2 and "is in use by another arena run" in err) for code, err in outcomes), outcomes
    assert any(code == 0 for code, _ in outcomes)
    assert _stored(tmp_path / "same.db") == 4


# -- 9. output paths are checked before playing; a read-only medium is read ----------------------------

TOY_FILE = ('[tournament]\ngame = "toy"\ndeal_sets = 1\nisolation = "inprocess"\n[options]\ntarget = 6\n'
            '[[bots]]\nbot = "random"\n[[bots]]\nname = "r2"\nbot = "random"\n')


def _arena_in(tmp_path, *args):
    import os

    return _arena(*args, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("option", ["--record", "--html"])
@pytest.mark.parametrize("where", ["missing/out.file", "."])
def test_an_output_that_cannot_be_written_is_refused_before_playing(tmp_path, option, where):
    (tmp_path / "t.toml").write_text(TOY_FILE)
    if option == "--record":
        done = _arena_in(tmp_path, "play", "toy", "--seats", "random,random", "--record", where)
    else:
        done = _arena_in(tmp_path, "run", "t.toml", "--db", "t.db", "--quiet", "--executor", "inline", "--html", where)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"arena: error: {option} {where}: ") and done.stderr.count("\n") == 1, done.stderr
    assert done.stdout == "" and not (tmp_path / "t.db").exists()


def _read_only(tmp_path, *args):
    """``arena ARGS`` in a mount namespace where ``tmp_path`` is a read-only bind mount."""
    import os
    import shlex
    import shutil
    import subprocess
    import sys

    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1): cannot make a read-only medium")
    folder = shlex.quote(str(tmp_path))
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount --bind {folder} {folder} && "
                            f"mount -o remount,bind,ro {folder}"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot mount a read-only medium here (needs a mount namespace)")
    command = shlex.join([sys.executable, "-m", "arena.cli", *args])
    return subprocess.run(["unshare", "-m", "sh", "-c", f"mount --bind {folder} {folder} && "
                           f"mount -o remount,bind,ro {folder} && cd {folder} && {command}"],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_finished_database_on_a_read_only_medium_is_read_and_nothing_is_written(tmp_path):
    (tmp_path / "t.toml").write_text(TOY_FILE)
    done = _arena_in(tmp_path, "run", "t.toml", "--db", "t.db", "--quiet", "--executor", "inline")
    assert done.returncode == 0, done.stderr
    for suffix in ("-wal", "-shm", ".lock"):
        (tmp_path / f"t.db{suffix}").unlink(missing_ok=True)
    board = _read_only(tmp_path, "board", "--db", "t.db", "--json")
    assert board.returncode == 0, board.stderr
    assert len(json.loads(board.stdout)) == 2
    for args, option in ((["board", "--db", "t.db", "--html", "b.html"], "--html"),
                         (["play", "toy", "--seats", "random,random", "--record", "r.json"], "--record"),
                         (["run", "t.toml", "--db", "t.db", "--fresh", "--quiet"], "t.db")):
        done = _read_only(tmp_path, *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert option in done.stderr and done.stderr.count("\n") == 1, done.stderr


# -- 10. a damaged database is a one-line error naming what is damaged -------------------------------

@pytest.fixture(scope="module")
def finished_db(tmp_path_factory):
    """A finished toy tournament's database (one file: its WAL checkpointed)."""
    from arena.plugins import get_registry
    from arena.tournaments import config as tournament_config
    from arena.tournaments import runner

    folder = tmp_path_factory.mktemp("finished")
    (folder / "t.toml").write_text(TOY_FILE)
    registry = get_registry()
    store = runner.run(tournament_config.load(folder / "t.toml", registry), registry, folder / "t.db",
                       executor="inline", progress=False)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.db.execute("PRAGMA journal_mode=DELETE")
    store.close()
    return folder / "t.db"


@pytest.mark.parametrize("damage, words", [
    ("UPDATE matches SET result = '{not json' WHERE idx = 0", "match 0: its result is not valid JSON"),
    ("UPDATE matches SET result = json_remove(result, '$.ranking') WHERE idx = 1", "match 1: its result has no ranking"),
    ("UPDATE matches SET result = json_set(result, '$.ranking', json('[0,1,1,1,1,1,1]')) WHERE idx = 0",
     "match 0: its result has no ranking of its 2 sides"),
    ("DELETE FROM tournament", "no tournament row"),
    ("DROP TABLE matches", "it has no matches table"),
    ("UPDATE tournament SET config = 'x'", "the tournament's config is not valid JSON"),
    ("UPDATE matches SET spec = '[]' WHERE idx = 0", "match 0: its spec is not a match specification"),
])
@pytest.mark.parametrize("command", ["board", "run"])
def test_a_damaged_database_is_a_one_line_error(tmp_path, finished_db, damage, words, command):
    import shutil
    import sqlite3

    (tmp_path / "t.toml").write_text(TOY_FILE)
    shutil.copy(finished_db, tmp_path / "t.db")
    with sqlite3.connect(tmp_path / "t.db") as connection:
        connection.execute(damage)
    args = ["board", "--db", "t.db"] if command == "board" else ["run", "t.toml", "--db", "t.db", "--quiet", "--executor", "inline"]
    done = _arena_in(tmp_path, *args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert words in done.stderr, done.stderr


# -- 11. bad records, tournament files and arguments ----------------------------------------------------

@pytest.fixture(scope="module")
def toy_record():
    from arena.plugins import get_registry

    registry = get_registry()
    game = registry.game("toy", {"target": 6})
    hosts = [make_host(registry, "random", game="toy", seed=seat) for seat in range(2)]
    return Referee(game, hosts, ["random", "random"], seed=3).play().record


@pytest.mark.parametrize("damage", ["utf-8", "deep", "digits", "deck-list", "result-null", "dealer-bool"])
def test_verify_answers_every_damaged_record_with_a_verdict(tmp_path, toy_record, damage):
    record = json.loads(json.dumps(toy_record))
    text = None
    if damage == "utf-8":
        text = json.dumps(record).encode()[:50] + b"\xff\xfe" + json.dumps(record).encode()[50:]
    elif damage == "deep":
        text = b"[" * 100000 + b"]" * 100000
    elif damage == "digits":
        text = json.dumps(record).replace('"seed": 3', '"seed": ' + "9" * 5000).encode()
    elif damage == "deck-list":
        record["hands"][0]["deck"][0] = ["AS"]
    elif damage == "result-null":
        record["hands"][0]["result"] = None
    elif damage == "dealer-bool":
        record["hands"][0]["dealer"] = True
    path = tmp_path / "r.json"
    path.write_bytes(text if text is not None else json.dumps(record).encode())
    for json_flag in (True, False):
        done = _arena("verify", str(path), *(["--json"] if json_flag else []))
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        if json_flag:
            verdict = json.loads(done.stdout)
            assert verdict["ok"] is False and verdict["error"]["message"]
        else:
            assert done.stderr.count("\n") == 1


@pytest.mark.parametrize("text, words", [
    (b'[tournament]\ngame = "toy"\nname = "\xff"\n', "not UTF-8"),
    (b'[tournament]\ngame = "toy"\n[time_control]\nper_decision = inf\n', "at most 86400 seconds"),
    (b'[tournament]\ngame = "toy"\n[time_control]\nper_decision = nan\n', "per_decision"),
    (b'[tournament]\ngame = "toy"\ndeal_sets = 1000000000\n', "at most 100000 are allowed"),
    (b'[tournament]\ngame = "toy"\nparallel = 100000\n', "parallel"),
])
def test_a_bad_tournament_file_is_refused_in_one_line_before_any_match(tmp_path, text, words):
    bots = b'[[bots]]\nbot = "random"\n[[bots]]\nname = "r2"\nbot = "random"\n'
    (tmp_path / "t.toml").write_bytes(text + bots)
    done = _arena_in(tmp_path, "run", "t.toml", "--db", "t.db", "--quiet")
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert words in done.stderr and not (tmp_path / "t.db").exists()


def test_sixty_bots_are_refused_before_the_schedule_is_built(registry):
    from arena.tournaments import config as tournament_config
    from arena.tournaments.config import TournamentFileError

    data = {"tournament": {"game": "five_hundred"}, "options": {"players": 3},
            "bots": [{"name": f"b{i}", "bot": "random"} for i in range(60)]}
    with pytest.raises(TournamentFileError, match="would hold 205320 matches .* at most 100000 are allowed"):
        tournament_config.parse(data, "t.toml", registry)


@pytest.mark.parametrize("option", ["--per-decision", "--bank", "--increment"])
@pytest.mark.parametrize("value", ["1e300", "inf", "nan"])
def test_an_unusable_time_is_refused_not_recorded_as_a_crash(option, value):
    done = _arena("play", "toy", "--seats", "random,random", option, value)
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "time control" in done.stderr and done.stdout == ""


# -- 12. one action too many is named where it stands ------------------------------------------------------

def test_an_action_past_the_end_of_a_hand_is_named_where_it_stands(registry):
    from arena.errors import RecordError
    from arena.records import replay

    game = registry.game("toy", {"target": 6})
    hosts = [make_host(registry, "random", game="toy", seed=seat) for seat in range(2)]
    record = Referee(game, hosts, ["a", "b"], seed=3).play().record
    assert len(record["hands"]) >= 2
    cut = json.loads(json.dumps(record))
    extra = cut["hands"][1]["actions"][0]
    cut["hands"] = cut["hands"][:1]
    cut.pop("result")
    ended = len(cut["hands"][0]["actions"]) - 1
    cut["hands"][0]["actions"].append(extra)
    with pytest.raises(RecordError) as caught:
        replay(cut, registry.game)
    assert (caught.value.hand, caught.value.action_index) == (0, ended + 1)
    assert f"hand 0, action {ended + 1}: one action too many" in str(caught.value)
    over = json.loads(json.dumps(record))
    over["hands"][-1]["actions"].append(over["hands"][-1]["actions"][-1])
    with pytest.raises(RecordError, match="one action too many: the game was already over"):
        replay(over, registry.game)


def test_a_run_that_fails_before_its_first_match_frees_its_database(registry, tmp_path, monkeypatch):
    from arena.errors import ArenaError
    from arena.tournaments import runner

    def refuse(*args, **kwargs):
        raise ArenaError("no executor today")

    import dataclasses

    config = _config(registry, ["random", "random"], isolation="inprocess")
    with monkeypatch.context() as patch:
        patch.setitem(registry.executors, "inline", dataclasses.replace(registry.executor("inline"), make=refuse))
        with pytest.raises(ArenaError, match="no executor today") as caught:  # kept: its frames hold the store
            runner.run(config, registry, tmp_path / "t.db", executor="inline", progress=False)
    runner.run(config, registry, tmp_path / "t.db", executor="inline", progress=False).close()
    assert caught.value
