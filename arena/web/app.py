"""The Starlette application of `arena serve`: the page, the JSON API and the tables' WebSockets.
The protocol is in docs/web.md ("The protocol"); everything a browser sends is checked here or in
the person's channel (arena.web.human) before anything changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import hashlib
import hmac
import json
import re
import secrets
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Mapping

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from arena.errors import ArenaError, RecordError
from arena.players.base import STRENGTHS
from arena.web import daily, guard as guarding
from arena.web.botpool import BotPool
from arena.web.guard import Guard
from arena.web.limits import Limited, Limiter, ServeLimits, too_many
from arena.web.store import DailySet, TableRow, WebStore
from arena.web.table import Table

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

COOKIE = "arena_player"
MAX_FRAME = 4096  # bytes of one browser message
MAX_BODY = 16 * 1024  # bytes of one JSON request body
STATIC = Path(__file__).with_name("static")
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_NICKNAME = re.compile(r"^[^\x00-\x1f\x7f]{1,24}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400):
        self.message, self.status = message, status
        super().__init__(message)


class Server:
    """What the application holds: the store, the registry, the running tables."""

    def __init__(self, store: WebStore, registry: "Registry", *, pace: float, human_time: float,
                 today: Callable[[], datetime.date] = daily.utc_today,
                 new_seed: Callable[[], int] = lambda: secrets.randbits(63),
                 limits: ServeLimits | None = None, bot_isolation: str = "process",
                 daily_config: daily.DailyConfig | None = None):
        self.store = store
        # the field's bots are hosted as the tables' are (a hanging or hostile one never runs in here)
        self.daily = dataclasses.replace(daily_config or daily.DailyConfig(), isolation=bot_isolation)
        self.limits = limits = limits or ServeLimits()
        self.new_players = Limiter("new players", limits.new_players, limits.new_players_overall)
        self.new_tables = Limiter("new tables", limits.new_tables, limits.new_tables_overall)
        self.pool = BotPool(limits.bot_workers, limits.bot_seconds)
        self.bot_isolation = bot_isolation
        self._cookie_key = hmac.new(store.secret(), b"arena_player cookie", hashlib.sha256).digest()
        self._stopping = threading.Event()
        self._reaper: threading.Thread | None = None
        self.registry = registry
        self.pace = pace
        self.human_time = human_time
        self.today = today
        self.new_seed = new_seed  # a new game's deal seed (tests give a seeded sequence)
        self.tables: dict[str, Table] = {}
        self._lock = threading.Lock()

    def open_table(self, row: TableRow, bounded: bool = False) -> Table:
        """Start ``row``'s table. ``bounded``: a person's request, refused (:class:`Limited`) when
        they have ``tables_per_player`` tables running, or the server ``tables_overall``."""
        table = Table(row, self.store, self.registry, pace=self.pace, nickname=self.store.nickname(row.owner),
                      on_finish=self._finished, pool=self.pool, isolation=self.bot_isolation)
        with self._lock:
            if bounded:
                self._check_room(row.owner)
            self.tables[row.id] = table
        table.start()
        return table

    def _check_room(self, owner: str) -> None:
        mine = sum(1 for t in self.tables.values() if t.row.owner == owner and not t.done)
        if mine >= self.limits.tables_per_player:
            raise Limited(f"you have {mine} tables open, the most one person may have: finish one, or leave it "
                          f"{self.limits.idle_tables / 60:g} min without a move and it is put aside", 60)
        if len(self.tables) >= self.limits.tables_overall:
            raise Limited(f"the server has {len(self.tables)} tables open, its limit: try again in a minute", 60)

    def check_room(self, owner: str) -> None:
        with self._lock:
            self._check_room(owner)

    def put_aside_idle(self) -> list[str]:
        """Stop the tables that waited ``idle_tables`` seconds for their person's move; their ids."""
        now = time.monotonic()
        with self._lock:
            idle = [t for t in self.tables.values()
                    if t.channel.waiting and now - t.last_move >= self.limits.idle_tables]
            for table in idle:
                self.tables.pop(table.id, None)
        for table in idle:
            table.set_aside(f"this table waited {self.limits.idle_tables / 60:g} min for your move and was put "
                            "aside: reload the page to go on where you were", "set_aside",
                            minutes=f"{self.limits.idle_tables / 60:g}")
        return [table.id for table in idle]

    def _reap(self) -> None:
        every = min(60.0, max(0.05, self.limits.idle_tables / 4))
        while not self._stopping.wait(every):
            try:
                self.put_aside_idle()
            except Exception as exc:  # the next round tries again
                print(f"arena serve: putting idle tables aside: {type(exc).__name__}: {exc}", file=sys.stderr)

    def forget_table(self, table_id: str) -> Table | None:
        """Take ``table_id`` off the running tables (its person abandons it); the table, if it ran."""
        with self._lock:
            return self.tables.pop(table_id, None)

    def _finished(self, table: Table) -> None:
        """A finished table's record is stored: later connections get its state from the store
        (the browsers connected now have had it), and its match is no longer held in memory."""
        with self._lock:
            self.tables.pop(table.id, None)

    def resume(self) -> None:
        """Start watching for idle tables. An unfinished table of the store is started again (its
        stored actions replayed) when its person opens it, not here: a store of a thousand
        abandoned games costs a restart nothing, and the limits of running tables hold."""
        self._reaper = threading.Thread(target=self._reap, name="idle-tables", daemon=True)
        self._reaper.start()

    def close(self) -> None:
        self._stopping.set()
        with self._lock:
            tables = list(self.tables.values())
        for table in tables:
            table.stop()
        self.store.close()


