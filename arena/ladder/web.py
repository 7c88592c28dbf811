"""The ladder's read-only web side: the pages (board, bot, submission form, replay), their JSON
(``/api/ladder/board``, ``/bots/NAME``, ``/matches/ID``, ``/me``) and the live feed
(``/api/ladder/events``, server-sent events). The writes (register, submit, retire) are
arena.ladder.api's; the pages POST to it. docs/ladder-board.md describes all of it.

``routes(ladder)`` is what ``arena ladder`` puts before the web tables' routes in one Starlette
app; ``ladder`` is anything with a ``store`` (arena.ladder.store.LadderStore) and a ``registry``.
"""

from __future__ import annotations

import asyncio
import html
import json
import signal
import time
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from arena.errors import RecordError
from arena.ladder import board
from arena.ladder.accounts import is_name
from arena.web.guard import streaming

STATIC = Path(__file__).with_name("static")
POLL = 0.5  # seconds between two reads of the store's changes counter
HEARTBEAT = 15.0  # seconds of quiet before a comment line keeps proxies and the browser connected
# One event stream's life: the browser's EventSource reconnects by itself (after RETRY_MS) and is
# sent the counter at once, so nothing is missed. It bounds how long a stopping server (which
# waits for open responses) waits for a watching browser when nothing tells the stream to end.
STREAM_SECONDS = 20.0
RETRY_MS = 1000


class NotFound(Exception):
    pass


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _page(name: str, status: int = 200) -> HTMLResponse:
    path = STATIC / name
    if not path.is_file():
        return HTMLResponse(f"<!DOCTYPE html><title>Trick Arena ladder</title><p>The page is not installed "
                            f"(arena/ladder/static/{html.escape(name)}); the API is at /api/ladder/board.</p>", 500)
    return HTMLResponse(path.read_text(encoding="utf-8"), status_code=status)


def _not_found_page(message: str) -> HTMLResponse:
    return HTMLResponse("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found – Trick Arena "
                        "ladder</title><link rel=\"stylesheet\" href=\"/static/style.css\"></head><body><main>"
                        f"<div class=\"panel error\" role=\"alert\"><p id=\"not-found\">{html.escape(message)}</p>"
                        "<p><a href=\"/ladder\">Back to the ladder</a></p></div></main></body></html>", 404)


def _stopping(ladder: Any) -> bool:
    """Whether open event streams should end: the ladder is stopping (its ``stopping`` event is
    set), or the uvicorn server is (Ctrl-C or SIGTERM: it waits for open responses to end before
    it stops, and nothing tells a streaming response). uvicorn's signal handler is its server's
    ``handle_exit``, which sets ``should_exit``: read through the handler, as nothing else shows it."""
    event = getattr(ladder, "stopping", None)
    if event is not None and event.is_set():
        return True
    server = getattr(signal.getsignal(signal.SIGINT), "__self__", None)
    return getattr(server, "should_exit", False) is True


def _match_id(request: Request) -> int:
    text = request.path_params["id"]
    if not text.isdigit() or len(text) > 18:
        raise NotFound(f"there is no ladder match {text[:40]!r}")
    return int(text)


