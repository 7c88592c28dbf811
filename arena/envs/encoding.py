"""A seat's observation as a flat tensor, built from the shared vocabulary (docs/learning.md).

The encoder reads nothing but ``state.observation(seat)``, the JSON the game itself gives that seat,
so what it encodes is what the seat may see: the conformance kit already checks that observations
show no hidden card. It uses only the keys every game carries (``OBSERVATION_KEYS``) plus the cards
a game shows under keys of its own (a turn-up, an exposed hand), found the way the conformance kit
finds them; any registered game, a plugin's too, gets the same layout without code of its own.

Seats and sides are relative to the observing seat (position 0 is the seat itself, 1 the next to
play, ...), so one policy can sit anywhere. Cards are counted, since 56 and double-deck Bid Euchre
hold two copies of a card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from arena.games.base import OBSERVATION_KEYS, Game, action_strings
from arena.testing.cards import CardNames

TRUMPS = ("S", "C", "D", "H", "NT")
UNBOUNDED = float("inf")


@dataclass(frozen=True)
class Segment:
    """One named block of the tensor: ``size`` values from ``start``, each within [low, high]."""

    name: str
    start: int
    size: int
    low: float
    high: float
    meaning: str


class ObservationEncoder:
    """The fixed tensor layout of one configured game (its player count and options)."""

    def __init__(self, game: Game):
        self.game = game
        self.players = game.players
        self.sides = game.num_sides
        self.num_actions = game.num_actions
        self.actions = action_strings(game)
        deck = game.new_match(seed=0).deals[0]["deck"]  # any deal: a deck is a permutation of the pack
        self.copies = Counter(deck)
        self.cards = card_order(self.copies, self.actions)
        self.card_index = {card: i for i, card in enumerate(self.cards)}
        # Cards the game shows under keys of its own: every key outside the shared vocabulary
        # (last_result is the previous deal: its cards are not this deal's).
        self.card_names = CardNames(deck, self.actions, not_card_keys=OBSERVATION_KEYS)
        self.segments: list[Segment] = []
        P, C, A, S = self.players, len(self.cards), self.num_actions, self.sides
        most = max(self.copies.values())
        for name, size, low, high, meaning in (
            ("seat", P, 0, 1, "this seat, one-hot (absolute seat number)"),
            ("to_act", P, 0, 1, "the seat to act, one-hot by relative position (none once over)"),
            ("dealer", P, 0, 1, "the dealer, one-hot by relative position"),
            ("leader", P, 0, 1, "the leader of the trick in progress, one-hot by relative position"),
            ("active_seats", P, 0, 1, "seats taking part in this deal, by relative position"),
            ("hand", C, 0, most, "copies of each card in this seat's hand"),
            ("hand_sizes", P, 0, len(deck), "cards held, by relative position"),
            ("trick", P * C, 0, most, "the trick in progress: per relative position, the card it played"),
            ("played", P * C, 0, most, "this deal's cards played to tricks (finished and current), per relative position"),
            ("shown", C, 0, 1, "cards shown under the game's own keys (a turn-up, a kitty seen, an exposed hand)"),
            ("history_counts", P * A, 0, UNBOUNDED, "this deal's visible actions: per relative position, times each action id was taken"),
            ("last_action", P * A, 0, 1, "per relative position, its latest visible action this deal, one-hot"),
            ("trump", len(TRUMPS), 0, 1, "trump suit one-hot over S C D H NT (all zero while unknown)"),
            ("scores", S, -UNBOUNDED, UNBOUNDED, "each side's score, this seat's side first (relative sides)"),
            ("tricks_won", S, 0, UNBOUNDED, "tricks won this deal per relative side"),
            ("tricks_won_by_seat", P, 0, UNBOUNDED, "tricks won this deal per relative position"),
            ("hand_index", 1, 0, UNBOUNDED, "the deal's index in the match"),
            ("hands_played", 1, 0, UNBOUNDED, "deals finished"),
        ):
            start = self.segments[-1].start + self.segments[-1].size if self.segments else 0
            self.segments.append(Segment(name, start, size, low, high, meaning))
        self.size = self.segments[-1].start + self.segments[-1].size
        self.low = np.concatenate([np.full(s.size, s.low, np.float32) for s in self.segments])
        self.high = np.concatenate([np.full(s.size, s.high, np.float32) for s in self.segments])
        self._start = {s.name: s.start for s in self.segments}
        self._action_ids: dict[str, int | None] = {}

    def encode(self, observation: Mapping[str, Any]) -> np.ndarray:
        """The tensor of one seat's observation (a fresh float32 array of ``self.size``)."""
        out = np.zeros(self.size, np.float32)
        self.encode_into(observation, out)
        return out

    def encode_into(self, observation: Mapping[str, Any], out: np.ndarray) -> None:
        """``encode`` written into ``out`` (``self.size`` float32 values, e.g. a row of a batch),
        which is overwritten: the vector environment encodes straight into its output, no copy.

        Indices are gathered in Python lists and written with one numpy call per kind (counted,
        set to one): item by item writes to a numpy array cost more than the rest of the work."""
        out.fill(0)
        seat = observation["seat"]
        P, C, A = self.players, len(self.cards), self.num_actions
        start, card_index = self._start, self.card_index
        ones: list[int] = [start["seat"] + seat]  # one-hots
        counted: list[int] = []  # counts: an index once per thing counted

        def rel(other: int) -> int:
            return (other - seat) % P

        for name in ("to_act", "dealer", "leader"):
            if observation[name] is not None:
                ones.append(start[name] + rel(observation[name]))
        ones.extend(start["active_seats"] + rel(other) for other in observation["active_seats"])
        counted.extend(start["hand"] + card_index[token] for token in observation["hand"])
        trick, played = start["trick"], start["played"]
        for other, token in observation["trick"]:
            at = rel(other) * C + card_index[token]
            counted += (trick + at, played + at)
        for done in observation["tricks"]:
            counted.extend(played + rel(other) * C + card_index[token] for other, token in done["cards"])
        ones.extend(start["shown"] + card_index[token] for token in self.card_names.shown(observation))
        latest: dict[int, int] = {}  # relative position -> its latest visible action id
        history = start["history_counts"]
        for other, action in observation["history"]:
            action_id = self._action_id(action)
            if action_id is None:  # a game may show a hidden action as a placeholder: not an id
                continue
            position = rel(other)
            counted.append(history + position * A + action_id)
            latest[position] = action_id
        ones.extend(start["last_action"] + position * A + action_id for position, action_id in latest.items())
        if observation["trump"] in TRUMPS:
            ones.append(start["trump"] + TRUMPS.index(observation["trump"]))
        out[ones] = 1
        if counted:
            np.add.at(out, counted, 1)
        own = observation["side"]
        S = self.sides
        self._put("hand_sizes", [observation["hand_sizes"][(seat + k) % P] for k in range(P)], out)
        self._put("scores", [observation["scores"][(own + k) % S] for k in range(S)], out)
        self._put("tricks_won", [observation["tricks_won"][(own + k) % S] for k in range(S)], out)
        self._put("tricks_won_by_seat", [observation["tricks_won_by_seat"][(seat + k) % P] for k in range(P)], out)
        self._put("hand_index", [observation["hand_index"]], out)
        self._put("hands_played", [observation["hands_played"]], out)

    def _action_id(self, action: Any) -> int | None:
        """``game.action_id``, remembered per action string (the history repeats them every call)."""
        if not isinstance(action, str):
            return self.game.action_id(action)
        try:
            return self._action_ids[action]
        except KeyError:
            found = self._action_ids[action] = self.game.action_id(action)
            return found

    def _put(self, name: str, values: Sequence[float], out: np.ndarray) -> None:
        start = self._start[name]
        out[start:start + len(values)] = values

    def describe(self) -> list[dict[str, Any]]:
        """The layout, segment by segment (what docs/learning.md tabulates)."""
        return [{"name": s.name, "start": s.start, "size": s.size, "meaning": s.meaning} for s in self.segments]


def card_order(copies: Mapping[str, int], actions: Sequence[str]) -> list[str]:
    """The pack's distinct cards in a fixed order: by the first action id that names the card (the
    numbering of actions never changes), then by name for cards no action names."""
    first: dict[str, int] = {}
    for action_id, action in enumerate(actions):
        for token in action.split():
            if token in copies:
                first.setdefault(token, action_id)
    return sorted(copies, key=lambda card: (first.get(card, len(actions)), card))
