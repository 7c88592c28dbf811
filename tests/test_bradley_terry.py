"""Bradley–Terry / Plackett–Luce ratings: a hand-worked example, and a fit checked against the
likelihood maximised independently (numpy, numerical derivatives)."""

from __future__ import annotations

import itertools
import math

import numpy
import pytest

from arena import bradley_terry


def test_two_bots_by_hand():
    # a beat b three times, b beat a once, plus the prior's virtual draw (half a win each way):
    # g_a / g_b = 3.5 / 1.5 on five comparisons, the information of the difference 5 * 0.7 * 0.3
    rankings = [({"a": 0, "b": 1}, 1.0)] * 3 + [({"a": 1, "b": 0}, 1.0)]
    result = bradley_terry.fit(rankings, ["a", "b"])
    d = math.log(3.5 / 1.5)
    assert result["theta"]["a"] == pytest.approx(d / 2, abs=1e-9) and result["theta"]["b"] == pytest.approx(-d / 2, abs=1e-9)
    var_d = 1 / (5 * 0.7 * 0.3)
    assert result["covariance"]["a"]["a"] == pytest.approx(var_d / 4)
    assert result["covariance"]["a"]["b"] == pytest.approx(-var_d / 4)
    assert result["los"][("a", "b")] == pytest.approx(0.5 * math.erfc(-d / math.sqrt(2 * var_d)))
    assert result["los"][("b", "a")] == pytest.approx(1 - result["los"][("a", "b")])


def test_a_bot_that_wins_everything_has_a_finite_rating():
    result = bradley_terry.fit([({"a": 0, "b": 1}, 1.0)] * 20, ["a", "b"])
    assert result["theta"]["a"] == pytest.approx(math.log(20.5 / 0.5) / 2)
    assert result["los"][("a", "b")] > 0.99


def _independent(rankings, bots, prior=1.0):
    """Maximise the same likelihood directly: every ranking's Plackett–Luce log-probability
    (a tie: the mean over its orders' log-probabilities), plus the virtual draws, by Newton's
    method on numerical derivatives; the covariance from the numerical Hessian's pseudo-inverse."""
    index = {b: i for i, b in enumerate(bots)}

    def log_probability(order, theta):
        total = 0.0
        for s in range(len(order) - 1):
            rest = [theta[index[b]] for b in order[s:]]
            total += theta[index[order[s]]] - numpy.log(numpy.sum(numpy.exp(rest)))
        return total

    def loglik(theta):
        total = 0.0
        for places, weight in rankings:
            bots_in = sorted(places)
            orders = [o for o in itertools.permutations(bots_in)
                      if all(places[o[i]] <= places[o[i + 1]] for i in range(len(o) - 1))]
            total += weight * sum(log_probability(o, theta) for o in orders) / len(orders)
        for a, b in itertools.combinations(bots, 2):
            total += prior / 2 * (log_probability((a, b), theta) + log_probability((b, a), theta))
        return total

    n, h = len(bots), 1e-4

    def grad(t):
        return numpy.array([(loglik(t + h * e) - loglik(t - h * e)) / (2 * h) for e in numpy.eye(n)])

    def hessian(t):
        return numpy.array([(grad(t + h * e) - grad(t - h * e)) / (2 * h) for e in numpy.eye(n)])

    theta = numpy.zeros(n)
    for _ in range(30):
        step = numpy.linalg.pinv(-hessian(theta)) @ grad(theta)
        theta = theta + step
        theta -= theta.mean()
        if numpy.abs(step).max() < 1e-9:
            break
    centring = numpy.eye(n) - 1 / n  # the ratings are centred: invert on that subspace only
    return theta, numpy.linalg.pinv(centring @ -hessian(theta) @ centring, rcond=1e-6, hermitian=True)