def routes(ladder: Any) -> list[BaseRoute]:
    """The ladder's pages, JSON and event stream, on ``ladder.store``."""
    store = ladder.store

    def ladders() -> list[str]:
        return store.ladders()

    async def read(fn: Callable[..., Any], *args: Any) -> Any:
        return await run_in_threadpool(fn, *args)  # SQLite off the event loop (the store locks)

    # -- pages ------------------------------------------------------------------------------------
    async def board_page(request: Request) -> Response:
        return _page("board.html")

    async def bot_html(request: Request) -> Response:
        name = request.path_params["name"]
        if not is_name(name) or await read(store.bot, name) is None:
            return _not_found_page(f"There is no bot named {name[:40]!r} on this ladder.")
        return _page("bot.html")

    async def submit_page(request: Request) -> Response:
        return _page("submit.html")

    async def replay(request: Request) -> Response:
        from arena.replays.viewer import html_page
        from arena.replays.walk import walk

        try:
            match_id = _match_id(request)
        except NotFound as exc:
            return _not_found_page(str(exc))
        match = await read(store.match, match_id)
        if match is None:
            return _not_found_page(f"There is no ladder match {match_id}.")
        if not match.get("record") or not await read(board.deal_set_over, store, match.get("deal_set")):
            return _not_found_page(f"Match {match_id}'s deal set is not finished: its replay is there when it ends.")
        try:
            walked = await read(walk, match["record"], ladder.registry.game)
        except RecordError as exc:
            return HTMLResponse(f"<p>Match {match_id}: its record does not replay: {html.escape(str(exc))}</p>", 500)
        return HTMLResponse(html_page(walked, back=("/ladder", "Back to the ladder")))

    # -- JSON -------------------------------------------------------------------------------------
    async def board_json(request: Request) -> Response:
        names = await read(ladders)
        chosen = request.query_params.get("ladder") or (names[0] if names else "")
        if not chosen:
            return JSONResponse({"ladder": None, "ladders": [], "changes": await read(store.changes), "rows": []})
        if chosen not in names:
            return _error(f"there is no ladder {chosen[:60]!r}; ladders: {', '.join(names) or 'none yet'}", 404)
        return JSONResponse(await read(board.board, store, chosen, names))

    async def bot_json(request: Request) -> Response:
        name = request.path_params["name"]
        data = await read(board.bot_page, store, name) if is_name(name) else None
        if data is None:
            return _error(f"there is no bot named {name[:40]!r}", 404)
        return JSONResponse(data)

    async def match_json(request: Request) -> Response:
        try:
            match_id = _match_id(request)
        except NotFound as exc:
            return _error(str(exc), 404)
        data = await read(board.match_view, store, match_id)
        if data is None:
            return _error(f"there is no ladder match {match_id}", 404)
        return JSONResponse(data)

    async def me_json(request: Request) -> Response:
        """The author's own view: every version of their bots with its status and reason (why it
        was refused, why it is on probation). Needs their token."""
        from arena.ladder.accounts import AccountError, author_of, endpoint_key

        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else None
        try:
            author = await read(author_of, store, token, False)
        except AccountError as exc:
            return _error(str(exc), exc.status)
        pending = await read(store.is_pending, author)
        from arena.ladder.jobs import position

        versions = await read(lambda: store.versions(author=author))
        key = await read(endpoint_key, store, author)
        return JSONResponse({"author": author, "endpoint_key": key, "approved": not pending, "changes": await read(store.changes), "versions": [
            {"id": v["id"], "bot": v["bot"], "version": v["number"], "label": board.label(v), "kind": v["kind"],
             "games": v["games"], "status": v["status"], "reason": v["reason"], "created": v["created"],
             "queue": position(ladder, v["id"]) if v["status"] == "validating" else None,
             "url": f"/ladder/bots/{v['bot']}"} for v in reversed(versions)]})

    # -- the live feed ----------------------------------------------------------------------------
    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            yield f"retry: {RETRY_MS}\n\n"
            last: int | None = None
            quiet_since = started = time.monotonic()
            while time.monotonic() - started < STREAM_SECONDS and not _stopping(ladder):
                now = await read(store.changes)
                if now != last:
                    last = now
                    quiet_since = time.monotonic()
                    yield f"event: change\nid: {now}\ndata: {json.dumps({'changes': now})}\n\n"
                elif time.monotonic() - quiet_since >= HEARTBEAT:
                    quiet_since = time.monotonic()
                    yield ": heartbeat\n\n"
                await asyncio.sleep(POLL)

        # Starlette ends the stream (cancels it) when the client disconnects.
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    get: Callable[[str, Callable[[Request], Awaitable[Response]]], Route] = lambda path, fn: Route(path, fn, methods=["GET"])
    return [
        get("/ladder", board_page),
        get("/ladder/", board_page),
        get("/ladder/submit", submit_page),
        get("/ladder/bots/{name}", bot_html),
        get("/ladder/matches/{id}/replay", replay),
        get("/api/ladder/board", board_json),
        get("/api/ladder/bots/{name}", bot_json),
        get("/api/ladder/matches/{id}", match_json),
        get("/api/ladder/me", me_json),
        streaming(get("/api/ladder/events", events)),  # counted and limited like WebSockets (arena.web.guard)
        Mount("/ladder/static", StaticFiles(directory=STATIC, check_dir=False), name="ladder-static"),
    ]
