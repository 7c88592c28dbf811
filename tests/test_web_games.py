"""Browser play: a whole game of each bundled game over the WebSocket, the person answering the
first legal action; the finished game's record replays (arena verify) to the scores shown."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from starlette.testclient import TestClient

from arena import records
from tests.web_support import make_app, new_table, play_out

# Options that keep each match a few seconds long (56's default of 12 tables per side is a long game).
GAMES = [
    ("five_hundred", {}),
    ("fifty_six", {"initial_tables": 2}),
    ("all_fours", {}),
    ("bid_euchre", {}),
]


@pytest.mark.parametrize("game,options", GAMES, ids=[g for g, _ in GAMES])
def test_a_whole_game_over_the_websocket(tmp_path, game, options, registry):
    with TestClient(make_app(tmp_path / "web.db")) as client:
        table = new_table(client, game=game, options=options)
        state, answered = play_out(client, table)
        assert answered > 0
        result = state["result"]
        assert result["termination"]["how"] == "normal"
        assert state["observation"]["phase"] == "over"
        record = client.get(f"/api/tables/{table}/record").json()
        assert record["seats"][0] == "person" and record["seats"][1:] == ["heuristic"] * (len(record["seats"]) - 1)
        assert records.replay(record, registry.game).state.scores() == result["scores"]
        assert len(state["hands"]) == len(record["hands"]) or record["hands"][-1].get("result") is None
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        verified = subprocess.run([sys.executable, "-m", "arena.cli", "verify", str(path)], capture_output=True, text=True)
        assert verified.returncode == 0, verified.stderr
        assert "ok: the record replays" in verified.stdout


def _counts() -> list[tuple[str, int]]:
    from arena.plugins import get_registry

    registry = get_registry()
    cases = []
    for name in GAME_NAMES:
        players = next(o for o in registry.games[name].option_table if o.name == "players")
        cases += [(name, n) for n in players.choices]
    return cases


GAME_NAMES = [g for g, _ in GAMES]


@pytest.mark.parametrize("game,players", _counts(), ids=[f"{g}-{n}" for g, n in _counts()])
def test_every_player_count_plays_a_hand(tmp_path, game, players, registry):
    with TestClient(make_app(tmp_path / "web.db")) as client:
        table = new_table(client, game=game, players=players, options={"max_hands": 1},
                          bots=["random"] * (players - 1))
        state, _ = play_out(client, table)
        assert state["table"]["players"] == players and len(state["observation"]["hand_sizes"]) == players
        assert state["result"]["termination"]["how"] in ("unfinished", "normal")
        assert records.replay(client.get(f"/api/tables/{table}/record").json(), registry.game).state.scores() == state["result"]["scores"]
