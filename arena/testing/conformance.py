"""The conformance kit: what every game engine must do, checked by seeded random playouts.

``check_game(MyGame)`` plays seeded random matches of a game (``state.apply_id(rng.choice(
state.legal_action_ids()))``) at every player count its ``players`` option allows and checks, at
every decision, the contract of ``arena/games/base.py``. It raises :class:`ConformanceError` (an
``AssertionError``) naming the check, the game, the player count, the options, the seed, the match,
the hand, the action index, the seat to act and what is wrong. The checks (``CHECKS``):

``actions``     legal ids sorted, unique, in ``range(num_actions)``; ``legal_actions()`` their
                strings; ``action_id`` inverts ``action_string`` (tolerating case); the acting
                seat's observation lists ``legal_actions()``.
``illegal``     an action not legal now (a string, an id, garbage, anything once the match is over)
                raises ``IllegalActionError`` and changes neither the state, its record nor any
                seat's observation.
``clones``      ``clone()`` is an equal, independent copy (acting on either leaves the other as it was).
``hidden``      every observation is JSON, and shows no card of ``state.hidden_cards(seat)``.
``vocabulary``  observations carry ``OBSERVATION_KEYS``, their ``phase`` one that
                ``Game.page()["phases"]`` gives a kind of ``PHASE_KINDS``; hand results
                ``HAND_RESULT_KEYS``; ``result()`` carries ``RESULT_KEYS``; ``match_end()`` says how a
                match ended.
``records``     ``state.record()`` survives JSON and replays (``arena.records.replay``) to the
                same record and scores.
``hash_seeds``  the same seeded matches give the same records under other ``PYTHONHASHSEED``\\ s.
``resample``, ``resample_blind``, ``resample_uniform``: see :mod:`arena.testing.resampling`.
``options``     every option value (both values of a bool, each choice, an int's minimum, maximum
                and default) plays a match that passes the checks above; a value the game refuses
                with ``OptionError`` at one player count is tried at the others.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, NoReturn, Sequence, Union

from arena.errors import IllegalActionError, OptionError, RecordError
from arena.games.base import (HAND_RESULT_KEYS, OBSERVATION_KEYS, PHASE_KINDS, RECORD_FORMAT, RESULT_KEYS, Game,
                              GameState, MatchEnd)
from arena.testing.cards import CardNames
from arena.testing.resampling import RESAMPLE_CHECKS, check_resampling

if TYPE_CHECKING:
    from arena.plugins.manager import Registry

GameLike = Union[type[Game], str, "_Spec"]  # a Game subclass or a registered game's name

IN_PROCESS = ("actions", "illegal", "clones", "hidden", "vocabulary", "records")
CHECKS = IN_PROCESS + ("hash_seeds", "options") + RESAMPLE_CHECKS
# Decisions of random play per game and player count; $ARENA_CONFORMANCE_DECISIONS asks for more.
DECISIONS = int(os.environ.get("ARENA_CONFORMANCE_DECISIONS", "1000"))
# Observation keys about earlier deals: their cards are not this deal's, so the hidden-card check skips them.
EARLIER_DEAL_KEYS = ("last_result",)
SAMPLE_EVERY = 40  # the illegal-action and clone checks run at one decision in this many (and at the end)
MATCH_DECISIONS = 500  # a random match is cut after this many decisions (some games rarely end at random)
OPTION_DECISIONS = 300  # the decision limit of each match of the option sweep
OPTION_MAX_HANDS = 2  # the sweep's max_hands, where the game has that option
HASH_SEEDS = ("1", "2", "3")


class ConformanceError(AssertionError):
    """A check failed. The attributes locate it (None where they do not apply)."""

    def __init__(self, message: str, *, check: str, game: str, players: int | None = None,
                 options: Mapping[str, Any] | None = None, seed: Any = None, match: int | None = None,
                 hand: int | None = None, action_index: int | None = None, seat: int | None = None,
                 card: str | None = None, path: str | None = None):
        super().__init__(message)
        self.check, self.game, self.players, self.options, self.seed = check, game, players, options, seed
        self.match, self.hand, self.action_index, self.seat = match, hand, action_index, seat
        self.card, self.path = card, path


@dataclass(frozen=True)
class Case:
    """One game at one player count: what the suite parametrizes over."""

    game: str
    players: int

    def __str__(self) -> str:
        return f"{self.game}-{self.players}"


def player_counts(game_cls: type[Game]) -> list[int]:
    """The player counts the game's ``players`` option allows (``describe()["players"]``)."""
    return list(game_cls().describe()["players"])


def cases(registry: "Registry | None" = None) -> list[Case]:
    """Every registered game at every player count it allows, sorted by name."""
    registry = registry if registry is not None else _registry()
    return [Case(name, players) for name in sorted(registry.games) for players in player_counts(registry.games[name])]


def parametrize(registry: "Registry | None" = None, argname: str = "case"):
    """``pytest.mark.parametrize`` over :func:`cases` (ids like ``five_hundred-4``)."""
    import pytest

    found = cases(registry)
    return pytest.mark.parametrize(argname, found, ids=[str(case) for case in found])