# -- identity -----------------------------------------------------------------------------------
# A new visitor gets a cookie, not a row: the cookie is an id signed with the server's key, and the
# player's row is stored only when they first do something that needs it (a nickname, a table), so
# requests without a cookie cost the store nothing. Rows made are limited per client address.
def _signed(server: Server, raw: str) -> str:
    return f"{raw}.{_signature(server, raw)}"


def _signature(server: Server, raw: str) -> str:
    return hmac.new(server._cookie_key, raw.encode(), hashlib.sha256).hexdigest()[:24]


def _known(server: Server, cookie: str | None) -> bool:
    """Whether ``cookie`` is a player's: stored, or signed by this server (not stored yet)."""
    if not cookie or len(cookie) >= 100:
        return False
    raw, dot, signature = cookie.rpartition(".")
    if dot and hmac.compare_digest(signature, _signature(server, raw)):
        return True
    return server.store.player_exists(cookie)


def _player(server: Server, request: Request) -> tuple[str, bool]:
    """The requesting player's id, and whether it is new (its cookie is to be set)."""
    cookie = request.cookies.get(COOKIE)
    if cookie is not None and _known(server, cookie):
        return cookie, False
    return _signed(server, secrets.token_urlsafe(18)), True


def _address(request: Request | WebSocket) -> str:
    return request.client.host if request.client else "unknown"


def _stored(server: Server, request: Request, player: str) -> None:
    """Store ``player``'s row if it is not yet (:class:`Limited` past the new players' limit)."""
    if not server.store.player_exists(player):
        server.new_players.take(_address(request))
        server.store.add_player(player)


def _reply(data: Any, player: tuple[str, bool], status: int = 200) -> JSONResponse:
    response = JSONResponse(data, status_code=status)
    if player[1]:
        response.set_cookie(COOKIE, player[0], max_age=10 * 365 * 86400, httponly=True, samesite="lax")
    return response


