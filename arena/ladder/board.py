"""The ladder's live board and bot pages, as data (JSON for the API, rendered by the pages in
arena/ladder/static/). Presentation only: every number is read from the ladder's store (A's
ratings, the stored deal sets and their matches' results); nothing here writes.

A version's rating is shown as TrueSkill's conservative mu - 3 sigma, with the interval mu +- 2
sigma (about 95%). A deal set is won, drawn or lost against an opponent by the sum of the two
sides' duplicate margins over the deal set's rotations (arena.ladder.ratings.side_sums), the same
unit the ratings are updated from.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any, Iterable, Mapping, Protocol, Sequence

from arena.ladder.ratings import is_void, outcome_of, side_sums, version_name

RECENT_DEAL_SETS = 20  # on a bot's page
FAULT_DEAL_SETS = 1000  # a bot's faults are listed from its last this many deal sets per version
HISTORY_POINTS = 500  # the most points of a version's rating history per ladder on its chart
RANKED = ("active", "probation")  # retired, refused and validating versions are listed, unranked
Z = 2.0  # the interval's half width in sigmas


class BoardStore(Protocol):
    """The reads of arena.ladder.store.LadderStore the board uses."""

    def ladders(self) -> list[str]: ...
    def ratings(self, ladder: str) -> list[dict[str, Any]]: ...
    def version(self, version_id: int) -> dict[str, Any] | None: ...
    def versions(self, bot: str | None = None, status: str | None = None) -> list[dict[str, Any]]: ...
    def bot(self, name: str) -> dict[str, Any] | None: ...
    def history(self, version: int) -> list[dict[str, Any]]: ...
    def deal_sets(self, version: int | None = None, ladder: str | None = None, limit: int = 50) -> list[dict[str, Any]]: ...
    def match(self, match_id: int) -> dict[str, Any] | None: ...
    def deal_set(self, deal_set_id: int) -> dict[str, Any] | None: ...
    def pairs(self, versions: Sequence[int]) -> list[dict[str, Any]]: ...
    def changes(self) -> int: ...
    def counts(self) -> dict[str, int]: ...


# -- small pieces ---------------------------------------------------------------------------------
def _json(value: Any, default: Any) -> Any:
    """A column the store may hand back as JSON text or already decoded."""
    if value is None:
        return default
    if isinstance(value, (str, bytes)):
        try:
            return json.loads(value)
        except ValueError:
            return default
    return value


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def label(version: Mapping[str, Any]) -> str:
    """How a version is named on the pages (and in its matches' seats): ``bot v2``."""
    return version_name(version)


def ladder_game(ladder: str) -> tuple[str, int]:
    """``"five_hundred/4"`` -> ("five_hundred", 4)."""
    game, _, players = ladder.partition("/")
    return game, int(players) if players.isdigit() else 0


def _games(version: Mapping[str, Any]) -> list[str]:
    return [str(g) for g in _json(version.get("games"), [])]


def replay_url(match_id: int) -> str:
    return f"/ladder/matches/{match_id}/replay"


class _Versions:
    """Versions by id, read from the store once each (a board reads each version many times)."""

    def __init__(self, store: BoardStore):
        self.store = store
        self.cache: dict[int, dict[str, Any] | None] = {}

    def get(self, version_id: int) -> dict[str, Any] | None:
        if version_id not in self.cache:
            self.cache[version_id] = self.store.version(version_id)
        return self.cache[version_id]

    def author(self, version: Mapping[str, Any]) -> str:
        if "author" in version:
            return str(version["author"])
        bot = self.store.bot(version["bot"])
        return str(bot["author"]) if bot else ""


# -- one deal set ---------------------------------------------------------------------------------
def _result(match: Mapping[str, Any]) -> dict[str, Any] | None:
    return _json(match.get("result"), None)


def _spec(match: Mapping[str, Any]) -> dict[str, Any]:
    return _json(match.get("spec"), {})


def _hidden(spec: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What of a match's specification stays on the server, each with what the pages show instead:
    each seat's kind name (a version's files' path, an endpoint and its key) by the version's name
    in that seat, the ladder's own folder (the log folder's parent) by LADDER_FILES, and where the
    ladder's Python is by python3 (a program's command and its messages name it)."""
    import os

    from arena.ladder.validation import python_paths

    pairs: list[tuple[str, str]] = []
    for bot, name in zip(spec.get("bots") or [], spec.get("seats") or []):
        bot, name = str(bot), str(name)
        pairs.append((bot, name))
        if bot.startswith(("pybot:", "program:")) and "#" in bot:  # its folder, as a message may name it
            pairs.append((bot.partition(":")[2].partition("#")[0], name))
        if bot.startswith(("grpc://", "grpcs://")):  # the endpoint without its key
            pairs.append((bot.partition("?")[0], name))
    log_dir = spec.get("log_dir")
    if isinstance(log_dir, str) and os.path.isabs(log_dir):
        for folder in {os.path.dirname(log_dir), os.path.dirname(os.path.realpath(log_dir))}:
            if len(folder) > 1:
                pairs.append((folder, "LADDER_FILES"))
    pairs += python_paths()
    return sorted((p for p in pairs if p[0] and p[0] != p[1]), key=lambda p: -len(p[0]))


def public(value: Any, hidden: Sequence[tuple[str, str]]) -> Any:
    """``value`` (JSON data) with every text of ``hidden`` replaced by its public name."""
    if isinstance(value, str):
        for text, shown in hidden:
            value = value.replace(text, shown)
        return value
    if isinstance(value, list):
        return [public(v, hidden) for v in value]
    if isinstance(value, dict):
        return {k: public(v, hidden) for k, v in value.items()}
    return value


def public_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A match's specification as the pages show it: its seats by version names, no server path."""
    shown = public({k: v for k, v in spec.items() if k != "log_dir"}, _hidden(spec))
    return shown if isinstance(shown, dict) else {}