def check_game(game: GameLike, *, players: int | None = None, checks: Iterable[str] | None = None,
               decisions: int | None = None, seed: int = 0, options: Mapping[str, Any] | None = None,
               registry: "Registry | None" = None, not_card_keys: Iterable[str] = ()) -> None:
    """Run the checks on a game (a Game subclass or a registered name); raise ConformanceError.

    ``players``: one player count (default: every count the game allows). ``checks``: some of
    ``CHECKS`` (default: all). ``decisions``: decisions of random play per player count (default
    ``DECISIONS``). ``options``: options every match uses (``players`` aside). ``not_card_keys``:
    observation keys whose values the hidden-card check skips (for a game whose card-like strings
    there are not cards, which :mod:`arena.testing.cards` cannot tell, or are of an earlier deal:
    ``last_result`` always is skipped).
    """
    spec = _Spec.of(game, registry)
    wanted = list(CHECKS if checks is None else checks)
    unknown = [name for name in wanted if name not in CHECKS]
    if unknown:
        raise ValueError(f"unknown check(s) {unknown}; the checks are {', '.join(CHECKS)}")
    counts = [players] if players is not None else player_counts(spec.cls)
    in_process = [name for name in wanted if name in IN_PROCESS]
    base = dict(options or {})
    for count in counts:
        if in_process:
            Playouts(spec, count, base, seed, in_process, not_card_keys).run(decisions or DECISIONS)
        if "hash_seeds" in wanted:
            check_hash_seeds(spec, players=count, options=base, seed=seed)
        if any(name in RESAMPLE_CHECKS for name in wanted):
            check_resample(spec, players=count, checks=wanted, options=base, seed=seed)
    if "options" in wanted:
        check_options(spec, players=counts, options=base, seed=seed, not_card_keys=not_card_keys)


