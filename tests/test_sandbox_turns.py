"""The bots of a sandboxed match take turns (issue 31, the timing channel): each sandbox is paused
between its calls, so no bot runs while another is asked, and none can time the CPU it shares with
a partner. Two real sandboxed bots note the time from a thread of their own every millisecond and
spend each decision computing; no note of one may fall inside a decision of the other. The control:
the same bots in processes of their own (never paused) do note the time during each other's turns."""

from __future__ import annotations

import shutil

import pytest

from arena.players.base import MatchInfo

INFO = MatchInfo("toy", {}, 0, ("a", "b"))
DECISIONS = 8  # each


def _notes(path) -> tuple[list[float], list[tuple[float, float]]]:
    ticks, calls = [], []
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:1] == ["TICK"]:
            ticks.append(float(words[1]))
        elif words[:1] == ["CALL"]:
            calls.append((float(words[1]), float(words[2])))
    return ticks, calls


def _during_the_others_turns(isolation: str, tmp_path) -> tuple[int, int]:
    """(notes of each bot taken while the other was deciding, decisions seen)."""
    if isolation == "sandbox":
        from arena.players.sandboxed import SandboxHost as Host
    else:
        from arena.players.isolated import ProcessHost as Host
    logs = [tmp_path / f"{isolation}-{seat}.log" for seat in range(2)]
    hosts = [Host("tests.sandbox_bots:make_ticker", {}, seat, log_path=str(logs[seat])) for seat in range(2)]
    try:
        for host in hosts:
            host.start(INFO, 10)
        for _ in range(DECISIONS):
            for host in hosts:
                assert host.decide({"legal_actions": ["play 9S"]}, 10)[0] == "play 9S"
    finally:
        for host in hosts:
            host.close()
    notes = [_notes(log) for log in logs]
    overlaps = sum(a < tick < b for seat in range(2) for tick in notes[seat][0] for a, b in notes[1 - seat][1])
    return overlaps, sum(len(calls) for _, calls in notes)


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_sandboxed_bots_never_run_during_each_others_decisions(tmp_path):
    overlaps, decisions = _during_the_others_turns("sandbox", tmp_path)
    assert decisions == 2 * DECISIONS
    assert overlaps == 0, f"{overlaps} notes of one sandboxed bot were taken while the other was deciding"


def test_control_bots_that_are_not_paused_run_during_each_others_decisions(tmp_path):
    overlaps, decisions = _during_the_others_turns("process", tmp_path)
    assert decisions == 2 * DECISIONS
    assert overlaps > 0  # what the sandbox test would see without the pauses
