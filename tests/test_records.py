"""Game records: the round trip, and clear errors that locate a bad action exactly."""

import json

import pytest

from arena.errors import IllegalActionError, RecordError
from arena.games.base import FixedDecks, SeededDecks
from arena.records import load, replay
from bots.random_bot import RandomBot


def _random_record(registry, seed=3, **options):
    game = registry.game("toy", options or {"target": 5})
    state = game.new_match(seed=seed)
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    while not state.is_over():
        seat = state.current_player()
        state.apply(bots[seat].act(state.observation(seat)))
    return state, state.record(["a", "b"])


def test_round_trip_gives_the_same_scores_after_every_hand(registry):
    state, record = _random_record(registry)
    record = json.loads(json.dumps(record))  # through JSON, as on disk
    again = replay(record, make_game=registry.game)
    assert [row["scores"] for row in again.hands] == [row["scores"] for row in state.deal_results]
    assert again.summary()["scores"] == state.scores() and again.summary()["winner"] == state.winner()


def test_an_illegal_action_is_rejected_at_exactly_its_index(registry):
    _, record = _random_record(registry)
    hand = record["hands"][1]
    position = 3
    seat, _ = hand["actions"][position]
    # a card the other player holds (it plays it later): never legal for this seat
    held_by_other = next(a for s, a in hand["actions"][position + 1:] if s != seat)
    hand["actions"][position] = [seat, held_by_other]
    with pytest.raises(RecordError) as caught:
        replay(record, make_game=registry.game)
    error = caught.value
    assert (error.hand, error.action_index, error.seat) == (1, position, seat)
    assert error.legal and error.as_dict()["action"] == hand["actions"][position][1]


def test_the_wrong_seat_and_a_non_pair_are_refused(registry):
    _, record = _random_record(registry)
    seat, action = record["hands"][0]["actions"][0]
    record["hands"][0]["actions"][0] = [1 - seat, action]
    with pytest.raises(RecordError, match="hand 0, action 0: seat .* acted but it was seat"):
        replay(record, make_game=registry.game)
    record["hands"][0]["actions"][0] = "play AS"
    with pytest.raises(RecordError, match="not a \\[seat, action\\] pair"):
        replay(record, make_game=registry.game)


def test_a_deck_that_is_not_the_pack_is_refused(registry):
    _, record = _random_record(registry)
    record["hands"][0]["deck"][0] = record["hands"][0]["deck"][1]
    with pytest.raises(RecordError, match="not the game's pack"):
        replay(record, make_game=registry.game)


def test_unknown_game_bad_options_and_tampered_results(registry):
    _, record = _random_record(registry)
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        replay({**record, "game": "chess"}, make_game=registry.game)
    with pytest.raises(RecordError, match="'target'"):
        replay({**record, "options": {"target": "lots"}}, make_game=registry.game)
    record["hands"][0]["result"]["scores"] = [99, 99]
    with pytest.raises(RecordError, match="record says scores \\[99, 99\\]"):
        replay(record, make_game=registry.game)


def test_load_reports_bad_json(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        load(bad)
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")


def test_illegal_actions_leave_the_state_unchanged(registry):
    state = registry.game("toy").new_match(seed=1)
    before = state.record()
    legal = state.legal_actions()
    illegal = next(f"play {c}" for c in ("AS", "AH", "9S", "9H", "QS", "QH") if f"play {c}" not in legal)
    for bad in (illegal, "fold", 7):
        with pytest.raises(IllegalActionError) as caught:
            state.apply(bad)
        assert caught.value.seat == state.current_player() and caught.value.phase == "play"
        assert caught.value.legal == legal
    assert state.record() == before


def test_seeded_decks_are_reproducible_and_independent_of_play():
    pack = [str(i) for i in range(40)]
    a, b = SeededDecks(7), SeededDecks(7)
    assert a.deck(3, pack) == b.deck(3, pack) != a.deck(4, pack)
    assert sorted(a.deck(0, pack)) == sorted(pack)
    assert FixedDecks([pack], first_dealer=2).first_dealer(4) == 2
