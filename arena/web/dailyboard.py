"""The daily sets' results (docs/web.md, "The daily set"): each deal's entries (the people's
ranked plays and the field bots'), their matchpoints (arena.web.matchpoints), a set's total and
rank, the day's and the all-time boards, and one deal's comparison (your play, the par's, the
field's spread) as the page shows it.

A person's *unranked* set (a second play of the day) is scored against the field without joining
it: nobody's matchpoints change by it.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from arena import records
from arena.web import daily, matchpoints
from arena.web.store import DailySet, WebStore

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

Key = tuple[str, str]  # ("set", set id) or ("bot", bot name)


def deal_field(store: WebStore, game: str, date: str, instance: int, deal: int,
               field: dict[tuple[int, str], int] | None = None) -> dict[Key, int]:
    """The scores of every entry of one deal: the ranked people's and the field bots' stored ones."""
    field = store.field(game, date, instance) if field is None else field
    entries: dict[Key, int] = {("bot", bot): score for (k, bot), score in field.items() if k == deal}
    for set_id, _owner, score, ranked, _table in store.deal_scores(game, date, instance, deal):
        if ranked:
            entries[("set", set_id)] = score
    return entries


def points_of(entries: dict[Key, int], key: Key, score: int | None) -> dict[Key, float]:
    """The matchpoints of ``entries``, with ``key`` scored ``score`` in it (added if not there)."""
    if score is not None and key not in entries:
        entries = {**entries, key: score}
    return matchpoints.matchpoints(entries)


def set_result(store: WebStore, one: DailySet) -> dict[str, Any]:
    """One set's deals (score and matchpoints of each finished one), finished count and total."""
    tables = {row.spec.get("daily", {}).get("deal"): row for row in store.set_tables(one.id)}
    field = store.field(one.game, one.date, one.instance)
    deals = []
    for k in range(one.deals):
        row = tables.get(k)
        done = row is not None and row.finished is not None
        score = _score(store, row.id) if done and row is not None else None
        item: dict[str, Any] = {"deal": k, "finished": done, "table": row.id if row is not None else None}
        if done:
            entries = deal_field(store, one.game, one.date, one.instance, k, field)
            item.update(score=score, matchpoints=round(points_of(entries, ("set", one.id), score)[("set", one.id)], 2),
                        entries=len(entries) + (0 if ("set", one.id) in entries else 1))
        deals.append(item)
    played = [d["matchpoints"] for d in deals if d["finished"]]
    return {"set": one.id, "game": one.game, "date": one.date, "deals": one.deals, "ranked": one.ranked,
            "played": len(played), "finished": len(played) == one.deals,
            "total": round(matchpoints.total(played), 2) if played else None, "results": deals}


def _score(store: WebStore, table_id: str) -> int | None:
    rows = store._query("SELECT score FROM tables WHERE id = ?", (table_id,))
    return rows[0][0] if rows else None


def day_board(store: WebStore, registry: "Registry", config: daily.DailyConfig, game: str,
              date: str) -> dict[str, Any]:
    """The day's board: the finished ranked sets by total matchpoints (ranked among people), the
    sets in progress, and each field bot's total over the pool."""
    people: list[dict[str, Any]] = []
    for one in store.daily_sets(game, date):
        if not one.ranked:
            continue
        result = set_result(store, one)
        people.append({"set": one.id, "owner": one.owner, "nickname": store.nickname(one.owner),
                       "total": result["total"], "played": result["played"], "deals": one.deals,
                       "finished": result["finished"]})
    done = {row["set"]: row["total"] for row in people if row["finished"]}
    place = matchpoints.ranks(done)
    for row in people:
        row["rank"] = place.get(row["set"])
    people.sort(key=lambda r: (r["rank"] is None, r["rank"] or 0, -(r["played"])))
    bots: dict[str, list[float]] = {}
    instances = sorted({one.instance for one in store.daily_sets(game, date)})
    for instance in instances:
        field = store.field(game, date, instance)
        for k in range(config.deals):
            entries = deal_field(store, game, date, instance, k, field)
            for key, points in matchpoints.matchpoints(entries).items():
                if key[0] == "bot":
                    bots.setdefault(key[1], []).append(points)
    bot_rows: list[dict[str, Any]] = [{"bot": name, "total": round(matchpoints.total(points), 2), "deals": len(points),
                 "par": name == daily.PAR_BOT} for name, points in sorted(bots.items())]
    bot_rows.sort(key=lambda r: -float(r["total"]))
    return {"game": game, "date": date, "kind": "matchpoints", "deals": config.deals, "rows": people,
            "bots": bot_rows, "ranked": len(done)}


def all_time(store: WebStore, game: str) -> dict[str, Any]:
    """Every player's sum of their finished ranked sets' totals (and how many days)."""
    players: dict[str, dict[str, Any]] = {}
    for one in store.daily_sets(game, None):
        if not one.ranked:
            continue
        result = set_result(store, one)
        if not result["finished"]:
            continue
        row = players.setdefault(one.owner, {"owner": one.owner, "nickname": store.nickname(one.owner),
                                             "total": 0.0, "days": 0})
        row["total"] = round(row["total"] + result["total"], 2)
        row["days"] += 1
    rows = list(players.values())
    place = matchpoints.ranks({row["owner"]: row["total"] for row in rows})
    for row in rows:
        row["rank"] = place[row["owner"]]
    rows.sort(key=lambda r: r["rank"])
    return {"game": game, "date": "all", "kind": "matchpoints", "rows": rows, "bots": []}