def version_of_seat(spec: Mapping[str, Any], seat: int, lineup: list[dict[str, Any] | None]) -> int | None:
    """The version (id) that played ``seat`` of a match of a deal set whose lineup's versions are
    ``lineup``: the one whose seat kind the spec's ``bots`` names there (a version is in a lineup
    once), else the lineup entry the spec's ``seats`` name; None when neither says."""
    bots, seats, names = list(spec.get("bots") or []), list(spec.get("seats") or []), list(spec.get("lineup") or [])
    if not 0 <= seat < max(len(bots), len(seats)):
        return None
    if seat < len(bots):
        found = [v for v in lineup if v is not None and v.get("seat") == bots[seat]]
        if len(found) == 1:
            return int(found[0]["id"])
    if seat < len(seats) and seats[seat] in names:
        index = names.index(seats[seat])
        entry = lineup[index] if index < len(lineup) else None
        return int(entry["id"]) if entry is not None else None
    return None


def deal_set_margins(matches: Iterable[Mapping[str, Any]], sides: int) -> list[float] | None:
    """Each lineup entry's duplicate margin summed over the deal set's rotations, as the ratings
    count it (arena.ladder.ratings.side_sums); None until every match has a result."""
    played = [{"spec": _spec(m), "result": _result(m)} for m in matches]
    if not played or any(m["result"] is None for m in played) or is_void({"matches": played}):
        return None  # unfinished, or void (the arena could not play a match of it): nobody won it
    return side_sums(played, sides)


