"""The bid ladder (docs/games/five_hundred.md §5.1, R-5.7.2, R-5.8.1) and the fixed action
numbering of one configured game.

Calls are ordered by ladder key, never by point value. Action ids run in blocks, in this order:
``pass`` · the ladder (``bid 6S`` … ``bid 10NT``, with ``-SK`` twins and ``MIS``/``OM``/``BM`` at
their rungs) · ``look`` (blind misère) · ``discard <card>`` × pack · ``nominate S|C|D|H|none`` ·
``play <card>`` × pack · ``play JK <suit>`` × 4 · ``partners …`` (five players). The numbering
depends on the options only, never on the state.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple, Sequence

from arena.games.five_hundred.cards import SUITS

STRAINS = ("S", "C", "D", "H", "NT")
NT = 4

SUIT, MIS, OM, BM = "suit", "MIS", "OM", "BM"  # kinds; "suit" covers NT too
MISERE_VALUE = {MIS: 250, OM: 500, BM: 500}

PASS = 0  # the id of ``pass``


class Bid(NamedTuple):
    key: int  # ladder key: 10*(5*(level-6)+strain), +2 sans kitty, MIS 95, OM = BM 225
    text: str  # "6S", "10NT", "7H-SK", "MIS", "OM", "BM"
    kind: str
    level: int  # tricks bid (6..10); 0 for misère
    strain: int  # 0..3 suits, 4 NT; 4 for misère too (no trumps, R-2.5)
    sans_kitty: bool
    value: int  # points

    @property
    def misere(self) -> bool:
        return self.kind != SUIT


def value_of(level: int, strain: int) -> int:
    """R-5.1: six spades 40, +20 per strain, +100 per trick."""
    return 40 + 20 * strain + 100 * (level - 6)


def ladder(misere: bool, open_misere: bool, blind_misere: bool, sans_kitty: bool) -> list[Bid]:
    """Every call of a configuration (except PASS and LOOK), ascending; OM sorts before BM."""
    bids = []
    for level in range(6, 11):
        for strain in range(5):
            key = 10 * (5 * (level - 6) + strain)
            text = f"{level}{STRAINS[strain]}"
            bids.append(Bid(key, text, SUIT, level, strain, False, value_of(level, strain)))
            if sans_kitty:
                bids.append(Bid(key + 2, text + "-SK", SUIT, level, strain, True, value_of(level, strain)))
    if misere:
        bids.append(Bid(95, MIS, MIS, 0, NT, False, MISERE_VALUE[MIS]))
    if open_misere:
        bids.append(Bid(225, OM, OM, 0, NT, False, MISERE_VALUE[OM]))
    if blind_misere:
        bids.append(Bid(225, BM, BM, 0, NT, False, MISERE_VALUE[BM]))
    bids.sort(key=lambda b: (b.key, b.text == BM))
    return bids


class ActionTable:
    """id <-> canonical action string, the block offsets, and the bid of every bid id."""

    def __init__(self, tokens: Sequence[str], players: int, bids: list[Bid], blind: bool):
        strings = ["pass"] + ["bid " + b.text for b in bids]
        self.bid_of: list[Bid | None] = [None] + bids  # indexed by action id
        self.num_bids = len(bids)
        self.bm_id = next((i for i, b in enumerate(self.bid_of) if b and b.kind == BM), None)
        self.look_id = None
        if blind:
            self.look_id = len(strings)
            strings.append("look")
        self.discard_base = len(strings)
        strings += ["discard " + t for t in tokens]
        self.nominate_base = len(strings)
        strings += ["nominate " + s for s in SUITS] + ["nominate none"]
        self.play_base = len(strings)
        strings += ["play " + t for t in tokens]
        self.joker_lead_base = len(strings)
        strings += ["play JK " + s for s in SUITS]
        self.partners_base = len(strings)
        self.partner_sets: list[tuple[int, ...]] = []
        if players == 5:  # no partner, one, or two (any other seats)
            for k in range(3):
                for subset in combinations(range(players), k):
                    self.partner_sets.append(subset)
                    strings.append("partners " + (" ".join(map(str, subset)) if subset else "none"))
        self.strings = strings
        self.ids = {s.upper(): i for i, s in enumerate(strings)}
        self.exact = {s: i for i, s in enumerate(strings)}
        assert len(self.ids) == len(strings) and self.play_base + len(tokens) == self.joker_lead_base

    def __len__(self) -> int:
        return len(self.strings)

    def string(self, action_id: int) -> str:
        return self.strings[action_id]

    def parse(self, action: str) -> int | None:
        """The id of an action string, tolerating case, extra spaces and ``T`` for ten; else None."""
        found = self.exact.get(action) if isinstance(action, str) else None
        if found is not None or not isinstance(action, str):
            return found
        words = action.split()
        if not words:
            return None
        args = []
        for word in words[1:]:
            word = word.upper()
            if len(word) > 1 and word[0] == "T" and word != "NONE":
                word = "10" + word[1:]  # T for ten: "TH", "play TD", "bid TNT"
            args.append(word)
        if words[0].lower() == "partners" and args and args != ["NONE"]:
            args.sort()
        return self.ids.get(" ".join([words[0].upper()] + args))
