"""One match from its specification: the helper every caller uses to play one.

A :class:`MatchSpec` is self-contained — game, options, seats, seeds, time control, fault policy,
isolation — so an executor anywhere (this process, a pool worker, a Ray task) can play it, and the
same specification always deals the same cards. :func:`play_match` makes the hosts, plays the
match with the referee and closes the hosts; :func:`open_hosts` and :func:`referee_for` are its
two halves, for callers that wrap hosts or time the play alone (the benchmarks).
"""

from __future__ import annotations

import contextlib
import functools
import os
import zlib
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from arena import records
from arena.games.base import SeededDecks
from arena.players.hosts import ArenaFailure, Host
from arena.players.seats import make_host, make_host_or_fault
from arena.referee import FaultPolicy, Referee, TimeControl
from arena.referee.faults import MAX_MESSAGE_CHARS, Fault, FaultKind, Response, excerpt

if TYPE_CHECKING:
    from arena.games.base import Game, GameState
    from arena.plugins.manager import Registry
    from arena.referee.match import MatchResult


def seat_seed(seed: int | str, match: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of match ``match`` of a run seeded ``seed`` (one formula for
    ``arena play``, tournaments and benchmarks)."""
    return zlib.crc32(f"{seed}/match/{match}/seat/{seat}".encode())


@dataclass(frozen=True)
class MatchSpec:
    """One match, self-contained: everything an executor anywhere needs to play it."""

    index: int  # the position in the schedule; results are rated in this order
    game: str
    options: dict[str, Any]
    deal_seed: int | str  # the seed of the deals: the same for every lineup and rotation of a deal set
    seats: tuple[str, ...]  # the name in each seat (on the board, in the record)
    bots: tuple[str, ...]  # per seat: an installed bot's name or a seat kind's name (grpc://..., cmd:...)
    settings: tuple[dict[str, Any], ...]  # per seat, passed to the bot
    bot_seeds: tuple[int, ...]  # per seat
    time_control: dict[str, Any] = field(default_factory=lambda: TimeControl().as_dict())
    faults: dict[str, Any] = field(default_factory=lambda: FaultPolicy().as_dict())
    isolation: str = "inprocess"
    limits: dict[str, Any] = field(default_factory=dict)  # the sandbox's resource limits (arena.players.limits)
    log_dir: str = ""  # where the bots' per-match logs go ("" : temporary files, removed after the match)
    lineup: tuple[str, ...] = ()  # tournaments: the bot (board name) of each side, before rotation
    rotation: int = 0
    deal_set: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "MatchSpec":
        fields = dict(data)
        for key in ("lineup", "seats", "bots", "settings", "bot_seeds"):
            if key in fields:
                fields[key] = tuple(fields[key])
        return cls(**fields)

    @classmethod
    def single(cls, game: str, bots: Sequence[str], *, seed: int | str = 0, index: int = 0,
               options: Mapping[str, Any] | None = None,
               names: Sequence[str] | None = None, settings: Sequence[Mapping[str, Any]] | None = None,
               time_control: TimeControl | None = None, policy: FaultPolicy | None = None,
               isolation: str = "inprocess", bot_seeds: Sequence[int] | None = None) -> "MatchSpec":
        """One match outside a tournament (``arena play``, benchmarks, tests): the deals from
        ``seed``, the bots' seeds by :func:`seat_seed` unless given."""
        return cls(
            index=index,
            game=game,
            options=dict(options or {}),
            deal_seed=seed,
            seats=tuple(names or bots),
            bots=tuple(bots),
            settings=tuple(dict(s) for s in (settings or [{}] * len(bots))),
            bot_seeds=tuple(bot_seeds if bot_seeds is not None else (seat_seed(seed, index, s) for s in range(len(bots)))),
            time_control=(time_control or TimeControl()).as_dict(),
            faults=(policy or FaultPolicy()).as_dict(),
            isolation=isolation,
        )


@contextlib.contextmanager
def open_hosts(registry: "Registry", spec: MatchSpec, game: "Game | None" = None, *,
               tolerant: bool = False) -> Iterator[list[Host]]:
    """The hosts of ``spec``'s seats, closed when the block ends (those made so far, if one fails).

    ``tolerant``: a seat that cannot be set up (its factory raises, its command never becomes
    ready) is a host that crashes, a recorded fault of that seat, instead of an error (tournaments).
    """
    name = game.name if game is not None else spec.game
    make = make_host_or_fault if tolerant else make_host
    hosts: list[Host] = []
    try:
        for seat, bot in enumerate(spec.bots):
            hosts.append(make(registry, bot, game=name, seed=spec.bot_seeds[seat],
                              isolation=spec.isolation, settings=spec.settings[seat], limits=spec.limits,
                              log_path=log_path(spec, seat)))
        yield hosts
    finally:
        for host in hosts:
            host.close()
        drop_empty_logs(spec)


def drop_empty_logs(spec: MatchSpec) -> None:
    """Remove the match's logs a bot wrote nothing to: most bots print nothing, and an empty file
    per seat per match would be all a log folder holds."""
    if not spec.log_dir:
        return
    for seat in range(len(spec.bots)):
        path = log_path(spec, seat)
        try:
            if path and os.path.getsize(path) == 0:
                os.unlink(path)
        except OSError:  # never written (a seat that was not set up) or gone already
            pass


def log_floods(spec: MatchSpec, hosts: Sequence[Host], hands: int, actions: int) -> list[Fault]:
    """A fault (``log_flood``, recorded: the result stands) for each seat whose output passed its
    log's cap (the capped logs of launched programs and sandboxed bots, arena.players.logs). A
    bot's log is its author's to read: flooding it is no way to hide from the fault count."""
    faults = []
    for seat, host in enumerate(hosts):
        log = getattr(host, "log", None)
        if log is not None and getattr(log, "cut", False) is True:
            faults.append(Fault(seat=seat, kind=FaultKind.LOG_FLOOD, answer=None, hand=hands, action_index=actions,
                                response=Response.RECORDED,
                                message=f"its output passed its log's cap of {log.limit} bytes; the rest was dropped"))
    return faults


def log_path(spec: MatchSpec, seat: int) -> str | None:
    """Where the bot in ``seat`` writes its output: ``LOG_DIR/match-NNNN-seat-S.log``, or None (a
    temporary file) when the spec has no log directory."""
    if not spec.log_dir:
        return None
    return log_file(spec.log_dir, spec.index, seat)


def log_file(log_dir: str | os.PathLike, match: int, seat: int) -> str:
    """``LOG_DIR/match-NNNN-seat-S.log``: the log of ``seat`` in match number ``match``."""
    return os.path.join(log_dir, f"match-{match:04d}-seat-{seat}.log")


def referee_for(spec: MatchSpec, game: "Game", hosts: Sequence[Host], *, ask_forced: "bool | Callable[[int], bool]" = False,
                on_action: "Callable[[GameState, int, str, float | None], None] | None" = None) -> Referee:
    """The referee of ``spec`` among ``hosts`` (made by :func:`open_hosts`, or wrapped ones)."""
    return Referee(
        game,
        hosts,
        list(spec.seats),
        seed=spec.deal_seed,
        decks=SeededDecks(spec.deal_seed),
        time_control=_time_control(tuple(sorted(spec.time_control.items()))),
        policy=_policy(tuple(sorted(spec.faults.items()))),
        ask_forced=ask_forced,
        match_id=str(spec.index),
        on_action=on_action,
    )


# Both are frozen, and a tournament's matches share one of each: parse each once (checking a fault
# policy costs ~50 us, a third of a short Five Hundred match).
@functools.lru_cache(maxsize=64)
def _time_control(items: tuple[tuple[str, Any], ...]) -> TimeControl:
    return TimeControl.from_dict(dict(items))


@functools.lru_cache(maxsize=64)
def _policy(items: tuple[tuple[str, Any], ...]) -> FaultPolicy:
    return FaultPolicy.from_dict(dict(items))


ARENA_ATTEMPTS = 3  # a match the arena fails (not a bot) is played this many times before it is the arena's error
ARENA_ERROR = "arena_error"  # the termination of a match the arena could not play (arena.players.hosts.ArenaFailure)


def play_match(
    spec: MatchSpec,
    registry: "Registry",
    *,
    ask_forced: bool = False,
    on_action: "Callable[[GameState, int, str, float | None], None] | None" = None,
    tolerant: bool = False,
    on_hosts: "Callable[[list[Host]], None] | None" = None,
) -> "MatchResult":
    """Play ``spec`` to its end and return the referee's result (hosts closed whatever happens);
    ``tolerant`` as for :func:`open_hosts`; ``on_hosts(hosts)`` is called once the seats' hosts
    are open, before the first deal (the web server lowers their processes' priority).

    ``tolerant`` also separates the arena's failures from the bots': an :class:`ArenaFailure` (or
    any exception out of the referee, which bots' failures never reach: they are BotCrash and
    BotTimeout, the referee's faults) plays the match again from its start, the same deals and
    seeds, up to :data:`ARENA_ATTEMPTS` times; a match that succeeds after retries says so in its
    record (``arena_retries``); one that fails every time raises :class:`ArenaFailure` (the
    caller records it as the arena's: :func:`arena_error_outcome`)."""
    if not tolerant:
        return _play_once(spec, registry, ask_forced, on_action, tolerant, on_hosts)
    failures: list[str] = []
    for _ in range(ARENA_ATTEMPTS):
        try:
            result = _play_once(spec, registry, ask_forced, on_action, tolerant, on_hosts)
        except ArenaFailure as exc:
            failures.append(str(exc))
            continue
        except Exception as exc:  # the referee, an engine or a host's own code: the arena's
            failures.append(f"the arena failed during the match: {type(exc).__name__}: "
                            f"{(str(exc).strip().splitlines() or [''])[-1]}")
            continue
        if failures:
            result.record["arena_retries"] = [excerpt(text, MAX_MESSAGE_CHARS) for text in failures]
        return result
    raise ArenaFailure(f"match {spec.index}: the arena failed {ARENA_ATTEMPTS} times: {failures[-1]}")


def arena_error_outcome(spec: MatchSpec, failure: BaseException) -> dict[str, Any]:
    """What is stored for a match the arena could not play (``play_spec``'s outcome): no hands, no
    faults, every side ranked alike, termination ``arena_error`` with the failure in words.
    Nobody is charged: the ladder rates no deal set holding one and counts it towards no
    probation; a tournament does not store it (the match is played again when the run resumes)."""
    message = excerpt(str(failure), MAX_MESSAGE_CHARS)
    result = {"game": spec.game, "seats": list(spec.seats), "scores": [], "ranking": [], "winners": [],
              "winner": None, "termination": {"how": ARENA_ERROR, "message": message}, "faults": [],
              "think_times": [], "isolation": spec.isolation}
    record = {"game": spec.game, "seats": list(spec.seats), "hands": [], "result": {},
              "termination": result["termination"], "faults": []}
    return {"result": result, "record": records.dumps(record)}


def is_arena_error(result: Mapping[str, Any] | None) -> bool:
    """Whether a stored result is a match the arena could not play (:func:`arena_error_outcome`)."""
    return bool(result) and (result.get("termination") or {}).get("how") == ARENA_ERROR  # type: ignore[union-attr]


def _play_once(spec: MatchSpec, registry: "Registry", ask_forced: bool,
               on_action: "Callable[[GameState, int, str, float | None], None] | None",
               tolerant: bool, on_hosts: "Callable[[list[Host]], None] | None" = None) -> "MatchResult":
    game = registry.game(spec.game, spec.options)
    with open_hosts(registry, spec, game, tolerant=tolerant) as hosts:
        if on_hosts is not None:
            on_hosts(hosts)
        result = referee_for(spec, game, hosts, ask_forced=ask_forced, on_action=on_action).play()
        # which limits the machine let the sandboxes set (the cgroup's are skipped where not offered)
        applied = sorted({name for host in hosts for name in getattr(getattr(host, "sandbox", None), "applied", ())})
    # the hosts are closed: their logs are complete (what a flooding bot wrote is all counted)
    hands = result.record.get("hands") or []
    floods = log_floods(spec, hosts, max(0, len(hands) - 1), len(hands[-1].get("actions", ())) if hands else 0)
    if floods:
        result.faults.extend(floods)
        result.record.setdefault("faults", []).extend(fault.as_dict() for fault in floods)
    result.isolation = spec.isolation  # the result and the record say which level the bots ran at
    result.record["isolation"] = spec.isolation
    if spec.isolation == "sandbox":
        from arena.players.limits import Limits

        result.record["limits"] = Limits.from_dict(spec.limits).as_dict()
        result.record["limits_applied"] = applied
    return result
