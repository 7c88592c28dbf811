"""The results board: a terminal table, JSON data, or one self-contained HTML page.

Presentation only: it renders the model arena.standings computes (``board_data``) from the
stored results.
"""

from __future__ import annotations

import html
import io
from pathlib import Path
from typing import Any

from arena.standings import board_data  # noqa: F401  (the model this module renders; callers take it from here)
from arena.store import Store


def text(data: dict[str, Any]) -> str:
    """The board as a terminal table, then the head-to-head table."""
    if data["tournament"] is None:
        return "no tournament in this database"
    done, total = data["matches"]
    lines = [f"{data['tournament']} ({data['game']}): {done} of {total} matches"]
    if data.get("settings"):
        lines.append(settings_line(data["settings"]))
    header = ["#", "bot", "score", "mu", "sigma", "matches", "W", "D", "L", "win rate (95% CI)", "margin/deal set (95% CI)", "faults", "think ms"]
    table = [header]
    for place, row in enumerate(data["bots"], 1):
        win = "-" if row["win_rate"] is None else f"{row['win_rate']:.0%} ({row['win_rate_ci'][0]:.0%}-{row['win_rate_ci'][1]:.0%})"
        margin = "-" if row["margin"] is None else f"{row['margin']:+.1f}" + (
            f" ({row['margin_ci'][0]:+.1f} to {row['margin_ci'][1]:+.1f})" if row["margin_ci"] else "")
        faults = ", ".join(f"{k} {v}" for k, v in row["faults"].items()) or "0"
        think = "-" if row["mean_think_ms"] is None else f"{row['mean_think_ms']:.2f}"
        table.append([str(place), row["bot"], f"{row['score']:.2f}", f"{row['mu']:.2f}", f"{row['sigma']:.2f}",
                      str(row["matches"]), str(row["wins"]), str(row["draws"]), str(row["losses"]), win, margin, faults, think])
    lines += _columns(table)
    bots = [row["bot"] for row in data["bots"]]
    if len(bots) >= 2:
        lines.append("")
        lines.append("head to head (row's wins-draws-losses against the column)")
        grid = [[""] + bots]
        for a in bots:
            grid.append([a] + ["" if a == b else _met(data, a, b, never="-") for b in bots])
        lines += _columns(grid)
    lines += bradley_terry_text(data)
    lines += ratings_text(data)
    lines += comparison_text(data)
    return "\n".join(lines)


def _met(data: dict[str, Any], a: str, b: str, never: str) -> str:
    """A head-to-head cell: a's wins-draws-losses against b, or ``never`` when they never met."""
    wdl = data["head_to_head"].get(f"{a} vs {b}")
    return never if wdl is None or sum(wdl) == 0 else "-".join(map(str, wdl))


def _range(low: float, high: float) -> str:
    """An interval for the page, readable with negative ends: "−684.5 to −601.0" (a real minus)."""
    return f"{low:+.1f} to {high:+.1f}".replace("-", "\u2212")


def _columns(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]


def json_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """``arena board --json``: the list of bots, best first."""
    return data["bots"]


