"""What keeps one client from stalling `arena serve` and `arena ladder` for everyone else
(docs/security.md, "Servers under abusive clients").

* :class:`GuardMiddleware` (ASGI, in front of every route):
  - a request's body is read here, before the route runs, up to its route's limit
    (:func:`with_body_limit`, else :attr:`Guard.max_body`): over it, 413 at once, told by the
    ``Content-Length`` before anything is read or while reading a chunked body, and the connection
    is closed, so the rest is never read;
  - a body that stops coming (:attr:`Guard.body_idle` seconds without a byte) or comes too slowly
    (:meth:`Guard.body_deadline`) is answered 408 and its connection closed;
  - a client that goes away in the middle is one logged line, never a traceback;
  - WebSockets and event streams (routes marked :func:`streaming`) are counted, in all and per
    client address; one over the limit is refused with a message saying so.
* :func:`protocol` is uvicorn's h11 protocol with a deadline for a request's headers (slowloris:
  a connection that sends its headers a byte at a time is closed after :attr:`Guard.header_timeout`).
* :func:`raise_file_limit` lifts the process's soft limit of open files to its hard limit.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, MutableMapping

log = logging.getLogger("arena.web.guard")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


@dataclass(frozen=True)
class Guard:
    """The limits of one server (the defaults are `arena serve`'s and `arena ladder`'s)."""

    max_body: int = 64 * 1024  # bytes of a request body where its route sets no limit of its own
    header_timeout: float = 10.0  # seconds for a request's headers, from the connection (or the last response)
    body_idle: float = 10.0  # seconds without a byte of a body that is still coming
    body_seconds: float = 30.0  # seconds for any body, plus one per body_rate bytes of it
    body_rate: int = 64 * 1024  # bytes per second a large body must keep up on average
    websockets: int = 512  # WebSockets open at once, in all
    websockets_per_address: int = 32  # ... from one client address
    streams: int = 512  # event streams open at once, in all
    streams_per_address: int = 16  # ... from one client address

    def body_deadline(self, length: int | None, limit: int) -> float:
        """Seconds a whole body of ``length`` bytes (None: chunked, up to ``limit``) may take."""
        return self.body_seconds + (limit if length is None else length) / self.body_rate


def with_body_limit(route: Any, limit: int) -> Any:
    """Mark a route as taking bodies of up to ``limit`` bytes (an upload); returns the route."""
    route.arena_body_limit = limit
    return route


def streaming(route: Any) -> Any:
    """Mark a route as an event stream (a long response): counted like a WebSocket."""
    route.arena_streaming = True
    return route


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def _answer(send: Send, status: int, message: str, retry_after: int | None = None) -> None:
    """A JSON error, then the connection is closed (``Connection: close``): a body not read stays unread."""
    body = json.dumps({"error": message}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class _Gone(Exception):
    """The client disconnected while sending its body."""


class GuardMiddleware:
    """The ASGI middleware of :class:`Guard` (see the module's docstring). ``body_limits`` and
    ``stream_paths``: the routes marked by :func:`with_body_limit` and :func:`streaming`."""

    def __init__(self, app: Any, guard: Guard, body_limits: dict[str, int] | None = None,
                 stream_paths: frozenset[str] = frozenset()):
        self.app = app
        self.guard = guard
        self.body_limits = dict(body_limits or {})
        self.stream_paths = stream_paths
        self.open: dict[str, int] = {"websocket": 0, "stream": 0}
        self.by_address: dict[tuple[str, str], int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            return await self._counted("websocket", scope, receive, send)
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if scope["path"] in self.stream_paths:
            return await self._counted("stream", scope, receive, send)
        try:
            body = await self._body(scope, receive)
        except _Refused as refused:
            log.warning("%s %s from %s: %s", scope["method"], scope["path"][:80], _address(scope), refused.message)
            return await _answer(send, refused.status, refused.message)
        except _Gone as gone:
            log.warning("%s %s from %s: %s", scope["method"], scope["path"][:80], _address(scope), gone)
            return None
        if body is None:
            return await self._run(scope, receive, send)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self._run(scope, replay, send)

    async def _run(self, scope: Scope, receive: Receive, send: Send) -> None:
        from starlette.requests import ClientDisconnect

        try:
            await self.app(scope, receive, send)
        except (ClientDisconnect, ConnectionError) as exc:  # the client went away: one line, no traceback
            log.warning("%s %s from %s: the client disconnected (%s)", scope.get("method", "WS"),
                        scope["path"][:80], _address(scope), type(exc).__name__)

    async def _body(self, scope: Scope, receive: Receive) -> bytes | None:
        """The whole body (None when the request has none), read within the limits."""
        limit = self.body_limits.get(scope["path"], self.guard.max_body)
        length_text = _header(scope, b"content-length")
        chunked = _header(scope, b"transfer-encoding") is not None
        if length_text is None and not chunked:
            return None
        length: int | None = None
        if length_text is not None:
            if not length_text.strip().isdigit():
                raise _Refused(400, f"the Content-Length header {length_text[:40]!r} is not a number")
            length = int(length_text)
            if length > limit:
                raise _Refused(413, f"the request is {length} bytes, over the limit of {limit} for {scope['path'][:80]}")
        started = time.monotonic()
        deadline = started + self.guard.body_deadline(length, limit)
        chunks: list[bytes] = []
        size = 0
        while True:
            left = deadline - time.monotonic()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, min(self.guard.body_idle, left)))
            except asyncio.TimeoutError:
                what = "stopped coming" if left > self.guard.body_idle else "came too slowly"
                raise _Refused(408, f"the request's body {what}: {size} bytes in {time.monotonic() - started:.0f} s") from None
            if message["type"] == "http.disconnect":
                raise _Gone(f"the client disconnected after {size} bytes of its body")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise _Refused(413, f"the request is over the limit of {limit} bytes for {scope['path'][:80]}")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _counted(self, kind: str, scope: Scope, receive: Receive, send: Send) -> None:
        address = _address(scope)
        total, per_address = ((self.guard.websockets, self.guard.websockets_per_address) if kind == "websocket"
                              else (self.guard.streams, self.guard.streams_per_address))
        key = (kind, address)
        what = "WebSockets" if kind == "websocket" else "event streams"
        if self.open[kind] >= total:
            return await self._refuse(kind, scope, receive, send, f"the server has {total} {what} open, its "
                                      "limit: try again in a minute")
        if self.by_address.get(key, 0) >= per_address:
            return await self._refuse(kind, scope, receive, send, f"your address has {per_address} {what} open "
                                      "here, the limit: close one (another tab) and try again")
        self.open[kind] += 1
        self.by_address[key] = self.by_address.get(key, 0) + 1
        try:
            await self._run(scope, receive, send)
        finally:
            self.open[kind] -= 1
            self.by_address[key] -= 1
            if not self.by_address[key]:
                del self.by_address[key]

    async def _refuse(self, kind: str, scope: Scope, receive: Receive, send: Send, message: str) -> None:
        log.warning("%s from %s refused: %s", scope["path"][:80], _address(scope), message)
        if kind == "stream":
            return await _answer(send, 503, message, retry_after=60)
        first = await receive()  # websocket.connect
        if first["type"] != "websocket.connect":
            return None
        await send({"type": "websocket.accept"})  # accepted only to say why: a browser shows no HTTP refusal
        await send({"type": "websocket.send", "text": json.dumps({"type": "error", "message": message})})
        await send({"type": "websocket.close", "code": 1013, "reason": "try again later"})


def middleware(guard: Guard, routes: list[Any]) -> Any:
    """The Starlette ``Middleware`` entry of ``guard`` over ``routes`` (their marks read here)."""
    from starlette.middleware import Middleware

    limits = {route.path: route.arena_body_limit for route in routes if hasattr(route, "arena_body_limit")}
    streams = frozenset(route.path for route in routes if getattr(route, "arena_streaming", False))
    return Middleware(GuardMiddleware, guard=guard, body_limits=limits, stream_paths=streams)


# -- the server: headers in time, and enough file descriptors ----------------------------------------
def protocol(header_timeout: float) -> type:
    """uvicorn's h11 protocol, closing a connection whose request headers are not all in within
    ``header_timeout`` seconds of its start (or of its last response)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        _armed = 0

        def _arm(self) -> None:
            self._armed += 1
            armed = self._armed
            self.loop.call_later(header_timeout, self._headers_late, armed)

        def _headers_late(self, armed: int) -> None:
            # Still waiting for the headers of the request this deadline was armed for: close.
            if armed == self._armed and self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

    return GuardedH11Protocol


def uvicorn_config(app: Any, guard: Guard | None = None, **options: Any) -> Any:
    """The uvicorn.Config of a guarded server (both commands', and the tests' servers)."""
    import uvicorn

    guard = guard or getattr(getattr(app, "state", None), "guard", None) or Guard()
    options.setdefault("log_level", "warning")
    options.setdefault("lifespan", "on")
    return uvicorn.Config(app, http=protocol(guard.header_timeout), timeout_keep_alive=5, **options)


def raise_file_limit() -> tuple[int, int]:
    """Lift the soft limit of open files to the hard limit (each connection and bot process holds
    some; the default soft limit is often 1,024). Returns the limits (soft, hard) in force."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # not allowed here: keep what there is
            pass
    return soft, hard
