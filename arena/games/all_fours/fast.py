"""All Fours' card play on the compiled fast path (arena.fast, docs/fastpath.md): the engine's
play state in the extension's terms (:func:`position`), and the exact solver's leaves scored by
this game's own scoring (:func:`setup`). Reached through ``Game.fast_path()``.
"""

from __future__ import annotations

from typing import Any

from arena.fast import Position, cached_rules, make_rules
from arena.fast.nodes import Node, Setup, play_ids
from arena.games.all_fours.actions import PLAY
from arena.games.all_fours.cards import COUNT_OF_RANK, JACK, TOP_FIVE, game_count
from arena.games.all_fours.scoring import hand_items


def position(st: Any) -> Position:
    g, n, trump = st.g, st.n, st.trump
    key = ("all_fours", n, trump, g.penalize, g.no_undertrump)

    def build() -> tuple[Any, dict[int, int]]:
        return make_rules([c // 13 for c in range(52)], [c % 13 for c in range(52)],
                      [COUNT_OF_RANK[c % 13] for c in range(52)], [PLAY + c for c in range(52)], trump=trump,
                      nxt=[(s + 1) % n for s in range(n)], nactive=n, mode=1, penalize=g.penalize,
                      no_undertrump=g.no_undertrump, serious_mask=TOP_FIVE[trump])

    rules, card_of = cached_rules(key, build)
    return Position(rules, tuple(st.hands), st._to_act, bytes(st.trick_seats), bytes(st.trick),
                    st.trick[0] // 13 if st.trick else -1, 0, n, card_of)


def setup(st: Any, pos: Position, side: int) -> Setup:
    g, n, trump = st.g, st.n, st.trump
    eff, power = [c // 13 for c in range(52)], [c % 13 for c in range(52)]
    jack = trump * 13 + JACK
    rank_points = [-1 if c == jack else game_count(1 << c) for c in range(52)]
    scores0, changes0, barred0 = list(st._scores), list(st.changes), list(st.barred)
    captured0, dealt, target, eldest = list(st.captured), list(st.dealt), g.target, (st.dealer + 1) % n

    def outcome(node: Node, final: bool) -> float | None:
        """The engine's order (§9, §11): each finished trick's revokes as it ends (a serious one
        loses the match; another gives the other side a point), then at the hand's end its items;
        the match ends the moment a side reaches the target. None: not over yet."""
        scores, changes, barred = list(scores0), list(changes0), list(barred0)
        for trick, seat, serious in node.events:
            if trick >= node.done:
                break  # the trick in progress: penalized at its end
            offenders = seat % 2
            if serious:
                return float(changes[side])
            barred[offenders] = True
            scores[1 - offenders] += 1
            changes[1 - offenders] += 1
            if scores[1 - offenders] >= target:
                return float(changes[side])
        if not final:
            return None
        captured = list(captured0)
        for seat, taken in enumerate(node.captured):
            captured[seat % 2] |= taken
        for _, who, points, _ in hand_items(dealt, captured, trump, hang_jack_points=g.hang_jack,
                                            game_tie=g.game_tie, eldest=eldest, barred=barred):
            scores[who] += points
            changes[who] += points
            if scores[who] >= target:
                break
        return float(changes[side])

    def value(node: Node) -> float:
        return float(outcome(node, True))  # type: ignore[arg-type]  # final: always a value

    def revokes_end(node: Node) -> float | None:
        return outcome(node, False)

    # revokes earlier in the trick in progress: penalized at its end
    pending = tuple((0, seat, int(serious)) for seat, serious in st.pending)
    return Setup(pos, eff, power, rank_points, [True] * 52, play_ids(pos, 52), False, -1, value, revokes_end, pending)
