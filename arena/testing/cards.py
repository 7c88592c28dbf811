"""Finding the cards an observation shows, for the hidden-card check of the conformance kit.

An observation is plain JSON; a card appears in it as a string of the game's pack (``"10H"``,
``"JK"``) or inside an action string (``"play 10H"``, ``"discard JK"``). Some games use card-like
tokens that are not cards: Five Hundred's bid ``"bid 10H"`` (ten tricks, hearts) and its contract
``{"bid": "10H"}``. The action table tells them apart: a token position where only cards ever
appear (``play _``) names a card; one where other tokens appear too (``bid _`` also takes ``6NT``)
does not, and such card-like tokens are *ambiguous*: they count as cards in lists
(``"hand": [...]``, ``"trick": [[seat, card]]``) but not as the value of a dict key, where games
put bids and contracts.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any, Iterable, Iterator, Sequence

_TOKENS = re.compile(r"[^0-9A-Za-z+\-]+")
# A JSON string literal, with the ": " before a dict's value or the ":" after a key (json.dumps' separators).
_STRINGS = re.compile(r'(: |)"([^"\\]*(?:\\.[^"\\]*)*)"(?=(:?))')


class CardNames:
    """The card strings of a pack and how to find them in observations."""

    def __init__(self, pack: Iterable[str], action_strings: Sequence[str], not_card_keys: Iterable[str] = ()):
        """``not_card_keys``: top-level observation keys to skip."""
        self.cards = frozenset(pack)
        self.not_card_keys = frozenset(not_card_keys)
        fillers: dict[tuple, set[str]] = defaultdict(set)
        split = [action.split() for action in action_strings]
        for tokens in split:
            for i, token in enumerate(tokens):
                fillers[(tuple(tokens[:i]), tuple(tokens[i + 1:]))].add(token)
        naming = {template for template, tokens in fillers.items() if tokens <= self.cards}
        ambiguous: set[str] = set()
        self.in_action: dict[str, tuple[str, ...]] = {}
        for action, tokens in zip(action_strings, split):
            named = []
            for i, token in enumerate(tokens):
                if token in self.cards:
                    if (tuple(tokens[:i]), tuple(tokens[i + 1:])) in naming:
                        named.append(token)
                    else:
                        ambiguous.add(token)
            self.in_action[action] = tuple(named)
        self.ambiguous = frozenset(ambiguous)
        self._cache: dict[tuple[str, bool], tuple[str, ...]] = {}
        self._unkeyed: dict[str, tuple[str, ...]] = {}

    def in_string(self, text: str, keyed: bool) -> tuple[str, ...]:
        """The cards a string names; ``keyed``: it is a dict's key or the value of a key."""
        found = self._cache.get((text, keyed))
        if found is None:
            if text in self.cards:
                found = () if keyed and text in self.ambiguous else (text,)
            elif text in self.in_action:
                found = self.in_action[text]
            else:  # free text: only cards no action uses as another word
                found = tuple(t for t in _TOKENS.split(text) if t in self.cards and t not in self.ambiguous)
            self._cache[(text, keyed)] = found
        return found

    def shown(self, observation: Any, text: str | None = None) -> set[str]:
        """Every card string the observation shows (fast: one JSON text cut at its quotes).

        ``text``: ``json.dumps`` of the observation less ``not_card_keys``, if already made."""
        if text is None:
            text = json.dumps(self.visible_part(observation))
        if '\\"' in text:  # a string with a quote in it: the slower, exact scan
            out: set[str] = set()
            for before, string, after in set(_STRINGS.findall(text)):
                out.update(self.in_string(string, bool(before or after)))
            return out
        parts = text.split('"')  # between quotes: the strings
        out = set()
        ambiguous = []
        for string in set(parts[1::2]):
            found = self._unkeyed.get(string)
            if found is None:
                found = self._unkeyed[string] = self.in_string(string, False)
            if found:
                if string in self.ambiguous:  # a card as a list item, a bid as a dict's value
                    ambiguous.append(string)
                else:
                    out.update(found)
        for string in ambiguous:  # before the string ': ' (a dict's value), after it ':' (a key)
            for i in range(1, len(parts), 2):
                if parts[i] == string and not parts[i - 1].endswith(": ") and not parts[i + 1].startswith(":"):
                    out.add(string)
                    break
        return out

    def visible_part(self, observation: Any) -> Any:
        """The observation less its ``not_card_keys`` (top-level)."""
        if isinstance(observation, dict) and self.not_card_keys:
            return {k: v for k, v in observation.items() if k not in self.not_card_keys}
        return observation

    def where(self, observation: Any, card: str) -> Iterator[str]:
        """The paths (``["tricks"][0]["cards"][1][1]``) at which ``card`` is shown (slow: for messages)."""
        yield from self._where(self.visible_part(observation), card, False, "")

    def _where(self, value: Any, card: str, keyed: bool, path: str) -> Iterator[str]:
        if isinstance(value, str):
            if card in self.in_string(value, keyed):
                yield path + ("" if value == card else f" (in {value!r})")
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and card in self.in_string(key, True):
                    yield f"{path} (the key {key!r})"
                yield from self._where(item, card, True, f"{path}[{key!r}]")
        elif isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                yield from self._where(item, card, False, f"{path}[{i}]")
