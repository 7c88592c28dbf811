"""The README's quickstart: what each `make` command installs (`make -n`), and the main job run for
real in a fresh clone of this checkout (no results folder), reusing the installed environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def planned(target: str, tmp_path: Path) -> str:
    """The commands `make TARGET` would run in a fresh checkout (a virtual environment not made yet)."""
    out = subprocess.run(["make", "-n", "-C", str(ROOT), f"VENV={tmp_path / 'venv'}", target],
                         capture_output=True, text=True, check=True)
    return out.stdout


def test_make_tournament_installs_only_the_runtime(tmp_path):
    commands = planned("tournament", tmp_path)
    assert "pip install" in commands and " -e ." in commands
    assert "[test]" not in commands, commands
    assert "arena run tournaments/five_hundred.toml" in commands


def _fresh_copy(target: Path) -> None:
    """The checkout as a fresh clone of it would be, working-tree changes included: the files git
    tracks or would track, none it ignores (no .venv, no results)."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True, timeout=60).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs git and a checkout")
def test_the_main_job_writes_its_board_in_a_fresh_clone(tmp_path):
    clone = tmp_path / "clone"
    _fresh_copy(clone)
    assert (clone / "Makefile").exists() and not (clone / "results").exists()
    venv = Path(sys.executable).parent.parent  # this environment: `-o` keeps make from reinstalling into it
    env = {key: value for key, value in os.environ.items() if key != "TRICK_ARENA_PLUGINS"}  # as a user has it
    done = subprocess.run(["make", "-C", str(clone), f"VENV={venv}", "-o", f"{venv}/.installed", "tournament"],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, f"make tournament failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    board = (clone / "results" / "five_hundred.html").read_text(encoding="utf-8")
    assert "heuristic" in board and "random" in board
    assert "results: results/five_hundred.db" in done.stdout
    assert (clone / "results" / "five_hundred.db").exists()


def test_make_test_installs_the_test_extra(tmp_path):
    commands = planned("test", tmp_path)
    assert "-e '.[test]'" in commands
    assert "pytest" in commands


def _user_docs() -> list[Path]:
    """What a user reads on a fresh clone: the README and docs/ (the games' pages are their own)."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_docs_point_to_nothing_a_fresh_clone_lacks():
    for doc in _user_docs():
        text = doc.read_text(encoding="utf-8")
        assert "shared/" not in text, f"{doc.name} points to shared/, which is not in the repository"


def test_the_docs_install_from_the_checkout_not_from_a_package_index():
    import re

    # `pip install trick-arena`, `pip install 'trick-arena[ray]'`: no such package is published
    from_index = re.compile(r"pip install (-U |--upgrade )?['\"]?trick[-_]arena\b(?![-\w.]*\.whl)")  # a wheel is fine
    for doc in _user_docs():
        assert not from_index.search(doc.read_text(encoding="utf-8")), doc.name
    for source in (ROOT / "arena").rglob("*.py"):
        assert not from_index.search(source.read_text(encoding="utf-8")), source


def test_the_readme_says_how_long_each_command_takes():
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quickstart = text[text.index("## Quickstart"):text.index("## Using it")]
    for command in ("make tournament", "make test"):
        line = next(line for line in quickstart.splitlines() if line.startswith(command))
        assert re.search(r"\d+\s*(s|min)\b", line), f"the README does not say how long {command} takes: {line!r}"
