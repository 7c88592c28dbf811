"""Five Hundred configured by its options (§11): sides, the action numbering, precomputed call lists."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from arena.errors import OptionError
from arena.games.base import DeckSource, Game
from arena.games.five_hundred.bids import BM, MIS, SUIT, ladder
from arena.games.five_hundred.cards import SUITS, pack_for
from arena.options import Option, OptionTable

_BOOL = "bool"

OPTIONS = OptionTable(
    "five_hundred",
    (
        Option("players", 4, "choice", "number of players (§1)", choices=(2, 3, 4, 5, 6), rule="§1"),
        Option("auction", "australian", "choice", "australian: call until all but one pass; "
               "american: one round of calls", choices=("australian", "american"), rule="R-5.3, R-5.4"),
        Option("allow_misere", True, _BOOL, "misère (MIS) may be bid", rule="R-5.2.3"),
        Option("allow_open_misere", True, _BOOL, "open misère (OM) may be bid", rule="R-5.2.4"),
        Option("misere_requires_seven", True, _BOOL, "MIS only over a 7-level bid", rule="R-5.2.3"),
        Option("allow_blind_misere", False, _BOOL, "blind misère (BM) before looking; `look` first",
               rule="§5.7"),
        Option("sans_kitty", False, _BOOL, "suit/NT bids may be made without the kitty (-SK)", rule="§5.8"),
        Option("joker_lead_last_trick_only", False, _BOOL, "the suitless joker may be led only to "
               "the last trick", rule="R-7.3.5"),
        Option("raise_after_others_pass", False, _BOOL, "the last bidder gets one more call once all "
               "others passed (australian auction)", rule="R-5.3.3"),
        Option("defence_cap", False, "choice", "defensive trick points never lift a side above this",
               choices=(False, 490, 480), rule="R-8.4"),
        Option("six_player_teams", "2x3", "choice", "six players: two teams of three or three teams "
               "of two", choices=("2x3", "3x2"), rule="§11"),
        Option("max_hands", None, "int", "stop the match unfinished after this many hands (deals)",
               minimum=1, rule="R-9.5"),
    ),
)


class FiveHundredGame(Game):
    """The Australian game for 4 players, and the 2-, 3-, 5- and 6-player configurations (§1)."""

    name = "five_hundred"
    title = "Five Hundred"
    option_table = OPTIONS
    rules = "shared/rules/five_hundred.md"

    def configure(self) -> None:
        o = self.options
        n = self.players
        if o["raise_after_others_pass"] and o["auction"] == "american":
            raise OptionError("option 'raise_after_others_pass': on is not valid with auction=american; "
                              "it accepts on only with the australian auction (R-5.3.3)")
        if o["six_player_teams"] != "2x3" and n != 6:
            raise OptionError(f"option 'six_player_teams': {o['six_player_teams']!r} is not valid with "
                              f"players={n}; it accepts 3x2 only with 6 players")
        self.pack = pack_for(n)
        self.american = o["auction"] == "american"
        self.blind = o["allow_blind_misere"]
        self.raise_once = o["raise_after_others_pass"]
        self.joker_last_only = o["joker_lead_last_trick_only"]
        self.cap = o["defence_cap"] or None
        self.max_hands = o["max_hands"]

        # Sides (R-3.1, §1, §11): teams sit alternately; cut-throat games keep a side per seat.
        if n == 4 or (n == 6 and o["six_player_teams"] == "2x3"):
            sides = [seat % 2 for seat in range(n)]
        elif n == 6:
            sides = [seat % 3 for seat in range(n)]
        else:
            sides = list(range(n))
        self.sides = sides
        self._num_sides = max(sides) + 1
        self.team_mask = [sum(1 << s for s in range(n) if sides[s] == sides[seat]) for seat in range(n)]
        self.side_seats = [[s for s in range(n) if sides[s] == side] for side in range(self._num_sides)]

        # Action ids: pass, the ladder, look, discards, nominations, plays, joker leads, partners.
        bids = ladder(o["allow_misere"], o["allow_open_misere"], self.blind, o["sans_kitty"])
        strings = ["pass"] + ["bid " + b.text for b in bids]
        self.bid_of = [None] + bids  # indexed by action id
        self.num_bids = len(bids)
        self.bm_id = next((i for i, b in enumerate(self.bid_of) if b and b.kind == BM), None)
        self.look_id = None
        if self.blind:
            self.look_id = len(strings)
            strings.append("look")
        size = self.pack.size
        self.discard_base = len(strings)
        strings += ["discard " + t for t in self.pack.tokens]
        self.nominate_base = len(strings)
        strings += ["nominate " + s for s in SUITS] + ["nominate none"]
        self.play_base = len(strings)
        strings += ["play " + t for t in self.pack.tokens]
        self.joker_lead_base = len(strings)
        strings += ["play JK " + s for s in SUITS]
        self.partners_base = len(strings)
        self.partner_sets: list[tuple[int, ...]] = []
        if n == 5:
            for k in range(3):
                for subset in combinations(range(n), k):
                    self.partner_sets.append(subset)
                    strings.append("partners " + (" ".join(map(str, subset)) if subset else "none"))
        self.strings = strings
        self.ids = {s.upper(): i for i, s in enumerate(strings)}
        self.exact = {s: i for i, s in enumerate(strings)}
        assert len(self.ids) == len(strings) and self.play_base + size == self.joker_lead_base

        # Call lists per high bid (id 0 = none), R-5.2: every higher rung; MIS only over a 7-level
        # bid unless misere_requires_seven is off; BM only as a first-turn choice.
        seven = o["misere_requires_seven"]
        self.normal_calls: list[tuple[int, ...]] = []
        self.first_calls: list[tuple[int, ...]] = []
        for high in range(len(bids) + 1):
            hb = self.bid_of[high]
            floor = hb.key if hb else -1
            calls = [0]
            for a in range(1, len(bids) + 1):
                b = self.bid_of[a]
                if b.key <= floor or b.kind == BM:
                    continue
                if b.kind == MIS and seven and not (hb and hb.kind == SUIT and hb.level == 7):
                    continue
                calls.append(a)
            self.normal_calls.append(tuple(calls))
            first = []
            if self.bm_id is not None and self.bid_of[self.bm_id].key > floor:
                first.append(self.bm_id)
            if self.look_id is not None:
                first.append(self.look_id)
            self.first_calls.append(tuple(first))

    # -- Game interface ----------------------------------------------------------------------------
    @property
    def num_sides(self) -> int:
        return self._num_sides

    def side_of(self, seat: int) -> int:
        return self.sides[seat]

    @property
    def num_actions(self) -> int:
        return len(self.strings)

    def action_string(self, action_id: int) -> str:
        return self.strings[action_id]

    def action_id(self, action: str) -> int | None:
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

    def side_name(self, side: int) -> str:
        return "seats " + "+".join(str(s) for s in self.side_seats[side])

    def new_state(self, decks: DeckSource) -> Any:
        from arena.games.five_hundred.state import FiveHundredState

        return FiveHundredState(self, decks)
