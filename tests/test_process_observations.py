"""Observations sent to a bot in a process of its own (arena/players/isolated.py, "observations"): only
what it reads crosses the pipe, as changes to the last one its process got, and it sees exactly what
an in-process bot sees, whatever it does to what it was given."""

from __future__ import annotations

import gc
import json
import os
import random
import struct

import pytest

from arena.matches import MatchSpec, play_match
from arena.players import isolated, pipe
from arena.players.base import Player

GAMES = [("bid_euchre", {}), ("five_hundred", {"players": 3}), ("fifty_six", {}), ("all_fours", {"players": 2})]


class Recorder(Player):
    """Writes every observation it gets to its file, then (``spoil``) changes it: a bot may change
    what it got. (Only outside the arena's process: an in-process bot is trusted, and what it
    changes may be the engine's own, e.g. a deal's result.)"""

    def __init__(self, settings, seed):
        self.rng = random.Random(seed)
        self.path = settings["path"]
        self.spoil = settings.get("spoil", False)

    def act(self, observation):
        with open(self.path, "a") as handle:
            handle.write(json.dumps(observation) + "\n")
        answer = self.rng.choice(observation["legal_actions"])
        if not self.spoil:
            return answer
        for value in observation.values():  # every list and dict it was given, changed
            if isinstance(value, list):
                value.append("spoilt")
            elif isinstance(value, dict):
                value["spoilt"] = True
        observation["hand"] = ["spoilt"]
        return answer


class Keeper(Player):
    """Keeps each observation unread, and writes the one before when it is asked again."""

    def __init__(self, settings, seed):
        self.rng = random.Random(seed)
        self.path = settings["path"]
        self.kept = None

    def act(self, observation):
        if self.kept is not None:
            with open(self.path, "a") as handle:
                handle.write(json.dumps(self.kept) + "\n")
        self.kept = observation
        return self.rng.choice(observation["legal_actions"])


class Asker(Player):
    """A hostile bot: asks for the observation outside a decision, on its process's own pipe."""

    def __init__(self, settings, seed):
        self.rng = random.Random(seed)

    def act(self, observation):
        return self.rng.choice(observation["legal_actions"])

    def end_hand(self, result):
        view = next(o for o in gc.get_objects() if type(o).__name__ == "SeatView")
        os.write(view.fd, struct.pack("!I", 1) + b"n")


class PartWriter(Player):
    """Plays as ``random`` does, but its process writes every message to the arena in two parts,
    a moment apart: the arena's usual read of a whole answer (ProcessHost.decide) gets only the
    first part and must hand the rest to the general exchange."""

    def __init__(self, settings, seed):
        import time

        self.rng = random.Random(seed)
        if os.environ.get("ARENA_BOT_PROCESS"):  # never the arena's own pipe module
            def write(fd, data):
                framed = pipe.frame(data)
                os.write(fd, framed[:3])
                time.sleep(0.002)
                os.write(fd, framed[3:])

            pipe.write = write

    def act(self, observation):
        return self.rng.choice(observation["legal_actions"])


BOTS = {"t-recorder": Recorder, "t-keeper": Keeper, "t-asker": Asker, "t-parts": PartWriter}


def _play(name, options, bots, isolation, tmp_path, label, **settings):
    """(the result, each seat's lines) of one match of ``bots`` at ``isolation``."""
    from arena.players.base import BotSpec
    from arena.plugins import get_registry

    registry = get_registry()
    paths = [tmp_path / f"{label}-{seat}.jsonl" for seat in range(len(bots))]
    added = {bot: BotSpec(bot, BOTS[bot], "a test bot") for bot in set(bots) if bot in BOTS}
    registry.bots.update(added)
    try:
        spec = MatchSpec.single(name, bots, seed="observations", isolation=isolation,
                                options={**options, "max_hands": 2}, settings=[{"path": str(p), **settings} for p in paths])
        result = play_match(spec, registry)
    finally:
        for bot in added:
            registry.bots.pop(bot, None)
    return result, [path.read_text().splitlines() if path.exists() else [] for path in paths]


@pytest.mark.parametrize("name,options", GAMES)
def test_a_bot_in_its_process_sees_what_it_would_see_in_the_arena_whatever_it_changes(name, options, tmp_path):
    players = {"five_hundred": 3, "all_fours": 2}.get(name, 4)
    bots = ["t-recorder"] * players
    at_home, seen_home = _play(name, options, bots, "inprocess", tmp_path, "home")
    away, seen_away = _play(name, options, bots, "process", tmp_path, "away", spoil=True)
    assert away.termination.how != "forfeit" and away.scores == at_home.scores
    assert sum(map(len, seen_home)) > 20
    assert seen_away == seen_home  # the same observations, key order and all


def test_a_kept_observation_shows_its_own_decision_in_a_process_too(tmp_path):
    bots = ["t-keeper"] * 4
    _, seen_home = _play("bid_euchre", {}, bots, "inprocess", tmp_path, "home")
    _, seen_away = _play("bid_euchre", {}, bots, "process", tmp_path, "away")
    assert sum(map(len, seen_home)) > 20 and seen_away == seen_home


