"""A tiny complete game for testing the layers above the engines (and the example in
docs/game-interface.md): two players, eight cards, four tricks a hand, no trumps, follow suit;
each trick scores a point and the first side to ``target`` points wins at the end of a hand.
It passes the conformance kit (tests/test_conformance.py): it says which cards each seat may not
see (``hidden_cards``), how its match ended (``match_end``) and uses the shared vocabulary.
"""

from __future__ import annotations

from typing import Any

from arena.games import resample
from arena.games.base import Game, GameState, MatchEnd
from arena.options import Option, OptionTable
from arena.plugins import hookimpl

PACK = ["9S", "10S", "QS", "AS", "9H", "10H", "QH", "AH"]  # low to high in each suit
ACTIONS = [f"play {card}" for card in PACK]
RULES = """Toy tricks: two players, eight cards (9 10 Q A of spades and hearts), four each.

Follow suit if you can; the higher card of the suit led wins the trick, and each trick is a point. The first side to the target wins at the end of a hand."""

# Its words per language for the page (Game.page()["text"]); English is the fallback, and where a
# language has none of them (Gujarati here, but for the title) the page shows the English.
TEXT = {
    "en": {"line:target": "{target} points to win", "line:target_lead": "{target} points to win · {seat:{leader}} leads"},
    "hi": {"title": "खिलौना ताश", "line:target": "जीतने के लिए {target} अंक",
           "line:target_lead": "जीतने के लिए {target} अंक · चाल {seat:{leader}} की",
           "rules": "खिलौना ताश: दो खिलाड़ी, आठ पत्ते (हुकुम और पान के 9 10 Q A), हर एक को चार।\n\n"
                    "हो सके तो वही सूट खेलें; शुरू किए गए सूट का ऊँचा पत्ता चाल जीतता है, और हर चाल एक अंक की है। "
                    "बाज़ी के अंत में जो पहले लक्ष्य तक पहुँचे, वह जीतता है।"},
    "gu": {"title": "રમકડું"},
}


