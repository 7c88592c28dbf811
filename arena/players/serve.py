"""Serve a Python bot over gRPC: any :class:`~arena.players.base.Player` becomes a bot server that an
arena on this machine or another reaches as ``grpc://host:port`` (or launches as ``cmd:...``).

* :func:`serve_player` serves a bot (a :class:`~arena.players.base.BotSpec` or a plugin factory
  ``factory(settings, seed)``): each match the arena starts is a session with a fresh player made
  by the factory, told ``start_match``, asked ``act`` and told ``end_hand``/``end_match`` exactly as
  the referee does in-process. It also serves the standard gRPC health check (SERVING once ready).
* ``arena serve-bot NAME --port N`` serves any installed bot (:func:`add_serve_bot_parser`);
  ``python -m arena.players.serve NAME --port N`` is the same command.

A bot whose player does not implement ``end_hand`` (it inherits :class:`Player`'s) says so in its
description (``BotDescription.ignores``), and the arena does not send EndHand; the same for
``end_match`` when the player implements neither ``end_match`` nor ``close``. As the isolated host,
the server finds this out from a player: one made by the factory with no settings and seed 0.

What the bot's code does wrong is reported the way the arena understands: an exception fails the
call (status UNKNOWN, the arena records a ``crash`` with the exception), an answer that is not a
string is sent as a Decision without an action (the arena records ``malformed``).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import traceback
from collections import OrderedDict
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from arena import wire
from arena.players.base import BotFactory, BotSpec, Player
from arena.players.hosts import ignored_calls
from arena.v1 import player_pb2 as pb
from arena.v1 import player_pb2_grpc

log = logging.getLogger(__name__)

ENV_OWNER_KEY = "ARENA_OWNER_KEY"  # the ladder's endpoint key of the bot's author (BotDescription.owner_key)
MAX_SESSIONS = 256  # sessions kept at once; beyond that the least recently used idle one is dropped


@dataclass
class _Session:
    player: Player
    lock: threading.Lock = field(default_factory=threading.Lock)


def _cause(exc: BaseException) -> str:
    lines = traceback.format_exception(exc, limit=-3)
    return f"the bot raised {type(exc).__name__}: {exc}\n" + "".join(lines).strip()


def ignorable(player: Player) -> frozenset[str]:
    """The notifications the arena need not send to ``player`` (see BotDescription.ignores)."""
    ignored = ignored_calls(player)
    names = {"end_hand"} & ignored
    if {"end_match", "close"} <= ignored:  # EndMatch also closes the player: only if it has nothing to close
        names.add("end_match")
    return frozenset(names)


def _probe(factory: BotFactory) -> frozenset[str]:
    """:func:`ignorable` for a player made with no settings and seed 0 (nothing, if that fails)."""
    try:
        player = factory({}, 0)
    except Exception:
        return frozenset()
    try:
        return ignorable(player)
    finally:
        _close(player)


class PlayerService(player_pb2_grpc.PlayerServicer):
    """The ``arena.v1.Player`` service around a bot factory: one player per session (match).

    ``ignores`` are the notifications the description says the bot does not need; None: those of
    a player the factory makes with no settings (:func:`ignorable`).
    """

    def __init__(
        self,
        factory: BotFactory,
        *,
        name: str,
        version: str = "",
        games: Sequence[str] | None = None,
        summary: str = "",
        max_sessions: int = MAX_SESSIONS,
        ignores: Sequence[str] | None = None,
        owner_key: str = "",
    ):
        self.factory = factory
        self.ignores = _probe(factory) if ignores is None else frozenset(ignores)
        self.description = wire.description_to_proto(name, version, tuple(games) if games else None, summary,
                                                     self.ignores, owner_key)
        self.max_sessions = max_sessions
        self.sessions: OrderedDict[str, _Session] = OrderedDict()
        self._lock = threading.Lock()

    # -- sessions ------------------------------------------------------------------------------
    def _session(self, session_id: str, context: grpc.ServicerContext) -> _Session:
        with self._lock:
            session = self.sessions.get(session_id)
            if session is not None:
                self.sessions.move_to_end(session_id)  # the least recently used is dropped first
        if session is None:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                          f"unknown session {session_id!r}: StartMatch first (or the session was dropped)")
        return session  # type: ignore[return-value]

    def _add(self, session_id: str, player: Player) -> None:
        dropped = []
        with self._lock:
            old = self.sessions.pop(session_id, None)
            if old is not None:
                dropped.append(old)
            while len(self.sessions) >= self.max_sessions:
                oldest = next((key for key, s in self.sessions.items() if not s.lock.locked()), None)
                if oldest is None:
                    break
                dropped.append(self.sessions.pop(oldest))
            self.sessions[session_id] = _Session(player)
        for session in dropped:
            _close(session.player)

    def _drop(self, session_id: str) -> None:
        with self._lock:
            session = self.sessions.pop(session_id, None)
        if session is not None:
            _close(session.player)

    def close(self) -> None:
        with self._lock:
            sessions, self.sessions = list(self.sessions.values()), OrderedDict()
        for session in sessions:
            _close(session.player)

    # -- the service -----------------------------------------------------------------------------
    def Describe(self, request: pb.DescribeRequest, context: grpc.ServicerContext) -> pb.BotDescription:
        return self.description

    def StartMatch(self, request: pb.StartMatchRequest, context: grpc.ServicerContext) -> pb.Ack:
        try:
            info, seed, settings = wire.start_from_proto(request)
        except ValueError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"bad StartMatch: {exc}")
        failure = None
        try:
            player = self.factory(settings, seed)
            player.start_match(info)
        except (Exception, SystemExit) as exc:
            failure = _cause(exc)
        if failure is not None:
            context.abort(grpc.StatusCode.UNKNOWN, failure)
        needed = self.ignores - ignorable(player)
        if needed:  # this match's player is of another kind than the probe: describe it right from now on
            log.warning("session %s: the player implements %s, which the description said it ignores; "
                        "the arena may skip them in this match (declare ignores=() for this bot)",
                        request.session_id, ", ".join(sorted(needed)))
            with self._lock:
                self.ignores -= needed
                description = pb.BotDescription()
                description.CopyFrom(self.description)
                del description.ignores[:]
                description.ignores.extend(sorted(self.ignores))
                self.description = description  # a new message: Describe may be sending the old one
        self._add(request.session_id, player)
        return pb.Ack()

    def Decide(self, request: pb.DecisionRequest, context: grpc.ServicerContext) -> pb.Decision:
        session = self._session(request.session_id, context)
        observation = wire.lazy_observation_from_proto(request)  # the JSON is parsed if the bot reads it
        failure = None
        with session.lock:  # one call at a time per player: a late call may still be running
            if not context.is_active():  # the arena gave up while it waited: don't ask the player
                context.abort(grpc.StatusCode.CANCELLED, "the deadline passed before the bot was free")
            try:
                answer = session.player.act(observation)
            except (Exception, SystemExit) as exc:
                failure = _cause(exc)
        if failure is not None:
            context.abort(grpc.StatusCode.UNKNOWN, failure)
        if not isinstance(answer, str):
            log.warning("session %s: the bot answered %r, not an action string", request.session_id, answer)
        return wire.decision_to_proto(answer)

    def _notify(self, request: Any, context: grpc.ServicerContext, event: str, payload: dict[str, Any]) -> None:
        session = self._session(request.session_id, context)
        failure = None
        with session.lock:
            try:
                getattr(session.player, event)(payload)
            except (Exception, SystemExit) as exc:
                failure = _cause(exc)
        if failure is not None:
            context.abort(grpc.StatusCode.UNKNOWN, failure)

    def EndHand(self, request: pb.EndHandRequest, context: grpc.ServicerContext) -> pb.Ack:
        try:
            payload = wire.end_hand_from_proto(request)
        except ValueError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"bad EndHand: {exc}")
        self._notify(request, context, "end_hand", payload)
        return pb.Ack()

    def EndMatch(self, request: pb.EndMatchRequest, context: grpc.ServicerContext) -> pb.Ack:
        try:
            payload = wire.end_match_from_proto(request)
        except ValueError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"bad EndMatch: {exc}")
        try:
            self._notify(request, context, "end_match", payload)
        finally:
            self._drop(request.session_id)
        return pb.Ack()


def _close(player: Player) -> None:
    try:
        player.close()
    except Exception:  # a bot failing to close must not take the server down
        log.exception("a player failed to close")


class BotServer:
    """A running bot server: ``address`` (``host:port``), ``port``, :meth:`stop`, :meth:`wait`."""

    def __init__(self, server: grpc.Server, service: PlayerService, health_servicer: health.HealthServicer,
                 host: str, port: int, tls: bool):
        self.server = server
        self.service = service
        self.health = health_servicer
        self.host = host
        self.port = port
        self.tls = tls

    @property
    def address(self) -> str:
        if self.host.startswith("unix:"):  # a Unix socket: its path is the whole address
            return self.host
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    @property
    def url(self) -> str:
        """The seat name an arena uses for this bot: ``grpc://host:port`` or ``grpcs://host:port``."""
        if self.host.startswith("unix:"):
            return self.host
        return f"{'grpcs' if self.tls else 'grpc'}://{self.address}"

    def stop(self, grace: float | None = None) -> None:
        """Stop serving (answering NOT_SERVING first); calls in progress get ``grace`` seconds."""
        self.health.enter_graceful_shutdown()
        self.server.stop(grace).wait()
        self.service.close()

    def wait(self, timeout: float | None = None) -> bool:
        return self.server.wait_for_termination(timeout)

    def __enter__(self) -> "BotServer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop(0)