def share_text(title: str, date: str, result: dict[str, Any], rank: int | None, ranked: int) -> str:
    """The end screen's text to share: the total and rank, no cards."""
    place = f", rank {rank} of {ranked}" if rank is not None else ""
    bars = " ".join(f"{round(d['matchpoints'])}%" for d in result["results"] if d["finished"])
    return (f"Trick Arena daily, {title}, {date}: {result['total']:.1f}% matchpoints over {result['deals']} deals"
            f"{place} ({bars})")


# -- one deal compared ----------------------------------------------------------------------------
def play_of(record: dict[str, Any], registry: "Registry", seat: int, public: bool = False) -> dict[str, Any]:
    """What a card player reads of a one-hand record from ``seat``'s side: the auction (the
    actions before the first card, as ``seat`` saw them: another seat's hidden discards stay
    hidden), the tricks (who played what, who won), the contract and the hand's score.

    ``public``: the auction as every seat saw it, so ``seat``'s own hidden actions too stay hidden
    (another person's play, or the par's: their discards may be kitty cards the viewer never saw)."""
    replayed = records.replay(record, registry.game)
    state = replayed.state
    auction = _auction(state.observation(seat))
    if public:
        seen_by_all = Counter(map(tuple, auction))
        for other in range(state.game.players):
            if other != seat:
                seen_by_all &= Counter(map(tuple, _auction(state.observation(other))))
        kept = []
        for item in auction:
            if seen_by_all[tuple(item)] > 0:
                seen_by_all[tuple(item)] -= 1
                kept.append(item)
        auction = kept
    hands = [hand for hand in record.get("hands", []) if "result" in hand]
    result = hands[-1]["result"] if hands else {}
    return {"seats": record.get("seats"), "dealer": hands[-1].get("dealer") if hands else None, "auction": auction,
            "tricks": [{"leader": t.get("leader"), "cards": t.get("cards"), "winner": t.get("winner")}
                       for t in result.get("tricks", [])],
            "contract": result.get("contract"), "changes": result.get("changes"),
            "score": daily.hand_score(record, seat, state.game.side_of)}


def _auction(observation: dict[str, Any]) -> list[list[Any]]:
    """The actions of ``observation``'s history before the first card played."""
    auction = []
    for item in observation.get("history") or []:
        who, action = item[0], item[1]
        if isinstance(action, str) and action.startswith("play "):
            break
        auction.append([who, action])
    return auction


def compare(store: WebStore, registry: "Registry", one: DailySet, deal: int, viewer_owns: bool) -> dict[str, Any]:
    """Deal ``deal`` of set ``one``: its entry's play beside the par's, and the field's spread."""
    tables = {row.spec.get("daily", {}).get("deal"): row for row in store.set_tables(one.id)}
    row = tables.get(deal)
    own_record = store.record(row.id) if row is not None else None
    entries = deal_field(store, one.game, one.date, one.instance, deal)
    score = daily.hand_score(own_record, daily.HUMAN_SEAT, registry.game(one.game, {}).side_of) if own_record else None
    points = points_of(entries, ("set", one.id), score)
    names: dict[tuple[str, Any], str | None] = {}
    for set_id, owner, _score, _ranked, _table in store.deal_scores(one.game, one.date, one.instance, deal):
        names[("set", set_id)] = store.nickname(owner)
    # who: a person's nickname (None: they set none) or a bot's registered name, as "kind" says
    spread = [{"who": names.get(key) if key[0] == "set" else key[1], "kind": "person" if key[0] == "set" else "bot",
               "score": (score if key == ("set", one.id) else entries[key]), "matchpoints": round(mp, 2),
               "this": key == ("set", one.id), "par": key == ("bot", daily.PAR_BOT)}
              for key, mp in points.items()]
    spread.sort(key=lambda e: (-int(e["score"] or 0), e["kind"], str(e["who"] or "")))
    par_record = store.field_record(one.game, one.date, one.instance, deal, daily.PAR_BOT)
    first = own_record or par_record
    hand = None
    if first is not None:
        from arena.games.base import FixedDecks

        start = first["hands"][0]
        state = registry.game(first["game"], first["options"]).new_match(
            decks=FixedDecks([start["deck"]], first_dealer=start["dealer"]))
        hand = state.observation(daily.HUMAN_SEAT).get("hand")  # the person's cards as dealt (theirs alone)
    return {"set": one.id, "game": one.game, "date": one.date, "deal": deal, "deals": one.deals,
            "nickname": store.nickname(one.owner), "mine": viewer_owns, "hand": hand,
            "play": play_of(own_record, registry, daily.HUMAN_SEAT, public=not viewer_owns) if own_record else None,
            "par": play_of(par_record, registry, daily.HUMAN_SEAT, public=True) if par_record else None,
            "score": score, "matchpoints": round(points[("set", one.id)], 2) if score is not None else None,
            "field": spread}
