"""The fixed numbering of 56's action strings (docs/games/fifty_six.md §6, §8.3, "Action strings").

Ids, in order: ``pass``, ``double``, ``redouble``; then the six bid forms, each a block
(``bid 28 S`` .. ``bid 56 H``, ``bid S 28`` .., ``bid 28 NT`` .., ``bid 28 noes`` ..,
``bid +1 S`` .. ``bid +28 H``, ``bid +2 noes`` or ``bid +1 noes`` .. ``bid +28 noes``); then
``play <card>`` for every kind of the starting pack. Blocks are laid out so that the legal bids
of any auction are a few contiguous ranges.
"""

from __future__ import annotations

from arena.cards import normalize_card
from arena.games.bitmask import bits
from arena.games.fifty_six.cards import SUITS, TOKEN

MIN_BID, MAX_BID = 28, 56
AMOUNTS = MAX_BID - MIN_BID + 1  # 29
MAX_PLUS = MAX_BID - MIN_BID  # 28

PASS, DOUBLE, REDOUBLE = 0, 1, 2
NT = 4  # strain index of no trumps; suits are 0..3

# Kinds of action (ACT_TYPE) and bid forms (also the form codes of the auction).
T_PASS, T_DOUBLE, T_REDOUBLE, T_BID, T_PLAY = range(5)
NUMBER_SUIT, SUIT_NUMBER, NUMBER_NT, NUMBER_NOES, PLUS_SUIT, PLUS_NOES = range(6)
FORM_NAMES = ("number_suit", "suit_number", "number_nt", "number_noes", "plus_suit", "plus_noes")
PLUS_FORMS = (PLUS_SUIT, PLUS_NOES)
STRAIN_NAMES = ("S", "C", "D", "H", "NT")


class ActionTable:
    """Both directions of the numbering, computed once per configured game."""

    def __init__(self, pack_kinds: list[int], plus_noes_any: bool):
        strings = ["pass", "double", "redouble"]
        # per id: (type, form, amount or plus-n, strain, card kind)
        info: list[tuple[int, int, int, int, int]] = [
            (T_PASS, -1, 0, -1, -1),
            (T_DOUBLE, -1, 0, -1, -1),
            (T_REDOUBLE, -1, 0, -1, -1),
        ]

        def add(text: str, form: int, number: int, strain: int) -> None:
            strings.append(text)
            info.append((T_BID, form, number, strain, -1))

        self.number_suit = len(strings)
        for amount in range(MIN_BID, MAX_BID + 1):
            for s in range(4):
                add(f"bid {amount} {SUITS[s]}", NUMBER_SUIT, amount, s)
        self.suit_number = len(strings)
        for amount in range(MIN_BID, MAX_BID + 1):
            for s in range(4):
                add(f"bid {SUITS[s]} {amount}", SUIT_NUMBER, amount, s)
        self.number_nt = len(strings)
        for amount in range(MIN_BID, MAX_BID + 1):
            add(f"bid {amount} NT", NUMBER_NT, amount, NT)
        self.number_noes = len(strings)
        for amount in range(MIN_BID, MAX_BID + 1):
            add(f"bid {amount} noes", NUMBER_NOES, amount, NT)
        self.plus_suit = len(strings)
        for n in range(1, MAX_PLUS + 1):
            for s in range(4):
                add(f"bid +{n} {SUITS[s]}", PLUS_SUIT, n, s)
        self.plus_noes = len(strings)
        self.plus_noes_any = plus_noes_any
        # §8.3: "plus two, Noes" increments by exactly 2 unless plus_noes_increment = any.
        for n in range(1, MAX_PLUS + 1) if plus_noes_any else (2,):
            add(f"bid +{n} noes", PLUS_NOES, n, NT)
        self.play = len(strings)
        self.play_id = [-1] * 32
        for kind in sorted(pack_kinds):
            self.play_id[kind] = len(strings)
            strings.append(f"play {TOKEN[kind]}")
            info.append((T_PLAY, -1, 0, -1, kind))
        # The play ids of a set of kinds, one suit (8 bits of a kind mask) at a time: the legal plays
        # of a hand are four look-ups, in id order (suits S C D H, then strength, as the ids run).
        self.play_by_suit = tuple(
            tuple(tuple(self.play_id[suit * 8 + strength] for strength in bits(byte)) for byte in range(256))
            for suit in range(4)
        )
        self.strings = strings
        self.info = info
        self.by_text = {text.upper(): i for i, text in enumerate(strings)}
        self._bid_cache: dict[int, list[int]] = {}

    def __len__(self) -> int:
        return len(self.strings)

    def parse(self, action: str) -> int | None:
        """The id of an action string, tolerating case, spacing and ``T`` for ten; else None."""
        if not isinstance(action, str):
            return None
        words = action.upper().split()
        if len(words) == 2 and words[0] == "PLAY":
            card = normalize_card(words[1])
            if card is None:
                return None
            words[1] = card
        return self.by_text.get(" ".join(words))

    def bids_above(self, current: int) -> list[int]:
        """The legal bid ids when the current bid is ``current`` (0: no bid yet). §8.2, §8.3"""
        cached = self._bid_cache.get(current)
        if cached is None:
            low = current + 1 if current else MIN_BID
            k = low - MIN_BID
            cached = []
            if low <= MAX_BID:
                cached.extend(range(self.number_suit + 4 * k, self.number_suit + 4 * AMOUNTS))
                cached.extend(range(self.suit_number + 4 * k, self.suit_number + 4 * AMOUNTS))
                cached.extend(range(self.number_nt + k, self.number_nt + AMOUNTS))
                cached.extend(range(self.number_noes + k, self.number_noes + AMOUNTS))
            if current:  # the plus forms need a bid to add to
                room = MAX_BID - current
                cached.extend(range(self.plus_suit, self.plus_suit + 4 * room))
                if self.plus_noes_any:
                    cached.extend(range(self.plus_noes, self.plus_noes + room))
                elif room >= 2:
                    cached.append(self.plus_noes)
            self._bid_cache[current] = cached
        return cached