def fault_rows(deal_set: Mapping[str, Any], versions: "_Versions") -> list[dict[str, Any]]:
    """The faults of a deal set's matches, each with the version at fault and its cause (the
    referee's recorded kind and message); none until the deal set is over (a message may name
    the cards of a seat the next rotation deals again)."""
    if deal_set.get("finished") is None:
        return []
    lineup = [versions.get(int(v)) for v in _json(deal_set.get("lineup"), [])]
    rows = []
    for match in deal_set.get("matches") or []:
        result = _result(match)
        if not result:
            continue
        spec = _spec(match)
        for fault in result.get("faults") or []:
            rows.append({"match": match["id"], "deal_set": deal_set["id"], "ladder": deal_set.get("ladder"),
                         "version": version_of_seat(spec, int(fault.get("seat", -1)), lineup),
                         "seat": fault.get("seat"), "kind": fault.get("kind"),
                         "message": public(fault.get("message", ""), _hidden(spec)), "hand": fault.get("hand"),
                         "response": public(fault.get("response"), _hidden(spec)), "at": match.get("finished"),
                         "replay": replay_url(match["id"])})
    return rows


# -- the board ------------------------------------------------------------------------------------
def board(store: BoardStore, ladder: str, ladders: list[str] | None = None) -> dict[str, Any]:
    """One ladder's board: its versions ranked by mu - 3 sigma (active and on probation; retired
    and not yet rated ones follow, unranked; refused ones are not shown), the ladder's names for
    the tabs, and the whole ladder's counts (rounds, matches played, ...)."""
    versions = _Versions(store)
    rows: list[dict[str, Any]] = []
    rated: set[int] = set()
    for r in store.ratings(ladder):
        version = versions.get(int(r["version"]))
        if version is None:
            continue
        rated.add(int(version["id"]))
        mu, sigma = float(r["mu"]), float(r["sigma"])
        matches, faults = int(r.get("matches") or 0), int(r.get("faults") or 0)
        rows.append({**_version_fields(version, versions), "mu": round(mu, 3), "sigma": round(sigma, 3),
                     "rating": round(conservative(mu, sigma), 3),
                     "interval": [round(mu - Z * sigma, 3), round(mu + Z * sigma, 3)],
                     "deal_sets": int(r.get("deal_sets") or 0), "matches": matches, "faults": faults,
                     "fault_rate": round(faults / matches, 4) if matches else None})
    game, _ = ladder_game(ladder)
    for version in store.versions():  # declared for this game, not rated here yet
        if int(version["id"]) in rated or game not in _games(version) or version["status"] == "refused":
            continue
        rows.append({**_version_fields(version, versions), "mu": None, "sigma": None, "rating": None,
                     "interval": None, "deal_sets": 0, "matches": 0, "faults": 0, "fault_rate": None})
    ranked = sorted((row for row in rows if row["status"] in RANKED and row["deal_sets"] > 0),
                    key=lambda row: (-row["rating"], row["bot"], row["version"]))
    for rank, row in enumerate(ranked, start=1):
        row["rank"] = rank
    others = sorted((row for row in rows if row not in ranked),
                    key=lambda row: (row["status"] not in RANKED, -(row["rating"] if row["rating"] is not None else -1e9),
                                     row["bot"], row["version"]))
    for row in others:
        row["rank"] = None
    return {"ladder": ladder, "ladders": list(ladders if ladders is not None else store.ladders()),
            "changes": store.changes(), "counts": store.counts(), "rows": ranked + others}


def _version_fields(version: Mapping[str, Any], versions: _Versions) -> dict[str, Any]:
    return {"version_id": int(version["id"]), "bot": version["bot"], "version": int(version["number"]),
            "label": label(version), "author": versions.author(version), "kind": version.get("kind", ""),
            "status": version.get("status", ""), "reason": version.get("reason") or "",
            "url": f"/ladder/bots/{version['bot']}"}