def test_plackett_luce_with_three_sides_and_ties_agrees_with_an_independent_fit():
    bots = ["a", "b", "c", "d"]
    rankings = [
        ({"a": 0, "b": 1, "c": 2}, 1.0), ({"b": 0, "a": 1, "c": 2}, 1.0), ({"a": 0, "c": 1, "b": 2}, 1.0),
        ({"c": 0, "a": 1, "b": 1}, 1.0),  # b and a tied behind c
        ({"a": 0, "b": 0}, 1.0), ({"d": 0, "a": 1}, 1.0), ({"b": 0, "d": 1, "c": 2}, 1.0),
        ({"a": 0, "d": 1}, 1.0), ({"c": 0, "d": 1}, 1.0), ({"a": 0, "b": 1, "c": 2, "d": 3}, 1.0),
    ]
    result = bradley_terry.fit(rankings, bots, tolerance=1e-13)
    theta, covariance = _independent(rankings, bots)
    for i, bot in enumerate(bots):
        assert result["theta"][bot] == pytest.approx(theta[i], abs=1e-6)
        for j, other in enumerate(bots):
            assert result["covariance"][bot][other] == pytest.approx(covariance[i][j], abs=1e-4)


def test_the_board_ratings_from_stored_matches():
    matches = [  # a two-sided lineup: rotation 1 puts lineup[1] on side 0
        ({"lineup": ["x", "y"], "rotation": 0}, {"ranking": [0, 1]}),
        ({"lineup": ["x", "y"], "rotation": 1}, {"ranking": [1, 0]}),  # x (side 1) first again
        ({"lineup": ["x", "y"], "rotation": 0}, {"ranking": [1, 0]}),
    ]
    out = bradley_terry.ratings(matches, ["x", "y"])
    d = math.log(2.5 / 1.5)
    assert out["bots"]["x"]["elo"] == pytest.approx(bradley_terry.ELO * d / 2)
    low, high = out["bots"]["x"]["elo_ci"]
    assert low < out["bots"]["x"]["elo"] < high
    assert out["los"]["x vs y"] > 0.5 and out["los"]["x vs y"] + out["los"]["y vs x"] == pytest.approx(1)


def test_the_board_shows_both_ratings_in_text_json_and_html(tmp_path):
    from arena import board
    from arena.store import Store

    store = Store(tmp_path / "b.db")
    specs = [{"index": i, "lineup": ["x", "y"], "rotation": i % 2, "deal_set": i // 2, "seats": ["x", "y"] if i % 2 == 0 else ["y", "x"]}
             for i in range(4)]
    store.begin_tournament("t", "f", {"name": "t", "game": "toy", "bots": [{"name": "x", "bot": "random"}, {"name": "y", "bot": "random"}]}, specs)
    for spec, ranking in zip(specs, ([0, 1], [1, 0], [0, 1], [0, 1])):  # x, x, x, y first
        store.save(spec["index"], {"ranking": ranking, "scores": [3 - 2 * ranking[0], 3 - 2 * ranking[1]], "faults": [],
                                   "think_times": [{"total": 0.0, "decisions": 1}] * 2}, {})
    data = board.board_data(store)
    store.close()
    fitted = bradley_terry.ratings([(s, {"ranking": r}) for s, r in zip(specs, ([0, 1], [1, 0], [0, 1], [0, 1]))], ["x", "y"])
    row = {r["bot"]: r for r in board.json_rows(data)}
    assert row["x"]["bt_elo"] == pytest.approx(fitted["bots"]["x"]["elo"], abs=0.05) and row["x"]["bt_elo"] > 0
    assert row["x"]["bt_elo_ci"] == pytest.approx(fitted["bots"]["x"]["elo_ci"], abs=0.05)
    assert row["x"]["likelihood_of_superiority"]["y"] == pytest.approx(fitted["los"]["x vs y"], abs=1e-4)
    assert data["likelihood_of_superiority"]["y vs x"] == pytest.approx(fitted["los"]["y vs x"], abs=1e-4)
    text = board.text(data)
    assert "Bradley–Terry (Plackett–Luce) rating" in text and f"{row['x']['bt_elo']:+.0f}" in text
    assert f"{row['x']['likelihood_of_superiority']['y']:.1%}" in text
    page = board.html_page(data)
    assert 'id="bradley-terry"' in page and 'id="likelihood-of-superiority"' in page and "TrueSkill" in page
