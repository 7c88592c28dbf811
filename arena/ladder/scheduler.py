"""The ladder's scheduler: rounds of duplicate deal sets, played on an executor, rated in order.

Round r (one for all ladders): each ladder's lineups are chosen (arena.ladder.matchmaking) from
the ratings after every deal set of the rounds before r is rated; the round's deal sets and matches
are stored in one transaction before play; the matches play in parallel on the executor and each
checked result (arena.tournaments.integrity) is stored as it arrives; deal sets are rated in id
order once all their matches are stored. What a restart does: rate what is finished and unrated
(in order, up to the first unfinished set), play ``pending_matches()``, go on with the next round.
So with the same deterministic bots the match table is the same however often the ladder is killed.

A lost worker (the local pool broken: a worker process killed) stops nothing: the executor is made
again and the matches of the round not stored yet are played again. A slow or dead remote bot is a
fault of that seat only (the referee's clock; a seat the bot cannot take is that seat's crash). The
arena's own failure (arena.players.hosts.ArenaFailure) is retried by play_match and, when it
persists, stored as an ``arena_error`` match whose deal set is void: charged to nobody.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from arena.errors import ArenaError
from arena.ladder import matchmaking, ratings
from arena.ladder.config import LadderConfig, LadderEntry
from arena.ladder.store import LadderStore
from arena.deals import Deals
from arena.matches import MatchSpec, arena_error_outcome, is_arena_error, log_file
from arena.players.hosts import ArenaFailure
from arena.tournaments import integrity

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

POLL = 2.0  # seconds between looks for new versions while no ladder has enough to play
LOG_BUDGET = 64 * 1024 * 1024  # bytes of logs kept per bot version (its oldest dropped first)
MAX_RESTARTS = 5  # executor restarts in a row without a stored match before the ladder gives up


class LadderError(ArenaError):
    """The ladder cannot go on (its settings disagree with its database, its executor keeps dying)."""


def data_dir_for(db: str | Path) -> Path:
    """Where a ladder's versions' files and the bots' logs live: ``NAME.db`` -> ``NAME_files/``."""
    path = Path(db)
    return path.with_name(path.stem + "_files")