# -- a bot's page ---------------------------------------------------------------------------------
def bot_page(store: BoardStore, name: str, ladders: list[str] | None = None) -> dict[str, Any] | None:
    """Everything a bot's page shows, or None when there is no such bot: every version (retired
    ones too, with their history), each version's rating and rating history per ladder, recent
    deal sets with their matches and replay links, faults with their causes, and head to head."""
    bot = store.bot(name)
    if bot is None:
        return None
    versions = _Versions(store)
    own = sorted(store.versions(bot=name), key=lambda v: int(v["number"]))
    own_ids = {int(v["id"]) for v in own}
    names = list(ladders if ladders is not None else store.ladders())
    ratings = {ladder: {int(r["version"]): r for r in store.ratings(ladder) if int(r["version"]) in own_ids}
               for ladder in names}
    out_versions = []
    for v in own:
        vid = int(v["id"])
        per_ladder = []
        for ladder in names:
            r = ratings[ladder].get(vid)
            if r is None:
                continue
            mu, sigma = float(r["mu"]), float(r["sigma"])
            per_ladder.append({"ladder": ladder, "mu": round(mu, 3), "sigma": round(sigma, 3),
                               "rating": round(conservative(mu, sigma), 3),
                               "interval": [round(mu - Z * sigma, 3), round(mu + Z * sigma, 3)],
                               "deal_sets": int(r.get("deal_sets") or 0), "matches": int(r.get("matches") or 0),
                               "faults": int(r.get("faults") or 0)})
        out_versions.append({**_version_fields(v, versions), "games": _games(v), "created": v.get("created"),
                             "ratings": per_ladder})
    history: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for v in own:
        series: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for h in store.history(int(v["id"])):
            mu, sigma = float(h["mu"]), float(h["sigma"])
            series[h["ladder"]].append({"deal_set": h.get("deal_set"), "at": h.get("at"), "mu": round(mu, 3),
                                        "sigma": round(sigma, 3), "rating": round(conservative(mu, sigma), 3)})
        for ladder, points in series.items():
            history[ladder].append({"version_id": int(v["id"]), "version": int(v["number"]), "label": label(v),
                                    "status": v.get("status", ""), "points": thinned(points, HISTORY_POINTS),
                                    "rated": len(points)})
    # Recent deal sets and faults from each version's newest deal sets only, and head to head from
    # the store's running totals: the page costs the same after a million deal sets as after ten.
    every: dict[int, dict[str, Any]] = {}
    for v in own:
        for deal_set in store.deal_sets(version=int(v["id"]), limit=FAULT_DEAL_SETS):
            every[int(deal_set["id"])] = deal_set
    ordered = [every[k] for k in sorted(every, reverse=True)]
    recent = [_deal_set_view(d, own_ids, versions) for d in ordered[:RECENT_DEAL_SETS]]
    faults = [row for d in ordered for row in fault_rows(d, versions) if row["version"] in own_ids]
    for row in faults:
        found = versions.get(row["version"])
        row["label"] = label(found) if found else ""
    return {"bot": name, "author": bot.get("author", ""), "versions": out_versions, "history": dict(history),
            "ladders": names, "recent": recent, "faults": faults[:100], "fault_count": len(faults),
            "head_to_head": head_to_head(store.pairs(sorted(own_ids)), versions), "changes": store.changes()}


def thinned(points: list[dict[str, Any]], most: int) -> list[dict[str, Any]]:
    """At most ``most`` of ``points``, evenly spread, the first and the last always kept (a chart
    a few hundred pixels wide shows no more)."""
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return [points[round(k * step)] for k in range(most)]