def rating_figure(data: dict[str, Any]) -> Any:
    """Each bot's TrueSkill mu after every match: a matplotlib figure (the caller closes it)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.ticker import MaxNLocator

    figure, axes = pyplot.subplots(figsize=(8, 4), dpi=100)
    history = data["history"]
    for row in data["bots"]:
        bot = row["bot"]
        line, = axes.plot(range(1, len(history) + 1), [point[bot] for point in history], label=bot)
        sigmas = data.get("sigma_history")
        if sigmas and len(sigmas) == len(history):  # the rating's uncertainty: mu ± sigma
            mus = [point[bot] for point in history]
            axes.fill_between(range(1, len(history) + 1), [m - sd[bot] for m, sd in zip(mus, sigmas)],
                              [m + sd[bot] for m, sd in zip(mus, sigmas)], color=line.get_color(), alpha=0.15,
                              linewidth=0, gid=f"band-{bot}")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("matches rated (schedule order)")
    axes.set_ylabel("TrueSkill mu (band: mu ± sigma)")
    axes.set_title("Rating over the tournament")
    # beside the axes, never over the lines (bbox_inches="tight" keeps it in the picture)
    axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, frameon=False)
    axes.grid(alpha=0.3)
    return figure


def rating_plot_svg(data: dict[str, Any]) -> str:
    """The rating figure as an inline SVG."""
    from matplotlib import pyplot

    figure = rating_figure(data)
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    pyplot.close(figure)
    svg = buffer.getvalue()
    return svg[svg.index("<svg"):]


def html_page(data: dict[str, Any], files: str | None = None) -> str:
    """One self-contained page: the board, the head-to-head table and the rating plot; then the
    settings, the comparing sections and the match list (linked to ``files``/match-NNNN.html and
    .json, the replays and records :func:`write_match_files` writes, when given)."""
    e = html.escape
    done, total = data["matches"]
    head = ["#", "bot", "score (mu-3sigma)", "mu", "sigma", "matches", "W", "D", "L", "win rate (95% CI)",
            "margin per deal set (95% CI)", "faults", "mean think (ms)"]
    body_rows = []
    for place, row in enumerate(data["bots"], 1):
        win = "-" if row["win_rate"] is None else f"{row['win_rate']:.1%} ({row['win_rate_ci'][0]:.1%} – {row['win_rate_ci'][1]:.1%})"
        margin = "-" if row["margin"] is None else f"{row['margin']:+.1f}".replace("-", "\u2212") + (
            f" ({_range(*row['margin_ci'])})" if row["margin_ci"] else "")
        faults = ", ".join(f"{k} {v}" for k, v in row["faults"].items()) or "0"
        cells = [place, row["bot"], f"{row['score']:.2f}", f"{row['mu']:.2f}", f"{row['sigma']:.2f}", row["matches"],
                 row["wins"], row["draws"], row["losses"], win, margin, faults,
                 "-" if row["mean_think_ms"] is None else f"{row['mean_think_ms']:.2f}"]
        body_rows.append("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in cells) + "</tr>")
    bots = [row["bot"] for row in data["bots"]]
    h2h = ["<tr><th></th>" + "".join(f"<th>{e(b)}</th>" for b in bots) + "</tr>"]
    for a in bots:
        cells = ["" if a == b else _met(data, a, b, never="–") for b in bots]
        h2h.append(f"<tr><th>{e(a)}</th>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>")
    plot = rating_plot_svg(data) if data["history"] else "<p>No finished matches yet.</p>"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{e(str(data['tournament']))} – Trick Arena results</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; }}
th {{ background: #f3f3f3; }} #head-to-head th {{ text-align: left; }}
#board td:nth-child(2) {{ text-align: left; font-weight: 600; }}
</style></head>
<body>
<h1>{e(str(data['tournament']))}</h1>
<p>{e(str(data['game']))}: {done} of {total} matches finished. Ratings: TrueSkill, score = mu − 3·sigma.</p>
<table id="board"><thead><tr>{''.join(f'<th>{e(h)}</th>' for h in head)}</tr></thead>
<tbody>{''.join(body_rows)}</tbody></table>
<h2>Head to head</h2>
<p>Each cell: the row bot's wins–draws–losses against the column bot.</p>
<table id="head-to-head">{''.join(h2h)}</table>
{bradley_terry_html(data)}{ratings_html(data)}
<h2>Ratings over the tournament</h2>
<div id="rating-plot">{plot}</div>
{comparison_html(data, files)}
</body></html>
"""


# -- Bradley–Terry / Plackett–Luce, beside TrueSkill ----------------------------------------------


