"""The board's model: everything a results board shows, computed once from a tournament's store
(TrueSkill once, for the table, the plot and its band; Bradley–Terry; the statistics of
arena.rating; any rating system asked for). arena.board renders it as text, JSON or HTML.
"""

from __future__ import annotations

from typing import Any, Sequence

from arena import rating
from arena.kinds import RatingSystem
from arena.results import MatchRow, row_of
from arena.store import Store


def board_data(store: Store, systems: Sequence[RatingSystem] = ()) -> dict[str, Any]:
    """Everything the board shows, computed from the finished matches in schedule order; with
    ``systems``, also each of these rating systems' estimates (``arena board --rating NAME``)."""
    info = store.tournament()
    if info is None:
        return {"tournament": None, "bots": [], "head_to_head": {}, "history": [], "matches": [0, 0]}
    config = info["config"]
    bots = [bot["name"] for bot in config["bots"]]
    matches = list(store.results())
    rows_ = [row_of(spec, result) for spec, result in matches]
    sigmas: list[dict[str, float]] = []
    ratings, history = rating.rate_rows(rows_, bots, sigmas)  # TrueSkill, once: the table, the plot and its band
    stats, head = rating.statistics_of(matches, bots)
    rows = []
    for bot in bots:
        r, s = ratings[bot], stats[bot]
        win_low, win_high = rating.wilson(s.wins + 0.5 * s.draws, s.matches)
        margin, margin_low, margin_high = rating.mean_interval(s.margins)
        rows.append({
            "bot": bot,
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "score": round(r.mu - 3 * r.sigma, 3),
            "matches": s.matches,
            "wins": s.wins,
            "draws": s.draws,
            "losses": s.losses,
            "win_rate": round((s.wins + 0.5 * s.draws) / s.matches, 4) if s.matches else None,
            "win_rate_ci": [round(win_low, 4), round(win_high, 4)],
            "margin": None if margin is None else round(margin, 2),
            "margin_ci": None if margin_low is None or margin_high is None else [round(margin_low, 2), round(margin_high, 2)],
            "deal_sets": len(s.margins),
            "faults": dict(sorted(s.faults.items())),
            "mean_think_ms": round(1000 * s.think_total / s.decisions, 3) if s.decisions else None,
        })
    rows.sort(key=lambda row: (-row["score"], row["bot"]))
    superiority = _bradley_terry(rows, rows_, bots)
    done, total = store.counts()
    data = {
        "tournament": info["name"],
        "game": config["game"],
        "matches": [done, total],
        "bots": rows,
        "head_to_head": {f"{a} vs {b}": wdl for (a, b), wdl in sorted(head.items())},
        "history": history,
        "likelihood_of_superiority": superiority,
    }
    data.update(comparison_data(store, info, matches, sigmas))
    add_head_to_head(data)
    if systems:
        data["ratings"] = [rating_section(system, rows_, bots) for system in systems]
        for row in rows:
            row["ratings"] = {section["name"]: section["by_bot"][row["bot"]] for section in data["ratings"]}
    return data


def rating_section(system: RatingSystem, rows: Sequence[MatchRow], bots: list[str]) -> dict[str, Any]:
    """One rating system's estimates of the bots, highest first (ties by name)."""
    estimates = system.fit(rows, bots)
    by_bot: dict[str, dict[str, Any]] = {}
    for bot in bots:
        low, high = estimates[bot].low, estimates[bot].high
        by_bot[bot] = {"rating": round(estimates[bot].rating, 3),
                       "rating_ci": None if low is None or high is None else [round(low, 3), round(high, 3)]}
    order = sorted(bots, key=lambda bot: (-estimates[bot].rating, bot))
    return {"name": system.name, "summary": system.summary, "unit": system.unit, "order": order, "by_bot": by_bot}


def _bradley_terry(rows: list[dict[str, Any]], matches: list[MatchRow], bots: list[str]) -> dict[str, float]:
    """Add each row's Bradley–Terry rating (Elo units, mean 0) with its 95% interval and its
    likelihood of superiority over each other bot; return the likelihoods by "a vs b"."""
    from arena import bradley_terry

    fitted = bradley_terry.ratings_of_rows(matches, bots)
    for row in rows:
        bot = row["bot"]
        row["bt_elo"] = round(fitted["bots"][bot]["elo"], 1)
        row["bt_elo_ci"] = [round(value, 1) for value in fitted["bots"][bot]["elo_ci"]]
        row["likelihood_of_superiority"] = {
            other: round(fitted["los"][f"{bot} vs {other}"], 4) for other in bots if other != bot}
    return {pair: round(p, 4) for pair, p in fitted["los"].items()}


def comparison_data(store: Store, info: dict[str, Any], matches: list, sigmas: list[dict[str, float]]) -> dict[str, Any]:
    """The board's comparing sections, from the stored tournament, its finished matches and the
    TrueSkill sigma after each of them (the rating plot's band)."""
    import datetime

    from arena.replays.listing import match_row

    config = info["config"]
    lineups, pairs = rating.duplicate_breakdown(matches)
    pair_margins = {}
    for (a, b), values in sorted(pairs.items()):
        mean, low, high = rating.mean_interval(values)
        pair_margins[f"{a} vs {b}"] = {"margin": None if mean is None else round(mean, 2),
                                       "margin_ci": None if low is None or high is None else [round(low, 2), round(high, 2)],
                                       "deal_sets": len(values)}
    faults = []
    for spec, result in matches:
        for fault in result["faults"]:
            faults.append({"match": spec["index"], "deal_set": spec.get("deal_set"), "seat": fault["seat"],
                           "bot": spec["seats"][fault["seat"]], "kind": fault["kind"], "response": fault.get("response"),
                           "hand": fault.get("hand"), "action_index": fault.get("action_index"),
                           "message": str(fault.get("message", "")).splitlines()[0] if fault.get("message") else ""})
    created = store.created()
    settings = {
        "game": config["game"],
        "options": config.get("options", {}),
        "format": config.get("format"),
        "time_control": config.get("time_control"),
        "faults": config.get("faults"),
        "seed": "secret" if config.get("seed") is None else config["seed"],  # None: dealt from the run's secret
        "deal_sets": config.get("deal_sets"),
        "isolation": config.get("isolation"),
        "bots": {bot["name"]: {"bot": bot["bot"], "settings": bot.get("settings") or {}} for bot in config["bots"]},
        "date": None if created is None else datetime.datetime.fromtimestamp(created, datetime.timezone.utc)
        .strftime("%Y-%m-%d %H:%M UTC"),
        "arena_versions": store.meta().get("arena_versions", []),
    }
    return {"settings": settings, "sigma_history": sigmas, "lineups": lineups, "pair_margins": pair_margins,
            "fault_details": faults, "match_list": [match_row(spec, result) for spec, result in matches]}


def add_head_to_head(data: dict[str, Any]) -> None:
    """Each bot's row gains its record and its duplicate margin against every other bot (``--json``)."""
    for row in data["bots"]:
        mine = {}
        for other in data["bots"]:
            b = other["bot"]
            if b == row["bot"]:
                continue
            wdl = data["head_to_head"].get(f"{row['bot']} vs {b}")
            pair = data.get("pair_margins", {}).get(f"{row['bot']} vs {b}")
            if wdl is None and pair is None:
                continue
            w, d, l = wdl or (0, 0, 0)
            mine[b] = {"wins": w, "draws": d, "losses": l,
                       "margin": pair["margin"] if pair else None, "margin_ci": pair["margin_ci"] if pair else None,
                       "deal_sets": pair["deal_sets"] if pair else 0}
        row["head_to_head"] = mine
