"""The interface every game engine offers.

A :class:`Game` is a game *configured* by its options (the variants): it is made from its name and
an options mapping, validates them, and starts matches. A :class:`GameState` is one match in
progress, from the first deal to the end of the game. It is pure: no I/O, no clocks, no threads.

Actions have two forms:

* **action strings**, the canonical notation (docs/game-interface.md, "Cards and actions") (``bid 7H``,
  ``play 10D``). Bots, records, logs and the wire use only these.
* **action ids**, small integers for search bots and benchmarks (the fast path). The numbering is
  fixed per configured game: ``Game.action_string(id)`` never depends on the state, so ids can be
  stored and compared across states.

Dealing is deterministic: every deal takes its deck from a :class:`DeckSource` — a seeded shuffle
(:class:`SeededDecks`) or explicit deck orders (:class:`FixedDecks`, used to replay records). The
engine turns a deck into hands by the specification's dealing procedure, so the deck order alone
fixes the deal, and the same seed gives the same sequence of decks whatever the players do (the
basis of duplicate deals).

To add a game: subclass both classes, declare ``name``, ``title``, ``option_table`` (with a
``players`` option) and implement the abstract methods; then register the Game class through the
``arena_games`` hook (see ``arena/plugins/hookspecs.py`` and ``docs/game-interface.md``).
"""

from __future__ import annotations

import abc
import enum
import json
import os
import random
import weakref
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar, Iterable, Mapping, Protocol, Sequence

from arena.errors import IllegalActionError, RecordError
from arena.options import OptionTable


RECORD_FORMAT = "trick-arena-record/2"
# Formats ``arena verify`` reads: /1 (before the shared vocabulary) differs only in the engine-defined
# extras of each hand's result, which replaying recomputes and never trusts.
RECORD_FORMATS = ("trick-arena-record/1", RECORD_FORMAT)


class MatchEnd(str, enum.Enum):
    """How a match ended: the ``end`` of :meth:`GameState.result` (None while it goes on)."""

    TARGET = "target"  # a side reached the score that wins
    LOSING_SCORE = "losing_score"  # a side fell to the score that loses (Five Hundred's -500)
    ELIMINATION = "elimination"  # sides were knocked out until one was left (56)
    PENALTY = "penalty"  # a rule breach decided the match (All Fours' serious revoke)
    HAND_LIMIT = "hand_limit"  # stopped at the ``max_hands`` option, not by the rules

    def __str__(self) -> str:
        return self.value


# The shared vocabulary (docs/game-interface.md): keys every game's observation carries with the
# same meaning. A game may add keys of its own; the conformance kit (arena.testing) checks these.
OBSERVATION_KEYS = (
    "game", "seat", "side", "players", "phase", "hand_index", "hands_played", "dealer", "to_act",
    "hand", "legal_actions", "history", "scores", "trump", "contract", "active_seats", "hand_sizes",
    "trick", "leader", "tricks", "last_trick", "tricks_won", "tricks_won_by_seat", "last_result",
)
# The one phase convention (docs/game-interface.md, "Phases"): every phase a state reports is of one
# of these kinds, declared per game in ``Game.page()["phases"]``: an auction or any call before the
# play (bid), cards changing hands unseen (exchange: a kitty discard, a gift), the tricks (play), the
# end of the match (over). The phase strings themselves stay the game's own (bots and records see them).
PHASE_KINDS = ("bid", "exchange", "play", "over")
# Keys every finished hand's result (``record["hands"][i]["result"]``, ``last_result``) carries.
HAND_RESULT_KEYS = ("scores", "changes", "end", "contract", "tricks_won", "tricks")
# Keys of :meth:`GameState.result`.
RESULT_KEYS = ("over", "scores", "winner", "winners", "ranking", "end")


class DeckSource(Protocol):
    """Where deals come from. ``index`` counts deals from 0 over the whole match."""

    def deck(self, index: int, pack: Sequence[str]) -> list[str]:
        """The deck of deal ``index``, top card first: a permutation of ``pack``."""

    def first_dealer(self, players: int) -> int:
        """The seat that deals first."""


