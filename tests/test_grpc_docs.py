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
