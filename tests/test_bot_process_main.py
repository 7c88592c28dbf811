"""A bot process does not run the arena's main script again (arena/players/isolated.py): that was
about half of its start, and it ran the user's script beside a bot. A bot defined in the main
script still runs in a process of its own."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import sys

    with open(sys.argv[1], "a") as runs:  # each run of this script's top level leaves a line
        runs.write("ran\\n")

    from arena.players.base import Player
    from arena.players.isolated import ProcessHost


    class Mine(Player):
        def act(self, observation):
            return "mine " + observation["legal_actions"][0]


    def make_mine(settings, seed):
        return Mine()


    if __name__ == "__main__":
        factory = {"arena": "bots.random_bot:make", "main": make_mine}[sys.argv[2]]
        host = ProcessHost(factory)
        try:
            print(host.decide({"legal_actions": ["pass"]}, 30.0)[0])
        finally:
            host.close()
''')


def _run(tmp_path, which):
    script, runs = tmp_path / "organiser.py", tmp_path / "runs.txt"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script), str(runs), which], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip(), runs.read_text().splitlines()


def test_a_bot_process_does_not_run_the_main_script_again(tmp_path):
    answer, runs = _run(tmp_path, "arena")
    assert answer == "pass"
    assert runs == ["ran"]  # the organiser's process only


def test_a_bot_defined_in_the_main_script_still_runs_in_its_own_process(tmp_path):
    answer, runs = _run(tmp_path, "main")
    assert answer == "mine pass"
    assert len(runs) == 2  # its process needs the script: it runs it again
