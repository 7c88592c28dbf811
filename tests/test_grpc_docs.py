"""The Python example of docs/grpc-bots.md (written against the generated stubs) really plays."""

from __future__ import annotations

import re
import shlex

from tests.grpc_support import PYTHON, ROOT, play

DOC = ROOT / "docs" / "grpc-bots.md"


def _example(name: str) -> str:
    text = DOC.read_text()
    match = re.search(rf"<!-- example: {re.escape(name)}.*?-->\s*```python\n(.*?)```", text, re.S)
    assert match, f"docs/grpc-bots.md has no example {name}"
    return match.group(1)


def test_the_stub_example_plays_a_match_when_launched(registry, tmp_path):
    script = tmp_path / "first_legal.py"
    script.write_text(_example("first_legal.py"))
    command = "cmd:" + shlex.join([PYTHON, str(script)])
    hosts: list = []
    result = play(registry, [command, "random"], per_decision=5.0, hosts_out=hosts)
    assert result.termination.how == "normal" and not result.faults
    assert hosts[0].description["name"] == "first_legal"
    assert hosts[0].ignored == {"end_hand"}  # as its Describe says
    first_legal = [action for hand in result.record["hands"] for seat, action in hand["actions"] if seat == 0]
    assert first_legal


def test_the_docs_name_every_fault_kind_and_the_seat_syntaxes():
    text = DOC.read_text()
    for word in ("`timeout`", "`crash`", "`malformed`", "`illegal`", "grpc://", "grpcs://", "cmd:",
                 "ARENA_BOT_PORT", "ARENA_GRPC_CA", "python -m arena.protogen"):
        assert word in text, word


def _command(name: str) -> list[str]:
    text = DOC.read_text()
    match = re.search(rf"<!-- command: {re.escape(name)}.*?-->\s*```sh\n(.*?)```", text, re.S)
    assert match, f"docs/grpc-bots.md has no command {name}"
    return [line for line in match.group(1).splitlines() if line.strip()]


def test_the_own_stubs_command_does_not_shadow_the_arena_package_and_its_stubs_play(registry, tmp_path):
    import os
    import shutil
    import subprocess

    import pytest

    pytest.importorskip("grpc_tools", reason="generating stubs needs grpcio-tools (the test extra)")
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    for line in _command("own-stubs"):
        words = shlex.split(line)
        if words[0] == "python":
            words[0] = PYTHON
        subprocess.run(words, cwd=tmp_path, check=True, capture_output=True, text=True)
    assert not (tmp_path / "arena").exists()  # nothing named like the installed package
    stubs = tmp_path / "player_stubs"
    assert {"player_pb2.py", "player_pb2_grpc.py"} <= {p.name for p in stubs.iterdir()}
    # Python started in that folder still finds the installed arena package
    found = subprocess.run([PYTHON, "-c", "import arena.cli; print(arena.cli.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": ""})
    assert found.stdout.strip() == str(ROOT / "arena" / "cli.py")
    # the example, with the two imports the docs give for its own stubs, plays a match
    source = _example("first_legal.py")
    source = source.replace("from arena.v1 import player_pb2 as pb", "import player_pb2 as pb")
    source = source.replace("from arena.v1 import player_pb2_grpc", "import player_pb2_grpc")
    assert "arena" not in re.sub(r"ARENA_BOT_PORT|the arena|an older arena", "", source)
    script = tmp_path / "first_legal.py"
    script.write_text(source)
    command = "cmd:" + shlex.join(["env", f"PYTHONPATH={stubs}", PYTHON, str(script)])
    result = play(registry, [command, "random"], per_decision=5.0)
    assert result.termination.how == "normal" and not result.faults
