"""Type checking: mypy over arena/ and bots/, configured by ``[tool.mypy]`` in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # a minute from cold (mypy caches in .mypy_cache, which ignores itself for git)
def test_mypy_passes() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, f"mypy exited with {run.returncode}:\n{run.stdout}{run.stderr}"
