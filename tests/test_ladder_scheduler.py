"""The scheduler in this process: a pool worker killed mid-round loses no match (the same results
as a run on one process); a dead and a slow gRPC endpoint fault only their own seats (their
opponents' results stand); a version put on probation is not scheduled again."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

import pytest

from arena.ladder.config import parse
from arena.ladder.scheduler import Ladder
from arena.ladder.store import LadderStore
from arena.players.base import Player
from arena.players.serve import serve_player
from arena.plugins import get_registry

TINY = {"game": "all_fours", "players": 2, "options": {"max_hands": 2}}


def _ladder(tmp_path, name: str, executor: str, rounds_config: dict[str, Any] | None = None, **kwargs: Any) -> Ladder:
    registry = get_registry()
    config = parse({"ladder": [dict(TINY, **(rounds_config or {}))]}, "test", registry)
    store = LadderStore(tmp_path / f"{name}.db")
    return Ladder(store, registry, config, tmp_path / f"{name}_files", executor=executor, log=lambda m: None,
                  **kwargs)


def _played(store: LadderStore) -> list[tuple[Any, ...]]:
    return [(d["id"], d["round"], tuple(d["lineup"]), d["deal_seed"], d["rated"],
             tuple((m["rotation"], tuple(m["result"]["scores"]), tuple(m["result"]["ranking"])) for m in d["matches"]))
            for d in reversed(store.deal_sets(limit=10_000))]


@pytest.mark.slow
def test_a_lost_worker_loses_no_match(tmp_path):
    settings = dict(workers=2, seed=3, pairings=3, house=["heuristic", "random"])
    reference = _ladder(tmp_path, "reference", "local", **settings)
    reference.run(rounds=2)
    expected = _played(reference.store)
    assert len(expected) == 6 and reference.restarts == 0

    ladder = _ladder(tmp_path, "pool", "local", **settings)
    thread = threading.Thread(target=ladder.run, kwargs={"rounds": 2})
    thread.start()
    killed = []
    deadline = time.monotonic() + 120
    while not killed and thread.is_alive() and time.monotonic() < deadline:
        executor = ladder._executor
        processes = list((getattr(getattr(executor, "pool", None), "_processes", None) or {}).values())
        if processes and ladder.store.counts()["matches_finished"] >= 2:
            os.kill(processes[0].pid, signal.SIGKILL)  # a worker dies mid-round
            killed.append(processes[0].pid)
        time.sleep(0.01)
    thread.join(180)
    assert killed, "the round ended before a worker could be killed"
    assert not thread.is_alive()
    assert ladder.restarts >= 1
    assert _played(ladder.store) == expected
    assert ladder.store.counts()["matches_finished"] == 12 and ladder.store.pending_matches() == []


class Slow(Player):
    """Answers every decision after a second: always too late for the ladder's clock."""

    def act(self, observation: dict[str, Any]) -> str:
        time.sleep(1.0)
        return observation["legal_actions"][0]


def _fault_seats(match: dict[str, Any]) -> set[str]:
    return {match["spec"]["seats"][f["seat"]] for f in match["result"]["faults"]}