def _server(request: Request | WebSocket) -> Server:
    return request.app.state.server


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadRequest(f"the request body has {len(raw)} bytes; at most {MAX_BODY} are read")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError) as exc:
        raise BadRequest(f"the request body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadRequest(f"the request body must be a JSON object, not {type(data).__name__}")
    return data


def is_public(row: TableRow, today: datetime.date) -> bool:
    """A finished ranked daily game is public (the leaderboard links its replay) once its day is
    over: before that its record would show everyone the day's cards."""
    return row.mode == "daily" and row.ranked and row.finished is not None and row.date < today.isoformat()


def _owned(server: Server, table_id: str, player: str, public: bool = False) -> TableRow:
    """The table ``table_id`` if ``player`` may see it (404 unknown, 403 another person's)."""
    row = server.store.table(table_id) if _TABLE_ID.match(table_id) else None
    if row is None:
        raise BadRequest(f"there is no table {table_id[:40]!r}", 404)
    if row.owner != player and not (public and is_public(row, server.today())):
        if public and row.mode == "daily" and row.ranked and row.finished is not None:
            raise BadRequest(f"table {table_id!r} is another person's game of today's deal: its record is "
                             "public from tomorrow (UTC), when the day's deal is over", 403)
        raise BadRequest(f"table {table_id!r} is another person's", 403)
    return row


Handler = Callable[[Request, "Server", str], Awaitable[tuple[Any, int]]]


def _errors(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint with the player identified (cookie set when new) and BadRequest as a JSON error."""
    async def wrapped(request: Request) -> Response:
        server = _server(request)
        player = _player(server, request)
        try:
            data, status = await handler(request, server, player[0])
        except BadRequest as exc:
            return _reply({"error": exc.message}, player, exc.status)
        except Limited as exc:
            response = too_many(exc)
            if player[1]:
                response.set_cookie(COOKIE, player[0], max_age=10 * 365 * 86400, httponly=True, samesite="lax")
            return response
        if isinstance(data, Response):
            return data
        return _reply(data, player, status)
    return wrapped


# -- the API ------------------------------------------------------------------------------------
async def index(request: Request) -> Response:
    server = _server(request)
    player = _player(server, request)
    page = STATIC / "index.html"
    if page.is_file():
        response: Response = HTMLResponse(page.read_text(encoding="utf-8"))
    else:
        response = HTMLResponse("<!DOCTYPE html><title>Trick Arena</title><p>The page is not installed "
                                "(arena/web/static/index.html); the API is at /api/games.</p>")
    if player[1]:
        response.set_cookie(COOKIE, player[0], max_age=10 * 365 * 86400, httponly=True, samesite="lax")
    return response


@_errors
async def me(request: Request, server: Server, player: str) -> tuple[Any, int]:
    if request.method == "POST":
        data = await _body(request)
        nickname = data.get("nickname")
        if not isinstance(nickname, str) or not _NICKNAME.match(nickname.strip()) or not _encodes(nickname):
            raise BadRequest("'nickname' must be 1 to 24 printable characters")
        _stored(server, request, player)
        server.store.set_nickname(player, nickname.strip())
    return {"id": player, "nickname": server.store.nickname(player)}, 200


def _encodes(text: str) -> bool:
    """Whether ``text`` is storable UTF-8 (JSON may carry a lone surrogate, "\\ud800", which is not)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def describe_game(registry: "Registry", name: str) -> dict[str, Any]:
    cls = registry.games[name]
    game = registry.game(name, {})
    options = []
    players: list[int] = [game.players]
    for option in cls.option_table:
        if option.name == "players":
            players = list(option.choices) if option.kind == "choice" else [option.default]
            continue
        item: dict[str, Any] = {"name": option.name, "type": option.kind, "default": option.default,
                                "help": option.help}
        if option.kind == "choice":
            item["choices"] = list(option.choices)
        if option.minimum is not None:
            item["minimum"] = option.minimum
        if option.maximum is not None:
            item["maximum"] = option.maximum
        options.append(item)
    bots = sorted(spec.name for spec in registry.bots.values() if spec.plays(name))
    # each bot's plain name per language and its strength, as it declares them (BotSpec), for people
    bot_info = {spec.name: {"titles": dict(spec.titles),
                            "strength": spec.strength if spec.strength in STRENGTHS else None}
                for spec in registry.bots.values() if spec.plays(name)}
    page = dict(game.page())  # what the page shows of it, from the game (a copy: the URL is set below)
    if page.get("module"):
        page["module"] = f"/games/{name}/{page['module']}"
    return {"name": name, "title": game.title, "players": players, "default_players": game.players,
            "options": options, "bots": bots, "default_bot": daily.PAR_BOT if daily.PAR_BOT in bots else bots[0],
            "page": page, "bot_info": bot_info}


def game_order(registry: "Registry") -> list[str]:
    """The games in the order the page lists them (each game's page order, then by name): the first
    is the page's default game."""
    return sorted(registry.games, key=lambda name: (registry.game(name, {}).page()["order"], name))


@_errors
async def games(request: Request, server: Server, player: str) -> tuple[Any, int]:
    return [describe_game(server.registry, name) for name in game_order(server.registry)], 200


async def game_module(request: Request) -> Response:
    """A game's page module (``Game.page()["module"]``), from the game's own package: only the file
    the game names is served."""
    server = _server(request)
    name, file = request.path_params["name"], request.path_params["file"]
    cls = server.registry.games.get(name)
    declared = server.registry.game(name, {}).page().get("module") if cls is not None else None
    if declared is None or file != declared:
        return PlainTextResponse(f"no page module {file[:40]!r} for game {name[:40]!r}", status_code=404)
    path = Path(sys.modules[cls.__module__].__file__ or "").with_name(declared)
    if not path.is_file():
        return PlainTextResponse(f"game {name!r}: its page module {declared} is not installed", status_code=404)
    return Response(path.read_text(encoding="utf-8"), media_type="text/javascript")


def _new_table_spec(server: Server, data: dict[str, Any], player: str, table_id: str) -> tuple[dict[str, Any], str, str, bool]:
    """Check a new table's request; return its spec, mode, date and whether it is ranked."""
    unknown = sorted(set(data) - {"game", "mode", "players", "options", "bots"})
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r}; the fields are game, mode, players, options, bots")
    name = data.get("game")
    if not isinstance(name, str) or name not in server.registry.games:
        raise BadRequest(f"'game': unknown game {str(name)[:40]!r}; games: {', '.join(sorted(server.registry.games))}")
    mode = data.get("mode", "new")
    if mode not in ("daily", "new"):
        raise BadRequest(f"'mode' must be 'daily' or 'new', not {str(mode)[:40]!r}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise BadRequest("'options' must be an object of option names and values")
    if "players" in options:
        raise BadRequest("'options': give the player count as 'players', beside 'options'")
    players = data.get("players")
    given = dict(options)
    if players is not None:
        given["players"] = players
    try:
        game = server.registry.game(name, given)
    except ArenaError as exc:
        raise BadRequest(f"{name}: {exc}") from None
    default = server.registry.game(name, {})
    bots = data.get("bots")
    if bots is None:
        bots = [daily.PAR_BOT] * (game.players - 1)
    if not isinstance(bots, list) or len(bots) != game.players - 1:
        raise BadRequest(f"'bots' must list the {game.players - 1} bots of the other seats (seats 1 to {game.players - 1})")
    for seat, bot in enumerate(bots, start=1):
        bot_spec = server.registry.bots.get(bot) if isinstance(bot, str) else None
        if bot_spec is None:
            raise BadRequest(f"'bots': seat {seat}: {str(bot)[:40]!r} is not an installed bot; bots: "
                             f"{', '.join(sorted(server.registry.bots))}")
        if not bot_spec.plays(name):
            raise BadRequest(f"'bots': seat {seat}: the bot {bot!r} does not play {name}")
    today = server.today().isoformat()
    if mode == "daily":
        differing = [key for key, value in game.options.items() if default.options.get(key) != value]
        if differing:
            key = differing[0]
            raise BadRequest(f"a daily game is played with {name}'s default options and player count; "
                             f"{key!r} is {game.options[key]!r}, the default {default.options[key]!r}")
        if any(bot != daily.PAR_BOT for bot in bots):
            raise BadRequest(f"a daily game is played against the {daily.PAR_BOT!r} bot in every other seat")
        return {"game": name}, mode, today, True  # the daily set's next table: _daily_table
    seed = server.new_seed()  # a secret of this table alone
    ranked = False
    spec = daily.table_spec(game, table_id=table_id, bots=bots, deal_seed=seed,
                            nickname=server.store.nickname(player), human_time=server.human_time,
                            keyed=mode != "daily")
    return spec, mode, today, ranked


@_errors
async def tables(request: Request, server: Server, player: str) -> tuple[Any, int]:
    if request.method == "GET":
        return [row.summary() for row in server.store.tables_of(player)], 200
    data = await _body(request)
    table_id = secrets.token_urlsafe(9)
    spec, mode, date, ranked = _new_table_spec(server, data, player, table_id)
    if mode == "daily":
        return await run_in_threadpool(_daily_table, server, request, player, spec["game"], date)
    server.check_room(player)  # before any token is taken: a refused table costs nothing
    server.new_tables.take(_address(request))
    _stored(server, request, player)
    server.store.add_table(table_id, player, spec, mode, date, ranked)
    row = server.store.table(table_id)
    assert row is not None
    try:
        server.open_table(row, bounded=True)
    except Limited:  # another request of the person's opened one meanwhile: this one is not kept
        server.store.delete_table(table_id)
        raise
    return {"table": table_id, "ranked": ranked}, 201


_DAILY_LOCK = threading.Lock()


def _address_key(server: Server, address: str) -> str:
    """What the store keeps of a client address: an HMAC of it (the ranked-per-address limit)."""
    return hmac.new(server._cookie_key, f"address|{address}".encode(), hashlib.sha256).hexdigest()[:24]


def _seconds_to_midnight(server: Server) -> float:
    now = datetime.datetime.now(datetime.timezone.utc)
    end = datetime.datetime.combine(server.today() + datetime.timedelta(days=1), datetime.time(),
                                    tzinfo=datetime.timezone.utc)
    return max(1.0, (end - now).total_seconds())


def _daily_table(server: Server, request: Request, player: str, game: str, date: str) -> tuple[Any, int]:
    """The person's next table of today's daily set of ``game`` (docs/web.md, "The daily set"): the
    unfinished deal of their set in progress, else its next deal; with no set in progress, a new
    set (ranked if it is their first of the day) on a pool instance drawn at random."""
    with _DAILY_LOCK:  # one person's two requests at once must not make two sets
        sets = server.store.daily_sets(game, date, owner=player)
        current = None
        for one in reversed(sets):
            tables = server.store.set_tables(one.id)
            if len(tables) < one.deals or any(t.finished is None for t in tables):
                current = one
                break
        if current is None:
            ranked = not any(one.ranked for one in sets)
            address = _address_key(server, _address(request))
            if ranked and server.store.ranked_sets_from(address, game, date) >= server.limits.ranked_daily_per_address:
                raise Limited(
                    f"{server.limits.ranked_daily_per_address} people from your address have played today's "
                    f"ranked daily {game} set, the most one address may (docs/web.md, 'Limits'): play a new game, "
                    "or come back tomorrow (UTC)", _seconds_to_midnight(server))
            server.check_room(player)
            server.new_tables.take(_address(request))
            _stored(server, request, player)
            instance = secrets.randbelow(server.daily.pool)
            current = DailySet(secrets.token_urlsafe(9), player, game, date, instance, server.daily.deals,
                                     ranked, time.time())
            server.store.add_daily_set(current.id, player, game, date, instance, current.deals, ranked, address)
            daily.field_in_background(server.store, server.registry, server.daily, game, date, instance)
        tables = server.store.set_tables(current.id)
        unfinished = [t for t in tables if t.finished is None]
        if unfinished:
            return {"table": unfinished[0].id, "ranked": current.ranked, "set": current.id,
                    "deal": unfinished[0].spec["daily"]["deal"], "deals": current.deals}, 201
        server.check_room(player)
        deal = len(tables)
        table_id = secrets.token_urlsafe(9)
        spec = daily.set_table_spec(server.registry, server.store.secret(), game, date, current.instance, deal,
                                    current.deals, table_id=table_id, set_id=current.id,
                                    nickname=server.store.nickname(player), human_time=server.human_time)
        server.store.add_table(table_id, player, spec, "daily", date, current.ranked, current.id, deal)
    row = server.store.table(table_id)
    assert row is not None
    try:
        server.open_table(row, bounded=True)
    except Limited:
        server.store.delete_table(table_id)
        raise
    return {"table": table_id, "ranked": current.ranked, "set": current.id, "deal": deal, "deals": current.deals}, 201


@_errors
async def table(request: Request, server: Server, player: str) -> tuple[Any, int]:
    row = _owned(server, request.path_params["id"], player)
    if request.method == "DELETE":
        return await run_in_threadpool(_abandon, server, row)
    running = server.tables.get(row.id)
    summary = running.summary if running is not None else Table(
        row, server.store, server.registry, nickname=server.store.nickname(row.owner)).summary
    return {**summary, "finished": row.finished is not None, "termination": row.termination}, 200


def _abandon(server: Server, row: TableRow) -> tuple[Any, int]:
    """Abandon the person's unfinished new game: stopped if it runs, and removed with its moves.
    A daily deal is part of the day's set and cannot be; a finished game is on record."""
    if row.finished is not None:
        raise BadRequest(f"table {row.id!r} is finished: a finished game stays in your list", 409)
    if row.mode != "new":
        raise BadRequest(f"table {row.id!r} is a deal of today's daily set: it cannot be abandoned, only finished "
                         "(or left: it waits for you until the day is over)", 409)
    running = server.forget_table(row.id)
    if running is not None:
        running.set_aside("this game was abandoned", "abandoned")
    server.store.delete_table(row.id)
    return {"abandoned": row.id}, 200


@_errors
async def record(request: Request, server: Server, player: str) -> tuple[Any, int]:
    row = _owned(server, request.path_params["id"], player, public=True)
    data = server.store.record(row.id)
    if data is None:
        raise BadRequest(f"table {row.id!r} is not finished: its record is written when the game ends", 409)
    if _day_running(server, row):
        return hide_hands(data), 200
    return data, 200


def _day_running(server: Server, row: TableRow) -> bool:
    """Whether ``row`` is a daily deal whose day is not over yet (its cards are still being played)."""
    return row.mode == "daily" and row.date >= server.today().isoformat()


def hide_hands(record: dict[str, Any]) -> dict[str, Any]:
    """A record without the deals' cards (each hand's deck: every seat's hand and the kitty), as a
    daily deal's record is given out until its day is over. The actions stay (the cards played
    were seen by everyone at the table)."""
    hands = [{key: value for key, value in hand.items() if key != "deck"} for hand in record.get("hands", [])]
    return {**record, "hands": hands, "hidden": "the deals' cards (every hand and the kitty) are hidden until "
            "the day is over (UTC); they are in the record from tomorrow"}


@_errors
async def replay(request: Request, server: Server, player: str) -> tuple[Any, int]:
    from arena.replays.viewer import html_page
    from arena.replays.walk import walk

    try:
        row = _owned(server, request.path_params["id"], player, public=True)
    except BadRequest as exc:  # a page, in words: a person followed a link
        return _words_page("This replay is not yours to see", exc.message, status=exc.status), exc.status
    data = server.store.record(row.id)
    if data is None:
        return _words_page("Not finished", f"table {row.id!r} is not finished: its replay is there when the game "
                           "ends", status=409), 409
    if _day_running(server, row):
        daily_info = row.spec.get("daily")
        link = (f'<p><a href="/#/daily/{daily_info["set"]}/{daily_info["deal"]}">Your play beside the par\'s '
                f'and the field</a></p>') if daily_info else ""
        return _words_page("The full replay is there tomorrow", "A replay shows every hand, and this daily deal is "
                           "still being played today: its full replay opens when the day is over (UTC).", link, 403), 403
    try:
        walked = await run_in_threadpool(walk, data, server.registry.game)
    except RecordError as exc:
        raise BadRequest(f"table {row.id!r}: its record does not replay: {exc}", 500) from None
    return HTMLResponse(html_page(walked, back=("/", "Back to the tables"))), 200


def _words_page(title: str, message: str, extra: str = "", status: int = 200) -> HTMLResponse:
    """A small page that says ``message`` in words (a link followed gets a page, not JSON)."""
    from html import escape

    return HTMLResponse(f"<!DOCTYPE html><html lang='en'><meta charset='utf-8'><title>{escape(title)}</title>"
                        f"<main><h1>{escape(title)}</h1><p id='reason'>{escape(message)}</p>{extra}"
                        "<p><a href='/'>Back to the tables</a></p></main></html>", status_code=status)


def _board_date(server: Server, text: str) -> str | None:
    if text == "all":
        return None
    today = server.today()
    if text in ("", "today"):
        return today.isoformat()
    if text == "yesterday":
        return (today - datetime.timedelta(days=1)).isoformat()
    if not _DATE.match(text):
        raise BadRequest(f"'date' must be YYYY-MM-DD, today, yesterday or all, not {text[:40]!r}")
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError as exc:
        raise BadRequest(f"'date': {exc}") from None
    if day > today:
        raise BadRequest(f"'date': {text} is still to come (today is {today.isoformat()} UTC)")
    return text


@_errors
async def leaderboard(request: Request, server: Server, player: str) -> tuple[Any, int]:
    from arena.web.board import board

    name = request.query_params.get("game") or game_order(server.registry)[0]
    if name not in server.registry.games:
        raise BadRequest(f"'game': unknown game {name[:40]!r}; games: {', '.join(sorted(server.registry.games))}")
    date = _board_date(server, request.query_params.get("date", "today"))
    today = server.today().isoformat()
    if date is None or server.store.daily_sets(name, date) or not list(server.store.ranked_rows(name, date)):
        return await run_in_threadpool(_set_board, server, player, name, date), 200
    # a day of the old whole-match daily deal (before the daily sets): its par board, kept readable
    data = await run_in_threadpool(board, server.store, server.registry, name, date, today)
    for row in data["rows"]:  # the replay link works for one's own games, and for all once the day is over
        row["public"] = row.pop("date") < today
        row["mine"] = row.pop("owner") == player
        row["replay"] = f"/tables/{row['table']}/replay"
    return data, 200


def _set_board(server: Server, player: str, game: str, date: str | None) -> dict[str, Any]:
    from arena.web import dailyboard

    if date is None:
        data = dailyboard.all_time(server.store, game)
    else:
        data = dailyboard.day_board(server.store, server.registry, server.daily, game, date)
    for row in data["rows"]:
        row["mine"] = row.pop("owner") == player
        if "set" in row:
            row["link"] = f"/#/daily/{row['set']}/0"
    return data


def _today_set(server: Server, player: str, game: str) -> DailySet | None:
    """The person's ranked set of today's ``game`` (else their latest one), if any."""
    sets = server.store.daily_sets(game, server.today().isoformat(), owner=player)
    ranked = [one for one in sets if one.ranked]
    return ranked[0] if ranked else (sets[-1] if sets else None)


@_errors
async def daily_status(request: Request, server: Server, player: str) -> tuple[Any, int]:
    """Today's daily set of a game for the person: not played, in progress (k of N) or finished
    (total, rank, the text to share), with the day's end (UTC) for the page to show in local time."""
    name = request.query_params.get("game") or game_order(server.registry)[0]
    if name not in server.registry.games:
        raise BadRequest(f"'game': unknown game {name[:40]!r}; games: {', '.join(sorted(server.registry.games))}")
    return await run_in_threadpool(_status, server, player, name), 200


def _status(server: Server, player: str, game: str) -> dict[str, Any]:
    from arena.web import dailyboard

    today = server.today()
    data: dict[str, Any] = {"game": game, "date": today.isoformat(), "deals": server.daily.deals,
                            "day_ends": daily.next_boundary(today), "state": "not played"}
    one = _today_set(server, player, game)
    if one is None:
        return data
    result = dailyboard.set_result(server.store, one)
    if result["finished"]:  # the end screen's rank counts the whole field: wait for it (a worker thread)
        daily.play_field(server.store, server.registry, server.daily, game, one.date, one.instance)
        result = dailyboard.set_result(server.store, one)
    elif len(server.store.field(game, one.date, one.instance)) < server.daily.deals:  # e.g. after a restart
        daily.field_in_background(server.store, server.registry, server.daily, game, one.date, one.instance)
    data.update(result)
    data["state"] = "finished" if result["finished"] else "in progress"
    if result["finished"]:
        board = dailyboard.day_board(server.store, server.registry, server.daily, game, one.date)
        mine = next((row for row in board["rows"] if row["set"] == one.id), None)
        data["rank"] = mine["rank"] if mine else None
        data["ranked_sets"] = board["ranked"]
        data["bots"] = board["bots"]
        data["share"] = dailyboard.share_text(server.registry.game(game, {}).title, one.date, result, data["rank"],
                                              board["ranked"])
    return data


def _visible_set(server: Server, player: str, set_id: str) -> DailySet:
    one = server.store.daily_set(set_id) if _TABLE_ID.match(set_id) else None
    if one is None:
        raise BadRequest(f"there is no daily set {set_id[:40]!r}", 404)
    return one


def _may_see(server: Server, player: str, one: DailySet, deal: int) -> bool:
    """A set's deal results are the owner's; another person's once they have played that deal
    (the same pool instance) themselves, or the day is over."""
    return (one.owner == player or one.date < server.today().isoformat()
            or server.store.played_deal(player, one.game, one.date, one.instance, deal))


@_errors
async def daily_deal(request: Request, server: Server, player: str) -> tuple[Any, int]:
    """One deal of a daily set: its play beside the par's, and the field's spread (docs/web.md)."""
    from arena.web import dailyboard

    one = _visible_set(server, player, request.path_params["id"])
    try:
        deal = int(request.path_params["deal"])
    except ValueError:
        raise BadRequest("the deal is a number from 0") from None
    if not 0 <= deal < one.deals:
        raise BadRequest(f"a daily set has deals 0 to {one.deals - 1}, not {deal}", 404)
    if not _may_see(server, player, one, deal):
        raise BadRequest(f"this is another person's play of deal {deal + 1} of today's daily set: play that deal "
                         "yourself first (its results stay hidden until you have), or come back tomorrow (UTC)", 403)
    tables = {row.spec.get("daily", {}).get("deal"): row for row in server.store.set_tables(one.id)}
    row = tables.get(deal)
    if row is None or row.finished is None:
        raise BadRequest(f"deal {deal + 1} of this set is not finished yet: its comparison is there when it is", 409)
    if not server.store.field(one.game, one.date, one.instance):
        await run_in_threadpool(daily.play_field, server.store, server.registry, server.daily, one.game, one.date,
                                one.instance)
    data = await run_in_threadpool(dailyboard.compare, server.store, server.registry, one, deal, one.owner == player)
    data["title"] = server.registry.game(one.game, {}).title
    return data, 200


# -- the WebSocket ------------------------------------------------------------------------------
async def table_socket(websocket: WebSocket) -> None:
    server = _server(websocket)
    await websocket.accept()
    queue: asyncio.Queue[str] = asyncio.Queue()

    async def refuse(message: str, code: int) -> None:
        await websocket.send_text(json.dumps({"type": "error", "message": message}))
        await websocket.close(code)

    origin = websocket.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != websocket.headers.get("host"):
        # Another site's page opening this server's socket with the person's cookie.
        return await refuse(f"a page of another site ({origin[:80]}) may not play here", 4403)
    cookie = websocket.cookies.get(COOKIE)
    if not cookie or not _known(server, cookie):
        return await refuse("no player cookie: load the page first (GET /) to get one", 4401)
    try:
        row = _owned(server, websocket.path_params["id"], cookie)
    except BadRequest as exc:
        return await refuse(exc.message, 4000 + exc.status)  # 4403, 4404
    running = server.tables.get(row.id)
    if running is None:  # read again: it may have finished (and left the running tables) meanwhile
        row = server.store.table(row.id) or row
    if running is None and row.finished is None:  # not started since the server started, or put aside: it resumes from the store
        try:
            running = await run_in_threadpool(_reopen, server, row)
        except Limited as exc:
            return await refuse(exc.message, 4429)
    if running is None:  # finished: its last state, from the record
        from arena.web.board import final_state

        await websocket.send_text(json.dumps(await run_in_threadpool(final_state, server, row)))
    else:
        running.listen(queue)

    async def send() -> None:
        try:
            while True:
                await websocket.send_text(await queue.get())
        except Exception:  # the browser went away: the receiving loop ends the connection
            return

    sender = asyncio.create_task(send())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            error = _handle(running, message)
            if error is not None:
                queue.put_nowait(json.dumps({"type": "error", "message": error}))
                if running is None:
                    await websocket.send_text(queue.get_nowait())
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        if running is not None:
            running.unlisten(queue)


def _reopen(server: Server, row: TableRow) -> Table:
    with server._lock:
        running = server.tables.get(row.id)
    return running if running is not None else server.open_table(row, bounded=True)


def _handle(table: Table | None, message: Mapping[str, Any]) -> str | None:
    """One message from the browser; None when taken, else why it is refused."""
    text = message.get("text")
    if text is None:
        return "binary frames are not accepted: send JSON text"
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FRAME:
        return f"a frame of {size} bytes is refused: at most {MAX_FRAME} bytes"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return f"malformed JSON: {exc}"
    if not isinstance(data, dict):
        return f"a message is a JSON object with a 'type', not {type(data).__name__}"
    kind = data.get("type")
    if "type" not in data:
        return "the message has no 'type': the browser sends {\"type\": \"act\", \"action\": ..., \"decision\": N}"
    if kind == "settings":  # the person's settings for this table (docs/web.md, "The protocol")
        unknown = sorted(set(data) - {"type", "confirm_forced"})
        if unknown:
            return f"unknown field {unknown[0][:40]!r} in 'settings'; its field is confirm_forced"
        if not isinstance(data.get("confirm_forced"), bool):
            return "'confirm_forced' is true or false"
        if table is not None:
            table.confirm_forced = data["confirm_forced"]
        return None
    if kind != "act":
        return f"unknown message type {str(kind)[:40]!r}: the browser sends 'act' or 'settings'"
    unknown = sorted(set(data) - {"type", "action", "decision"})
    if unknown:
        return f"unknown field {unknown[0][:40]!r} in 'act'; its fields are action and decision"
    if table is not None and table.put_aside is not None:
        return table.put_aside
    if table is None or table.done or table.finished.is_set():
        return "the game is over: nothing more to play at this table"
    if table.replaying:
        return "the table is resuming: wait for its state"
    return table.channel.submit(data.get("action"), data.get("decision"))


# -- the application ------------------------------------------------------------------------------
def create_app(db: str | Path | WebStore, *, registry: "Registry | None" = None, pace: float = 0.4, human_time: float = 1800.0,
               today: Callable[[], datetime.date] = daily.utc_today,
               new_seed: Callable[[], int] = lambda: secrets.randbits(63),
               extra_routes: list[BaseRoute] | None = None, guard: Guard | None = None,
               limits: ServeLimits | None = None, bot_isolation: str = "process",
               daily_config: daily.DailyConfig | None = None) -> Starlette:
    """The application on the store ``db``: an unfinished table resumes when its person opens it.
    ``extra_routes`` (e.g. `arena ladder`'s pages and API) are matched before the tables' own.
    ``guard``: the limits that keep one client from stalling the server (arena.web.guard);
    ``limits``: what one person and one address may hold (new players and tables, tables open,
    idle time, the bots' pool and budget: arena.web.limits.ServeLimits); ``bot_isolation``: where
    the tables' bots run ("process": each in its own process, the server's way)."""
    if registry is None:
        from arena.plugins import get_registry

        registry = get_registry()
    store = db if isinstance(db, WebStore) else WebStore(db)
    store.secret()  # made on first start
    server = Server(store, registry, pace=pace, human_time=human_time, today=today, new_seed=new_seed,
                    limits=limits, bot_isolation=bot_isolation, daily_config=daily_config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.resume()
        try:
            yield
        finally:
            server.close()

    routes: list[BaseRoute] = [
        *(extra_routes or []),
        Route("/", index),
        guarding.with_body_limit(Route("/api/me", me, methods=["GET", "POST"]), MAX_BODY),
        Route("/api/games", games),
        Route("/games/{name}/{file}", game_module),
        guarding.with_body_limit(Route("/api/tables", tables, methods=["GET", "POST"]), MAX_BODY),
        Route("/api/tables/{id}", table, methods=["GET", "DELETE"]),
        Route("/api/tables/{id}/record", record),
        Route("/tables/{id}/replay", replay),
        Route("/api/leaderboard", leaderboard),
        Route("/api/daily", daily_status),
        Route("/api/daily/sets/{id}/deals/{deal}", daily_deal),
        WebSocketRoute("/ws/tables/{id}", table_socket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    guard = guard or Guard()
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[guarding.middleware(guard, routes)])
    app.state.server = server
    app.state.guard = guard
    return app