class ToyGame(Game):
    name = "toy"
    title = "Toy tricks"
    option_table = OptionTable(
        "toy",
        (
            Option("players", 2, "choice", "number of players", choices=(2,)),
            Option("target", 3, "int", "points to win", minimum=1, maximum=50),
            Option("max_hands", None, "int", "stop unfinished after this many hands", minimum=1),
        ),
    )

    @property
    def num_sides(self) -> int:
        return 2

    def side_of(self, seat: int) -> int:
        return seat

    @property
    def num_actions(self) -> int:
        return len(ACTIONS)

    def action_string(self, action_id: int) -> str:
        return ACTIONS[action_id]

    def action_id(self, action: str) -> int | None:
        text = " ".join(action.split()).upper().replace("PLAY ", "play ")
        return ACTIONS.index(text) if text in ACTIONS else None

    def new_state(self, decks) -> "ToyState":
        return ToyState(self, decks)

    # -- what the page shows (arena.games.base.Game, "for the web page"): data only, no page module --
    def page(self) -> dict[str, Any]:
        return {**super().page(), "rules": RULES, "text": TEXT}

    def page_lines(self, observation) -> dict[str, Any]:
        # a line in the reader's language: the key of one of its own texts (TEXT, "line:<key>") and
        # the values of its {name}s
        leader = observation["leader"]
        if leader is None:
            return {"contract": {"key": "target", "target": self.options["target"]}}
        return {"contract": {"key": "target_lead", "target": self.options["target"], "leader": leader}}

    # -- what a search bot needs (arena.games.base.Game, "for search bots") ------------------------
    def start_hand(self, dealer, deck, scores=None, *, then=None, **match) -> "ToyState":
        return ToyState(self, resample.hand_decks(dealer, deck, then), scores)

    def deck_for(self, dealer, hands, **seen) -> list[str]:
        """The deck that deals ``hands`` (short ones filled from the rest of the pack, in order)."""
        named = [card for cards in hands.values() for card in cards]
        if len(set(named)) != len(named) or not set(named) <= set(PACK) or any(len(c) > 4 for c in hands.values()):
            raise ValueError(f"not two hands of four from the toy pack: {dict(hands)}")
        spare = [card for card in PACK if card not in named]
        full = {seat: list(hands.get(seat, ())) for seat in (0, 1)}
        for seat in (0, 1):
            while len(full[seat]) < 4:
                full[seat].append(spare.pop(0))
        first = 1 - dealer  # the deal alternates, starting left of the dealer
        return [full[first if i % 2 == 0 else dealer][i // 2] for i in range(8)]


class ToyState(GameState):
    def __init__(self, game: ToyGame, decks, scores=None):
        super().__init__(game, decks)
        self.points = list(scores) if scores is not None else [0, 0]
        self.dealer = decks.first_dealer(2)
        self._deal()

    def _deal(self) -> None:
        deck = self._new_deal(self.dealer, PACK)
        first = 1 - self.dealer
        self.hands = [0, 0]
        for i, card in enumerate(deck):  # alternate, starting left of the dealer
            self.hands[(first + i) % 2] |= 1 << PACK.index(card)
        self.turn = first
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[dict[str, Any]] = []  # the finished tricks of this deal
        self.won = [0, 0]
        self.over = False

    def current_player(self) -> int | None:
        return None if self.over else self.turn

    @property
    def phase(self) -> str:
        return "over" if self.over else "play"

    def _legal_ids(self) -> list[int]:
        hand = self.hands[self.turn]
        if self.trick:
            suit = self.trick[0][1] // 4
            follow = hand & (0b1111 << (4 * suit))
            hand = follow or hand
        return [card for card in range(8) if hand >> card & 1]

    def _apply(self, card: int) -> None:
        self.hands[self.turn] &= ~(1 << card)
        self.trick.append((self.turn, card))
        if len(self.trick) < 2:
            self.turn = 1 - self.turn
            return
        (s0, c0), (s1, c1) = self.trick
        winner = s1 if c1 // 4 == c0 // 4 and c1 > c0 else s0
        self.won[winner] += 1
        self.tricks.append({"leader": s0, "cards": [[s0, PACK[c0]], [s1, PACK[c1]]], "winner": winner})
        self.trick = []
        self.turn = winner
        if self.hands[0] or self.hands[1]:
            return
        self.points = [p + w for p, w in zip(self.points, self.won)]
        self._end_deal({"scores": list(self.points), "changes": list(self.won), "end": "played", "contract": None,
                        "tricks_won": list(self.won), "tricks": list(self.tricks)})
        limit = self.game.options["max_hands"]
        if max(self.points) >= self.game.options["target"] and self.points[0] != self.points[1]:
            self.over = True
        elif limit is not None and len(self.deals) >= limit:
            self.over = self.unfinished = True
        else:
            self.dealer = 1 - self.dealer
            self._deal()

    def observation(self, seat: int) -> dict[str, Any]:
        return {  # the shared vocabulary (arena.games.base.OBSERVATION_KEYS); everything is public but hands
            "game": self.game.name,
            "seat": seat,
            "side": seat,
            "players": 2,
            "phase": self.phase,
            "hand_index": len(self.deals) - 1,
            "hands_played": len(self.deal_results),
            "dealer": self.dealer,
            "to_act": self.current_player(),
            "hand": [PACK[c] for c in range(8) if self.hands[seat] >> c & 1],
            "legal_actions": self.legal_actions() if self.turn == seat and not self.over else [],
            "history": [list(pair) for pair in self.actions_of_deal()],
            "scores": list(self.points),
            "trump": None,
            "contract": None,
            "active_seats": [0, 1],
            "hand_sizes": [bin(hand).count("1") for hand in self.hands],
            "trick": [[s, PACK[c]] for s, c in self.trick],
            "leader": None if self.over else (self.trick[0][0] if self.trick else self.turn),
            "tricks": list(self.tricks),
            "last_trick": self.tricks[-1] if self.tricks else None,
            "tricks_won": list(self.won),
            "tricks_won_by_seat": list(self.won),
            "last_result": self.deal_results[-1] if self.deal_results else None,
        }

    def hidden_cards(self, seat: int) -> frozenset[str]:
        return frozenset(PACK[c] for c in range(8) if self.hands[1 - seat] >> c & 1)  # the other hand

    def match_end(self) -> MatchEnd | None:
        if not self.over:
            return None
        return MatchEnd.HAND_LIMIT if self.unfinished else MatchEnd.TARGET

    def scores(self) -> list[int]:
        return list(self.points)

    def is_over(self) -> bool:
        return self.over

    def ranking(self) -> list[int]:
        a, b = self.points
        return [0, 0] if a == b else ([0, 1] if a > b else [1, 0])

    def _resample_layout(self, seat: int) -> resample.Layout:
        """The other seat's hand is the only unknown: everything else is public."""
        other = 1 - seat
        unknown = [PACK[c] for c in range(8) if self.hands[other] >> c & 1]
        played: dict[int, list[str]] = {0: [], 1: []}  # this deal's cards, each seat's
        for trick in self.tricks:
            for s, card in trick["cards"]:
                played[s].append(card)
        for s, c in self.trick:
            played[s].append(PACK[c])
        own = [PACK[c] for c in range(8) if self.hands[seat] >> c & 1]
        dealer, start = self.dealer, list(self.points)

        def build(slots, rng):
            dealt = {seat: own + played[seat], other: slots[0] + played[other]}
            deck = self.game.deck_for(dealer, dealt)
            sample = ToyState(self.game, resample.hand_decks(dealer, deck, rng=rng), start)
            resample.graft(sample, self)
            return sample, None

        return resample.Layout(seat, unknown, [len(unknown)], [other], [1] * len(unknown), build,
                               hidden=lambda sample, plan, step: None, visible=lambda actor, action: True)

    def clone(self) -> "ToyState":
        import copy

        return copy.deepcopy(self)


@hookimpl
def arena_register_games():
    return [ToyGame]
