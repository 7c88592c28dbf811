"""Bots over gRPC: a bot server somewhere (``grpc://host:port``, ``grpcs://`` with TLS) or a command
the arena launches itself (``cmd:...``). Both are hosts like the others: same observations, same
clocks, same fault policy.

The arena is the client of the bot's ``arena.v1.Player`` service (``proto/arena/v1/player.proto``).
Every call has a deadline: a decision's is its time limit plus :data:`~arena.players.hosts.GRACE`;
a notification's is the referee's. What goes wrong becomes what the referee understands:

* no answer in time (``DEADLINE_EXCEEDED``), or an answer after the limit: :class:`BotTimeout`
  (``timeout``);
* unreachable, or the connection lost (``UNAVAILABLE``): :class:`BotDisconnected`, a
  :class:`BotCrash` (``crash``);
* the bot failed the call (any other status), speaks another protocol version, or does not play
  the game: :class:`BotCrash` (``crash``);
* an oversized or unparseable Decision, or one without an action: a
  :class:`~arena.players.hosts.Garbage` answer, which the referee judges ``malformed``;
* an action string: the referee judges it (``malformed`` if it is no action of the game,
  ``illegal`` if it is not legal now).

The host of a launched command, :class:`arena.players.command.CommandHost`, is this module's
:class:`GrpcHost` with a launcher.
"""

from __future__ import annotations

import os
import re
import shlex
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Mapping
from urllib.parse import urlsplit

import grpc

from arena import wire
from arena.errors import ArenaError
from arena.players.base import MatchInfo
from arena.players.hosts import GRACE, BotCrash, BotTimeout, Host
from arena.v1 import player_pb2_grpc

SCHEMES = ("grpc", "grpcs")
COMMAND_PREFIX = "cmd:"

# The environment of a launched command (and of TLS for the arena as a client).
ENV_PORT = "ARENA_BOT_PORT"  # the port a launched command must serve on (127.0.0.1)
ENV_HOST = "ARENA_BOT_HOST"  # the address it must listen on: 127.0.0.1
ENV_SOCKET = "ARENA_BOT_SOCKET"  # in a sandbox (no network): the Unix socket it must serve on instead
ENV_CA = "ARENA_GRPC_CA"  # PEM file of the CA(s) a grpcs:// bot's certificate must chain to
ENV_CERT = "ARENA_GRPC_CERT"  # PEM certificate of the arena, for bots that ask for one (mutual TLS)
ENV_KEY = "ARENA_GRPC_KEY"  # its private key
ENV_SERVER_NAME = "ARENA_GRPC_SERVER_NAME"  # the name to check the bot's certificate against, if not its host


class BotDisconnected(BotCrash):
    """The bot could not be reached, or the connection to it was lost (gRPC ``UNAVAILABLE``)."""


