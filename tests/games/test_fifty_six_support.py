"""Helpers for the 56 tests: build hands and the matches that deal them, and drive a match.

(A test module by name only so that it stays among this game's files; its own checks are small.)
"""

from __future__ import annotations

from collections import Counter

from arena.cards import normalize_card
from arena.games.base import FixedDecks, SeededDecks
from arena.games.fifty_six import FiftySixGame
from arena.games.fifty_six.cards import KIND, SUITS, TOKEN, pack_tokens
from arena.games.fifty_six.dealing import deck_for


def card(token: str) -> str:
    """The rules page's notation to canonical: ``TS`` -> ``10S``, ``JD'`` (second copy) -> ``JD``."""
    return normalize_card(token.rstrip("'"))


def cards(text: str) -> list[str]:
    return [card(t) for t in text.replace(",", " ").split()]


def fill(required: dict[int, list[str]], active: list[int], voids: dict[int, str] | None = None) -> dict[int, list[str]]:
    """Complete the hands of ``active`` seats from the rest of the pack, keeping each seat of
    ``voids`` void in the given suits. Seats with voids are filled first."""
    voids = voids or {}
    n = len(active)
    pack = Counter(pack_tokens(n))
    hands = {seat: list(required.get(seat, [])) for seat in active}
    for seat_cards in hands.values():
        pack.subtract(seat_cards)
    assert all(v >= 0 for v in pack.values()), "required cards exceed the pack"
    rest = sorted(pack.elements(), key=lambda t: KIND[t])
    size = len(pack_tokens(n)) // n
    for seat in sorted(active, key=lambda s: (s not in voids, s)):
        for token in list(rest):
            if len(hands[seat]) == size:
                break
            if token[-1] in voids.get(seat, ""):
                continue
            hands[seat].append(token)
            rest.remove(token)
        assert len(hands[seat]) == size, f"cannot fill seat {seat}"
    return hands


def dominant(active: list[int], strong: list[int]) -> dict[int, list[str]]:
    """Hands in which every seat holds the same number of cards of every suit and the ``strong``
    seats hold the highest ones, so they win every trick whatever the trump: 56 points to them."""
    n = len(active)
    size = len(pack_tokens(n)) // n
    per_suit = size // 4
    weak = [s for s in active if s not in strong]
    hands = {seat: [] for seat in active}
    low = 0 if n == 8 else 2
    for s in range(4):
        ranked = [TOKEN[s * 8 + r] for r in range(7, low - 1, -1) for _ in range(2)]
        top, bottom = ranked[: per_suit * len(strong)], ranked[per_suit * len(strong):]
        for i, token in enumerate(top):
            hands[strong[i % len(strong)]].append(token)
        for i, token in enumerate(bottom):
            hands[weak[i % len(weak)]].append(token)
    return hands


def match(hands: dict[int, list[str]], dealer: int, players: int = 4, then_seed: int = 0, **options):
    """A match whose first deal is ``hands``; later deals come from a seeded shuffle.

    The worked examples (§15 of docs/games/fifty_six.md) call the auction counter-clockwise; the
    engine's default follows the user's rule document (clockwise, E1), so the examples ask for
    their own order.
    """
    game = FiftySixGame({"players": players, "auction_direction": "counter_clockwise", **options})
    deck = deck_for(game, dealer, hands, active=sorted(hands))
    return game, game.new_match(decks=FixedDecks([deck], dealer, then=SeededDecks(then_seed)))


def calls(state, *pairs) -> None:
    """Apply (seat, action) pairs, checking that each seat is the one to act."""
    for seat, action in pairs:
        assert state.current_player() == seat, (seat, action, state.current_player())
        state.apply(action)


def play_trick(state, plays: str) -> None:
    """Apply ``"0:AS 1:QH ..."`` (seat:card in the rules page's notation)."""
    for item in plays.split():
        seat, token = item.split(":")
        assert state.current_player() == int(seat), (item, state.current_player())
        state.apply("play " + card(token))


def play_out(state) -> None:
    """Finish the current hand with the first legal card each time."""
    index = len(state.deals)
    while not state.is_over() and len(state.deals) == index:
        state.apply_id(state.legal_action_ids()[0])


def test_helpers_deal_what_they_say():
    hands = fill({0: ["AS"], 1: ["QH"]}, [0, 1, 2, 3], voids={1: "S", 3: "S"})
    game, state = match(hands, dealer=3)
    for seat in range(4):
        assert sorted(state.observation(seat)["hand"]) == sorted(hands[seat])
    assert not any(t.endswith("S") for t in hands[1] + hands[3])
    strong = dominant([0, 1, 2, 3], [0, 2])
    assert sorted(strong[0] + strong[2]).count("JS") == 2
    assert all(len(h) == 12 for h in strong.values())
    assert set(SUITS) == {t[-1] for t in strong[1]}
