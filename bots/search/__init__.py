"""``search``: determinized search (PIMC) with auction inference, for every game with the search hooks.

Settings (tournament file ``settings``, or ``arena play --setting``): ``samples`` (deals sampled per
decision, default 256), ``seconds`` (thinking time per decision, default 1.0; never beyond the
clock), ``rollout`` (``heuristic``, ``random``, ``fast`` or ``solve``: the policy of every seat in the rollouts;
``fast`` plays the card play with the compiled fast path's partner policy, the rest with the heuristic; ``solve``
ends each rollout with the exact solver once ``endgame`` cards are left in hand) and
``candidates`` (actions searched per decision, default 6), ``bid_seconds`` (thinking time for the
auction's decisions, default ``seconds``), ``policy`` (``heuristic``, or ``learned``: the
learned bot's choice is the default a search must beat; Bid Euchre only), ``compiled`` (heuristic
rollouts take the heuristic's card play from the compiled fast path, in every game;
false: the Python heuristic's, the same cards, slower), ``inference_tries`` (deals drawn per sample
to find one the auction agrees with, default 4), ``chain`` (samples from a Markov chain of deals in
proportion to the inference's weight, k swaps a sample; 0, the default: independent draws), ``value``
(``hand``: a rollout is worth the hand's score margin; ``match``: the change in the side's chance of
winning the match, which a hand that ends it decides) and ``seed``.
See docs/search-bot.md.
"""

from __future__ import annotations

import importlib
import logging
import random
from typing import Any, Callable, Mapping

from arena.games.base import Game
from arena.players.base import BotSpec, MatchInfo, Player
from arena.plugins import hookimpl

from bots.heuristic import STRATEGIES, HeuristicBot

# the bundled code this bot runs besides its own: a sandbox shows it (arena/players/sandbox.py)
SANDBOX_USES = ("bots.heuristic", "bots.learned")

DEFAULTS: dict[str, Any] = {"samples": 256, "seconds": 1.0, "rollout": "heuristic", "candidates": 6, "seed": None,
                             "endgame": 0, "play_weight": 1.0, "overbid": True, "policy": "heuristic",
                             "bid_seconds": None, "compiled": True, "inference_tries": 4, "chain": 0,
                             "value": "hand"}
ROLLOUTS = ("heuristic", "random", "fast", "solve")
POLICIES = ("heuristic", "learned")
VALUES = ("hand", "match")
SAFETY = 0.25  # of the time allowed, kept back for the answer's way to the referee
MARGIN = 0.05  # seconds kept back as well

log = logging.getLogger("bots.search")
_told_no_fast_path = False  # the notice below is given once a process


def tell_fast_path() -> bool:
    """Whether the compiled fast path (arena.fast, docs/fastpath.md) is built here; when it is not,
    say so once a process (a warning on the ``bots.search`` logger): the bot then plays on the
    pure-Python engines, as it did before there was one (and ``rollout = "fast"`` or ``"solve"`` rolls out with
    the heuristic)."""
    global _told_no_fast_path
    from arena import fast
    if fast.available():
        return True
    if not _told_no_fast_path:
        _told_no_fast_path = True
        log.warning("search: the compiled fast path is missing (%s); searching with the pure-Python engines"
                    " (rollout fast and rollout solve play as heuristic)", fast.why_unavailable())
    return False


class SettingsError(ValueError):
    """A bad ``search`` setting (what, the value, what is accepted)."""


def _whole(settings: Mapping[str, Any], key: str, least: int) -> int:
    """The setting ``key`` as a whole number of at least ``least`` (a string of one will do)."""
    text = str(settings[key]).strip()
    try:
        value = int(settings[key])
        if str(value) != text or value < least:
            raise ValueError
    except (TypeError, ValueError):
        raise SettingsError(f"search: {key} must be a whole number >= {least}, not {settings[key]!r}") from None
    return value


def _seconds(settings: Mapping[str, Any], key: str) -> float:
    """The setting ``key`` as a finite number of seconds >= 0."""
    try:
        seconds = float(settings[key])
        if not seconds >= 0 or seconds == float("inf"):
            raise ValueError
    except (TypeError, ValueError):
        raise SettingsError(f"search: {key} must be a number of seconds >= 0, not {settings[key]!r}") from None
    return seconds


def parse_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(settings) - set(DEFAULTS))
    if unknown:
        raise SettingsError(f"search: unknown setting(s) {', '.join(unknown)}; it takes {', '.join(DEFAULTS)}")
    out = dict(DEFAULTS)
    out.update(settings)
    samples, candidates = _whole(out, "samples", 0), _whole(out, "candidates", 2)
    endgame = _whole(out, "endgame", 0)
    inference_tries = _whole(out, "inference_tries", 1)
    out["chain"] = _whole(out, "chain", 0)
    try:
        play_weight = float(out["play_weight"])
        if not 0 < play_weight <= 1:
            raise ValueError
    except (TypeError, ValueError):
        raise SettingsError(f"search: play_weight must be a number in (0, 1], not {out['play_weight']!r}") from None
    seconds = _seconds(out, "seconds")
    bid_seconds = seconds if out["bid_seconds"] is None else _seconds(out, "bid_seconds")
    if out["rollout"] not in ROLLOUTS:
        raise SettingsError(f"search: rollout must be one of {', '.join(ROLLOUTS)}, not {out['rollout']!r}")
    seed = out["seed"]
    if seed is not None and not isinstance(seed, (int, str)):
        raise SettingsError(f"search: seed must be a whole number or a string, not {seed!r}")
    if not isinstance(out["overbid"], bool) and out["overbid"] != "opponents":
        raise SettingsError(f"search: overbid must be true, false or \"opponents\", not {out['overbid']!r}")
    if not isinstance(out["compiled"], bool):
        raise SettingsError(f"search: compiled must be true or false, not {out['compiled']!r}")
    if out["policy"] not in POLICIES:
        raise SettingsError(f"search: policy must be one of {', '.join(POLICIES)}, not {out['policy']!r}")
    if out["value"] not in VALUES:
        raise SettingsError(f"search: value must be one of {', '.join(VALUES)}, not {out['value']!r}")
    if out["value"] == "match" and endgame >= 1:
        raise SettingsError(f"search: value match cannot take endgame {endgame}: the solver values the hand's "
                            "score margin, not the match")
    if out["rollout"] == "solve" and endgame < 1:
        raise SettingsError("search: rollout solve needs endgame >= 1, the cards in hand from which a rollout is "
                            f"solved exactly, not {endgame}")
    out.update(samples=samples, seconds=seconds, bid_seconds=bid_seconds, candidates=candidates, endgame=endgame,
               play_weight=play_weight, inference_tries=inference_tries)
    return out