def check_resample(game: GameLike, *, players: int, checks: Iterable[str] = RESAMPLE_CHECKS,
                   options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
    """The resample checks (arena.testing.resampling) at one player count; a game whose states do
    not implement ``resample`` passes them untested."""
    spec = _Spec.of(game)
    opts = {**(options or {}), "players": players}

    def fail(name: str, what: str) -> NoReturn:
        shown = {k: v for k, v in opts.items() if k != "players"}
        raise ConformanceError(f"conformance check {name!r} failed: game {spec.cls.name!r}, players={players},"
                               f" options={shown}, seed={seed!r}: {what}", check=name, game=spec.cls.name,
                               players=players, options=shown, seed=seed)

    check_resampling(spec.make(opts), list(checks), seed, fail)


def check(game: GameLike, name: str, **kwargs: Any) -> None:
    """One check of :func:`check_game` (for a test per check)."""
    check_game(game, checks=[name], **kwargs)


def run_checks(game: GameLike, players: int, *, checks: Iterable[str] = IN_PROCESS,
               decisions: int | None = None, seed: int = 0, options: Mapping[str, Any] | None = None,
               registry: "Registry | None" = None, not_card_keys: Iterable[str] = ()) -> dict[str, ConformanceError | None]:
    """One pass of random playouts running the in-process ``checks`` side by side: each check's
    first failure (or None), the others going on after one fails. For a matrix of results."""
    names = list(checks)
    wrong = [name for name in names if name not in IN_PROCESS]
    if wrong:
        raise ValueError(f"run_checks runs the in-process checks {', '.join(IN_PROCESS)}, not {wrong}")
    playouts = Playouts(_Spec.of(game, registry), players, dict(options or {}), seed, names, not_card_keys,
                        collect=True)
    failures = playouts.run(decisions or DECISIONS)
    return {name: failures.get(name) for name in names}


# -- the game under test -------------------------------------------------------------------------

class _Spec:
    """A game class, how to build it and how another process finds it."""

    def __init__(self, cls: type[Game], registry: "Registry | None"):  # None: a game class not registered
        self.cls = cls
        self.registry = registry

    @classmethod
    def of(cls, game: Any, registry: "Registry | None" = None) -> "_Spec":
        if isinstance(game, _Spec):
            return game
        if isinstance(game, str):
            registry = registry if registry is not None else _registry()
            if game not in registry.games:
                raise ValueError(f"no game {game!r} is registered; registered: {', '.join(sorted(registry.games))}")
            return cls(registry.games[game], registry)
        if isinstance(game, type) and issubclass(game, Game):
            return cls(game, registry)
        raise TypeError(f"check_game wants a Game subclass or a registered game's name, not {game!r}")

    def make(self, options: Mapping[str, Any]) -> Game:
        return self.cls(options)

    def make_game(self, name: str, options: Mapping[str, Any]) -> Game:
        """For ``arena.records.replay``: this class for its own name, else the registry."""
        if name == self.cls.name:
            return self.cls(options)
        return (self.registry if self.registry is not None else _registry()).game(name, options)

    def reference(self) -> str:
        """How a subprocess finds the game: its registered name, or ``module:qualname``."""
        try:
            registry = self.registry if self.registry is not None else _registry()
            if registry.games.get(self.cls.name) is self.cls and self.registry is None:
                return self.cls.name
        except Exception:
            pass
        return f"{self.cls.__module__}:{self.cls.__qualname__}"


def _registry():
    from arena.plugins import get_registry

    return get_registry()


def _load(reference: str) -> type[Game]:
    if ":" not in reference:
        return _registry().games[reference]
    module, _, qualname = reference.partition(":")
    import importlib

    target: Any = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    return target


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


# -- random playouts with the in-process checks -------------------------------------------------

class Playouts:
    """Seeded random matches of one configuration, checking ``checks`` as they go.

    By default the first failure raises. With ``collect=True`` it is kept in ``failures`` (by
    check) and that check stops while the others go on, so one pass tells which checks pass.
    """

    def __init__(self, spec: _Spec, players: int, options: Mapping[str, Any], seed: Any,
                 checks: Sequence[str] = IN_PROCESS, not_card_keys: Iterable[str] = (), collect: bool = False,
                 game: Game | None = None):
        self.spec = spec
        self.players = players
        self.options = {**options, "players": players}
        self.seed = seed
        self.checks = set(checks)
        self.not_card_keys = EARLIER_DEAL_KEYS + tuple(not_card_keys)
        self.collect = collect
        self.failures: dict[str, ConformanceError] = {}
        self._game: Game | None = game  # (made from the options if not given)
        self._state: GameState | None = None
        self.match: int | None = None
        self._names: CardNames | None = None
        self._observations: dict[int, dict[str, Any]] = {}
        self._phase_kinds: dict[str, str] | None = None  # the game's, asked once
        self.abandoned = False

    # -- failing, with where ----------------------------------------------------------------
    def fail(self, check: str, what: str, *, at_decision: bool = True, **extra: Any) -> NoReturn:
        where: dict[str, Any] = {}
        state = self._state
        options = {k: v for k, v in self.options.items() if k != "players"}
        place = f"match {self.match} (seed {self.match_seed(self.match)!r})" if self.match is not None else ""
        if at_decision and state is not None and state.deals:
            to_act = _safe(state.current_player)
            where = {"hand": len(state.deals) - 1, "action_index": len(state.deals[-1]["actions"]), "seat": to_act}
            place += (f", hand {where['hand']}, action {where['action_index']}"
                      f" (seat {to_act} to act, phase {_safe(lambda: state.phase)!r})")
        where.update(extra)  # e.g. the seat whose observation is at fault
        message = (f"conformance check {check!r} failed: game {self.spec.cls.name!r}, players={self.players},"
                   f" options={options}, seed={self.seed!r}" + (f", {place}" if place else "") + f": {what}")
        raise ConformanceError(message, check=check, game=self.spec.cls.name, players=self.players,
                               options=options, seed=self.seed, match=self.match, **where)

    @property
    def state(self) -> GameState:
        """The match being played."""
        assert self._state is not None
        return self._state

    @property
    def game(self) -> Game:
        assert self._game is not None
        return self._game

    @property
    def names(self) -> CardNames:
        assert self._names is not None
        return self._names

    def match_seed(self, match: int) -> str:
        """The seed of match ``match``: of its deals (``new_match(seed=...)``) and of its random player."""
        return f"conformance/{self.seed}/{match}"

    def guard(self, check: str, function: Callable[..., Any], *args: Any) -> Any:
        """Run one check's part if that check is on; in collect mode keep its failure and stop it."""
        if check not in self.checks:
            return None
        try:
            return function(*args)
        except ConformanceError as exc:
            if not self.collect:
                raise
            self.failures.setdefault(exc.check, exc)
            self.checks.discard(exc.check)
            self.checks.discard(check)
            self.abandoned = True  # the state may be spoilt (a clone, an illegal action): a new match
            return None

    # -- the playouts ------------------------------------------------------------------------
    def run(self, decisions: int, matches: int | None = None) -> dict[str, ConformanceError]:
        """Play matches (each cut after MATCH_DECISIONS) until ``decisions`` decisions or ``matches`` matches."""
        done = played = 0
        while done < decisions and (matches is None or played < matches) and self.checks:
            done += self.play(played, min(decisions - done, MATCH_DECISIONS))
            played += 1
        return self.failures

    def play(self, match: int, budget: int) -> int:
        self.match = match
        self._state = None
        game = self._game
        if game is None:  # made once: some games precompute tables
            try:
                game = self._game = self.spec.make(self.options)
            except OptionError:
                raise
            except Exception as exc:
                self.fail("actions", f"the game cannot be made with these options: {exc!r}", at_decision=False)
        if match == 0:
            self.guard("actions", self.check_action_table, game)
        state = self._state = game.new_match(seed=self.match_seed(match))
        if not state.deals:
            self.fail("actions", "new_match() dealt nothing: there is no deal in state.deals", at_decision=False)
        self._names = CardNames([card for deal in state.deals for card in deal["deck"]],
                               [game.action_string(i) for i in range(game.num_actions)], self.not_card_keys)
        rng = random.Random(self.match_seed(match))  # the random player: its choices alone
        aux = random.Random(self.match_seed(match) + "/checks")  # the checks' own choices
        results = done = 0
        self.abandoned = False
        while not state.is_over() and done < budget and self.checks and not self.abandoned:
            self._observations = {}
            seat = state.current_player()
            if seat is None:
                self.fail("actions", "current_player() is None but is_over() is False")
            legal = state.legal_action_ids()
            self.guard("actions", self.check_legal, seat, legal)
            self.guard("actions", self.check_observed_legal, seat)
            self.guard("hidden", self.check_hidden_all, not state.deals[-1]["actions"], done % SAMPLE_EVERY == 0)
            self.guard("vocabulary", self.check_keys_all)
            keep = None
            if done % SAMPLE_EVERY == 0:
                self.guard("illegal", self.check_illegal, aux)
                self.guard("vocabulary", self.check_result)
                self.guard("clones", self.check_clone_before, aux)
                keep = self.guard("clones", self.clone_and_snapshot)
            if not legal or self.abandoned:
                break  # (a check failed: it said so)
            action = rng.choice(legal)
            try:
                state.apply_id(action)
            except Exception as exc:  # fails every check that is on (it is the first that sees it)
                name = "actions" if "actions" in self.checks else sorted(self.checks)[0]
                self.guard(name, self.fail, name,
                           f"apply_id({action}) ({game.action_string(action)!r}), a legal action, raised {exc!r}")
                return done + 1  # the state cannot go on
            done += 1
            if keep is not None:
                self.guard("clones", self.check_clone_after, *keep, action)
            for index in range(results, len(state.deal_results)):
                self.guard("vocabulary", self.check_hand_result, index)
            results = len(state.deal_results)
            if done % (SAMPLE_EVERY * 8) == 0:
                self.guard("records", self.check_record)  # a record cut mid-match replays too
        self._observations = {}
        if not self.abandoned:
            self.check_end(aux)
        return max(done, 1)

    # -- per decision ------------------------------------------------------------------------
    def check_legal(self, seat: int, ids: list[int]) -> None:
        state, game = self.state, self.game
        if not ids:
            self.fail("actions", "the seat to act has no legal action")
        if ids != sorted(set(ids)):
            self.fail("actions", f"legal_action_ids() is not sorted without repeats: {_short(ids)}")
        if ids[0] < 0 or ids[-1] >= game.num_actions:
            self.fail("actions", f"legal_action_ids() {_short(ids)} leave range(num_actions={game.num_actions})")
        strings = state.legal_actions()
        expected = [game.action_string(i) for i in ids]
        if strings != expected:
            self.fail("actions", f"legal_actions() {_short(strings)} are not the strings of legal_action_ids()"
                                 f" {_short(expected)}")
        for i, text in zip(ids, strings):
            if game.action_id(text) != i:
                self.fail("actions", f"action_id({text!r}) is {game.action_id(text)!r}, not {i}")

    def check_observed_legal(self, seat: int) -> None:
        legal = self.state.legal_actions()
        for other in range(self.players):
            shown = self.observation(other, "actions").get("legal_actions")
            if other == seat and shown != legal:
                self.fail("actions", f"the observation of seat {seat}, to act, lists legal_actions {_short(shown)},"
                                     f" not state.legal_actions() {_short(legal)}", seat=seat)
            if other != seat and shown != []:
                self.fail("actions", f"the observation of seat {other}, not to act, lists legal_actions"
                                     f" {_short(shown)} (it should be [])", seat=other)

    def check_hidden_all(self, first_of_deal: bool = False, strict: bool = True) -> None:
        for seat in range(self.players):
            self.check_hidden(seat, self.observation(seat, "hidden"), first_of_deal, strict)

    def check_keys_all(self) -> None:
        for seat in range(self.players):
            self.check_observation_keys(seat, self.observation(seat, "vocabulary"))

    def observation(self, seat: int, check: str) -> dict[str, Any]:
        """``state.observation(seat)``, made once per decision; ``check`` fails if it cannot be made."""
        obs = self._observations.get(seat)
        if obs is None:
            try:
                obs = self.state.observation(seat)
            except Exception as exc:
                self.fail(check, f"observation({seat}) raised {exc!r}", seat=seat)
            if not isinstance(obs, dict):
                self.fail(check, f"observation({seat}) is a {type(obs).__name__}, not a dict", seat=seat)
            self._observations[seat] = obs
        return obs

    def check_hidden(self, seat: int, obs: dict[str, Any], first_of_deal: bool = False, strict: bool = False) -> None:
        """No card of ``hidden_cards(seat)`` in the observation, which is JSON (``strict``: survives
        a JSON round trip unchanged, checked at one decision in SAMPLE_EVERY)."""
        state, names = self.state, self.names
        visible = names.visible_part(obs)
        try:
            text = json.dumps(visible, allow_nan=False)
            # the keys of earlier deals change only between deals: checked at the sampled decisions
            rest = json.dumps([obs[key] for key in obs if key not in visible], allow_nan=False) if strict else "[]"
        except (TypeError, ValueError) as exc:
            self.fail("hidden", f"observation({seat}) is not JSON: {exc}", seat=seat)
        if strict and (json.loads(text) != visible or json.loads(rest) != [obs[k] for k in obs if k not in visible]):
            again = json.loads(json.dumps(obs))
            self.fail("hidden", f"observation({seat}) does not survive JSON unchanged (tuples, non-string keys?):"
                                f" {_json_difference(obs, again)}", seat=seat)
        try:
            hidden = state.hidden_cards(seat)
        except NotImplementedError as exc:
            self.fail("hidden", f"hidden_cards({seat}) is not implemented ({exc}): the game must say which"
                                " cards each seat may not see", seat=seat)
        if not isinstance(hidden, (set, frozenset)) or not all(isinstance(c, str) for c in hidden):
            self.fail("hidden", f"hidden_cards({seat}) is {_short(hidden)}, not a set of card strings", seat=seat)
        stray = sorted(hidden - names.cards)
        if stray:
            self.fail("hidden", f"hidden_cards({seat}) holds {stray}, which are not cards of the pack", seat=seat)
        if first_of_deal and not hidden:
            self.fail("hidden", f"hidden_cards({seat}) is empty at the start of a deal: other seats' hands are"
                                " hidden from it", seat=seat)
        own = [card for card in obs.get("hand") or [] if isinstance(card, str) and card in hidden]
        if own:
            self.fail("hidden", f"hidden_cards({seat}) holds {own[0]!r}, a card of that seat's own hand (with"
                                " repeated cards, a card string is hidden only when every copy is)",
                      seat=seat, card=own[0])
        leaked = names.shown(obs, text) & hidden
        if leaked:
            card = sorted(leaked)[0]
            paths = list(names.where(obs, card))
            path = paths[0] if paths else "?"
            self.fail("hidden", f"observation({seat}) shows {card!r} at observation{path}, a card hidden from"
                                f" seat {seat} (in hidden_cards({seat}))"
                                + (f"; also at {', '.join(paths[1:4])}" if len(paths) > 1 else ""),
                      seat=seat, card=card, path=path)

    def check_observation_keys(self, seat: int, obs: dict[str, Any]) -> None:
        state, game = self.state, self.game
        missing = [key for key in OBSERVATION_KEYS if key not in obs]
        if missing:
            self.fail("vocabulary", f"observation({seat}) lacks the shared keys {missing}", seat=seat)
        expected = {
            "game": game.name, "seat": seat, "side": game.side_of(seat), "players": self.players,
            "to_act": state.current_player(), "hand_index": len(state.deals) - 1,
            "hands_played": len(state.deal_results), "scores": list(state.scores()),
        }
        if seat == state.current_player():  # (others may be shown a coarser phase: what it is can be secret)
            expected["phase"] = state.phase
        for key, value in expected.items():
            if obs[key] != value:
                self.fail("vocabulary", f"observation({seat})[{key!r}] is {_short(obs[key])}, expected {_short(value)}",
                          seat=seat)
        if self._phase_kinds is None:  # the one phase convention (docs/game-interface.md, "Phases")
            self._phase_kinds = dict(game.page()["phases"])
        if self._phase_kinds.get(obs["phase"]) not in PHASE_KINDS:
            self.fail("vocabulary", f"observation({seat})['phase'] is {_short(obs['phase'])}, to which Game.page()['phases']"
                                    f" gives no kind of {', '.join(PHASE_KINDS)}", seat=seat)
        last = state.deal_results[-1] if state.deal_results else None
        if obs["last_result"] != last and json.loads(_dump(obs["last_result"])) != json.loads(_dump(last)):
            self.fail("vocabulary", f"observation({seat})['last_result'] is {_short(obs['last_result'])}, not the"
                                    f" last hand's result {_short(last)}", seat=seat)

    def check_hand_result(self, index: int) -> None:
        if "vocabulary" not in self.checks:
            return
        result = self.state.deal_results[index]
        missing = [key for key in HAND_RESULT_KEYS if key not in result]
        if missing:
            self.fail("vocabulary", f"the result of hand {index} lacks the shared keys {missing}"
                                    f" (it has {sorted(result)})")
        sides = self.game.num_sides
        for key in ("scores", "changes", "tricks_won"):
            value = result[key]
            if not (isinstance(value, list) and len(value) == sides and all(isinstance(v, int) for v in value)):
                self.fail("vocabulary", f"the result of hand {index}: {key!r} is {_short(value)}, not {sides}"
                                        " integers (one per side)")
        if not isinstance(result["tricks"], list):
            self.fail("vocabulary", f"the result of hand {index}: 'tricks' is {_short(result['tricks'])}, not the"
                                    " list of the hand's tricks")

    def check_result(self) -> None:
        state = self.state
        result = state.result()
        missing = [key for key in RESULT_KEYS if key not in result]
        if missing:
            self.fail("vocabulary", f"result() lacks the keys {missing}")
        try:
            end = state.match_end()
        except NotImplementedError as exc:
            self.fail("vocabulary", f"match_end() is not implemented ({exc})")
        over = state.is_over()
        if result["over"] != over:
            self.fail("vocabulary", f"result()['over'] is {result['over']!r} but is_over() is {over!r}")
        if not over:
            if end is not None or result["end"] is not None:
                self.fail("vocabulary", f"the match goes on but match_end() is {end!r}, result()['end'] {result['end']!r}")
            return
        if not isinstance(end, MatchEnd):
            self.fail("vocabulary", f"the match is over but match_end() is {end!r}, not a MatchEnd")
        if result["end"] != end.value:
            self.fail("vocabulary", f"result()['end'] is {result['end']!r}, not match_end()'s {end.value!r}")
        if state.unfinished and end is not MatchEnd.HAND_LIMIT:
            self.fail("vocabulary", f"the match stopped unfinished (max_hands) but match_end() is {end!r}")
        if not state.unfinished and end is MatchEnd.HAND_LIMIT:
            self.fail("vocabulary", "match_end() is HAND_LIMIT but state.unfinished is False")
        sides = self.game.num_sides
        if not (isinstance(result["ranking"], list) and len(result["ranking"]) == sides):
            self.fail("vocabulary", f"result()['ranking'] is {_short(result['ranking'])}, not one place per side")

    # -- sampled: illegal actions, clones, results ----------------------------------------------
    def snapshot(self, state: GameState) -> dict[str, Any]:
        """What an illegal action or a clone must leave alone: fresh objects or JSON texts, never the
        state's own lists (a change to those would show on both sides)."""
        record = state.record()
        for hand in record["hands"]:
            if "result" in hand:
                hand["result"] = _dump(hand["result"])
        shot: dict[str, Any] = {
            "current_player()": state.current_player(),
            "phase": state.phase,
            "legal_action_ids()": list(state.legal_action_ids()),
            "scores()": list(state.scores()),
            "is_over()": state.is_over(),
            "record()": record,
        }
        for seat in range(self.players):
            shot[f"observation({seat})"] = json.dumps(state.observation(seat), default=repr)
        return shot

    @staticmethod
    def differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> str:
        changed = [key for key in a if a[key] != b.get(key)]
        parts = []
        for key in changed[:3]:
            x, y = a[key], b.get(key)
            if isinstance(x, str) and isinstance(y, str) and key.startswith("observation"):
                x, y = json.loads(x), json.loads(y)
            parts.append(f"{key}: {_json_difference(x, y)}")
        return "; ".join(parts) + (f" (and {len(changed) - 3} more)" if len(changed) > 3 else "")

    def illegal_attempts(self, rng: random.Random) -> list[tuple[str, Any]]:
        state, game = self.state, self.game
        legal = set(state.legal_action_ids())
        others = [i for i in range(game.num_actions) if i not in legal]
        attempts: list[tuple[str, Any]] = []
        if others:
            wrong = rng.choice(others)
            attempts += [("apply", game.action_string(wrong)), ("apply_id", wrong)]
        garbage = [("apply", "no such action"), ("apply", ""), ("apply", "play"), ("apply", None),
                   ("apply_id", -1), ("apply_id", game.num_actions), ("apply_id", "0")]
        attempts += rng.sample(garbage, 2)
        return attempts

    def check_illegal(self, rng: random.Random, attempts: list[tuple[str, Any]] | None = None) -> None:
        state = self.state
        before = self.snapshot(state)
        seat = state.current_player()
        legal = state.legal_actions()
        for how, action in attempts if attempts is not None else self.illegal_attempts(rng):
            call = f"{how}({action!r})"
            try:
                getattr(state, how)(action)
            except IllegalActionError as exc:
                if exc.seat != seat or list(exc.legal) != legal:
                    self.fail("illegal", f"{call} raised IllegalActionError naming seat {exc.seat} and legal"
                                         f" {_short(exc.legal)}, not seat {seat} and {_short(legal)}")
            except Exception as exc:
                self.fail("illegal", f"{call}, an illegal action, raised {exc!r} instead of IllegalActionError")
            else:
                self.fail("illegal", f"{call} was accepted, but it is not legal now (legal: {_short(legal)})")
            after = self.snapshot(state)
            if after != before:
                self.fail("illegal", f"{call} raised IllegalActionError but changed the state:"
                                     f" {self.differences(before, after)}")

    def check_clone_before(self, rng: random.Random) -> None:
        """A clone equals the original, and acting on it leaves the original as it was."""
        state = self.state
        before = self.snapshot(state)
        clone = state.clone()
        if clone is state or type(clone) is not type(state):
            self.fail("clones", f"clone() returned {_short(clone)}, not a new {type(state).__name__}")
        shot = self.snapshot(clone)
        if shot != before:
            self.fail("clones", f"clone() is not equal to the original: {self.differences(before, shot)}")
        for _ in range(3):
            if clone.is_over():
                break
            clone.apply_id(rng.choice(clone.legal_action_ids()))
        after = self.snapshot(state)
        if after != before:
            self.fail("clones", f"acting on a clone changed the original: {self.differences(before, after)}")

    def clone_and_snapshot(self) -> tuple[GameState, dict[str, str]]:
        return self.state.clone(), self.snapshot(self.state)

    def check_clone_after(self, keep: GameState, before: dict[str, str], action: int) -> None:
        """Acting on the original left a clone made before as it was; the same action makes them equal again."""
        shot = self.snapshot(keep)
        if shot != before:
            self.fail("clones", f"acting on the original ({self.game.action_string(action)!r}) changed a clone made"
                                f" before: {self.differences(before, shot)}")
        keep.apply_id(action)
        shot, now = self.snapshot(keep), self.snapshot(self.state)
        if shot != now:
            self.fail("clones", f"a clone given the same action ({self.game.action_string(action)!r}) differs from"
                                f" the original: {self.differences(now, shot)}")

    # -- the end of a match ------------------------------------------------------------------
    def check_end(self, rng: random.Random) -> None:
        """At the end of a match (over, or cut): the result, the observations, illegal actions, the record."""
        state = self.state
        self.guard("vocabulary", self.check_result)
        if state.is_over():
            self.guard("vocabulary", self.check_keys_all)
        self.guard("hidden", self.check_hidden_all)
        if state.is_over():
            game = self.game
            self.guard("illegal", self.check_illegal, rng,
                       [("apply", game.action_string(0)), ("apply_id", 0), ("apply", "no such action")])
        else:
            self.guard("illegal", self.check_illegal, rng)
            self.guard("clones", self.check_clone_before, rng)
        self.guard("records", self.check_record)

    def check_record(self) -> None:
        from arena.records import replay

        state = self.state
        record = state.record()
        try:
            text = json.dumps(record, allow_nan=False)
        except (TypeError, ValueError) as exc:
            self.fail("records", f"state.record() is not JSON: {exc}")
        loaded = json.loads(text)
        if loaded.get("format") != RECORD_FORMAT:
            self.fail("records", f"the record's format is {loaded.get('format')!r}, not {RECORD_FORMAT!r}")
        try:
            replayed = replay(loaded, self.spec.make_game)
        except RecordError as exc:
            self.fail("records", f"the record does not replay: {exc}")
        except Exception as exc:
            self.fail("records", f"replaying the record raised {exc!r}")
        again = replayed.state
        if again.scores() != state.scores() or again.is_over() != state.is_over():
            self.fail("records", f"the replayed record gives scores {again.scores()} (over: {again.is_over()}),"
                                 f" the match {state.scores()} (over: {state.is_over()})")
        if [row["scores"] for row in replayed.hands] != [row["scores"] for row in state.deal_results]:
            self.fail("records", "the replayed hands' scores differ from the match's")
        now = json.loads(_dump(again.record()))
        if now != json.loads(_dump(loaded)):
            self.fail("records", f"the replayed match's record differs: {_json_difference(loaded, now)}")

    def check_action_table(self, game: Game) -> None:
        strings = [game.action_string(i) for i in range(game.num_actions)]
        if not all(isinstance(s, str) and s for s in strings):
            self.fail("actions", "action_string(id) is not a non-empty string for every id", at_decision=False)
        if len(set(strings)) != len(strings):
            twice = sorted({s for s in strings if strings.count(s) > 1})
            self.fail("actions", f"two action ids share the strings {twice[:5]}", at_decision=False)
        for i, text in enumerate(strings):
            for variant in (text, text.upper(), text.lower()):
                got = game.action_id(variant)
                if got != i:
                    self.fail("actions", f"action_id({variant!r}) is {got!r}, not {i} (action_string({i}) is"
                                         f" {text!r}; action ids tolerate case)", at_decision=False)
        for nonsense in ("no such action", "", "play"):
            if game.action_id(nonsense) is not None:
                self.fail("actions", f"action_id({nonsense!r}) is {game.action_id(nonsense)!r}, not None",
                          at_decision=False)


def _safe(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except Exception as exc:  # a broken engine must not hide the first failure
        return f"<{exc!r}>"


def _json_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, e.g. ``["hands"][1]["actions"][3]: 'pass' != 'bid 7H'``."""
    if type(a) is not type(b) and not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))):
        return f"{path or 'the value'}: {_short(a, 120)} != {_short(b, 120)}"
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in b:
                return f"{path}[{key!r}] is missing from the second"
            if key not in a:
                return f"{path}[{key!r}] is missing from the first"
            if a[key] != b[key]:
                return _json_difference(a[key], b[key], f"{path}[{key!r}]")
    elif isinstance(a, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _json_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f"{path or 'the list'}: length {len(a)} != {len(b)}"
        if type(a) is not type(b):
            return f"{path or 'the value'}: a {type(a).__name__} != a {type(b).__name__}"
    elif a != b:
        return f"{path or 'the value'}: {_short(a, 120)} != {_short(b, 120)}"
    return "equal"


# -- option values ------------------------------------------------------------------------------

def option_values(option: Any) -> list[Any]:
    """The values the option sweep plays: both of a bool, each choice, an int's min, max and default."""
    if option.kind == "bool":
        return [False, True]
    if option.kind == "choice":
        return list(option.choices)
    values = []
    for value in (option.minimum, option.maximum, option.default):
        if value is not None and value not in values:
            values.append(value)
    return values


def check_options(game: GameLike, *, players: Sequence[int] | None = None, options: Mapping[str, Any] | None = None,
                  seed: int = 0, decisions: int = OPTION_DECISIONS, checks: Sequence[str] = IN_PROCESS,
                  registry: "Registry | None" = None, not_card_keys: Iterable[str] = ()) -> None:
    """Play one match per option value, with the other options at their defaults."""
    spec = _Spec.of(game, registry)
    counts = list(players) if players is not None else player_counts(spec.cls)
    default_players = spec.cls.option_table.resolve({})["players"]
    counts.sort(key=lambda count: count != default_players)
    names = spec.cls.option_table.names()
    base = dict(options or {})
    seen: set[str] = set()
    for option in spec.cls.option_table:
        if option.name in base:
            continue
        for value in option_values(option):
            if option.name == "players":
                if value not in counts:
                    continue
                tries = [value]
            else:
                tries = counts
            refused = []
            for count in tries:
                configured = {**base, option.name: value}
                if option.name != "max_hands" and "max_hands" in names and "max_hands" not in base:
                    configured["max_hands"] = OPTION_MAX_HANDS
                configured["players"] = count
                key = _dump(configured)
                if key in seen:
                    break
                try:
                    made = spec.make(configured)
                except OptionError as exc:
                    refused.append(f"{count} players: {exc}")
                    continue
                seen.add(key)
                Playouts(spec, count, configured, f"{seed}/{option.name}={value}", checks, not_card_keys,
                         game=made).run(decisions, matches=1)
                break
            else:
                raise ConformanceError(
                    f"conformance check 'options' failed: game {spec.cls.name!r}: option {option.name}={value!r}"
                    f" is refused at every player count with the other options at their defaults: {'; '.join(refused)}",
                    check="options", game=spec.cls.name, options={option.name: value})


# -- hash seeds ---------------------------------------------------------------------------------

def random_records(game: GameLike, players: int, options: Mapping[str, Any] | None = None, seed: Any = 0,
                   matches: int = 3, decisions: int = 300, registry: "Registry | None" = None) -> list[dict[str, Any]]:
    """The records of ``matches`` seeded random matches (each cut after ``decisions`` decisions)."""
    spec = _Spec.of(game, registry)
    records = []
    for match in range(matches):
        state = spec.make({**(options or {}), "players": players}).new_match(seed=f"hash/{seed}/{match}")
        rng = random.Random(f"hash/{seed}/{match}")
        for _ in range(decisions):
            if state.is_over():
                break
            state.apply_id(rng.choice(state.legal_action_ids()))
        records.append(json.loads(_dump(state.record())))
    return records


_RECORDS_SCRIPT = """
import json, sys
from arena.testing.conformance import _load, random_records, _dump
print(_dump(random_records(_load(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4]),
                           int(sys.argv[5]), int(sys.argv[6]))))
"""


def outputs_under_hash_seeds(code: str, args: Sequence[str], hash_seeds: Sequence[str] = HASH_SEEDS,
                             timeout: float = 300) -> list[str]:
    """Run ``python -c code args`` once per ``PYTHONHASHSEED`` and return each run's stdout.

    The subprocesses see this process's ``sys.path`` and environment (so the same plugins)."""
    outputs = []
    path = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
    for hash_seed in hash_seeds:
        env = dict(os.environ, PYTHONHASHSEED=str(hash_seed), PYTHONPATH=path)
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                              timeout=timeout)
        if done.returncode != 0:
            raise AssertionError(f"the run under PYTHONHASHSEED={hash_seed} failed (exit {done.returncode}):\n"
                                 f"{done.stderr[-3000:]}")
        outputs.append(done.stdout)
    return outputs


def check_hash_seeds(game: GameLike, *, players: int, options: Mapping[str, Any] | None = None, seed: int = 0,
                     matches: int = 3, decisions: int = 300, hash_seeds: Sequence[str] = HASH_SEEDS,
                     registry: "Registry | None" = None) -> None:
    """The same seeded random matches give the same records in processes with other hash seeds."""
    spec = _Spec.of(game, registry)
    here = random_records(spec, players, options, seed, matches, decisions)
    args = [spec.reference(), str(players), json.dumps(dict(options or {})), json.dumps(seed), str(matches),
            str(decisions)]
    for hash_seed, out in zip(hash_seeds, outputs_under_hash_seeds(_RECORDS_SCRIPT, args, hash_seeds)):
        there = json.loads(out)
        if there != here:
            match = next(i for i, (a, b) in enumerate(zip(here, there)) if a != b)
            raise ConformanceError(
                f"conformance check 'hash_seeds' failed: game {spec.cls.name!r}, players={players},"
                f" options={dict(options or {})}, seed={seed!r}: random match {match} (seed 'hash/{seed}/{match}')"
                f" plays differently under PYTHONHASHSEED={hash_seed}: {_json_difference(here[match], there[match])}"
                " (something lets the iteration order of a set or dict of strings decide)",
                check="hash_seeds", game=spec.cls.name, players=players, options=dict(options or {}), seed=seed,
                match=match)
