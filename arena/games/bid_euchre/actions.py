"""The fixed action numbering of one configured Bid Euchre game (the strings of
§12.2 of docs/games/bid_euchre.md).

Ids run in blocks, in this order, each block present only when the options allow it:
``pass`` · ``bid 3`` … ``bid T-1``, ``bid T`` (plain, option), ``bid help``, ``bid moon`` ·
``trump S/C/D/H`` (``trump NT``, option) · ``give <card>`` · ``discard <card>`` (joker) ·
``claim``, ``decline`` (ace no face) · ``play <card>``.
"""

from __future__ import annotations

from arena.cards import normalize_card
from arena.games.bid_euchre.cards import NUM_TOKENS, STRAINS, TOKENS


class ActionTable:
    """Two precomputed tables (id -> string, string -> id) plus the block offsets the engine uses.

    Bid *levels* order the bids: a number is its own level, ``bid help`` is ``T + 1``, ``bid moon``
    is ``T + 2`` (§6.1: MOON > HELP > every number).
    """

    def __init__(self, tricks: int, plain_full: bool, no_trump: bool, joker: bool, ace_no_face: bool):
        self.help_level = tricks + 1
        self.moon_level = tricks + 2
        self.tokens = NUM_TOKENS if joker else NUM_TOKENS - 1  # card blocks cover indices 0..tokens-1
        names = ["pass"]
        self.levels = list(range(3, tricks)) + ([tricks] if plain_full else []) + [self.help_level, self.moon_level]
        self.bid_base = len(names)
        names += [f"bid {self.level_name(level)}" for level in self.levels]
        self.trump_base = len(names)
        self.strains = 5 if no_trump else 4
        names += [f"trump {STRAINS[s]}" for s in range(self.strains)]
        self.give_base = len(names)
        names += [f"give {TOKENS[t]}" for t in range(self.tokens)]
        self.discard_base = len(names) if joker else -1
        if joker:
            names += [f"discard {TOKENS[t]}" for t in range(self.tokens)]
        self.claim = len(names) if ace_no_face else -1
        self.decline = self.claim + 1 if ace_no_face else -1
        if ace_no_face:
            names += ["claim", "decline"]
        self.play_base = len(names)
        names += [f"play {TOKENS[t]}" for t in range(self.tokens)]
        self.names: tuple[str, ...] = tuple(names)
        self.ids: dict[str, int] = {name: i for i, name in enumerate(names)}
        self.bid_id = {level: self.bid_base + i for i, level in enumerate(self.levels)}
        self.level_of = {i: level for level, i in self.bid_id.items()}

    def level_name(self, level: int) -> str:
        if level == self.help_level:
            return "help"
        if level == self.moon_level:
            return "moon"
        return str(level)

    def parse(self, text: str) -> int | None:
        """The id of an action string: case, outer spaces and ``T`` for ten are tolerated."""
        parts = text.split()
        if not parts:
            return None
        verb = parts[0].lower()
        if len(parts) == 1:
            return self.ids.get(verb)
        if len(parts) != 2:
            return None
        arg = parts[1]
        if verb in ("play", "give", "discard"):
            card = normalize_card(arg)
            return None if card is None else self.ids.get(f"{verb} {card}")
        if verb == "trump":
            return self.ids.get(f"trump {arg.upper()}")
        if verb == "bid":
            return self.ids.get(f"bid {arg.lower()}")
        return None