@pytest.mark.slow
def test_dead_and_slow_endpoints_fault_only_themselves_and_go_on_probation(tmp_path):
    slow = serve_player(lambda settings, seed: Slow(), games=["all_fours"], ignores=())
    try:
        ladder = _ladder(tmp_path, "remote", "local", {"time_control": {"per_decision": 0.2}}, workers=2, seed=5,
                         pairings=4, house=["heuristic", "random"])
        store = ladder.store
        for name, endpoint in (("dead", "grpc://127.0.0.1:9"), ("slow", f"grpc://127.0.0.1:{slow.port}")):
            store.add_author(name + "-author", name)
            store.add_bot(name, name + "-author")
            store.add_version(name, "grpc", endpoint, ["all_fours"], "active")
        ladder.run(rounds=4)
    finally:
        slow.stop(0)
    names = {v["id"]: f"{v['bot']} v{v['number']}" for v in store.versions()}
    remote = {"dead v1", "slow v1"}
    deal_sets = list(reversed(store.deal_sets(limit=10_000)))
    met = {name: 0 for name in remote}  # matches played, and those with a fault of its own
    faults_of = {name: 0 for name in remote}
    for deal_set in deal_sets:
        lineup = {names[v] for v in deal_set["lineup"]}
        for match in deal_set["matches"]:
            assert match["spec"]["isolation"] == ("sandbox" if lineup & remote else "process")
            # only the remote bots fault, each in every match it plays against a house bot; a house bot never does
            faulted = _fault_seats(match)
            assert faulted <= lineup & remote and bool(faulted) == bool(lineup & remote), match["result"]["faults"]
            if lineup - remote:
                assert faulted == lineup & remote, match["result"]["faults"]
            for name in lineup & remote:
                met[name] += 1
                faults_of[name] += name in faulted
                if not lineup - remote:
                    continue
                # its house opponent's result stands: the house side is ranked first
                house_side = match["spec"]["lineup"].index(next(iter(lineup - remote)))
                side = (house_side - match["spec"]["rotation"]) % 2
                assert match["result"]["ranking"][side] == 0
    assert met["dead v1"] >= 5 and met["slow v1"] >= 5
    dead = next(v for v in store.versions() if v["bot"] == "dead")
    slow_version = next(v for v in store.versions() if v["bot"] == "slow")
    assert dead["status"] == "probation" and dead["reason"].startswith("faults in ")
    assert "unreachable" in dead["reason"]
    assert slow_version["status"] == "probation" and "timeout" in slow_version["reason"]
    for version in (dead, slow_version):
        rating = store.rating(version["id"], "all_fours/2")
        name = f"{version['bot']} v1"
        assert rating is not None and (rating["matches"], rating["faults"]) == (met[name], faults_of[name])
        # put on probation when its last deal set was rated: never in a later round
        last = store.history(version["id"])[-1]["deal_set"]
        round_of = {d["id"]: d["round"] for d in deal_sets}
        assert not [d for d in deal_sets if d["round"] > round_of[last] and version["id"] in d["lineup"]]
        assert any(d["round"] > round_of[last] for d in deal_sets), "no round after the probation to check"
    for house in ("heuristic v1", "random v1"):
        row = next(r for r in store.ratings("all_fours/2") if f"{r['bot']} v{r['number']}" == house)
        assert row["faults"] == 0 and row["status"] == "active"



def test_house_bots_once_and_the_seed_kept(tmp_path):
    from arena.ladder.scheduler import LadderError

    first = _ladder(tmp_path, "kept", "inline", seed=4, house=["heuristic", "random"])
    versions = first.store.versions()
    assert [(v["bot"], v["kind"], v["seat"], v["author"], v["status"]) for v in versions] == [
        ("heuristic", "house", "heuristic", "house", "active"), ("random", "house", "random", "house", "active")]
    first.store.close()
    again = _ladder(tmp_path, "kept", "inline", seed=4, house=["heuristic", "random"])
    assert again.store.versions() == versions  # a restart adds nothing
    again.store.close()
    with pytest.raises(LadderError, match="seeded 4, not 5: give --seed 4"):
        _ladder(tmp_path, "kept", "inline", seed=5)
    with pytest.raises(LadderError, match="--house nobody: unknown bot"):
        _ladder(tmp_path, "other", "inline", house=["nobody"])


def test_a_ladder_without_enough_versions_waits_for_them(tmp_path):
    ladder = _ladder(tmp_path, "waits", "inline", seed=1, house=["random"], poll=0.05)
    said: list[str] = []
    ladder.log = said.append
    thread = threading.Thread(target=ladder.run, kwargs={"rounds": 1})
    thread.start()
    time.sleep(0.5)
    assert thread.is_alive() and ladder.store.last_round() == 0  # one version: nothing to play
    # said once (not at every poll), with what is missing
    assert said == ["round 1 waits for submissions: no ladder has enough active versions "
                    "(all_fours/2 has 1 of the 2 it needs)"], said
    ladder.store.ensure_house("heuristic", ["all_fours"])  # a second version arrives
    thread.join(60)
    assert not thread.is_alive() and ladder.store.last_round() == 1
    assert ladder.store.counts()["deal_sets_rated"] == ladder.pairings
