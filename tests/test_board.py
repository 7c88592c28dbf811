"""The board's numbers and how it shows them: the duplicate margin with forfeits, the head-to-head
table, intervals, the rating plot (over synthetic results, no match played)."""

from __future__ import annotations

import itertools
import re

import pytest

from arena import board, rating


_INDEX = itertools.count()


def match(lineup, rotation, scores, *, deal_set=0, forfeit_seat=None):
    """A two-sided, four-seat match as the store gives it: the spec and the result."""
    by_side = [lineup[(side + rotation) % 2] for side in range(2)]
    spec = {"index": next(_INDEX), "lineup": list(lineup), "rotation": rotation, "deal_set": deal_set,
            "seats": [by_side[seat % 2] for seat in range(4)]}
    if forfeit_seat is None:
        termination = {"how": "normal"}
        ranking = [0, 1] if scores[0] > scores[1] else [1, 0] if scores[1] > scores[0] else [0, 0]
    else:
        termination = {"how": "forfeit", "seat": forfeit_seat, "fault": {"seat": forfeit_seat, "kind": "crash"}}
        loser = forfeit_seat % 2
        ranking = [1 if side == loser else 0 for side in range(2)]
    faults = [] if forfeit_seat is None else [{"seat": forfeit_seat, "kind": "crash"}]
    result = {"scores": list(scores), "ranking": ranking, "termination": termination, "faults": faults,
              "think_times": [{"total": 0.0, "decisions": 0}] * 4}
    return spec, result


def tournament():
    """b beats c by 200 in every deal; a crashes at once (0-0) in every match against b."""
    matches = []
    for deal_set in range(2):
        for rotation in range(2):
            # lineup (b, c): b's side is side (0 - rotation) % 2
            b_side = (0 - rotation) % 2
            scores = [0, 0]
            scores[b_side], scores[1 - b_side] = 300, 100
            matches.append(match(("b", "c"), rotation, scores, deal_set=deal_set))
            # lineup (a, b): a's side forfeits with seat a_side (seats a_side and a_side + 2 are a's)
            a_side = (0 - rotation) % 2
            matches.append(match(("a", "b"), rotation, [0, 0], deal_set=deal_set, forfeit_seat=a_side))
    return matches


def test_a_forfeit_counts_in_the_margin_as_a_loss_by_the_worst_real_defeat():
    matches = tournament()
    assert rating.forfeit_penalty(matches) == 200  # c lost by 200 in matches played to their end
    stats, _ = rating.statistics_of(matches, ["a", "b", "c"])
    margin = {bot: rating.mean_interval(s.margins)[0] for bot, s in stats.items()}
    assert margin["a"] == pytest.approx(-200)  # not +0.0: no better than a side that played and lost
    assert margin["c"] == pytest.approx(-200)
    assert margin["b"] == pytest.approx(200)  # 200 from c's deals, 200 from a's forfeits
    assert margin["a"] <= margin["c"]


def test_a_forfeit_keeps_a_worse_margin_than_the_penalty():
    spec, result = match(("a", "b"), 0, [-300, 100], forfeit_seat=0)
    assert rating.duplicate_margins(spec, result, penalty=200) == [-400, 400]
    spec, result = match(("a", "b"), 0, [50, 0], forfeit_seat=1)  # side 1 forfeits while behind
    assert rating.duplicate_margins(spec, result, penalty=200) == [200, -200]


def test_with_more_than_two_sides_the_forfeiting_side_loses_by_the_penalty():
    spec = {"lineup": ["a", "b", "c"], "rotation": 0, "deal_set": 0, "seats": ["a", "b", "c"]}
    result = {"scores": [0, 30, 60], "ranking": [2, 1, 0], "termination": {"how": "forfeit", "seat": 0}}
    margins = rating.duplicate_margins(spec, result, penalty=100)
    assert margins[0] == pytest.approx(-100) and sum(margins) == pytest.approx(0)


def board_of(matches, bots=("a", "b", "c")):
    """What ``board.board_data`` makes of a store holding ``matches``."""

    class FakeStore:
        def tournament(self):
            return {"name": "t", "config": {"game": "toy", "bots": [{"name": b, "bot": "random"} for b in bots]}}

        def created(self):
            return None

        def meta(self):
            return {}

        def results(self):
            return iter(matches)

        def counts(self):
            return len(matches), len(matches)

    return board.board_data(FakeStore())


def test_pairs_that_never_met_show_a_dash_not_a_score():
    data = board_of(tournament())  # a and c never meet
    lines = board.text(data).splitlines()
    head = lines.index("head to head (row's wins-draws-losses against the column)")
    rows = []
    for line in lines[head + 2:]:  # the grid ends at the first blank line (other sections follow)
        if not line.strip():
            break
        rows.append(line)
    grid = {line.split()[0]: line.split()[1:] for line in rows}  # the diagonal is blank
    assert sorted(grid["a"]) == ["-", "0-0-4"] and sorted(grid["c"]) == ["-", "0-0-4"]
    assert sorted(grid["b"]) == ["4-0-0", "4-0-0"]
    assert "0-0-0" not in board.text(data)
    page = board.html_page(data)
    table = page[page.index('<table id="head-to-head">'):]
    assert "0-0-0" not in table[:table.index("</table>")] and "<td>–</td>" in table


def test_negative_margin_ranges_read_with_a_minus_and_to():
    matches = [match(("b", "c"), r, [100 + 7 * d, 700 + 3 * r] if r == 0 else [700 + 3 * r, 100 + 7 * d], deal_set=d)
               for d in range(3) for r in range(2)]
    data = board_of(matches, bots=("b", "c"))
    b = next(row for row in data["bots"] if row["bot"] == "b")
    low, high = b["margin_ci"]
    assert high < 0
    page = board.html_page(data)
    shown = f"\u2212{abs(low):.1f} to \u2212{abs(high):.1f}"
    assert shown in page
    assert not re.search(r"-\d+(\.\d+)? – -\d", page)  # not "(-684.5 – -601.0)"


def test_only_the_boards_bot_column_is_bold_and_left_aligned():
    page = board.html_page(board_of(tournament()))
    style = page[page.index("<style>"):page.index("</style>")]
    for rule in re.findall(r"([^{}]+)\{([^}]*)\}", style):
        selector, body = rule[0].strip(), rule[1]
        if "font-weight" in body or "text-align: left" in body:
            assert selector.startswith("#board") or selector.startswith("#head-to-head th"), selector


def test_the_plot_legend_sits_beside_the_lines_not_over_them():
    from matplotlib import pyplot

    figure = board.rating_figure(board_of(tournament()))
    try:
        figure.canvas.draw()
        axes = figure.axes[0]
        legend = axes.get_legend().get_window_extent()
        assert not legend.overlaps(axes.get_window_extent())
    finally:
        pyplot.close(figure)
