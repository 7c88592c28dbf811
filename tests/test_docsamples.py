"""docs/writing-a-bot.md: its sample observations are what the games send now, and its plugin
example (the module and the pyproject.toml) is complete enough to install and play."""

from __future__ import annotations

import importlib
import re
import sys
import tomllib
from pathlib import Path

from arena import docsamples
from arena.players.hosts import InProcessHost
from arena.referee import Referee
from bots.random_bot import RandomBot

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "writing-a-bot.md"


def test_the_guide_s_sample_observations_are_printed_from_real_decisions(registry):
    text = GUIDE.read_text(encoding="utf-8")
    assert docsamples.BEGIN in text and docsamples.END in text
    now = docsamples.section(registry)
    written = docsamples.BEGIN + text.split(docsamples.BEGIN, 1)[1].split(docsamples.END, 1)[0] + docsamples.END
    assert written == now, "the samples are out of date: run python -m arena.docsamples --write"
    for name in ("five_hundred", "fifty_six", "all_fours", "bid_euchre"):
        assert f"(`{name}`" in now


def test_a_sample_is_an_observation_of_the_play(registry):
    seat, observation = docsamples.sample(registry, "five_hundred")
    assert observation["legal_actions"] and all(a.startswith("play ") for a in observation["legal_actions"])
    assert observation["time_left"] == docsamples.PER_DECISION and observation["bank_left"] is None


def _block(language: str, first_line: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    match = re.search(rf"```{language}\n({re.escape(first_line)}.*?)```", text, re.S)
    assert match, f"{GUIDE.name} has no {language} block starting {first_line!r}"
    return match.group(1)


def test_the_pyproject_snippet_names_the_project_and_its_entry_point():
    data = tomllib.loads(_block("toml", "# pyproject.toml"))
    assert data["project"]["name"] and data["project"]["version"]
    assert data["build-system"]["build-backend"]
    assert data["project"]["entry-points"]["trick_arena"] == {"lowest": "my_bots.lowest"}
    assert "my_bots" in data["tool"]["setuptools"]["packages"]


def test_the_plugin_example_registers_a_module_level_factory_that_plays(registry, tmp_path, monkeypatch):
    from arena.players.isolated import factory_path

    package = tmp_path / "my_bots"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "lowest.py").write_text(_block("python", "# my_bots/lowest.py"))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("my_bots.lowest")
    try:
        (spec,) = module.arena_register_bots()
        assert spec.name == "lowest" and factory_path(spec.factory) == "my_bots.lowest:make"
        game = registry.game("five_hundred")
        # against random bots, as the guide plays it (four bots that always pass would redeal forever)
        hosts = [InProcessHost(spec.factory({}, 0) if seat % 2 == 0 else RandomBot(seat)) for seat in range(4)]
        result = Referee(game, hosts, ["lowest", "random", "lowest", "random"], seed=3).play()
        assert result.termination.how == "normal" and not result.faults
    finally:
        for name in [n for n in sys.modules if n == "my_bots" or n.startswith("my_bots.")]:
            del sys.modules[name]