def _deal_set_view(deal_set: Mapping[str, Any], own: set[int], versions: _Versions) -> dict[str, Any]:
    lineup = [int(v) for v in _json(deal_set.get("lineup"), [])]
    entries = []
    for vid in lineup:
        found = versions.get(vid)
        entries.append({"version_id": vid, "label": label(found) if found else f"version {vid}",
                        "bot": found["bot"] if found else None, "mine": vid in own})
    matches = sorted(deal_set.get("matches") or [], key=lambda m: int(m.get("rotation", 0)))
    over = deal_set.get("finished") is not None  # until then the other rotations play these very cards
    margins = deal_set_margins(matches, len(lineup))
    if margins is not None:
        for entry, margin in zip(entries, margins):
            entry["margin"] = round(margin, 2)
    mine = [i for i, vid in enumerate(lineup) if vid in own]
    outcome = "void" if is_void({"matches": [{"result": _result(m)} for m in matches]}) else None
    if margins is not None and mine:
        best_other = max((m for i, m in enumerate(margins) if i not in mine), default=None)
        outcome = None if best_other is None else outcome_of(margins[mine[0]], best_other)
    match_rows = []
    for m in matches:
        result = _result(m) if over else None
        match_rows.append({"id": m["id"], "rotation": int(m.get("rotation", 0)),
                           "finished": m.get("finished"),
                           "scores": result.get("scores") if result else None,
                           "termination": (result.get("termination") or {}).get("how") if result else None,
                           "faults": len(result.get("faults") or []) if result else 0,
                           "replay": replay_url(m["id"]) if result else None})
    return {"id": deal_set["id"], "ladder": deal_set.get("ladder"), "round": deal_set.get("round"),
            "finished": deal_set.get("finished"), "rated": bool(deal_set.get("rated")), "lineup": entries,
            "outcome": outcome, "matches": match_rows}


def head_to_head(pairs: Sequence[Mapping[str, Any]], versions: _Versions) -> list[dict[str, Any]]:
    """Per ladder and opponent bot (all its versions): the deal sets won, drawn and lost against
    it, by this bot's summed margin against the opponent's in every rated deal set where both
    played, and the mean difference of the two margins; ``pairs`` are the store's totals per
    version pair (LadderStore.pairs)."""
    table: dict[tuple[str, str], dict[str, Any]] = {}
    for pair in pairs:
        opponent = versions.get(int(pair["opponent"]))
        name = opponent["bot"] if opponent else f"version {pair['opponent']}"
        key = (str(pair["ladder"]), name)
        row = table.setdefault(key, {"ladder": key[0], "opponent": name, "won": 0, "drawn": 0, "lost": 0,
                                     "margin": 0.0, "deal_sets": 0, "url": f"/ladder/bots/{name}"})
        for outcome in ("won", "drawn", "lost"):
            row[outcome] += int(pair[outcome])
        row["margin"] += float(pair["margin"])
        row["deal_sets"] += int(pair["won"]) + int(pair["drawn"]) + int(pair["lost"])
    rows = sorted(table.values(), key=lambda r: (r["ladder"], r["opponent"]))
    for row in rows:
        row["margin"] = round(row["margin"] / row["deal_sets"], 2)  # the mean difference per deal set
    return rows


# -- one match ------------------------------------------------------------------------------------
def deal_set_over(store: BoardStore, deal_set_id: Any) -> bool:
    """Whether every match of the deal set is played: only then may its cards (a record, a replay,
    scores, the deal seed) be public, since until then the other rotations play the same cards."""
    found = store.deal_set(int(deal_set_id)) if isinstance(deal_set_id, int) else None
    return found is not None and found.get("finished") is not None


def match_view(store: BoardStore, match_id: int) -> dict[str, Any] | None:
    match = store.match(match_id)
    if match is None:
        return None
    spec = _spec(match)
    hidden = _hidden(spec)
    if not deal_set_over(store, match.get("deal_set")):
        sealed = {key: value for key, value in spec.items() if key not in ("deal_seed", "bot_seeds")}
        return {"id": match_id, "deal_set": match.get("deal_set"), "rotation": match.get("rotation"),
                "spec": public_spec(sealed), "result": None, "record": None, "finished": match.get("finished"),
                "replay": None,
                "sealed": "its deal set is still being played: its cards, result and record are shown when it is over"}
    return {"id": match_id, "deal_set": match.get("deal_set"), "rotation": match.get("rotation"),
            "spec": public_spec(spec), "result": public(_result(match), hidden),
            "record": public(_json(match.get("record"), None), hidden),
            "finished": match.get("finished"), "replay": replay_url(match_id) if match.get("record") else None}