def _bt_order(data: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(data["bots"], key=lambda row: (-row["bt_elo"], row["bot"]))


def bradley_terry_text(data: dict[str, Any]) -> list[str]:
    """The Bradley–Terry section of the terminal board: ratings, then the likelihood of superiority."""
    rows = _bt_order(data)
    if len(rows) < 2:
        return []
    lines = ["", "Bradley–Terry (Plackett–Luce) rating, Elo units, mean 0"]
    lines += _columns([["bot", "rating", "95% CI"]] + [
        [row["bot"], f"{row['bt_elo']:+.0f}", f"{row['bt_elo_ci'][0]:+.0f} to {row['bt_elo_ci'][1]:+.0f}"] for row in rows])
    lines += ["", "likelihood of superiority (the row bot stronger than the column bot)"]
    bots = [row["bot"] for row in rows]
    grid = [[""] + bots]
    for row in rows:
        grid.append([row["bot"]] + ["" if b == row["bot"] else f"{row['likelihood_of_superiority'][b]:.1%}" for b in bots])
    lines += _columns(grid)
    return lines


def bradley_terry_html(data: dict[str, Any]) -> str:
    """The Bradley–Terry section of the HTML board."""
    e = html.escape
    rows = _bt_order(data)
    if len(rows) < 2:
        return ""
    bots = [row["bot"] for row in rows]
    ratings = "".join(
        f"<tr><td>{e(row['bot'])}</td><td>{row['bt_elo']:+.0f}</td>"
        f"<td>{row['bt_elo_ci'][0]:+.0f} – {row['bt_elo_ci'][1]:+.0f}</td></tr>" for row in rows)
    los = ["<tr><th></th>" + "".join(f"<th>{e(b)}</th>" for b in bots) + "</tr>"]
    for row in rows:
        cells = ["" if b == row["bot"] else f"{row['likelihood_of_superiority'][b]:.1%}" for b in bots]
        los.append(f"<tr><th>{e(row['bot'])}</th>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return f"""<h2>Bradley–Terry (Plackett–Luce) ratings</h2>
<p>Maximum likelihood over every finished match's ranking, in Elo units with mean 0, with 95% intervals
(see docs/ratings.md).</p>
<table id="bradley-terry"><tr><th>bot</th><th>rating</th><th>95% CI</th></tr>{ratings}</table>
<p>Likelihood of superiority: the probability that the row bot is stronger than the column bot.</p>
<table id="likelihood-of-superiority">{''.join(los)}</table>"""


# -- the rating systems asked for (``--rating NAME``) ------------------------------------------------


def _estimate(rating: float, rating_ci: list[float] | None) -> tuple[str, str]:
    return f"{rating:.2f}", "-" if rating_ci is None else f"{rating_ci[0]:.2f} to {rating_ci[1]:.2f}"


def ratings_text(data: dict[str, Any]) -> list[str]:
    """One section per rating system asked for: its bots, highest rating first."""
    lines: list[str] = []
    for section in data.get("ratings", ()):
        unit = f" ({section['unit']})" if section["unit"] else ""
        lines += ["", f"rating {section['name']}{unit}: {section['summary']}"]
        lines += _columns([["bot", "rating", "95% CI"]] + [
            [bot, *_estimate(**section["by_bot"][bot])] for bot in section["order"]])
    return lines


def ratings_html(data: dict[str, Any]) -> str:
    e = html.escape
    parts = []
    for section in data.get("ratings", ()):
        unit = f" ({section['unit']})" if section["unit"] else ""
        body = "".join(f"<tr><td>{e(bot)}</td>" + "".join(f"<td>{e(cell)}</td>" for cell in _estimate(**section["by_bot"][bot]))
                       + "</tr>" for bot in section["order"])
        parts.append(f"<h2>Rating: {e(section['name'])}{e(unit)}</h2><p>{e(section['summary'])}</p>"
                     f'<table id="rating-{e(section["name"])}"><tr><th>bot</th><th>rating</th><th>95% CI</th></tr>{body}</table>')
    return "".join("\n" + part for part in parts)  # nothing at all when none was asked for


# -- for comparing: settings, the duplicate breakdown, margins head to head, faults, the matches ---

def _show(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={_show(v)}" for k, v in value.items()) or "none"
    return "none" if value is None else str(value)


def settings_line(settings: dict[str, Any]) -> str:
    tc = settings.get("time_control") or {}
    return (f"settings: game {settings['game']}; options {_show(settings['options'])}; time control {_show(tc)}; "
            f"seed {settings['seed']}; deal sets {settings['deal_sets']}; started {settings.get('date') or 'unknown'}; "
            f"arena {', '.join(settings['arena_versions']) or 'unknown'}")


def _margin(value: float | None, ci: list[float] | None) -> str:
    if value is None:
        return "-"
    return f"{value:+.1f}" + (f" ({ci[0]:+.1f} to {ci[1]:+.1f})" if ci else "")


def comparison_text(data: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    if data.get("lineups"):
        lines += ["", "per lineup (margin per deal set, 95% CI; W-D-L)"]
        grid = [["lineup", "deal sets", "bot", "margin", "W-D-L"]]
        for entry in data["lineups"]:
            for i, (bot, row) in enumerate(entry["bots"].items()):
                grid.append([" / ".join(entry["lineup"]) if i == 0 else "", str(entry["deal_sets"]) if i == 0 else "",
                             bot, _margin(row["margin"], row["margin_ci"]), f"{row['wins']}-{row['draws']}-{row['losses']}"])
        lines += _columns(grid)
    if data.get("pair_margins"):
        lines += ["", "margins head to head (row's score minus the column's, per deal set, 95% CI)"]
        bots = [row["bot"] for row in data["bots"]]
        grid = [[""] + bots]
        for a in bots:
            grid.append([a] + ["" if a == b else _margin(*(lambda p: (p["margin"], p["margin_ci"]) if p else (None, None))(
                data["pair_margins"].get(f"{a} vs {b}"))) for b in bots])
        lines += _columns(grid)
    if data.get("fault_details"):
        lines += ["", "faults"]
        grid = [["match", "seat", "bot", "kind", "response", "hand", "action", "message"]]
        for f in data["fault_details"]:
            grid.append([str(f["match"]), str(f["seat"]), f["bot"], f["kind"], str(f["response"]), _show(f["hand"]),
                         _show(f["action_index"]), f["message"]])
        lines += _columns(grid)
    return lines


def comparison_html(data: dict[str, Any], files: str | None) -> str:
    e = html.escape
    parts = []
    settings = data.get("settings")
    if settings:
        tc = settings.get("time_control") or {}
        items = [("game", settings["game"]), ("options", _show(settings["options"])), ("format", settings.get("format")),
                 ("time control", _show(tc)), ("fault policy", _show(settings.get("faults"))), ("seed", settings["seed"]),
                 ("deal sets", settings["deal_sets"]), ("isolation", settings.get("isolation")),
                 ("bots", "; ".join(f"{n}: {b['bot']}" + (f" {_show(b['settings'])}" if b["settings"] else "")
                                    for n, b in settings["bots"].items())),
                 ("started", settings.get("date") or "unknown"),
                 ("arena version", ", ".join(settings["arena_versions"]) or "unknown")]
        parts.append('<h2>Settings</h2><table id="settings">' + "".join(
            f"<tr><th>{e(k)}</th><td>{e(_show(v))}</td></tr>" for k, v in items) + "</table>")
    if data.get("lineups"):
        rows = []
        for entry in data["lineups"]:
            for i, (bot, row) in enumerate(entry["bots"].items()):
                lead = (f'<td rowspan="{len(entry["bots"])}">{e(" / ".join(entry["lineup"]))}</td>'
                        f'<td rowspan="{len(entry["bots"])}">{entry["deal_sets"]}</td>') if i == 0 else ""
                rows.append(f"<tr>{lead}<td>{e(bot)}</td><td>{e(_margin(row['margin'], row['margin_ci']))}</td>"
                            f"<td>{row['wins']}–{row['draws']}–{row['losses']}</td></tr>")
        parts.append("<h2>Per lineup</h2><p>Each bot's duplicate margin per deal set in each lineup (95% CI), and its "
                     'wins–draws–losses there.</p><table id="lineups"><tr><th>lineup</th><th>deal sets</th><th>bot</th>'
                     "<th>margin per deal set</th><th>W–D–L</th></tr>" + "".join(rows) + "</table>")
    if data.get("pair_margins"):
        bots = [row["bot"] for row in data["bots"]]
        grid = ["<tr><th></th>" + "".join(f"<th>{e(b)}</th>" for b in bots) + "</tr>"]
        for a in bots:
            cells = []
            for b in bots:
                p = data["pair_margins"].get(f"{a} vs {b}")
                cells.append("" if a == b or p is None else _margin(p["margin"], p["margin_ci"]))
            grid.append(f"<tr><th>{e(a)}</th>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>")
        parts.append("<h2>Margins head to head</h2><p>The row bot's score minus the column bot's, per deal set "
                     '(averaged over its rotations), with its 95% interval.</p><table id="pair-margins">'
                     + "".join(grid) + "</table>")
    faults = data.get("fault_details") or []
    parts.append("<h2>Faults</h2>" + ("<p>None.</p>" if not faults else
                 '<table id="faults"><tr><th>match</th><th>seat</th><th>bot</th><th>kind</th><th>response</th>'
                 "<th>hand</th><th>action</th><th>message</th></tr>" + "".join(
                     f"<tr><td>{f['match']}</td><td>{f['seat']}</td><td>{e(f['bot'])}</td><td>{e(f['kind'])}</td>"
                     f"<td>{e(str(f['response']))}</td><td>{e(_show(f['hand']))}</td><td>{e(_show(f['action_index']))}</td>"
                     f"<td>{e(f['message'])}</td></tr>" for f in faults) + "</table>"))
    matches = data.get("match_list") or []
    if matches:
        from arena.replays.listing import file_stem

        rows = []
        for m in matches:
            sides = " / ".join(m["sides"]) if m["sides"] else ", ".join(m["seats"])
            faults_cell = str(m["faults"]) + (f" ({', '.join(m['fault_kinds'])})" if m["fault_kinds"] else "")
            links = ""
            if files is not None:
                stem = f"{files}/{file_stem(m['index'])}"
                links = f'<a class="replay" href="{e(stem)}.html">replay</a> · <a class="record" href="{e(stem)}.json">record</a>'
            rows.append(f"<tr><td>{m['index']}</td><td>{m['deal_set']}</td><td>{e(sides)}</td><td>{e(', '.join(m['seats']))}</td>"
                        f"<td>{e(' '.join(map(str, m['scores'])))}</td><td>{e(m['winner'] or 'none')}</td>"
                        f"<td>{e(faults_cell)}</td><td>{e(m['termination'])}</td><td>{e(m.get('isolation', ''))}</td>"
                        f"<td>{links}</td></tr>")
        parts.append("<h2>Matches</h2><p>Every finished match, in schedule order; sides listed from side 0.</p>"
                     '<table id="matches"><thead><tr><th>match</th><th>deal set</th><th>sides</th><th>seats (seat 0 first)</th>'
                     "<th>scores</th><th>winner</th><th>faults</th><th>end</th><th>isolation</th><th>files</th></tr></thead><tbody>"
                     + "".join(rows) + "</tbody></table>")
    # the page's table style right-aligns and bolds its second column, meant for the board's bot names
    style = "<style>#comparing td { text-align: left; font-weight: normal; }</style>"
    return f'{style}<div id="comparing">' + "\n".join(parts) + "</div>"


def write_match_files(store: Store, html_path: str | Path) -> str:
    """Write, beside the board page ``html_path``, a folder ``<name>_files`` holding each finished
    match's replay page and record (match-NNNN.html, .json); return the folder's name, relative to
    the page, for its links. A file already holding the same record is not written again."""
    from arena import records
    from arena.replays import viewer
    from arena.replays.listing import file_stem
    from arena.replays.walk import walk

    page = Path(html_path)
    folder = page.with_name(page.stem + "_files")
    folder.mkdir(parents=True, exist_ok=True)
    for spec, _ in store.results():
        record = store.record(spec["index"])
        if record is None:
            continue
        stem = file_stem(spec["index"])
        text = records.dumps(record, file=True)
        record_file, replay_file = folder / f"{stem}.json", folder / f"{stem}.html"
        if record_file.exists() and replay_file.exists() and record_file.read_text(encoding="utf-8") == text:
            continue
        record_file.write_text(text, encoding="utf-8")
        title = f"Match {spec['index']} (deal set {spec.get('deal_set', 0)}): {', '.join(spec['seats'])}"
        replay_file.write_text(viewer.html_page(walk(record), title=title, back=(f"../{page.name}", "← the board")),
                               encoding="utf-8")
    return folder.name
