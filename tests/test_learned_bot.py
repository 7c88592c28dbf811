"""The ``learned`` bot (bots/learned, docs/learning.md "A trained bot"): it loads its checked-in
weights and plays whole Bid Euchre matches legally, in every isolation level including the
sandbox; its inference is deterministic and is the network's (not the heuristic's alone); its
trainer runs end to end at a tiny size and gives the same weights for the same seed; and it
refuses what it was not trained for with a clear error."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from arena.matches import MatchSpec, play_match
from arena.players.base import MatchInfo
from arena.plugins import get_registry

from bots.learned import NEVER, WEIGHTS, LearnedBot, load
from bots.learned.features import GAME, Features, bundled_game, kind_of, layout
from bots.learned.model import MLP, WeightsError

ROOT = Path(__file__).resolve().parent.parent
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
LINEUP = ["learned", "heuristic", "learned", "heuristic"]


def _play(isolation: str = "inprocess", seed: int = 3, options: dict | None = None, settings: dict | None = None):
    spec = MatchSpec.single(GAME, LINEUP, seed=seed, isolation=isolation, options=options,
                            settings=[settings or {}, {}, settings or {}, {}])
    return play_match(spec, get_registry())


def _observations(matches: int = 2) -> list[dict]:
    """Observations of the seat to act with a choice, from heuristic-played matches."""
    from bots.heuristic import HeuristicBot

    game = bundled_game(GAME, {})
    players = [HeuristicBot(seat) for seat in range(4)]
    for seat, player in enumerate(players):
        player.start_match(MatchInfo(GAME, {}, seat, tuple(LINEUP)))
    seen = []
    for seed in range(matches):
        state = game.new_match(seed=seed)
        while not state.is_over():
            seat = state.current_player()
            observation = state.observation(seat)
            if len(observation["legal_actions"]) > 1:
                seen.append(observation)
            state.apply_id(game.action_id(players[seat].act(observation)))
    return seen


def _bot(settings: dict | None = None, seat: int = 0, options: dict | None = None) -> LearnedBot:
    bot = LearnedBot(settings or {}, seed=seat)
    bot.start_match(MatchInfo(GAME, options or {}, seat, tuple(LINEUP)))
    return bot


def test_the_bundled_weights_are_small_and_were_trained_for_bid_euchre():
    assert WEIGHTS.stat().st_size < 1_000_000
    model = load(str(WEIGHTS))
    assert model.meta["game"] == GAME and model.meta["layout"] == layout(bundled_game(GAME, {}))


def test_the_first_training_decision_encodes_and_scores_as_in_training():
    """The data's first decision, made afresh (shard 0's first match: the same seed, the same
    first decisions), encoded as the bot encodes its observations, gives the bundled network
    the outputs it gave at the end of training: the encoding, its scaling and the weights are
    those the network was trained with."""
    from bots.learned import data

    bot = _bot()
    meta, features = bot.model.meta, bot.features
    assert features is not None
    rows = data.shard(0, meta["seed"], 1, meta["rate"], meta["options"])
    values = bot.model.forward(features.inputs(rows["x"][:1], rows["heuristic"][:1]))[0]
    assert np.allclose(values, meta["probe"], atol=1e-4), np.abs(values - meta["probe"]).max()


def test_it_plays_a_whole_match_legally_against_the_heuristic():
    result = _play()
    assert result.faults == [], [f.as_dict() for f in result.faults]  # an illegal move is a fault
    assert result.record["result"]["over"] and result.record["result"]["end"] != "hand_limit"


def _moves(observations: list[dict], settings: dict | None = None) -> list[str]:
    bots = {seat: _bot(settings, seat=seat) for seat in range(4)}
    return [bots[o["seat"]].act(dict(o)) for o in observations]


def test_its_moves_are_the_network_s_and_deterministic():
    observations = _observations(1)
    first = _moves(observations)
    load.cache_clear()  # the weights read afresh: the same moves
    assert _moves(observations) == first
    # where the network prefers another move than the heuristic's, the bot plays it
    own = _moves(observations, {"prefer": 1e9})  # the heuristic's moves
    assert 0 < sum(a != b for a, b in zip(first, own)) < len(own) / 2
    # and it is the network's best legal move (the heuristic's counted `prefer` higher), from the
    # observation encoded as in training
    bot = _bot()
    features, model = bot.features, bot.model
    assert features is not None
    for observation, move, heuristic in zip(observations, first, own):
        prefer = bot.prefer[kind_of(heuristic)]
        if prefer >= NEVER:  # a kind of decision the network is not used for
            assert move == heuristic
            continue
        mine = features.game.action_id(heuristic)
        values = model.forward(features.inputs(features.raw(observation)[None], np.array([mine])))[0]
        legal = [features.game.action_id(a) for a in observation["legal_actions"]]
        scored = {i: values[i] + (prefer if i == mine else 0) for i in legal}
        assert features.game.action_id(move) == max(scored, key=lambda i: (scored[i], -legal.index(i)))


def test_the_same_match_gives_the_same_record():
    a, b = _play(seed=11, options={"max_hands": 3}), _play(seed=11, options={"max_hands": 3})
    assert [h["actions"] for h in a.record["hands"]] == [h["actions"] for h in b.record["hands"]]
    assert a.record["result"] == b.record["result"]


def test_other_rules_fall_back_to_the_heuristic_and_other_weights_are_refused(tmp_path, capsys):
    observations = _observations(1)
    bot = _bot(options={"stick_the_dealer": True})
    assert "stick_the_dealer" in capsys.readouterr().err and not bot.network
    assert _bot(options={"max_hands": 5}).network  # a harness limit changes no rule
    with pytest.raises(ValueError, match="learned plays bid_euchre only"):
        LearnedBot({}, 0).start_match(MatchInfo("five_hundred", {}, 0, tuple(LINEUP)))
    assert not get_registry().bot("learned").plays("five_hundred")
    broken = tmp_path / "broken.npz"
    broken.write_bytes(WEIGHTS.read_bytes()[:200])
    with pytest.raises(WeightsError, match="cannot read weights .*broken.npz"):
        LearnedBot({"weights": str(broken)}, 0)
    model = load(str(WEIGHTS))
    other = MLP(model.params, dict(model.meta, layout=model.meta["layout"][:-1]))
    other.save(tmp_path / "other.npz")
    with pytest.raises(WeightsError, match="not trained for bid_euchre's actions and cards"):
        _bot({"weights": str(tmp_path / "other.npz")})
    with pytest.raises(ValueError, match="unknown setting.*depth"):
        LearnedBot({"depth": 2}, 0)
    assert observations


def test_the_encoder_and_the_bot_load_without_pettingzoo():
    code = ("import sys; sys.modules['pettingzoo'] = sys.modules['gymnasium'] = None; "
            "import bots.learned, arena.envs.encoding; print('pettingzoo' in sys.modules and sys.modules['pettingzoo'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "None", done.stderr


def _train(out: Path, seed: int = 5) -> Path:
    from bots.learned import train

    assert train.main(["--out", str(out), "--shards", "2", "--matches", "1", "--rate", "0.5", "--seed", str(seed),
                       "--workers", "1", "--hidden", "16", "--epochs", "4", "--batch", "64"]) == 0
    return out / "checkpoint-100.npz"


def test_training_runs_end_to_end_and_is_reproducible(tmp_path, capsys):
    a = _train(tmp_path / "a")
    b = _train(tmp_path / "b")
    assert [p.name for p in sorted((tmp_path / "a").glob("checkpoint-*.npz"))] == \
        ["checkpoint-100.npz", "checkpoint-25.npz", "checkpoint-50.npz", "checkpoint-75.npz"]
    ma, mb = MLP.load(a), MLP.load(b)
    assert all(np.array_equal(x, y) for x, y in zip(ma.params, mb.params)) and ma.meta == mb.meta
    c = MLP.load(_train(tmp_path / "c", seed=6))
    assert not all(np.array_equal(x, y) for x, y in zip(ma.params, c.params))
    # the data is the observation's encoding, as the bot encodes it
    from bots.learned import data

    rows = data.load(tmp_path / "a" / "data")
    assert rows["x"].shape[1] == Features(bundled_game(GAME, {})).encoder.size > 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["loss"] >= 0
    # the trained weights make a bot that plays
    result = _play(options={"max_hands": 2}, settings={"weights": str(a)})
    assert result.faults == []
    # and that plays the matches of a second round of data
    from bots.learned import train

    assert train.main(["--out", str(tmp_path / "a"), "--shards", "2", "--matches", "1", "--rate", "0.5", "--seed", "5",
                       "--workers", "1", "--hidden", "16", "--epochs", "4", "--batch", "64",
                       "--onpolicy", str(a), "--onpolicy-shards", "1"]) == 0
    second = data.load(tmp_path / "a" / "data-onpolicy")
    assert len(second["x"]) > 0 and MLP.load(a).meta["onpolicy_shards"] == 1


@needs_bwrap
def test_it_plays_in_the_sandbox():
    result = _play("sandbox", options={"max_hands": 2})
    assert result.faults == [], [f.as_dict() for f in result.faults]
    assert result.record["isolation"] == "sandbox"


def test_the_notebook_calls_the_trainer():
    import ast

    notebook = json.loads((ROOT / "docs" / "notebooks" / "train_bid_euchre.ipynb").read_text())
    code = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]
    for source in code:
        ast.parse(source)  # every cell is Python
    assert any("train.main([" in source for source in code) and "from bots.learned import train" in code[0]