class SeededDecks:
    """Seeded uniform Fisher–Yates shuffles of the canonical pack (docs/games/five_hundred.md R-3.4).

    Deal ``i`` depends only on the seed and ``i``, never on the play, so a deal set replays the same
    cards whoever sits where. Seeds are strings or integers; string seeding is stable across runs
    and Python versions (it does not use ``hash``).
    """

    def __init__(self, seed: int | str):
        self.seed = seed

    def deck(self, index: int, pack: Sequence[str]) -> list[str]:
        cards = list(pack)
        shuffle(random.Random(f"{self.seed}/deal/{index}"), cards)
        return cards

    def first_dealer(self, players: int) -> int:
        return random.Random(f"{self.seed}/dealer").randrange(players)


def shuffle(rng: random.Random, cards: list) -> None:
    """``rng.shuffle(cards)``, the very same permutation, without a method call per card.

    This is CPython's ``Random.shuffle`` with ``_randbelow_with_getrandbits`` written inline (the
    tests compare the two, so a Python whose shuffle differs is noticed).
    """
    steps = _SHUFFLE_STEPS.get(len(cards))
    if steps is None:  # per size, made once: each position i from the last down, i + 1, and its bit length
        steps = _SHUFFLE_STEPS[len(cards)] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in range(len(cards) - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


class FixedDecks:
    """Explicit deck orders, e.g. from a game record or a test. Each deck is checked against the pack.

    When the given decks run out, ``then`` (another source) supplies the rest; without it, asking
    for one more deck is a :class:`RecordError`.
    """

    def __init__(self, decks: Sequence[Sequence[str]], first_dealer: int = 0, then: DeckSource | None = None):
        self.decks = [list(deck) for deck in decks]
        self.dealer = first_dealer
        self.then = then

    def deck(self, index: int, pack: Sequence[str]) -> list[str]:
        if index >= len(self.decks):
            if self.then is not None:
                return self.then.deck(index, pack)
            raise RecordError(f"deal {index}: no deck was given for it", hand=index)
        deck = self.decks[index]
        if Counter(deck) != Counter(pack):
            missing = sorted((Counter(pack) - Counter(deck)).elements())
            extra = sorted((Counter(deck) - Counter(pack)).elements())
            raise RecordError(
                f"deal {index}: the deck is not the game's pack of {len(pack)} cards"
                f" (missing: {missing or 'none'}; not in the pack or repeated: {extra or 'none'})",
                hand=index,
            )
        return list(deck)

    def first_dealer(self, players: int) -> int:
        if not 0 <= self.dealer < players:
            raise RecordError(f"first dealer {self.dealer} is not a seat of a {players}-player game")
        return self.dealer


class Game(abc.ABC):
    """A game configured by its options. Subclasses declare the class attributes below."""

    name: ClassVar[str]  # the registry name, e.g. "five_hundred"
    title: ClassVar[str]  # for people, e.g. "Five Hundred"
    option_table: ClassVar[OptionTable]  # must contain "players"
    rules: ClassVar[str] = ""  # the specification this engine follows

    def __init__(self, options: Mapping[str, Any] | None = None):
        self.options: dict[str, Any] = self.option_table.resolve(options)
        self.players: int = self.options["players"]
        self.configure()

    # -- to implement ------------------------------------------------------------------------
    def configure(self) -> None:
        """Check option combinations and precompute tables. Raise OptionError for a bad mix."""

    @property
    @abc.abstractmethod
    def num_sides(self) -> int:
        """How many sides keep a score (teams, or players without partners)."""

    @abc.abstractmethod
    def side_of(self, seat: int) -> int:
        """The side a seat belongs to (fixed for the whole game)."""

    @abc.abstractmethod
    def new_state(self, decks: DeckSource) -> "GameState":
        """A new match whose deals come from ``decks``."""

    @property
    @abc.abstractmethod
    def num_actions(self) -> int:
        """The size of the action id space: ids are ``0 .. num_actions-1``."""

    @abc.abstractmethod
    def action_string(self, action_id: int) -> str:
        """The canonical string of an action id."""

    @abc.abstractmethod
    def action_id(self, action: str) -> int | None:
        """The id of a canonical action string (tolerating case and ``T`` for ten), or None."""

    def start_hand(self, dealer: int, deck: Sequence[str], scores: Sequence[int] | None = None, *,
                   then: DeckSource | None = None, **match: Any) -> "GameState":
        """A match at the start of a hand: ``dealer`` deals ``deck`` (top card first, as a record's
        ``deck``; each game's ``deck_for`` turns hands into one), with ``scores`` per side (the
        scores before this hand, default the match's start) and the game's own match bookkeeping in
        ``match`` (documented on its page). Later deals come from ``then`` (default a random seed)."""
        raise NotImplementedError(f"{type(self).__name__} cannot start a match mid-way")

    def check_hand_start(self, dealer: int, scores: Sequence[int] | None, match: Mapping[str, Any]) -> None:
        """Refuse a ``start_hand`` call this game cannot deal: match settings it does not have,
        scores for another number of sides, a dealer who is not a seat."""
        if match:
            raise TypeError(f"{self.title} has no match setting {sorted(match)}")
        if scores is not None and len(scores) != self.num_sides:
            raise ValueError(f"scores: {len(scores)} given, this {self.title} game has {self.num_sides} sides")
        if not 0 <= dealer < self.players:
            raise ValueError(f"dealer {dealer} is not a seat of the {self.players}-player game")

    # -- for search bots (docs/game-interface.md, "Search hooks") -----------------------------
    # A search bot rebuilds a state that gives one seat its observations (bots/search/proxy.py):
    # it deals the seat's own hand from a deck made by ``proxy_deck`` and replays the history.
    # Whether scores change inside a hand (All Fours' kicks of turn-ups): the rebuilder then learns
    # the hand's own changes by replaying it from zero.
    scores_change_in_hand: ClassVar[bool] = False
    # Whether, when another seat plays a card the rebuilt state gave someone else, swapping that
    # card into the player's hand is tried before a resample (cheaper where hands are many: 56;
    # a game may set it per instance in ``configure``, as Five Hundred does for 5 or 6 players).
    swap_played_cards: bool = False

    def deck_for(self, dealer: int, hands: Mapping[int, Sequence[str]], **seen: Any) -> list[str]:
        """The deck (top card first) that deals ``hands`` (seat -> cards, short hands filled from
        the rest of the pack) when ``dealer`` deals: the inverse of the game's deal. ``seen``: the
        game's own extras (a kitty, a turn-up). Raises ValueError for hands no deal gives."""
        raise NotImplementedError(f"{type(self).__name__} cannot make a deck for given hands")

    def proxy_dealt(self, hands_seen: Mapping[int, Sequence[str]], played: Sequence[str]) -> list[str]:
        """The cards a seat was dealt this hand, from its hands seen (history length -> hand) and
        the cards it played before the first of them. Default: the first hand seen and those cards;
        a game dealing more cards during the hand (All Fours' runs of the pack) adds them in order."""
        return list(hands_seen[min(hands_seen)]) + list(played)

    def proxy_deck(self, dealer: int, seat: int, hand: Sequence[str], observation: Mapping[str, Any],
                   kitty: Sequence[str] | None = None) -> list[str]:
        """A deck that deals ``hand`` to ``seat`` (and ``kitty``, a kitty the seat saw) with the
        other places in pack order, given the seat's ``observation``. Default: ``deck_for``."""
        return self.deck_for(dealer, {seat: list(hand)})

    def proxy_match(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """The match bookkeeping ``start_hand`` takes for the hand ``observation`` is in (56's
        knocked-out sides). Default: none."""
        return {}

    # -- for the exact solver (arena/solver.py, docs/solver.md) --------------------------------
    def fast_path(self) -> Any:
        """This game's card play on the compiled fast path (arena.fast, docs/fastpath.md), or None
        (the default: the solver searches on the engine). A module or object with ``position(state)``
        (an ``arena.fast.Position``) and ``setup(state, position, side)`` (an ``arena.fast.nodes.Setup``
        whose leaves score the hand for ``side``); the bundled games' are their ``fast.py``."""
        return None

    def hand_value(self, result: Mapping[str, Any], side: int) -> float:
        """What the solver maximises for ``side``: its score for the hand whose ``result`` (a
        ``deal_results`` row) is given. Default: the side's score change, ``result["changes"]``."""
        return float(result["changes"][side])

    # -- for search bots that play for the match (bots/search: value = "match") -----------------
    def match_stake(self) -> float | None:
        """The lead in score that all but decides a match (its winning score's distance from the
        start): the scale on which a search bot reads a side's chance of winning the match from the
        scores. Default None: the game does not say."""
        return None

    # -- for the web page (docs/game-interface.md, "The page") ---------------------------------
    def page(self) -> dict[str, Any]:
        """What the browser page shows of this game (``arena serve`` gives it in /api/games as
        ``page``), so that the page names no game:

        ``order`` (where the page lists it, lowest first; its first game is its default),
        ``clockwise`` (play passes to the left: ``seat+1`` sits on your left), ``rules`` (the rules
        for people: paragraphs split by blank lines), ``phases`` (each phase -> its kind, one of
        :data:`PHASE_KINDS`), ``ranks`` (a plain suit's ranks high to low for sorting the hand; None:
        A K Q J 10 .. 2), ``bowers`` (the jack of trumps and its twin sort with trumps), ``labels``
        (action string -> button text), ``groups`` (rows of buttons: ``title`` and the actions'
        ``prefix``), ``prompts`` (phase or kind -> the line shown when it is the person's turn) and
        ``module`` (the file name, in the game's package, of a JavaScript module drawing richer
        panels; None: the data above is all) and ``text`` (the game's words per language,
        ``{code: {key: text}}``: its ``title``, ``rules`` and whatever its module or data asks for;
        English is the fallback: :func:`page_text` reads them from the game's package). A game
        returns ``{**super().page(), ...}``."""
        return {"order": 100, "clockwise": True, "rules": "", "phases": {"play": "play", "over": "over"},
                "ranks": None, "bowers": False, "labels": {}, "groups": [], "prompts": {}, "module": None,
                "text": {}}

    def page_lines(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """Lines the page shows with one seat's ``observation`` (in each state message as
        ``lines``): ``contract``, the contract line; ``{seat:N}`` in a line is seat N, named as the
        page names seats. A line is a string, or ``{"key": K, name: value, ...}``: the game's text
        ``line:K`` (``page()["text"]``) in the reader's language with its ``{name}``s filled.
        Default: none (a game with a page module draws its own)."""
        return {}

    # -- provided ----------------------------------------------------------------------------
    def new_match(self, seed: int | str | None = None, decks: DeckSource | None = None) -> "GameState":
        """Start a match dealt from ``decks``, or from seeded shuffles (a random seed if none)."""
        if decks is None:
            decks = SeededDecks(seed if seed is not None else random.randrange(2**63))
        return self.new_state(decks)

    def seats_of(self, side: int) -> list[int]:
        return [seat for seat in range(self.players) if self.side_of(seat) == side]

    def side_name(self, side: int) -> str:
        return "seats " + "+".join(str(s) for s in self.seats_of(side))

    def describe(self) -> dict[str, Any]:
        """What ``arena games`` shows."""
        players = next(o for o in self.option_table if o.name == "players")
        return {
            "name": self.name,
            "title": self.title,
            "players": list(players.choices) if players.kind == "choice" else [players.default],
            "options": [
                {"name": o.name, "default": o.default, "accepts": o.accepts(), "help": o.help}
                for o in self.option_table
            ],
        }


def page_text(folder: str | os.PathLike[str]) -> dict[str, dict[str, str]]:
    """A game's words for the page per language (``Game.page()["text"]``), from ``folder`` in its
    package: ``<code>.json`` (a flat ``{key: text}``, ``{name}`` placeholders) and ``rules.<code>.md``
    (the rules for players, its key ``rules``; the same file the game's documentation links). A
    language with no file is left out, and the page falls back to English for it."""
    root = Path(folder)
    text: dict[str, dict[str, str]] = {}
    for path in sorted(root.glob("*.json")):
        text.setdefault(path.stem, {}).update(json.loads(path.read_text(encoding="utf-8")))
    for path in sorted(root.glob("rules.*.md")):
        text.setdefault(path.name.split(".")[1], {})["rules"] = path.read_text(encoding="utf-8").strip()
    return text


class GameState(abc.ABC):
    """One match in progress. Engines implement the abstract methods; the rest is shared.

    The shared part keeps the game record (deals, decks, actions), caches the legal actions of the
    current decision, and turns an illegal action into an :class:`IllegalActionError` that leaves
    the state unchanged.
    """

    # Engines set this to True when the match stopped at a harness limit (``max_hands``) rather than
    # by the rules; ``is_over()`` is then True and ``ranking()`` ranks the sides by score.
    unfinished: bool = False
    # The resample layout of the last position resampled, with its key (state, seat, deals, actions): every
    # action appends to the deal, so the key tells a new position. (On the state, not in a weak
    # dictionary beside it: the layout refers to the state, which would then never be freed.)
    _resample_cache: Any = None

    def __init__(self, game: Game, decks: DeckSource):
        self.game = game
        self.decks = decks
        # One entry per deal (the record's "hands"): dealer, deck, and [seat, action id] pairs.
        self.deals: list[dict[str, Any]] = []
        # One row per finished deal entry: {"scores": cumulative per side, ...} (engine-defined extras).
        self.deal_results: list[dict[str, Any]] = []
        self._legal: list[int] | None = None
        self._action_strings = action_strings(game)  # for legal_actions(): a look-up per action, no call

    # -- to implement ------------------------------------------------------------------------
    @abc.abstractmethod
    def current_player(self) -> int | None:
        """The seat to act, or None when the match is over."""

    @property
    @abc.abstractmethod
    def phase(self) -> str:
        """The name of the current decision (e.g. "auction", "discard", "play"), or "over"."""

    @abc.abstractmethod
    def _legal_ids(self) -> list[int]:
        """The legal action ids of the current decision, in a fixed (sorted) order."""

    @abc.abstractmethod
    def _apply(self, action_id: int) -> None:
        """Apply a legal action id (already checked) for the current player."""

    @abc.abstractmethod
    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see now, as JSON-ready data (see the game's information section)."""

    @abc.abstractmethod
    def scores(self) -> list[int]:
        """The cumulative score of each side."""

    @abc.abstractmethod
    def is_over(self) -> bool:
        """True when the match has ended (a win, a loss, or an ``unfinished`` stop)."""

    @abc.abstractmethod
    def ranking(self) -> list[int]:
        """Each side's place when the match is over: 0 is first; equal numbers are ties."""

    @abc.abstractmethod
    def clone(self) -> "GameState":
        """An independent copy (for search bots)."""

    def hidden_cards(self, seat: int) -> frozenset[str]:
        """The cards ``seat`` may not see at this moment: other seats' hands (less any card they
        have exposed) and undisclosed kitty, stock or discards. The conformance kit checks that no
        observation of ``seat`` shows one of them; search bots' deal samplers start from it."""
        raise NotImplementedError(f"{type(self).__name__} does not say which cards are hidden")

    def match_end(self) -> MatchEnd | None:
        """How the match ended (a :class:`MatchEnd`), or None while it goes on."""
        raise NotImplementedError(f"{type(self).__name__} does not say how its match ended")

    # -- deals a seat could be facing (docs/game-interface.md, "Resampling") ---------------------
    def voids(self) -> dict[int, list[str]]:
        """The suits each seat has shown it lacks this deal, by not following to a lead of them
        (the engine's own effective suits: bowers and a joker belong to the trump suit), as
        ``{seat: [suits]}`` (only seats with a void). Public: the same for every seat."""
        raise NotImplementedError(f"{type(self).__name__} does not derive voids")

    def resample(self, seat: int, rng: random.Random) -> "GameState":
        """A full state at this point of the match, drawn uniformly from the deals ``seat`` could be
        facing: its own hand, every card played, the voids shown, what it saw (a kitty, its
        discards, turn-ups, an exposed hand) and this deal's history all as they are; the other
        hidden cards dealt afresh and the deal replayed. ``sample.observation(seat)`` equals
        ``self.observation(seat)``. A game that does not implement it raises NotImplementedError."""
        from arena.games import resample
        layout, target = self.resample_layout(seat)
        return resample.resample(self, layout, rng, target)

    def resample_layout(self, seat: int) -> tuple[Any, dict[str, Any]]:
        """What ``seat`` does not know here (an :class:`arena.games.resample.Layout`) and its
        observation, which a sample must give it (empty where the layout's masks are enough):
        what :meth:`resample` deals from, for a caller that moves between deals itself."""
        # id(self): a clone copies the cache, whose layout belongs to the original
        key = (id(self), seat, len(self.deals), len(self.deals[-1]["actions"]) if self.deals else 0)
        cached = self._resample_cache
        if cached is None or cached[0] != key:  # a search bot resamples one position many times
            layout = self._resample_layout(seat)
            target = self.observation(seat) if layout.check else {}
            cached = self._resample_cache = (key, layout, target)
        return cached[1], cached[2]

    def with_hands(self, seat: int, hands: Mapping[int, Sequence[str]], rng: random.Random,
                   tries: int | None = None) -> "GameState | None":
        """The state ``seat`` could be facing in which every other seat ``s`` taking part holds
        ``hands[s]`` now (the cards nobody holds, such as an unseen kitty or the stock, placed at
        random, as are the actions hidden from ``seat``), or None when none of ``tries`` such
        fillings (by default a couple of thousand) agrees with what ``seat`` knows."""
        from arena.games import resample
        return resample.with_hands(self, self._resample_layout(seat), hands, rng,
                                   resample.WITH_HANDS_TRIES if tries is None else tries)

    def _resample_layout(self, seat: int) -> Any:
        """What ``seat`` does not know about this deal (an :class:`arena.games.resample.Layout`)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement resample")

    def allies(self, seat: int) -> frozenset[int]:
        """The seats that score with ``seat`` in this hand (the solver's maximising side).
        Default: the seats of its side; a game whose partnerships change per hand overrides it."""
        return frozenset(self.game.seats_of(self.game.side_of(seat)))

    def play_ranks(self) -> "PlayRanks | None":
        """For the exact solver's equivalent-card pruning, in the card play: each of the mover's
        card plays (action id) as ``(effective suit, power, points)`` and every card still to be
        played by another seat or lying in the trick in progress as ``(effective suit, power)``.
        Two of the mover's cards of one suit and equal points with no such card of a power between
        theirs or equal to either play alike, so the solver searches one of them. ``points``: all the
        hand's score counts of the card besides the trick it helps win (a card scoring on its own,
        such as All Fours' jack of trumps, gets a value no other card has). Leave out of the first
        mapping any play that is special in another way. Default None: no pruning."""
        return None

    # -- provided ----------------------------------------------------------------------------
    def winners(self) -> list[int]:
        """The sides in first place once the match is over (more than one for a shared win)."""
        if not self.is_over():
            return []
        ranks = self.ranking()
        return [side for side, rank in enumerate(ranks) if rank == 0]

    def winner(self) -> int | None:
        """The single winning side, or None (not over, or a shared first place)."""
        winners = self.winners()
        return winners[0] if len(winners) == 1 else None

    def legal_action_ids(self) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_ids() if self.current_player() is not None else []
        return legal

    def legal_actions(self) -> list[str]:
        names = self._action_strings
        return [names[a] for a in self.legal_action_ids()]

    def apply(self, action: str) -> None:
        """Apply an action string for the player to act; illegal ones raise and change nothing."""
        action_id = self.game.action_id(action) if isinstance(action, str) else None
        self._check_and_apply(action_id, action)

    def apply_id(self, action_id: int) -> None:
        """The fast path: apply an action id (still checked for legality)."""
        legal = self._legal
        if legal is None:
            legal = self.legal_action_ids()
        if action_id in legal:  # legal ids exist only while someone is to act
            self.deals[-1]["actions"].append((self.current_player(), action_id))
            self._legal = None
            self._apply(action_id)
        else:
            self._check_and_apply(action_id, action_id)

    def replay_ids(self, action_ids: Iterable[int]) -> None:
        """Apply action ids already known to be legal, in order, without checking each: for a
        private copy only, such as a search bot's sample replaying the compiled fast path's playout
        (whose plays tests/test_fastpath.py checks against this engine). A wrong id is not caught
        here. Each ``apply_id`` would work out the legal ids first; in 56 that was a third of a
        fast rollout. The record is kept as ``apply_id`` keeps it. It stops where the hand ends
        before the ids do (All Fours: a revoke's point that wins the match mid-hand)."""
        results = self.deal_results
        hands = len(results)
        actions = self.deals[-1]["actions"]
        for action_id in action_ids:
            seat = self.current_player()
            if seat is None or len(results) != hands:
                return
            actions.append((seat, action_id))
            self._legal = None
            self._apply(action_id)

    def _check_and_apply(self, action_id: int | None, shown: object) -> None:
        seat = self.current_player()
        if seat is None:
            raise IllegalActionError(shown, None, "over", [], "the match is over")
        if action_id is None or action_id not in self.legal_action_ids():
            why = "" if action_id is not None else "not an action string of this game"
            raise IllegalActionError(shown, seat, self.phase, self.legal_actions(), why)
        self.deals[-1]["actions"].append((seat, action_id))
        self._legal = None
        self._apply(action_id)

    def _new_deal(self, dealer: int, pack: Sequence[str]) -> list[str]:
        """Start a record entry for a new deal and return its deck (engines call this to deal)."""
        deck = self.decks.deck(len(self.deals), pack)
        self.deals.append({"dealer": dealer, "deck": deck, "actions": []})
        return deck

    def _end_deal(self, result: dict[str, Any]) -> None:
        """Record the result of the current deal entry; ``result`` holds at least "scores"."""
        self.deal_results.append(result)

    def actions_of_deal(self, index: int = -1) -> list[tuple[int, str]]:
        """The (seat, action string) pairs of one deal entry, for records and histories."""
        name = self.game.action_string
        return [(seat, name(a)) for seat, a in self.deals[index]["actions"]] if self.deals else []

    def result(self) -> dict[str, Any]:
        """The outcome so far: scores, winner(s), ranks, and whether the match is over."""
        over = self.is_over()
        try:  # (until every engine implements match_end)
            end = self.match_end() if over else None
        except NotImplementedError:
            end = None
        return {
            "over": over,
            "scores": self.scores(),
            "winner": self.winner(),
            "winners": self.winners(),
            "ranking": self.ranking() if over else None,
            "end": None if end is None else end.value,
        }

    def record(self, seats: Sequence[str] | None = None, **extra: Any) -> dict[str, Any]:
        """The game record (docs/game-interface.md, "Records"), with the results carried along."""
        hands = []
        names = self._action_strings
        own = type(self).actions_of_deal is GameState.actions_of_deal
        for index, deal in enumerate(self.deals):
            entry: dict[str, Any] = {
                "dealer": deal["dealer"],
                "deck": list(deal["deck"]),
                "actions": [[seat, names[a]] for seat, a in deal["actions"]] if own
                else [[seat, action] for seat, action in self.actions_of_deal(index)],
            }
            if index < len(self.deal_results):
                entry["result"] = self.deal_results[index]
            hands.append(entry)
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game.name,
            "options": dict(self.game.options),
            "seats": list(seats) if seats is not None else [f"seat{i}" for i in range(self.game.players)],
            "hands": hands,
            "result": self.result(),
        }
        record.update(extra)
        return record


# GameState.play_ranks(): (action id -> (suit, power, points) of the mover's plays, (suit, power) of the
# other cards still in play)
PlayRanks = tuple[dict[int, tuple[int, int, int]], list[tuple[int, int]]]


_ACTION_STRINGS: "weakref.WeakKeyDictionary[Game, tuple[str, ...]]" = weakref.WeakKeyDictionary()


def action_strings(game: Game) -> tuple[str, ...]:
    """Every action id's string of ``game``, indexed by id (made once per game: the numbering is fixed).

    Kept here rather than on the game (as a ``cached_property`` would keep it): writing into a game's
    ``__dict__`` turns its attributes into a plain dict, and CPython's every ``game.x`` look-up in
    the engines is slower from then on (measured: the bare engine loop, 7 % slower).
    """
    table = _ACTION_STRINGS.get(game)
    if table is None:
        table = _ACTION_STRINGS[game] = tuple(game.action_string(i) for i in range(game.num_actions))
    return table
