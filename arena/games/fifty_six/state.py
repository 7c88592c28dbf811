"""One match of 56 (docs/games/fifty_six.md): deals, auctions, tricks and settlements until one
team holds the tables.

Seats and teams keep their numbers for the whole match; after a team is knocked out its seats
are skipped ("next player" is the next *active* seat) and the pack and hand size follow the new
number of active players (§4.1, §11.3).
"""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any, Sequence

from arena.games.base import DeckSource, GameState, MatchEnd, PlayRanks
from arena.games.fifty_six import scoring, view
from arena.games.fifty_six.actions import NT
from arena.games.fifty_six.auction import Auction
from arena.games import resample
from arena.games.bitmask import bits
from arena.games.fifty_six.cards import KIND_POINTS, LOW, TOKEN, hand_size, pack_tokens, remove, tokens
from arena.games.fifty_six.dealing import deal, deal_order
from arena.games.fifty_six.play import beats, playable

if TYPE_CHECKING:
    from arena.games.fifty_six.game import FiftySixGame

AUCTION, PLAY, OVER = 0, 1, 2
PHASES = ("auction", "play", "over")


class FiftySixState(GameState):
    game: "FiftySixGame"

    def __init__(self, game: "FiftySixGame", decks: DeckSource, tables: Sequence[int] | None = None,
                 out_at: Sequence[int | None] | None = None):
        super().__init__(game, decks)
        # §5.3; ``tables`` and ``out_at`` start a match mid-way (FiftySixGame.start_hand)
        self.tables = list(tables) if tables is not None else [game.options["initial_tables"]] * game.teams
        self.out_at: list[int | None] = list(out_at) if out_at is not None else [None] * game.teams  # hand index of each team's elimination
        self.unfinished = False
        self.end: MatchEnd | None = None  # how the match ended, once over
        self.hands_played = 0
        self._set_active([s for s in range(game.players) if self.out_at[game.team_of[s]] is None])
        self.dealer = decks.first_dealer(game.players)  # §7.1
        self._deal()

    # -- dealing -----------------------------------------------------------------------------
    def _set_active(self, active: list[int]) -> None:
        players = self.game.players
        self.active_seats = active
        self.n = len(active)
        alive = set(active)
        nxt = []
        for seat in range(players):
            t = (seat + 1) % players
            while t not in alive:
                t = (t + 1) % players
            nxt.append(t)
        self.nxt = nxt  # the next active seat after any seat, active or not
        prv = []
        for seat in range(players):
            t = (seat - 1) % players
            while t not in alive:
                t = (t - 1) % players
            prv.append(t)
        self.prv = prv  # the next active seat the other way (a clockwise auction, §8.1 / E1)

    def _deal(self) -> None:
        g = self.game
        self.order = deal_order(self.active_seats, self.dealer)
        deck = self._new_deal(self.dealer, pack_tokens(self.n))
        self.hands = deal(deck, self.order, g.packet, g.players)
        self.hand_size = hand_size(self.n)
        self.auction = Auction(self.n)
        self.phase_code = AUCTION
        self.to_act: int | None = self.order[0]  # §8.1: the dealer's right calls first
        self.trump = -1
        self.contract_team = -1
        self.leader = -1
        self.trick: list[tuple[int, int]] = []  # (seat, kind) in play order
        self.best_seat = -1
        self.best_kind = -1
        self.trick_points = 0
        self.points = [0] * g.teams
        self.tricks_won = [0] * g.teams
        # the finished tricks of this deal: (leader, ((seat, kind), ...) in play order, winner, points)
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int, int]] = []

    # -- the interface -----------------------------------------------------------------------
    def current_player(self) -> int | None:
        return self.to_act

    @property
    def phase(self) -> str:
        return PHASES[self.phase_code]

    def is_over(self) -> bool:
        return self.phase_code == OVER

    def scores(self) -> list[int]:
        return list(self.tables)

    def _legal_ids(self) -> list[int]:
        g = self.game
        seat: int = self.to_act  # type: ignore[assignment]  # the hot path: only asked while someone is to act
        if self.phase_code == AUCTION:
            return self.auction.legal(seat, g.team_of, g.table)
        led = self.trick[0][1] >> 3 if self.trick else -1
        held = playable(self.hands[seat], led)  # a mask of the low 32 bits: kinds
        s, c, d, h = g.table.play_by_suit
        return [*s[held & 255], *c[held >> 8 & 255], *d[held >> 16 & 255], *h[held >> 24]]

    def _apply(self, action_id: int) -> None:
        g = self.game
        seat: int = self.to_act  # type: ignore[assignment]  # the hot path: a legal action, someone is to act
        if self.phase_code == AUCTION:
            auction = self.auction
            auction.call(seat, action_id, g.table, self.order[0])
            if auction.over:
                self._start_play()
            else:
                self.to_act = self.nxt[seat] if g.auction_ccw else self.prv[seat]
            return
        kind = g.table.info[action_id][4]
        self.hands[seat] = remove(self.hands[seat], kind)
        trick = self.trick
        if not trick or beats(kind, self.best_kind, self.trump):
            self.best_seat, self.best_kind = seat, kind
        trick.append((seat, kind))
        self.trick_points += KIND_POINTS[kind]
        if len(trick) < self.n:
            self.to_act = self.nxt[seat]
            return
        winner, points = self.best_seat, self.trick_points  # §9.5
        team = g.team_of[winner]
        self.points[team] += points
        self.tricks_won[team] += 1
        self.tricks.append((self.leader, tuple(trick), winner, points))
        self.trick = []
        self.trick_points = 0
        self.leader = self.to_act = winner
        if len(self.tricks) == self.hand_size:
            self._settle()

    def _start_play(self) -> None:
        auction = self.auction
        self.trump = auction.strain if auction.strain != NT else -1
        self.contract_team = self.game.team_of[auction.bidder]
        self.phase_code = PLAY
        self.leader = self.to_act = self.order[0]  # §9.1: the dealer's right leads, whoever won

    # -- settlement --------------------------------------------------------------------------
    def creditor_order(self) -> list[int]:
        """The other active teams in seat order from the declarer's right (§10.5)."""
        seen: list[int] = []
        team_of = self.game.team_of
        seat = self.auction.bidder
        for _ in range(self.n - 1):
            seat = self.nxt[seat]
            team = team_of[seat]
            if team != self.contract_team and team not in seen:
                seen.append(team)
        return seen

    def stakes(self) -> tuple[int, int]:
        return scoring.stakes(self.auction.amount, self.auction.level, self.game.additive)

    def _settle(self) -> None:
        g = self.game
        auction = self.auction
        win, loss = self.stakes()
        team = self.contract_team
        made = self.points[team] >= auction.amount  # §10.1
        before = list(self.tables)
        out = scoring.settle(self.tables, team, self.creditor_order(), made, win, loss, g.capped, g.cannot_pay)
        index = len(self.deals) - 1
        for t in out:
            self.out_at[t] = index
        self.hands_played += 1
        remaining = [t for t in range(g.teams) if self.out_at[t] is None]
        if out:
            self._set_active([s for s in range(g.players) if self.out_at[g.team_of[s]] is None])
        end = scoring.match_end(len(remaining), self.hands_played, g.max_hands)  # §11.2
        self._end_deal(
            {
                "scores": list(self.tables),
                "changes": [a - b for a, b in zip(self.tables, before)],
                "end": scoring.hand_end(made),
                "contract": self.contract(),
                "tricks_won": list(self.tricks_won),
                "tricks": view.public_tricks(self.tricks),
                "points": list(self.points),
                "made": made,
                "eliminated": out,
                "seats_left": list(self.active_seats),
            }
        )
        if end is not None:
            self.end = end
            self.unfinished = end is MatchEnd.HAND_LIMIT
            self.phase_code = OVER
            self.to_act = None
            return
        self.dealer = self.nxt[self.dealer]  # §7.4: to the right, skipping knocked-out seats
        self._deal()

    def contract(self) -> dict[str, Any] | None:
        """The contract as public data, once the auction is over (§8.8); None before."""
        return view.contract(self)

    # -- results -----------------------------------------------------------------------------
    def ranking(self) -> list[int]:
        return scoring.ranking(self.tables, self.out_at)

    def match_end(self) -> MatchEnd | None:
        return self.end

    def result(self) -> dict[str, Any]:
        result = super().result()
        result["eliminated"] = [t for t in range(self.game.teams) if self.out_at[t] is not None]
        return result

    def hidden_cards(self, seat: int) -> frozenset[str]:
        """The cards held by other seats of which ``seat`` sees no copy this deal: not in its own
        hand and not played yet. (Both copies of a card have one token, so a card held by another
        seat and also held or played by ``seat``'s view is not listed.)"""
        seen = set(tokens(self.hands[seat]))
        seen.update(TOKEN[kind] for _, cards, _, _ in self.tricks for _, kind in cards)
        seen.update(TOKEN[kind] for _, kind in self.trick)
        held = set()
        for other in self.active_seats:
            if other != seat:
                held.update(tokens(self.hands[other]))
        return frozenset(held - seen)

    def observation(self, seat: int) -> dict[str, Any]:
        return view.observation(self, seat)

    # -- deals a seat could be facing (docs/games/fifty_six.md, "Resampling") --------------------
    def _played(self) -> list[tuple[int, int]]:
        """This deal's (seat, kind) plays so far, finished tricks first."""
        return [pair for _, cards, _, _ in self.tricks for pair in cards] + list(self.trick)

    def voids(self) -> dict[int, list[str]]:
        """A card not of the led suit shows a void in it (§9.2: follow suit if you can; a trump
        is no exception)."""
        tricks = [(cards[0][1] >> 3, cards) for _, cards, _, _ in self.tricks]
        if self.trick:
            tricks.append((self.trick[0][1] >> 3, tuple(self.trick)))
        return resample.suit_voids(tricks, lambda kind, led: kind >> 3 == led, "SCDH")

    def play_ranks(self) -> PlayRanks | None:
        """A kind's suit and strength (§4.2) are its bits; its points are §4.3's. Both copies of a
        kind count (an identical card played later loses, E15: an equal power is not "alike")."""
        if self.phase_code != PLAY or self.to_act is None:
            return None
        seat, play_id = self.to_act, self.game.table.play_id
        mine = {play_id[k]: (k >> 3, k & 7, KIND_POINTS[k]) for k in bits(self.hands[seat] & LOW)}
        others = [(k >> 3, k & 7) for s in self.active_seats if s != seat for k in bits(self.hands[s] & LOW)]
        others += [(k >> 3, k & 7) for _, k in self.trick]
        return mine, others

    def _resample_layout(self, seat: int) -> resample.Layout:
        others = [s for s in self.active_seats if s != seat]
        cards = [t for s in others for t in tokens(self.hands[s])]  # what seat neither holds nor saw
        sizes = [len(tokens(self.hands[s])) for s in others]
        shown = self.voids()
        allowed = [sum(1 << i for i, s in enumerate(others) if card[-1] not in shown.get(s, ())) for card in cards]
        played: dict[int, list[str]] = {}
        for s, kind in self._played():
            played.setdefault(s, []).append(TOKEN[kind])
        own = tokens(self.hands[seat])
        # tables and knock-outs change only when a hand is settled: now they are the hand's start
        dealer, tables, out_at, active = self.dealer, list(self.tables), list(self.out_at), list(self.active_seats)

        def build(slots: list[list[str]], rng: random.Random) -> tuple["FiftySixState", None]:
            hands = {s: slot + played.get(s, []) for s, slot in zip(others, slots)}
            if seat in active:  # a knocked-out seat watches
                hands[seat] = own + played.get(seat, [])
            deck = []  # deck_for without its checks: packets in dealing order (§7)
            order, packet = deal_order(active, dealer), self.game.packet
            taken = dict.fromkeys(active, 0)
            for i in range(sum(len(h) for h in hands.values())):
                s = order[(i // packet) % len(order)]
                deck.append(hands[s][taken[s]])
                taken[s] += 1
            sample = FiftySixState(self.game, resample.hand_decks(dealer, deck, rng=rng, checked=False), tables, out_at)
            resample.graft(sample, self)
            sample.hands_played = self.hands_played
            return sample, None

        return resample.Layout(seat, cards, sizes, list(others), allowed, build,
                               lambda sample, plan, step: None, lambda actor, action: True,
                               check=False)  # every action is public; plays respect the voids

    def clone(self) -> "FiftySixState":
        new = copy.copy(self)
        new.tables = list(self.tables)
        new.out_at = list(self.out_at)
        new.hands = list(self.hands)
        new.auction = self.auction.copy()
        new.trick = list(self.trick)
        new.points = list(self.points)
        new.tricks_won = list(self.tricks_won)
        new.tricks = list(self.tricks)
        # Earlier deal entries are finished and never change; only the last one grows.
        new.deals = list(self.deals)
        if new.deals:
            last = new.deals[-1]
            new.deals[-1] = {**last, "actions": list(last["actions"])}
        new.deal_results = list(self.deal_results)
        new._legal = None
        return new
