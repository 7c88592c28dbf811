"""Helpers of the ladder submission tests: a ladder object as the API and validation see it (a
store, the registry, a config, a data directory, limits), and the sample package built into a
wheel and an sdist, as their authors would build them."""

from __future__ import annotations

import base64
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from arena.ladder import config as ladder_config
from arena.ladder.store import LadderStore

HERE = Path(__file__).parent
PACKAGE = HERE / "sample_package"


def make_ladder(tmp_path: Path, registry: Any, *, per_decision: float = 2.0, max_upload: int = 16 * 1024 * 1024,
                rate_limit: int = 10) -> SimpleNamespace:
    config = ladder_config.parse({"ladder": [{"game": "five_hundred", "time_control": {"per_decision": per_decision}},
                                             {"game": "fifty_six", "time_control": {"per_decision": per_decision}},
                                             {"game": "all_fours", "time_control": {"per_decision": per_decision}}]},
                                 "test ladder", registry)
    return SimpleNamespace(store=LadderStore(tmp_path / "ladder.db"), registry=registry, config=config,
                           data_dir=str(tmp_path / "ladder_files"), max_upload=max_upload, rate_limit=rate_limit)


def _copy(tmp_path: Path) -> Path:
    """A copy of the sample project (its build leaves build/ and *.egg-info beside its sources)."""
    source = tmp_path / "sample_package_src"
    if source.exists():
        return source
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    return source


def build_wheel(tmp_path: Path) -> Path:
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                    str(_copy(tmp_path))], check=True, capture_output=True, timeout=120)
    return next(out.glob("*.whl"))


def build_sdist(tmp_path: Path) -> Path:
    out = tmp_path / "sdist"
    source = _copy(tmp_path)
    subprocess.run([sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_sdist({str(out)!r})"],
                   cwd=source, check=True, capture_output=True, timeout=120)
    return next(out.glob("*.tar.gz"))


def broken_wheel(tmp_path: Path) -> Path:
    """A file named like a wheel that pip refuses: a zip without the .dist-info a wheel must hold."""
    path = tmp_path / "broken_bot-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("broken_bot/__init__.py", "")
    return path


def python_body(name: str, path: Path, games: list[str], bot: str | None = None) -> dict[str, Any]:
    body = {"name": name, "kind": "python", "games": games, "filename": path.name,
            "content_base64": base64.b64encode(path.read_bytes()).decode("ascii")}
    if bot:
        body["bot"] = bot
    return body