@dataclass(frozen=True)
class Address:
    """A parsed ``grpc://host:port`` or ``grpcs://host:port``."""

    scheme: str
    host: str
    port: int
    owner_key: str = ""  # the key the bot must answer in its description (a ladder's endpoint), if any

    @property
    def target(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    @property
    def tls(self) -> bool:
        return self.scheme == "grpcs"

    def __str__(self) -> str:  # never with its owner key: it is named in fault messages, which are public
        return f"{self.scheme}://{self.target}"


@dataclass(frozen=True)
class UnixAddress(Address):
    """A Unix socket (``host`` is its path): how the arena reaches a sandboxed command."""

    @property
    def target(self) -> str:
        return f"unix:{self.host}"

    def __str__(self) -> str:
        return f"unix:{self.host}"


_OWNER = re.compile(r"owner=([A-Za-z0-9_-]{1,128})")


def parse_address(text: str) -> Address:
    """Parse a seat name ``grpc://host:port`` / ``grpcs://host:port``, with ``?owner=KEY`` when the
    bot must answer KEY in its description (a ladder's endpoint); ArenaError says what is wrong."""
    parts = urlsplit(text.strip())
    owner = _OWNER.fullmatch(parts.query) if parts.query else None
    if parts.scheme not in SCHEMES:
        raise ArenaError(f"{text!r} is not a gRPC address: write grpc://HOST:PORT or grpcs://HOST:PORT")
    try:
        port = parts.port
    except ValueError:
        port = None
    if not parts.hostname or port is None or parts.path not in ("", "/") or parts.query and not owner \
            or parts.fragment:
        raise ArenaError(f"{text!r} is not a gRPC address: write {parts.scheme}://HOST:PORT (a host and a port, "
                         "nothing else but ?owner=KEY)")
    return Address(parts.scheme, parts.hostname, port, owner.group(1) if owner else "")


def channel_options(max_send: int, max_receive: int) -> list[tuple[str, Any]]:
    return [
        ("grpc.max_send_message_length", max_send),
        ("grpc.max_receive_message_length", max_receive),
        ("grpc.enable_retries", 0),  # a call is made once: never a decision asked twice behind our back
    ]


def _read(path: str | None) -> bytes | None:
    if not path:
        return None
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise ArenaError(f"cannot read the TLS file {path}: {exc.strerror}") from None


class GrpcHost(Host):
    """A bot server reached over gRPC, one session per match.

    ``ca_file``, ``cert_file``, ``key_file`` and ``server_name`` configure TLS (``grpcs://``); each
    defaults to its environment variable (``ARENA_GRPC_CA``, ...). Without a CA file the system's
    roots are trusted. ``seed`` and ``settings`` are sent to the bot at the start of each match,
    as a plugin bot's factory receives them. The notifications the bot's description says it does
    not need (``ignores``: ``end_hand``, ``end_match``) are not sent in that match (:attr:`ignored`).
    ``address`` None: connect later (:meth:`_connect`; a launched command's host, once per launch).
    """

    def __init__(
        self,
        address: str | Address | None,
        *,
        seed: int = 0,
        settings: Mapping[str, Any] | None = None,
        ca_file: str | None = None,
        cert_file: str | None = None,
        key_file: str | None = None,
        server_name: str | None = None,
        max_send: int = wire.MAX_REQUEST_BYTES,
        max_receive: int = wire.MAX_ANSWER_BYTES,
    ):
        self.seed = seed
        self.settings = dict(settings or {})
        self.max_send = max_send
        self.max_receive = max_receive
        self.tls_files = (ca_file, cert_file, key_file, server_name)
        self.channel: Any = None
        self.stub: Any = None
        if address is not None:
            self._connect(address if isinstance(address, Address) else parse_address(address))

    def _connect(self, address: Address) -> None:
        """A channel to ``address``, and a fresh session (nothing said yet)."""
        self.address = address
        self.description: dict[str, Any] | None = None  # what the bot said of itself at the last start
        self.session_id = ""
        self.decisions = 0
        self.info: MatchInfo | None = None
        options = channel_options(self.max_send, self.max_receive)
        if address.tls:
            ca_file, cert_file, key_file, server_name = self.tls_files
            credentials = grpc.ssl_channel_credentials(
                root_certificates=_read(ca_file or os.environ.get(ENV_CA)),
                private_key=_read(key_file or os.environ.get(ENV_KEY)),
                certificate_chain=_read(cert_file or os.environ.get(ENV_CERT)),
            )
            name = server_name or os.environ.get(ENV_SERVER_NAME)
            if name:
                options.append(("grpc.ssl_target_name_override", name))
            self.channel = grpc.secure_channel(address.target, credentials, options=options)
        else:
            self.channel = grpc.insecure_channel(address.target, options=options)
        self.stub = player_pb2_grpc.PlayerStub(self.channel)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.address)!r})"

    # -- calls ---------------------------------------------------------------------------------
    def _call(self, what: str, method: Callable[..., Any], request: Any, timeout: float) -> tuple[Any, float]:
        """Make one call with a deadline of ``timeout`` + grace; map failures to BotTimeout/BotCrash."""
        start = time.perf_counter()
        try:
            reply = method(request, timeout=max(timeout, 0.0) + GRACE)
        except grpc.RpcError as exc:
            elapsed = time.perf_counter() - start
            raise self._failure(what, exc, elapsed, timeout) from None
        except ValueError as exc:  # "Cannot invoke RPC on closed channel!": the bot's command was stopped
            raise BotCrash(f"the bot at {self.address} cannot be reached ({what}): {exc}") from None
        elapsed = time.perf_counter() - start
        if elapsed > timeout:
            raise BotTimeout(elapsed, timeout)
        return reply, elapsed

    def _failure(self, what: str, exc: grpc.RpcError, elapsed: float, timeout: float) -> Exception:
        code = exc.code() if hasattr(exc, "code") else None
        details = (exc.details() if hasattr(exc, "details") else "") or ""
        if code == grpc.StatusCode.DEADLINE_EXCEEDED:
            # A timeout only when the arena measured one: a bot that answers DEADLINE_EXCEEDED at
            # once has not run out of time; it failed the call (a crash), whatever it says.
            if elapsed >= timeout:
                return BotTimeout(elapsed, timeout)
            return BotCrash(f"the bot at {self.address} failed {what} with DEADLINE_EXCEEDED after "
                            f"{elapsed:.3f} s, within its limit of {timeout:.3f} s: {details}")
        if code == grpc.StatusCode.UNAVAILABLE:
            return BotDisconnected(f"the bot at {self.address} is unreachable or disconnected ({what}): {details}")
        name = code.name if code is not None else "an unknown status"
        return BotCrash(f"the bot at {self.address} failed {what} with {name}: {details}")

    # -- the host interface ----------------------------------------------------------------------
    def start(self, info: MatchInfo, timeout: float) -> None:
        from arena import __version__ as arena_version

        self.info = info
        self.session_id = uuid.uuid4().hex
        self.decisions = 0
        self.ignored = frozenset()
        reply, _ = self._call("Describe", self.stub.Describe, wire.describe_request(arena_version), timeout)
        self.description = wire.description_from_proto(reply)
        if self.address.owner_key and self.description["owner_key"] != self.address.owner_key:
            # Someone else's server (a copy of another author's endpoint): it does not play as this seat's
            raise BotCrash(f"the bot at {self.address} does not answer its author's endpoint key (its owner_key "
                           f"is {'empty' if not self.description['owner_key'] else 'another'}): it is not the "
                           "endpoint of the author who submitted it")
        version = self.description["protocol_version"]
        if version != wire.PROTOCOL_VERSION:
            raise BotCrash(f"the bot at {self.address} speaks protocol version {version}; the arena speaks {wire.PROTOCOL_VERSION}")
        games = self.description["games"]
        if games is not None and info.game not in games:
            raise BotCrash(f"the bot at {self.address} ({self.description['name']}) does not play {info.game!r}; "
                           f"it plays {', '.join(games)}")
        request = wire.start_to_proto(info, self.session_id, self.seed, self.settings)
        self._call("StartMatch", self.stub.StartMatch, request, timeout)
        self.ignored = self.description["ignores"]  # the referee skips these notifications

    def decide(self, observation: dict[str, Any], timeout: float) -> tuple[Any, float]:
        self.decisions += 1
        request = wire.observation_to_proto(observation, self.session_id, self.decisions)
        start = time.perf_counter()
        try:
            reply = self.stub.Decide(request, timeout=max(timeout, 0.0) + GRACE)
        except ValueError as exc:  # "Cannot invoke RPC on closed channel!": the bot's command was stopped
            raise BotCrash(f"the bot at {self.address} cannot be reached (Decide): {exc}") from None
        except grpc.RpcError as exc:
            elapsed = time.perf_counter() - start
            code, details = exc.code(), exc.details() or ""
            size = request.ByteSize()
            if code == grpc.StatusCode.RESOURCE_EXHAUSTED and _refused_size(details) == size:
                # What the arena measured decides: its request was within the protocol's limit
                # (gRPC refuses to send a larger one), so the refusal is the bot's fault, however worded.
                raise BotCrash(f"the bot at {self.address} refused a request of {size} bytes, within the "
                               f"{self.max_send} bytes every bot must accept: {details}") from None
            if code == grpc.StatusCode.RESOURCE_EXHAUSTED or (
                code == grpc.StatusCode.INTERNAL and "deserializ" in details.lower()
            ):
                if elapsed > timeout:
                    raise BotTimeout(elapsed, timeout) from None
                kind = "an oversized" if code == grpc.StatusCode.RESOURCE_EXHAUSTED else "an unparseable"
                return wire.garbage(f"{kind} Decision: {details}"), elapsed
            raise self._failure("Decide", exc, elapsed, timeout) from None
        elapsed = time.perf_counter() - start
        if elapsed > timeout:
            raise BotTimeout(elapsed, timeout)
        return wire.decision_from_proto(reply), elapsed

    def notify(self, event: str, payload: dict[str, Any], timeout: float) -> None:
        if event in self.ignored:  # the bot said it does not need it (the referee skips it already)
            return
        if event == "end_hand":
            self._call("EndHand", self.stub.EndHand, wire.end_hand_to_proto(payload, self.session_id), timeout)
        elif event == "end_match":
            self._call("EndMatch", self.stub.EndMatch, wire.end_match_to_proto(payload, self.session_id), timeout)
        else:
            raise ValueError(f"unknown notification {event!r}")

    def close(self) -> None:
        if self.channel is not None:
            self.channel.close()


def _refused_size(details: str) -> int | None:
    """The size in gRPC's "Received message larger than max (N vs. M)", if that is what it says."""
    match = re.search(r"larger than max \((\d+) vs\. \d+\)", details)
    return int(match.group(1)) if match else None


# -- launched commands ---------------------------------------------------------------------------


def command_argv(command: str, port: int, socket_path: str = "") -> list[str]:
    """The command's words (shell-like quoting, no shell), with ``{port}`` replaced by the port
    (and ``{socket}`` by the Unix socket's path, for a sandboxed command)."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ArenaError(f"cannot parse the command {command!r}: {exc}") from None
    if not words:
        raise ArenaError("the command after cmd: is empty")
    return [word.replace("{port}", str(port)).replace("{socket}", socket_path) for word in words]
