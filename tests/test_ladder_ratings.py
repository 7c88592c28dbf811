"""Rating one deal set: ranks from each side's margin summed over the rotations, one TrueSkill
update, faults per version, the probation rule; and the ladder file's checks."""

from __future__ import annotations

import pytest

from arena.ladder import config as ladder_config
from arena.ladder.ratings import probation, rate_deal_set, ranks_of, side_sums
from arena.plugins import get_registry
from arena.rating import MU, SIGMA


def _match(rotation, scores, faults=(), lineup=("a v1", "b v1")):
    by_side = [lineup[(side + rotation) % 2] for side in range(2)]
    seats = [by_side[seat % 2] for seat in range(4)]
    ranking = [0, 1] if scores[0] > scores[1] else [1, 0] if scores[1] > scores[0] else [0, 0]
    return {"spec": {"lineup": list(lineup), "rotation": rotation, "seats": seats},
            "result": {"scores": list(scores), "ranking": ranking, "faults": list(faults),
                       "termination": {"how": "normal"}}}


def test_ranks_come_from_the_summed_margins_not_the_wins():
    # a wins the first rotation by 2; b wins the second by 10 (on the same deals, from the other side)
    matches = [_match(0, (12, 10)), _match(1, (20, 10))]  # rotation 1: side 0 is b
    assert side_sums(matches, 2) == [2 - 10, 10 - 2]
    assert ranks_of([-8.0, 8.0]) == [1, 0] and ranks_of([3.0, 3.0]) == [0, 0]
    updates = rate_deal_set({"lineup": [1, 2], "matches": matches}, {1: None, 2: None})
    assert updates[2][0] > MU > updates[1][0]
    assert updates[1][1] < SIGMA and updates[1][2:] == (2, 0)


def test_a_drawn_set_moves_nobody_apart():
    matches = [_match(0, (12, 10)), _match(1, (12, 10))]  # each side's holder wins by 2: even
    updates = rate_deal_set({"lineup": [1, 2], "matches": matches}, {1: None, 2: None})
    assert updates[1][0] == pytest.approx(updates[2][0])


def test_faults_are_counted_per_version_and_match():
    crash = {"seat": 1, "kind": "crash", "message": "Traceback\nboom"}  # seat 1 holds side 1: b in rotation 0
    matches = [_match(0, (12, 10), [crash, dict(crash, seat=3)]), _match(1, (12, 10))]
    updates = rate_deal_set({"lineup": [1, 2], "matches": matches}, {1: None, 2: None})
    assert updates[2][3] == 1 and updates[1][3] == 0  # two faults in one match count once


def test_probation_after_five_matches_over_ten_percent_of_the_window():
    timeout = {"seat": 1, "kind": "timeout", "message": "no answer in 2.0 s"}  # seat 1: b in rotation 0
    faulty, clean = _match(0, (1, 0), [timeout]), _match(0, (1, 0))
    assert probation([faulty] * 4, "b v1") is None  # 4 matches: too few
    assert probation([faulty] * 2 + [clean] * 18, "b v1") is None  # 2 of 20: 10%
    assert probation([faulty] * 3, "a v1") is None  # another's faults are not a's
    reason = probation([faulty] * 3 + [clean] * 7, "b v1")
    assert reason == ("faults in 3 of its last 10 matches (30%, the window: its last 50 matches within 24 h): "
                      "timeout: no answer in 2.0 s")
    arena_error = {"spec": faulty["spec"], "result": {"termination": {"how": "arena_error"}, "faults": []}}
    assert probation([faulty] * 3 + [clean] * 2 + [arena_error] * 30, "b v1").startswith("faults in 3 of its last 5 ")


def test_the_ladder_file(tmp_path):
    registry = get_registry()
    path = tmp_path / "ladder.toml"
    path.write_text('[[ladder]]\ngame = "all_fours"\nplayers = 2\noptions = { max_hands = 2 }\n'
                    'time_control = { per_decision = 1.0 }\n[[ladder]]\ngame = "five_hundred"\n')
    config = ladder_config.load(path, registry)
    assert [e.key for e in config.ladders] == ["all_fours/2", "five_hundred/4"]
    assert config.ladders[0].options["max_hands"] == 2 and config.ladders[0].sides == 2
    assert config.ladders[0].time_control.per_decision == 1.0
    assert [e.key for e in ladder_config.default(registry).ladders] == sorted(
        f"{g}/{registry.game(g).players}" for g in registry.games)
    for text, message in [
        ('[[ladder]]\ngame = "nope"\n', "ladder[0].game: unknown game 'nope'"),
        ('[[ladder]]\ngame = "all_fours"\ncolour = 1\n', "ladder[0].colour: unknown key"),
        ('[[ladder]]\ngame = "all_fours"\noptions = { bogus = 1 }\n', "ladder[0].options:"),
        ('[[ladder]]\ngame = "all_fours"\nplayers = 9\n', "ladder[0].players:"),
        ('[[ladder]]\ngame = "all_fours"\n[[ladder]]\ngame = "all_fours"\n', "ladder[1]: the ladder all_fours/4 is already"),
        ('[[ladder]]\ngame = "all_fours"\ndeal_sets_per_pairing = 0\n', "ladder[0].deal_sets_per_pairing"),
        ('[[ladder]]\ngame = "all_fours"\nfaults = { crash = "maybe" }\n', "ladder[0].faults: fault policy"),
        ('[[ladder]]\ngame = "all_fours"\nlimits = { cpu_seconds = "x" }\n', "ladder[0].limits"),
        ('[bots]\n', "bots: unknown section"),
        ('[[ladder]\n', "not valid TOML"),
    ]:
        path.write_text(text)
        with pytest.raises(ladder_config.LadderFileError) as info:
            ladder_config.load(path, registry)
        assert message in str(info.value) and str(path) in str(info.value), (text, str(info.value))
