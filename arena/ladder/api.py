"""The ladder's JSON routes for authors: register, submit, retire (docs/submitting.md).

``POST /api/ladder/authors {"name"}`` -> 201 ``{"name", "token", "endpoint_key", "approved"}`` (409 if
taken; 429 with ``Retry-After`` past the registrations' limit, per client address and in all;
``approved`` false: the ladder approves new authors, who submit once `arena ladder-approve` names them);
``POST /api/ladder/bots {"name", "kind", "games", ...}`` with ``Authorization: Bearer TOKEN`` ->
201 the version (status 'validating', or 'refused' with the reason when it does not install);
``POST /api/ladder/bots/NAME/retire`` -> 200 the retired versions; ``GET /api/ladder/versions/ID``
-> a version (its status and reason: what ``arena submit --wait`` polls); ``GET
/api/ladder/bots/NAME/logs/MATCH`` with the token -> the bot's logs of that match (its author's
only: arena.ladder.logs).

Errors are ``{"error": "..."}`` with 400, 401 (no valid token), 403 (another author's bot), 404,
409, 413 (over the size limit, told by Content-Length before anything is read, or while reading),
429 (over the rate limit); never a traceback.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena.ladder import accounts, jobs, logs, submissions
from arena.ladder.accounts import AccountError
from arena.web.guard import with_body_limit
from arena.web.limits import Limit, Limited, Limiter, too_many

SMALL_BODY = 16 * 1024  # bytes of a request without an upload
REGISTRATIONS = Limit(5, 720.0)  # new authors per client address: five, then one every 12 minutes
REGISTRATIONS_OVERALL = Limit(30, 60.0)  # ... and in all: thirty, then one a minute
log = logging.getLogger(__name__)


def body_limit(ladder: Any) -> int:
    """The most bytes a submission's body may have: its upload in base64 (4/3) and the rest."""
    return submissions.max_upload(ladder) * 4 // 3 + 64 * 1024


async def _json(request: Request, limit: int) -> dict[str, Any]:
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise AccountError("the Content-Length header is not a number", 400)
        if int(length) > limit:
            raise AccountError(f"the request is {length} bytes, over the limit of {limit}", 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise AccountError(f"the request is over the limit of {limit} bytes", 413)
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks) or b"null")
    except (ValueError, RecursionError):
        raise AccountError("the request's body is not JSON", 400) from None
    if not isinstance(data, dict):
        raise AccountError("the request's body must be a JSON object", 400)
    return data


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


Handler = Callable[[Request], Awaitable[Response]]


def _errors(handler: Handler) -> Handler:
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except AccountError as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        except Limited as exc:
            return too_many(exc)
        except ClientDisconnect:
            return Response(status_code=400)
        except Exception:  # a bug here is logged on the server, never shown to the client as a traceback
            log.exception("ladder API: %s %s", request.method, request.url.path)
            return JSONResponse({"error": "internal error (logged on the server)"}, status_code=500)

    return wrapped


def routes(ladder: Any) -> list[Route]:
    """The authors' routes of ``ladder`` (an arena.ladder.scheduler.Ladder: its ``store``,
    ``registry``, ``config``, ``data_dir``, ``max_upload``, ``rate_limit``). Versions left
    'validating' by an earlier run are queued again now (installed, then validated)."""
    store = ladder.store
    registrations = Limiter("registrations", getattr(ladder, "registrations", None) or REGISTRATIONS,
                            REGISTRATIONS_OVERALL)
    pending = bool(getattr(ladder, "approve_authors", False))

    @_errors
    async def authors(request: Request) -> Response:
        data = await _json(request, SMALL_BODY)
        accounts.check_name(data.get("name"), "the author name")  # a bad name costs no registration
        registrations.take(request.client.host if request.client else "unknown")
        token = await run_in_threadpool(accounts.register, store, data.get("name"),
                                        getattr(ladder, "registry", None), pending)
        key = await run_in_threadpool(accounts.endpoint_key, store, data["name"])
        return JSONResponse({"name": data["name"], "token": token, "endpoint_key": key, "approved": not pending},
                            status_code=201)

    @_errors
    async def bots(request: Request) -> Response:
        author = await run_in_threadpool(accounts.author_of, store, _token(request))
        data = await _json(request, body_limit(ladder))
        version = await run_in_threadpool(submissions.submit, ladder, author, data)
        return JSONResponse(submissions.public(version, ladder), status_code=201)

    @_errors
    async def retire(request: Request) -> Response:
        author = await run_in_threadpool(accounts.author_of, store, _token(request))
        retired = await run_in_threadpool(submissions.retire, ladder, author, request.path_params["name"])
        return JSONResponse({"bot": request.path_params["name"], "retired": [submissions.public(v, ladder) for v in retired]})

    @_errors
    async def version(request: Request) -> Response:
        text = request.path_params["id"]
        found = store.version(int(text)) if text.isdigit() and len(text) < 12 else None
        if found is None:
            raise AccountError(f"no version has id {text!r}", 404)
        return JSONResponse(submissions.public(found, ladder))

    @_errors
    async def bot_logs(request: Request) -> Response:
        author = await run_in_threadpool(accounts.author_of, store, _token(request))
        found = await run_in_threadpool(logs.bot_logs, ladder, author, request.path_params["name"],
                                        request.path_params["match"])
        return JSONResponse(found)

    jobs.resume(ladder)
    return [
        with_body_limit(Route("/api/ladder/authors", authors, methods=["POST"]), SMALL_BODY),
        with_body_limit(Route("/api/ladder/bots", bots, methods=["POST"]), body_limit(ladder)),
        Route("/api/ladder/bots/{name}/retire", retire, methods=["POST"]),
        Route("/api/ladder/versions/{id}", version, methods=["GET"]),
        Route("/api/ladder/bots/{name}/logs/{match}", bot_logs, methods=["GET"]),
    ]