class Ladder:
    """One ladder process's state: what ``routes(ladder)`` of the API and the board receive.

    ``executor``: a registered executor's name (made with ``workers`` and ``executor_options``),
    or a callable returning a new executor (tests); made again when a worker is lost.
    """

    def __init__(self, store: LadderStore, registry: "Registry", config: LadderConfig, data_dir: str | Path,
                 executor: str | Callable[[], Any] = "local", workers: int = 2, seed: int | str | None = None,
                 pairings: int | None = None, house: Sequence[str] = (), *,
                 executor_options: Mapping[str, Any] | None = None, max_upload: int = 16 * 1024 * 1024,
                 rate_limit: int = 10, poll: float = POLL, log: Callable[[str], None] | None = None,
                 log_budget: int = LOG_BUDGET):
        self.store = store
        self.registry = registry
        self.config = config
        self.data_dir = Path(data_dir)
        self.workers = max(1, workers)
        self.seed = seed  # a public seed (--seed); None: the deals come from the secret in the store
        self.deals: Deals = Deals.fresh()  # replaced by the store's in _prepare
        self.pairings = pairings or 2 * self.workers
        self.house = tuple(house)
        self.max_upload = max_upload
        self.rate_limit = rate_limit
        self.registrations: Any = None  # new authors per client address (arena.web.limits.Limit; None: the API's default)
        self.approve_authors = False  # new authors submit once the operator approves them (arena ladder-approve)
        self.log_budget = log_budget
        self.poll = poll
        self.log = log or (lambda message: print(f"arena ladder: {message}", file=sys.stderr, flush=True))
        self._executor_factory = executor if callable(executor) else self._registered(executor, executor_options or {})
        self._executor: Any = None
        self._lock = threading.Lock()
        self.stopping = threading.Event()
        self.restarts = 0  # executors made again after a lost worker (the bench and tests read it)
        self._prepare()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        (self.data_dir / "logs").mkdir(exist_ok=True)

    # -- setting up ------------------------------------------------------------------------------
    def _registered(self, name: str, options: Mapping[str, Any]) -> Callable[[], Any]:
        kind = self.registry.executor(name)
        return lambda: kind.make(self.workers, dict(options))

    def _prepare(self) -> None:
        """Check the house bots and the seed against the database's, list the ladders, add the
        house bots (once: a restart finds them)."""
        games = sorted({entry.game for entry in self.config.ladders})
        house: dict[str, list[str]] = {}
        for name in self.house:
            try:
                spec = self.registry.bot(name)
            except ArenaError as exc:
                raise LadderError(f"--house {name}: {exc}") from None
            house[name] = [game for game in games if spec.plays(game)]
            if not house[name]:
                raise LadderError(f"--house {name}: it plays none of the ladders' games ({', '.join(games)})")
        self.deals = self._stored_deals()
        self.store.set_meta("ladders", json.dumps([entry.key for entry in self.config.ladders]))
        self.store.set_meta("config", json.dumps(self.config.as_dict()))
        for name, plays in house.items():
            self.store.ensure_house(name, plays)

    def _stored_deals(self) -> Deals:
        """The ladder's deals: its secret (made at its first start), or the public seed it was started
        with; a restart must say the same (no --seed for a secret, the same --seed for a seed)."""
        stored, legacy = self.store.meta("deals"), self.store.meta("seed")
        if stored is not None:
            deals = Deals.from_json(stored, str(self.store.path))
        elif legacy is not None:  # a ladder made before secrets: its seed was public (default 0)
            deals = Deals(public_seed=json.loads(legacy))
        else:
            deals = Deals.of(self.seed)
            self.store.set_meta("deals", deals.to_json())
            return deals
        if deals.public and self.seed is None:
            raise LadderError(f"{self.store.path} is a ladder with public deals (seeded {deals.public_seed!r}): give "
                              f"--seed {deals.public_seed} to go on with them, or another --db for secret deals")
        if deals.public and self.seed != deals.public_seed:
            raise LadderError(f"{self.store.path} is a ladder seeded {deals.public_seed!r}, not {self.seed!r}: "
                              f"give --seed {deals.public_seed} (or another --db, whose deals are secret)")
        if not deals.public and self.seed is not None:
            raise LadderError(f"{self.store.path} is a ladder whose deals come from the secret in its store: "
                              f"give no --seed (or another --db)")
        if stored is None:
            self.store.set_meta("deals", deals.to_json())
        return deals

    # -- running ---------------------------------------------------------------------------------
    def run(self, rounds: int | None = None, stop_event: threading.Event | None = None) -> None:
        """Resume, then play rounds until ``rounds`` rounds are stored and rated (None: forever) or
        ``stop_event`` (or :meth:`stop`) is set."""
        stop = stop_event or self.stopping
        said = ""
        try:
            self._rate_ready()
            self._play_pending(stop)
            while not self._stopped(stop):
                last = self.store.last_round()
                if rounds is not None and last >= rounds:
                    break
                self.review_probation()
                chosen = self.choose(last + 1)
                if not chosen:  # no ladder has enough active versions: wait for submissions
                    waiting = self._waiting_line()
                    if waiting != said:  # said once, not every poll
                        self.log(waiting)
                        said = waiting
                    stop.wait(self.poll)
                    continue
                said = ""
                self.store.schedule_round(last + 1, chosen)
                self._play_pending(stop)
        finally:
            self._close_executor()

    def _waiting_line(self) -> str:
        counts = ", ".join(f"{entry.key} has {len(self.store.active_versions(entry.game))} of the {entry.sides} it needs"
                           for entry in self.config.ladders)
        return f"round {self.store.last_round() + 1} waits for submissions: no ladder has enough active versions ({counts})"

    def _stopped(self, stop: threading.Event) -> bool:
        return stop.is_set() or self.stopping.is_set()

    def stop(self) -> None:
        """Stop soon (from another thread or a signal handler): the executor is stopped at once
        (unstarted matches cancelled, workers killed); what is stored stays stored."""
        self.stopping.set()
        with self._lock:
            executor = self._executor
        if executor is not None:
            getattr(executor, "stop", executor.close)()

    def _close_executor(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            try:
                if self.stopping.is_set():
                    getattr(executor, "stop", executor.close)()
                else:
                    executor.close()
            except Exception:  # closing a broken pool: nothing of it is needed any more
                pass

    def _executor_now(self) -> Any:
        with self._lock:
            if self._executor is None:
                self._executor = self._executor_factory()
            return self._executor

    def _play_pending(self, stop: threading.Event) -> None:
        """Play every stored match without a result, making the executor again when a worker is
        lost, then rate what is ready."""
        failures = 0
        while not self._stopped(stop):
            pending = [self._spec(data) for data in self.store.pending_matches()]
            if not pending:
                break
            stored = 0
            try:
                for spec, outcome in self._executor_now().run(pending):
                    if is_arena_error(outcome["result"]):  # the arena's failure after its retries: nobody is charged
                        message = str(outcome["result"]["termination"].get("message", ""))
                        outcome = arena_error_outcome(spec, ArenaFailure(message))  # rebuilt from the spec alone
                        self.log(f"match {spec.index}: {message} (the arena's failure: its deal set is not rated)")
                        result = outcome["result"]
                    else:
                        result = integrity.checked(spec, outcome["result"], outcome["record"], self.registry)  # never trusted
                    if self.store.save_match(spec.index, result, outcome["record"]):
                        stored += 1
                        self._keep_logs(spec)
                    self._rate_ready()
                    if self._stopped(stop):
                        return
            except Exception as exc:
                if self._stopped(stop):
                    return
                # A worker died (killed, out of memory: the pool is broken) or the executor failed
                # (a cluster's hiccup): the matches not stored are played again on a new executor.
                # An error that recurs with no match stored in between ends the ladder.
                failures = 0 if stored else failures + 1
                if failures >= MAX_RESTARTS:
                    raise LadderError(f"the executor failed {failures} times in a row without storing a match: "
                                      f"{type(exc).__name__}: {exc}") from exc
                lost = isinstance(exc, (concurrent.futures.BrokenExecutor, concurrent.futures.CancelledError))
                self.log(f"{'a worker was lost' if lost else 'the executor failed'} ({type(exc).__name__}: {exc}); "
                         "restarting the executor, "
                         f"{len(self.store.pending_matches())} matches to play again")
                with self._lock:
                    broken, self._executor = self._executor, None
                if broken is not None:
                    try:
                        getattr(broken, "stop", broken.close)()
                    except Exception:
                        pass
                self.restarts += 1
                stop.wait(0.5 * failures)  # a failing cluster is not hammered
        self._rate_ready()

    # -- the bots' logs --------------------------------------------------------------------------
    @property
    def log_dir(self) -> Path:
        return self.data_dir / "logs"

    def _keep_logs(self, spec: MatchSpec) -> None:
        """Note a stored match's logs (the non-empty ones: empty ones are not kept) by version, and
        keep each of its versions' logs within ``log_budget`` bytes, its oldest dropped first."""
        deal_set = self.store.deal_set(spec.deal_set)
        if deal_set is None:
            return
        names = list(spec.lineup)
        kept: list[tuple[int, int, int, int]] = []
        for seat, name in enumerate(spec.seats):
            if name not in names or names.index(name) >= len(deal_set["lineup"]):
                continue
            try:
                size = os.path.getsize(log_file(self.log_dir, spec.index, seat))
            except OSError:  # the bot wrote nothing: no log
                continue
            if size:
                kept.append((spec.index, seat, int(deal_set["lineup"][names.index(name)]), size))
        self.store.add_logs(kept)
        for version in sorted({row[2] for row in kept}):
            for match, seat in self.store.logs_over_budget(version, self.log_budget):
                try:
                    os.unlink(log_file(self.log_dir, match, seat))
                except OSError:
                    pass

    def _spec(self, data: Mapping[str, Any]) -> MatchSpec:
        return MatchSpec.from_dict(data)

    # -- rating ----------------------------------------------------------------------------------
    def _rate_ready(self) -> int:
        """Rate the finished, unrated deal sets in id order, up to the first unfinished one (so the
        order of the updates never depends on the order matches finished in). Returns how many."""
        unfinished = self.store.unfinished_deal_sets()
        limit = min(unfinished) if unfinished else None
        count = 0
        for deal_set in self.store.unrated_finished_deal_sets():
            if limit is not None and deal_set["id"] > limit:
                break
            self.rate(deal_set)
            count += 1
        return count

    def rate(self, deal_set: Mapping[str, Any]) -> None:
        """One TrueSkill update for a finished deal set, its faults counted, probation applied over
        each version's recent matches (ratings.probation). A deal set the arena could not play
        (a match ``arena_error``) is void: marked rated with nothing updated, nobody charged."""
        ladder = deal_set["ladder"]
        if ratings.is_void(deal_set):
            if self.store.rate(deal_set["id"], {}, {}):
                self.log(f"deal set {deal_set['id']} in {ladder} is not rated: the arena could not play one of its matches")
            return
        lineup = list(deal_set["lineup"])
        current = {v: self.store.rating(v, ladder) for v in lineup}
        updates = ratings.rate_deal_set(deal_set, current)
        statuses: dict[int, tuple[str, str]] = {}
        for version_id in updates:
            version = self.store.version(version_id)
            if version is None or version["status"] != "active":
                continue
            why = ratings.probation(self._window(version_id, ladder, deal_set["id"]), ratings.version_name(version))
            if why:
                statuses[version_id] = ("probation", why)
        if self.store.rate(deal_set["id"], updates, statuses):
            for version_id, (_, why) in statuses.items():
                self.log(f"version {version_id} is on probation in {ladder}: {why}")

    def _window(self, version_id: int, ladder: str, upto: int | None = None) -> list[dict[str, Any]]:
        """A version's probation window in ``ladder`` (ratings.PROBATION_WINDOW, PROBATION_HOURS)."""
        since = time.time() - ratings.PROBATION_HOURS * 3600
        return self.store.recent_matches(version_id, ladder, since, ratings.PROBATION_WINDOW, upto)

    def review_probation(self) -> list[int]:
        """Take off probation every version whose window no longer puts it there in any of its
        ladders (its faults grew older than the window): it is scheduled again, and goes back on
        probation if it still faults. Run before each round; returns the versions set active."""
        freed = []
        for version in self.store.versions(status="probation"):
            name = ratings.version_name(version)
            ladders = [entry.key for entry in self.config.ladders if entry.game in version["games"]]
            if any(ratings.probation(self._window(version["id"], key), name) for key in ladders):
                continue
            self.store.set_status(version["id"], "active", "")
            self.log(f"version {version['id']} ({name}) is off probation: its faults are older than the window "
                     f"(its last {ratings.PROBATION_WINDOW} matches within {ratings.PROBATION_HOURS:g} h)")
            freed.append(version["id"])
        return freed

    # -- choosing a round ------------------------------------------------------------------------
    def choose(self, round: int) -> list[tuple[str, list[int], str, list[dict[str, Any]]]]:
        """Round ``round``'s deal sets for every ladder: (ladder, lineup, deal_seed as text, specs)."""
        chosen: list[tuple[str, list[int], str, list[dict[str, Any]]]] = []
        for entry in self.config.ladders:
            versions = self.store.active_versions(entry.game)
            lineups = matchmaking.lineups(entry.key, versions, self.store.ratings(entry.key), entry.sides,
                                          self.pairings, self.deals.other_seed("matchmaking"), round)
            by_id = {v["id"]: v for v in versions}
            number = 0
            for lineup in lineups:
                for _ in range(entry.deal_sets_per_pairing):
                    label = f"{entry.key}/{round}/{number}"
                    deal_seed = self.deals.deal_seed(label)
                    specs = self.deal_set_specs(entry, [by_id[v] for v in lineup], deal_seed, label)
                    chosen.append((entry.key, list(lineup), str(deal_seed), specs))
                    number += 1
        return chosen

    def deal_set_specs(self, entry: LadderEntry, versions: Sequence[Mapping[str, Any]], deal_seed: int | str,
                       label: str) -> list[dict[str, Any]]:
        """One match per rotation of the lineup over the sides, all on ``deal_seed``'s deals (as
        arena.tournaments.schedule.build does), the bots' seeds keyed by ``label`` (the deal set's);
        sandboxed whenever a seat is not a house bot."""
        game = self.registry.game(entry.game, entry.options)
        sides = entry.sides
        names = [ratings.version_name(v) for v in versions]
        isolation = "process" if all(v["kind"] == "house" for v in versions) else "sandbox"
        specs = []
        for rotation in range(sides):
            by_side = [(side + rotation) % sides for side in range(sides)]  # the lineup position on each side
            seat_positions = [by_side[game.side_of(seat)] for seat in range(game.players)]
            spec = MatchSpec(
                index=0,  # the store makes it the match's id
                game=entry.game,
                options=dict(entry.options),
                deal_seed=deal_seed,
                seats=tuple(names[p] for p in seat_positions),
                bots=tuple(versions[p]["seat"] for p in seat_positions),
                settings=tuple({} for _ in seat_positions),
                bot_seeds=tuple(self.deals.bot_seed(f"{label}/match/{rotation}/seat/{s}") for s in range(game.players)),
                time_control=entry.time_control.as_dict(),
                faults=entry.policy.as_dict(),
                isolation=isolation,
                limits=dict(entry.limits),
                log_dir=str(self.data_dir / "logs"),
                lineup=tuple(names),
                rotation=rotation,
            )
            specs.append(spec.as_dict())
        return specs

