"""Fuzzing (issue 22): records, tournament files and ``arena`` arguments, each answered with a
verdict or a one-line error and a documented exit status (docs/playing.md), never a traceback.

Hypothesis runs with a fixed budget (``max_examples``, ``derandomize``): the same inputs on every
run, and a CI time of seconds. benchmarks/mutants.py is the same check at 1,000 mutants of each.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import random
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from arena.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXIT_STATUSES = {0, 1, 2}  # docs/playing.md: ok, a record that does not verify, a usage or input error
BUDGET = settings(max_examples=60, derandomize=True, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _mutants():
    spec = importlib.util.spec_from_file_location("mutants", ROOT / "benchmarks" / "mutants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MUTANTS = _mutants()


def _arena(argv):
    """``arena ARGV`` in this process: (exit status, stdout, stderr); an exception escaping is a traceback."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def _one_line_error(code, err):
    assert code in EXIT_STATUSES, (code, err)
    if code:
        lines = err.strip().splitlines()
        assert lines and lines[-1].startswith("arena"), err  # argparse puts its usage lines before it
        assert "Traceback" not in err


@pytest.fixture(scope="module")
def records():
    return MUTANTS.base_records()


@BUDGET
@given(seed=st.integers(0, 2**32 - 1))
def test_any_mutated_record_gets_a_verdict(records, tmp_path, seed):
    rng = random.Random(seed)
    path = tmp_path / "record.json"
    path.write_bytes(MUTANTS.mutate_record(rng.choice(records), rng))
    code, out, err = _arena(["verify", str(path), "--json"])
    assert code in (0, 1), err
    verdict = json.loads(out)
    assert verdict["ok"] is (code == 0)
    if code:
        assert isinstance(verdict["error"]["message"], str)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12)


@BUDGET
@given(replace=st.sampled_from(["game", "options", "hands", "dealer", "deck", "actions", "result", "format", "seats"]),
       value=json_values)
def test_any_value_in_any_place_of_a_record_gets_a_verdict(records, tmp_path, replace, value):
    record = json.loads(json.dumps(records[0]))
    if replace in ("dealer", "deck", "actions", "result"):
        record["hands"][0][replace] = value
    else:
        record[replace] = value
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code, out, err = _arena(["verify", str(path), "--json"])
    assert code in (0, 1), err
    assert json.loads(out)["ok"] is (code == 0)


@pytest.fixture(scope="module")
def tournament_files():
    return MUTANTS.base_tournament_files()


@BUDGET
@given(seed=st.integers(0, 2**32 - 1))
def test_any_mutated_tournament_file_is_checked_or_refused_in_one_line(tournament_files, tmp_path, seed):
    from arena.errors import ArenaError

    rng = random.Random(seed)
    path = tmp_path / "t.toml"
    path.write_bytes(MUTANTS.mutate_tournament(rng.choice(tournament_files), rng))
    try:
        MUTANTS.check_tournament(path)
    except ArenaError as exc:
        assert "\n" not in str(exc).strip() or str(exc).count("\n") < 3


toml_scalars = st.sampled_from(MUTANTS.TOML_VALUES) | st.integers(-10**6, 10**6).map(str) | \
    st.text(alphabet="abcdefgh_ ", max_size=6).map(json.dumps)


@BUDGET
@given(section=st.sampled_from(["tournament", "time_control", "faults", "options"]),
       key=st.sampled_from(["game", "deal_sets", "seed", "parallel", "isolation", "format", "per_decision", "bank",
                            "increment", "timeout", "max_faults", "target", "name", "challenger"]),
       value=toml_scalars)
def test_any_value_of_any_key_of_a_tournament_file_is_checked_or_refused(tmp_path, section, key, value):
    text = (f'[tournament]\ngame = "toy"\ndeal_sets = 1\n[{section}]\n{key} = {value}\n' if section != "tournament"
            else f'[tournament]\ngame = "toy"\n{key} = {value}\n')
    text += '[[bots]]\nbot = "random"\n[[bots]]\nname = "r2"\nbot = "random"\n'
    path = tmp_path / "t.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = _arena(["run", str(path), "--db", str(tmp_path / "x" / "t.db"), "--quiet",
                             "--executor", "inline", "--html", str(tmp_path / "missing" / "b.html")])
    _one_line_error(code, err)
    assert code == 2  # a bad key or value, or else the --html folder that does not exist: before any match
    assert not (tmp_path / "x" / "t.db").exists()


WORDS = ["games", "bots", "verify", "board", "play", "run", "--json", "--seats", "--seed", "--option", "--record",
         "--isolation", "--per-decision", "--bank", "--increment", "--on-fault", "--fault", "--max-faults", "--db",
         "--workers", "--executor", "--html", "--fresh", "--quiet", "--brief", "toy", "random,random", "random",
         "process", "inprocess", "substitute", "forfeit", "crash=substitute", "target=3", "target=x", "nope=1",
         "1e300", "inf", "nan", "-1", "0", "0.001", "3", "99999999999999999999", "missing.json", "missing.db",
         "grpc://localhost", "cmd:", "random,grpc://h:1/p", "-", "--", ""]


@BUDGET
@given(argv=st.lists(st.sampled_from(WORDS) | st.text(max_size=5), max_size=8))
def test_any_arguments_give_a_result_or_a_one_line_error(tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    if argv[:1] == ["run"]:
        argv = argv + ["--executor", "inline"]
    code, out, err = _arena(argv)
    _one_line_error(code, err)