def serve_player(
    bot: BotSpec | BotFactory,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    name: str | None = None,
    version: str | None = None,
    games: Sequence[str] | None = None,
    summary: str | None = None,
    tls_cert: str | None = None,
    tls_key: str | None = None,
    tls_client_ca: str | None = None,
    max_workers: int = 8,
    max_receive: int = wire.MAX_REQUEST_BYTES,
    max_send: int = wire.MAX_ANSWER_BYTES,
    max_sessions: int = MAX_SESSIONS,
    ignores: Sequence[str] | None = None,
    socket_path: str | None = None,
    owner_key: str | None = None,
) -> BotServer:
    """Serve ``bot`` on ``host:port`` (port 0: any free port; see ``BotServer.port``) and return at once.

    ``bot`` is a BotSpec (its name, summary and games describe it) or a factory
    ``factory(settings, seed) -> Player``. With ``tls_cert`` and ``tls_key`` (PEM files) it serves
    TLS; with ``tls_client_ca`` too it asks the arena for a certificate signed by that CA.
    ``ignores``: the notifications the arena need not send (None: found from a player the factory
    makes with no settings; ``()``: every call, for a factory whose players differ by settings).
    ``socket_path``: serve on that Unix socket instead of ``host:port`` (a sandboxed bot has no
    network; the arena gives it the path in ``$ARENA_BOT_SOCKET``).
    ``owner_key``: the endpoint key a ladder gave its author, answered in the bot's description
    (default ``$ARENA_OWNER_KEY``): a ladder plays an endpoint only while it answers its author's key.
    """
    from arena import __version__ as arena_version

    if isinstance(bot, BotSpec):
        factory: Callable[..., Player] = bot.factory
        name = name or bot.name
        games = games if games is not None else bot.games
        summary = summary if summary is not None else bot.summary
    else:
        factory = bot
        name = name or str(getattr(bot, "__name__", "bot"))
    if version is None:
        module = sys.modules.get(getattr(factory, "__module__", "") or "")
        version = str(getattr(module, "__version__", arena_version))
    service = PlayerService(factory, name=name, version=version, games=games, summary=summary or "",
                            max_sessions=max_sessions, ignores=ignores,
                            owner_key=os.environ.get(ENV_OWNER_KEY, "") if owner_key is None else owner_key)
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix=f"bot-{name}"),
        options=[
            ("grpc.max_receive_message_length", max_receive),
            ("grpc.max_send_message_length", max_send),
            ("grpc.so_reuseport", 0),  # a port already in use is an error, not a shared port
        ],
    )
    player_pb2_grpc.add_PlayerServicer_to_server(service, server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if socket_path:
        bind = f"unix:{socket_path}"
    tls = bool(tls_cert or tls_key)
    try:
        if tls:
            if not (tls_cert and tls_key):
                raise ValueError("TLS needs both a certificate and its key")
            with open(tls_key, "rb") as key_file, open(tls_cert, "rb") as cert_file:
                pair = (key_file.read(), cert_file.read())
            client_ca = None
            if tls_client_ca:
                with open(tls_client_ca, "rb") as ca_file:
                    client_ca = ca_file.read()
            credentials = grpc.ssl_server_credentials([pair], root_certificates=client_ca,
                                                      require_client_auth=client_ca is not None)
            bound = server.add_secure_port(bind, credentials)
        else:
            bound = server.add_insecure_port(bind)
    except (OSError, RuntimeError, ValueError) as exc:
        from arena.errors import ArenaError

        raise ArenaError(f"cannot serve bot {name!r} on {bind}: {exc}") from None
    if not bound:
        from arena.errors import ArenaError

        raise ArenaError(f"cannot serve bot {name!r} on {bind}: the address is in use or not available")
    server.start()
    for service_name in ("", wire.SERVICE_NAME):
        health_servicer.set(service_name, health_pb2.HealthCheckResponse.SERVING)
    if socket_path:
        return BotServer(server, service, health_servicer, f"unix:{socket_path}", 0, tls)
    return BotServer(server, service, health_servicer, host, bound, tls)


# -- the command line: arena.players.serve_command ------------------------------------------------


if __name__ == "__main__":  # `python -m arena.players.serve`: a program, so it may reach the command layer
    from arena.players.serve_command import main

    sys.exit(main())