def test_only_what_a_bot_reads_crosses_the_pipe(monkeypatch, tmp_path):
    sent: list[tuple[str, int]] = []

    class Counted(isolated._ArenaEnd):  # counts every write of the arena's end of a bot's pipe
        __slots__ = ()

        def __init__(self, fd):
            super().__init__(fd)
            send = self.send

            def counted(framed, flags):
                data = bytes(framed[4:])
                sent.append((pipe.load_message(data)[0], len(data)))
                return send(framed, flags)

            self.send = counted

    monkeypatch.setattr(isolated, "_ArenaEnd", Counted)
    _play("bid_euchre", {}, ["random"] * 4, "process", tmp_path, "random")
    acts = [size for verb, size in sent if verb == "act"]
    assert len(acts) > 20 and max(acts) < 200  # legal_actions and the clock: no observation
    assert not any(verb == "observation" for verb, _ in sent)

    sent.clear()
    _play("bid_euchre", {}, ["t-recorder"] * 4, "process", tmp_path, "reader", spoil=True)
    asked = [size for verb, size in sent if verb == "observation"]
    acts = [size for verb, size in sent if verb == "act"]
    assert len(asked) == 4  # once per process: each decision after it brings the changes
    assert sum(acts) / len(acts) < 0.6 * max(asked)  # changes, not whole observations


def test_answers_that_come_in_parts_are_read_whole(tmp_path):
    plain, _ = _play("bid_euchre", {}, ["random"] * 4, "process", tmp_path, "plain")
    parts, _ = _play("bid_euchre", {}, ["t-parts"] + ["random"] * 3, "process", tmp_path, "parts")
    actions = [hand["actions"] for hand in parts.record["hands"]]
    assert not parts.faults and sum(map(len, actions)) > 20
    assert actions == [hand["actions"] for hand in plain.record["hands"]]


def test_a_request_for_the_observation_outside_a_decision_changes_nothing(tmp_path):
    honest, _ = _play("bid_euchre", {}, ["random"] * 4, "process", tmp_path, "honest")
    hostile, _ = _play("bid_euchre", {}, ["t-asker"] + ["random"] * 3, "process", tmp_path, "hostile")
    assert not hostile.faults and hostile.scores == honest.scores


class Deaf(Player):
    """A hostile bot: answers every question in advance, from a thread, and never reads again."""

    def __init__(self, settings, seed):
        pass

    def act(self, observation):
        import threading
        import time

        pipe = next(o for o in gc.get_objects() if type(o).__name__ == "Reader")  # its end of the pipe
        frame = struct.pack("!I", 5) + b"spass"
        threading.Thread(target=lambda: [os.write(pipe.fd, frame) for _ in range(100_000)], daemon=True).start()
        time.sleep(3600)


def test_a_bot_that_stops_reading_cannot_hold_the_arena():
    """The arena's writes wait for room in the pipe only until the call's deadline (its end of
    the pipe does not block): a bot whose answers come without its reading is timed out, not waited
    for forever."""
    import threading

    from arena.players.hosts import BotTimeout

    host = isolated.ProcessHost(Deaf, {}, 0)
    outcome: list = []

    def ask() -> None:
        try:
            for turn in range(1000):  # about 20 kB each: the pipe is full long before the end
                host.decide({"legal_actions": ["pass"], "noise": os.urandom(10_000).hex()}, 1.0)
            outcome.append("answered all")
        except Exception as exc:
            outcome.append(exc)

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    asker.join(30)
    try:
        assert outcome and isinstance(outcome[0], BotTimeout), outcome or "the arena is still writing"
    finally:
        if not asker.is_alive():
            host.close()


def test_a_bot_that_stops_reading_cannot_hold_the_arena_in_a_match_either():
    """The same with the observations of a match (the arena's usual decision, written flat)."""
    from arena.players.hosts import BotTimeout
    from arena.plugins import get_registry
    from arena.referee.observation import LazyObservation

    state = get_registry().game("bid_euchre").new_match(seed=1)
    legal = [f"noise {i}" for i in range(2000)]  # about 20 kB a decision: the pipe fills soon
    host = isolated.ProcessHost(Deaf, {}, 0)
    try:
        with pytest.raises(BotTimeout):
            for _ in range(1000):
                host.decide(LazyObservation.make(state, state.current_player(), legal_actions=legal,
                                                 time_left=1.0, bank_left=None), 1.0)
    finally:
        host.close()


class TypeTeller(Player):
    def __init__(self, settings, seed):
        pass

    def act(self, observation):
        return type(observation["time_left"]).__name__


def test_a_decision_that_is_not_plain_data_still_reaches_the_bot():
    """Marshal takes only plain data: anything else in the referee's keys is pickled."""
    from fractions import Fraction

    from arena.plugins import get_registry
    from arena.referee.observation import LazyObservation

    state = get_registry().game("bid_euchre").new_match(seed=1)
    host = isolated.ProcessHost(TypeTeller, {}, 0)
    try:
        observation = LazyObservation.make(state, state.current_player(), legal_actions=["pass"],
                                           time_left=Fraction(1, 3), bank_left=None)
        assert host.decide(observation, 30.0)[0] == "Fraction"
    finally:
        host.close()


class Loud(Player):
    """Writes 3 MiB below Python (fd 1, as a C library would), then plays."""

    def __init__(self, settings, seed):
        self.rng = random.Random(seed)

    def act(self, observation):
        os.write(1, b"x" * (3 * 1024 * 1024))
        print("and from Python")
        return self.rng.choice(observation["legal_actions"])


def test_what_a_process_bot_writes_is_capped_however_it_writes(tmp_path):
    from arena.players.limits import LOG_LIMIT

    log = tmp_path / "loud.log"
    host = isolated.ProcessHost(Loud, {}, 0, log_path=str(log))
    try:
        assert host.decide({"legal_actions": ["pass"]}, 30.0)[0] == "pass"
    finally:
        host.close()
    data = log.read_bytes()
    assert len(data) < LOG_LIMIT + 200 and b"the log was cut here" in data
