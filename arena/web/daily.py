"""The daily set, its field of bots, and (kept readable) the old daily deal's par.

The daily set (docs/web.md, "The daily set"): for each game and UTC date, a pool of ``pool``
independent *instances*, each a fixed set of ``deals`` one-hand deals. Deal ``k`` of instance
``i`` is dealt from HMAC-SHA256(secret, "game|date|i|k") (see :func:`deal_seed`), its first dealer
seat ``k mod players``: the dealer rotates deal by deal while the person keeps seat 0. A person
starting the day's set gets one instance at random (stored). Every deal is scored on its own, as
matchpoints (arena.web.matchpoints) among everyone who played it: the people, and the *field*,
each field bot playing every deal of every instance in seat 0 with ``heuristic`` in the others
(the par is heuristic's entry), played once in the background and stored.

The old daily deal (one whole match per game and date, before the daily sets):

The deal seed of a game's daily deal on a UTC date is HMAC-SHA256(server secret, "game|date"):
the same for everyone on that server, unknowable without the secret (kept in the store, never
sent out). The bots' seeds follow from it (arena.matches.seat_seed), so everyone plays the same
cards in the same seat against the same bots. The par is that very match with the bundled
``heuristic`` bot in the person's seat (its seed too): played once per game and date, stored.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import sys
import threading
from dataclasses import dataclass, field as dataclass_field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from arena.games.base import SeededDecks
from arena.matches import MatchSpec
from arena.referee import FaultPolicy

from arena.deals import Deals
from arena.matches import play_match, seat_seed
from arena.web.botpool import lower_priority
from arena.web.human import PREFIX
from arena.web.store import WebStore
from arena.results import margin
from arena.web.table import match_spec

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

PAR_BOT = "heuristic"
HUMAN_SEAT = 0


def daily_seed(secret: bytes, game: str, date: str) -> int:
    """The deal seed of ``game``'s daily deal on ``date`` (YYYY-MM-DD, UTC): 64 bits of the HMAC."""
    digest = hmac.new(secret, f"{game}|{date}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def utc_today() -> datetime.date:
    return datetime.datetime.now(datetime.timezone.utc).date()


def table_spec(game: Any, *, table_id: str, bots: list[str], deal_seed: int, nickname: str | None,
               human_time: float, human_seat: int = HUMAN_SEAT, keyed: bool = False) -> dict[str, Any]:
    """A table's stored spec: the person in ``human_seat``, ``bots`` in the other seats in order.
    ``keyed`` (an ordinary table): the bots' seeds are HMACs keyed by the secret deal seed, so a
    bot's seed tells nothing of the deal; else (the daily deal) arena.matches.seat_seed of it."""
    seat_bots = list(bots)
    seat_bots.insert(human_seat, PREFIX + table_id)
    names = [(nickname or "person") if seat == human_seat else bot for seat, bot in enumerate(seat_bots)]
    return {
        "game": game.name,
        "options": dict(game.options),
        "human_seat": human_seat,
        "bots": seat_bots,
        "seats": names,
        "deal_seed": deal_seed,
        "bot_seeds": [Deals(secret=deal_seed.to_bytes(8, "big")).bot_seed(f"match/0/seat/{seat}") if keyed
                      else seat_seed(deal_seed, 0, seat) for seat in range(game.players)],
        "time_control": {"per_decision": float(human_time), "bank": None, "increment": 0.0},
    }


_PAR_LOCKS: dict[tuple[str, str, str], threading.Lock] = {}
_PAR_LOCKS_LOCK = threading.Lock()


def par(store: WebStore, registry: "Registry", game_name: str, date: str) -> dict[str, Any]:
    """The par of ``game_name``'s daily deal on ``date``: played now if not stored yet (once)."""
    known = store.par(game_name, date)
    if known is not None:
        return known
    with _PAR_LOCKS_LOCK:
        lock = _PAR_LOCKS.setdefault((store.path, game_name, date), threading.Lock())
    with lock:
        known = store.par(game_name, date)
        if known is not None:
            return known
        game = registry.game(game_name, {})
        spec = table_spec(game, table_id="par", bots=[PAR_BOT] * (game.players - 1),
                          deal_seed=daily_seed(store.secret(), game_name, date), nickname=None, human_time=60.0)
        spec["bots"][HUMAN_SEAT] = PAR_BOT
        spec["seats"][HUMAN_SEAT] = f"par ({PAR_BOT})"
        result = play_match(match_spec(spec), registry)
        # the leaderboard's margin: the side's score less the best other side's
        par_margin = int(margin(result.scores, game.side_of(HUMAN_SEAT), max))
        store.set_par(game_name, date, par_margin, list(result.scores), result.record)
        return {"margin": par_margin, "scores": list(result.scores)}


# -- the daily set ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class FieldBot:
    """One more bot of the field beside the installed ones: e.g. an active version of a ladder
    served by the same process (`arena ladder`), listed as ``name``, seated as ``seat`` (a seat
    kind), its match hosted at ``isolation`` with the sandbox's ``limits``."""

    name: str
    seat: str
    isolation: str = "process"  # never in the server's process: a bot that hangs or crashes costs only its entry
    limits: Mapping[str, Any] = dataclass_field(default_factory=dict)
    log_dir: str = ""


@dataclass(frozen=True)
class DailyConfig:
    """The daily set's shape (`arena serve --daily-deals --daily-pool --daily-field`)."""

    deals: int = 6  # one-hand deals in a day's set
    pool: int = 4  # independent instances of the set per game and date (a person gets one at random)
    field: tuple[str, ...] | None = None  # the field bots (None: every installed bot that plays the game)
    search_seconds: float = 0.3  # the search bot's thinking time per decision in the field
    isolation: str = "process"  # how the installed field bots are hosted (`arena serve`'s bot isolation)
    field_seconds: float = 10.0  # a field bot's clock per decision: one that hangs forfeits that deal
    # more field bots of a game, asked each time a pool instance's field is played (the active
    # versions of a co-served ladder: arena.ladder.command); None: none
    extra: Callable[[str], list[FieldBot]] | None = dataclass_field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not 1 <= self.deals <= 20:
            raise ValueError(f"a daily set has 1 to 20 deals, not {self.deals}")
        if not 1 <= self.pool <= 64:
            raise ValueError(f"a daily pool has 1 to 64 instances, not {self.pool}")

    def field_bots(self, registry: "Registry", game: str) -> list[str]:
        """The field of ``game``: the configured bots that play it, always with the par bot."""
        playing = sorted(spec.name for spec in registry.bots.values() if spec.plays(game))
        chosen = [bot for bot in (self.field if self.field is not None else playing) if bot in playing]
        if PAR_BOT not in chosen and PAR_BOT in playing:
            chosen.insert(0, PAR_BOT)
        return chosen


def dealer_of(seed: int, players: int) -> int:
    """The first dealer of a match dealt from ``seed`` (arena.games.base.SeededDecks)."""
    return SeededDecks(seed).first_dealer(players)


def deal_seed(secret: bytes, game: str, date: str, instance: int, deal: int, players: int) -> int:
    """The deal seed of deal ``deal`` of pool instance ``instance`` of ``game``'s daily set on
    ``date``: 64 bits of HMAC(secret, "game|date|instance|deal"), then, if its first dealer is not
    seat ``deal mod players``, of "game|date|instance|deal|j" for j = 1, 2 ... until it is (the
    dealer rotates deal by deal, and the seed stays unknowable without the secret)."""
    want = deal % players
    for attempt in range(256):
        tail = f"|{attempt}" if attempt else ""
        digest = hmac.new(secret, f"{game}|{date}|{instance}|{deal}{tail}".encode(), hashlib.sha256).digest()
        seed = int.from_bytes(digest[:8], "big")
        if dealer_of(seed, players) == want:
            return seed
    return seed  # not reached in practice (each try is 1 in players)


def daily_options(game: Any) -> dict[str, Any]:
    """A daily deal's options: the game's defaults, one hand."""
    return {**dict(game.options), "max_hands": 1}


def set_table_spec(registry: "Registry", secret: bytes, game_name: str, date: str, instance: int, deal: int,
                   deals: int, *, table_id: str, set_id: str, nickname: str | None,
                   human_time: float) -> dict[str, Any]:
    """The stored spec of a person's table of one daily deal (seat 0, heuristic in the others)."""
    base = registry.game(game_name, {})
    game = registry.game(game_name, {**({"players": base.players} if "players" in base.options else {}),
                                     "max_hands": 1})
    seed = deal_seed(secret, game_name, date, instance, deal, game.players)
    spec = table_spec(game, table_id=table_id, bots=[PAR_BOT] * (game.players - 1), deal_seed=seed,
                      nickname=nickname, human_time=human_time)
    spec["daily"] = {"set": set_id, "instance": instance, "deal": deal, "deals": deals}
    return spec


def hand_score(record: dict[str, Any], seat: int, side_of: Any) -> int:
    """The hand's margin of ``seat``'s side in a one-hand record: its points on the hand less the
    best other side's (the hand result's ``changes``; the final scores when a game has none)."""
    hands = [hand for hand in record.get("hands", []) if "result" in hand]
    changes = hands[-1]["result"].get("changes") if hands else None
    if changes is None:
        changes = record.get("result", {}).get("scores") or [0]
    return int(margin(changes, side_of(seat), max))


def _field_spec(game: Any, seed: int, bot: FieldBot, config: DailyConfig) -> MatchSpec:
    bots = [bot.seat] + [PAR_BOT] * (game.players - 1)
    settings = tuple(({"seconds": config.search_seconds} if name == "search" else {}) for name in bots)
    return MatchSpec(index=0, game=game.name, options=dict(game.options), deal_seed=seed,
                     seats=tuple([f"field ({bot.name})"] + bots[1:]), bots=tuple(bots), settings=settings,
                     bot_seeds=tuple(seat_seed(seed, 0, seat) for seat in range(game.players)),
                     time_control={"per_decision": config.field_seconds, "bank": None, "increment": 0.0},
                     faults=FaultPolicy().as_dict(), isolation=bot.isolation, limits=dict(bot.limits),
                     log_dir=bot.log_dir)


def field_entries(registry: "Registry", config: DailyConfig, game_name: str) -> list[FieldBot]:
    """The field of ``game_name``: the installed field bots, then the extra ones (a co-served
    ladder's active versions; one that cannot be listed is left out, said on stderr)."""
    entries = [FieldBot(name, name, config.isolation) for name in config.field_bots(registry, game_name)]
    if config.extra is not None:
        try:
            entries += [bot for bot in config.extra(game_name) if bot.name not in {e.name for e in entries}]
        except Exception as exc:
            print(f"arena serve: the daily field's extra bots of {game_name}: {type(exc).__name__}: {exc}",
                  file=sys.stderr)
    return entries


def _lower_all(hosts: list[Any]) -> None:
    """The field is background work: its bots at the tables' low priority, behind the server and
    people's games."""
    for host in hosts:
        lower_priority(host)


_FIELD_LOCKS: dict[tuple[str, str, str, int], threading.Lock] = {}


def play_field(store: WebStore, registry: "Registry", config: DailyConfig, game_name: str, date: str,
               instance: int) -> dict[tuple[int, str], int]:
    """Play (once) and store every field bot's entry of every deal of a pool instance; the entries."""
    with _PAR_LOCKS_LOCK:
        lock = _FIELD_LOCKS.setdefault((store.path, game_name, date, instance), threading.Lock())
    with lock:
        known = store.field(game_name, date, instance)
        base = registry.game(game_name, {})
        game = registry.game(game_name, {**({"players": base.players} if "players" in base.options else {}),
                                         "max_hands": 1})
        secret = store.secret()
        for deal in range(config.deals):
            seed = deal_seed(secret, game_name, date, instance, deal, game.players)
            for entry in field_entries(registry, config, game_name):
                bot = entry.name
                if (deal, bot) in known:
                    continue
                try:
                    result = play_match(_field_spec(game, seed, entry, config), registry, on_hosts=_lower_all)
                except Exception as exc:  # one bot that cannot play leaves the others' entries standing
                    if bot == PAR_BOT:
                        raise
                    print(f"arena serve: the daily field: {bot} on {game_name} {date} #{instance} deal {deal}: "
                          f"{type(exc).__name__}: {exc}", file=sys.stderr)
                    continue
                score = hand_score(result.record, HUMAN_SEAT, game.side_of)
                store.add_field(game_name, date, instance, deal, bot, score, result.record)
                known[(deal, bot)] = score
        return known


def field_in_background(store: WebStore, registry: "Registry", config: DailyConfig, game_name: str,
                        date: str, instance: int) -> threading.Thread:
    """:func:`play_field` in a daemon thread (never on the event loop); failures are told on stderr."""
    def run() -> None:
        try:
            play_field(store, registry, config, game_name, date, instance)
        except Exception as exc:  # the next request tries again
            print(f"arena serve: the daily field of {game_name} {date} #{instance}: {type(exc).__name__}: {exc}",
                  file=sys.stderr)
    thread = threading.Thread(target=run, name=f"daily-field-{game_name}-{date}-{instance}", daemon=True)
    thread.start()
    return thread


def next_boundary(today: datetime.date) -> str:
    """The end of the UTC day ``today`` (when the next day's sets begin), ISO 8601 with Z."""
    return (datetime.datetime.combine(today + datetime.timedelta(days=1), datetime.time())
            .strftime("%Y-%m-%dT%H:%M:%SZ"))