def budget(settings: Mapping[str, Any], observation: Mapping[str, Any], bidding: bool = False) -> float:
    """Seconds to think: the setting (``bid_seconds`` for a decision of the auction's kind), within
    the decision's limit and a share of the bank."""
    allowed = [float(settings["bid_seconds" if bidding else "seconds"])]
    time_left = observation.get("time_left")
    if time_left is not None:
        allowed.append(float(time_left) * (1 - SAFETY) - MARGIN)
    bank_left = observation.get("bank_left")
    if bank_left is not None:
        allowed.append(float(bank_left) / 20 - MARGIN)  # never spend the bank on a few decisions
    return max(0.0, min(allowed))


def bundled_game(name: str, options: Mapping[str, Any]) -> Any:
    """The game ``name`` with ``options``: a bundled one from its own plugin module, not through
    the registry, which loads every plugin (and a sandbox shows this bot only its own code); any
    other game (a plugin's) from the registry."""
    try:
        plugin = importlib.import_module(f"arena.games.{name}.plugin")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"arena.games.{name}", f"arena.games.{name}.plugin"):
            raise  # a bundled game that is broken, not a plugin's game
        from arena.plugins import get_registry
        if name not in get_registry().games:
            raise ValueError(f"search: no game {name!r} is installed") from None
        return get_registry().game(name, options)
    for cls in plugin.arena_register_games():
        if cls.name == name:
            return cls(options)
    raise ValueError(f"search: no bundled game {name!r}")


def learned_player(game: Game) -> Callable[[int], Player]:
    """The maker of ``policy = learned``'s default player: the ``learned`` bot; refused, with the
    reason, where there is no network for the game and its rules (numpy missing, another game,
    other options)."""
    try:
        from bots.learned import WEIGHTS, LearnedBot, load, unusable
        why = unusable(game, load(str(WEIGHTS)))
    except ImportError as exc:
        why = f"the learned bot cannot load ({exc}; install the rl extra)"
    if why is not None:
        raise SettingsError(f"search: policy learned cannot play {game.name}: {why}")
    return lambda seed: LearnedBot({}, seed)


class RandomStandIn(Player):
    """A uniformly random legal action: the rollouts' and the fallback's player in a game the
    heuristic has no strategy for."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, Any]) -> str:
        return str(self.rng.choice(observation["legal_actions"]))


class SearchBot(Player):
    def __init__(self, settings: Mapping[str, Any], seed: int):
        self.settings = parse_settings(settings)
        base = self.settings["seed"]
        self.rng = random.Random(f"search/{seed if base is None else base}")
        self.seed = seed
        self.searcher: Any = None
        self.info: MatchInfo | None = None

    def start_match(self, info: MatchInfo) -> None:
        from bots.search.pimc import Searcher
        self.info = info
        tell_fast_path()
        game = bundled_game(info.game, info.options)
        if type(game).deck_for is Game.deck_for:  # it could only ever play its fallback: say so at once
            raise ValueError(f"search cannot play {info.game!r}: its engine has no search hooks (Game.deck_for, "
                             "docs/game-interface.md)")
        if self.settings["value"] == "match" and game.match_stake() is None:
            raise SettingsError(f"search: value match needs the game's match_stake, and {info.game} gives none "
                                "(docs/game-interface.md)")
        # the heuristic guides the rollouts and the auction inference; a game it has no strategy
        # for (a plugin's) is searched with uniformly random ones. With policy = learned the
        # learned bot's network gives the default choice only: rolling out with it too, the
        # search found and played the network's blind spots (docs/search-bot.md)
        stand_in = HeuristicBot if info.game in STRATEGIES else RandomStandIn
        learned = learned_player(game) if self.settings["policy"] == "learned" else None
        seeded = lambda maker: lambda seat: maker(self.seed + 1009 * (seat + 1))  # noqa: E731
        self.searcher = Searcher(game, info.seat, self.settings, info.options, self.rng, seeded(stand_in),
                                 seeded(learned) if learned else None)

    def act(self, observation: dict[str, Any]) -> str:
        if self.searcher is None:
            raise RuntimeError("search: act before start_match")
        bidding = self.searcher.kinds.get(observation.get("phase")) == "bid"
        return str(self.searcher.decide(observation, budget(self.settings, observation, bidding)))


def make(settings: Mapping[str, Any], seed: int) -> SearchBot:
    return SearchBot(settings, seed)


@hookimpl
def arena_register_bots() -> list[BotSpec]:
    # every game whose engine offers the search hooks (arena.games.base.Game, "for search bots")
    return [BotSpec("search", make, "determinized search (PIMC) with auction inference; settings samples, seconds, rollout, candidates, seed",
                    titles={"en": "Thinker", "hi": "सोच-विचार वाला", "gu": "વિચારક"}, strength="hard")]
