"""The bid ladder (§5.1, §5.7.2, §5.8.1): calls ordered by ladder key, never by point value."""

from __future__ import annotations

from typing import NamedTuple

STRAINS = ("S", "C", "D", "H", "NT")
NT = 4

SUIT, MIS, OM, BM = "suit", "MIS", "OM", "BM"  # kinds; "suit" covers NT too
MISERE_VALUE = {MIS: 250, OM: 500, BM: 500}


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
    """R-5.1 (S3's formula): six spades 40, +20 per strain, +100 per trick."""
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
