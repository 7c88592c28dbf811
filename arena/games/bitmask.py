"""Bit tricks shared by the engines, whose hands are int bitmasks of card ids."""

from __future__ import annotations


def bits(mask: int) -> list[int]:
    """The ids set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
