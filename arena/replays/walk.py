"""A game record stepped through action by action, for people: what ``arena show`` prints and what
the HTML replay viewer displays.

Generic over the games: everything is read from the record and from the engine's observations in
the shared vocabulary (``arena.games.base.OBSERVATION_KEYS``, ``HAND_RESULT_KEYS``). The record is
first checked by :func:`arena.records.replay` (a record that does not replay is refused with the
same :class:`~arena.errors.RecordError`), then replayed again here with every seat's observation
read after every action. A replay shows every seat's cards: it is for reading a game afterwards,
not for a player during it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from arena import account, records
from arena.games.base import FixedDecks, Game

# How a game's observation names the cards that are not dealt to a seat (docs/games/*.md):
# Five Hundred's kitty, All Fours' stock. A game naming neither shows them as "not dealt".
UNDEALT_NAMES = (("kitty", "kitty"), ("stock_count", "stock"), ("stock_left", "stock"), ("stock", "stock"))


@dataclass
class Trick:
    leader: int | None
    cards: list[tuple[int, str]]  # (seat, card) in playing order
    winner: int | None

    def as_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [list(c) for c in self.cards], "winner": self.winner}


@dataclass
class HandView:
    """One record entry (a deal) as a card player reads it."""

    index: int
    dealer: int | None
    dealt: list[list[str]]  # each seat's hand right after the deal, from its observation
    active: list[int]  # the seats dealt in (56's knocked-out seats are not)
    undealt: list[str]  # the deck's cards no seat was dealt (the kitty, the stock), in deck order
    undealt_name: str
    seen: dict[str, Any] = field(default_factory=dict)  # e.g. {"kitty": [...], "kitty_seat": 2}, "turn_up"
    bidding: list[tuple[str, int, str]] = field(default_factory=list)  # (phase, seat, action) before the first card
    tricks: list[Trick] = field(default_factory=list)
    trick_in_progress: list[tuple[int, str]] = field(default_factory=list)
    others: list[tuple[str, int, str]] = field(default_factory=list)  # later actions that are no card of a trick
    result: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index, "dealer": self.dealer, "dealt": self.dealt, "active": self.active,
            "undealt": self.undealt, "undealt_name": self.undealt_name, "seen": self.seen,
            "bidding": [list(b) for b in self.bidding], "tricks": [t.as_dict() for t in self.tricks],
            "trick_in_progress": [list(c) for c in self.trick_in_progress],
            "others": [list(o) for o in self.others], "result": self.result,
        }


@dataclass
class Walk:
    """A whole record stepped through: the game, a view per hand, and one frame per step."""

    game: Game
    record: dict[str, Any]
    hands: list[HandView]
    frames: list[dict[str, Any]]
    result: dict[str, Any]


def walk(record: Mapping[str, Any], make_game: Callable[[str, Mapping[str, Any]], Game] | None = None,
         frames: bool = True) -> Walk:
    """Step through ``record``; raise :class:`~arena.errors.RecordError` if it does not replay."""
    if make_game is None:
        from arena.plugins import get_registry

        make_game = get_registry().game
    checked = records.replay(record, make_game)
    game = checked.game
    entries = record["hands"]
    first_dealer = entries[0].get("dealer", 0) if entries else 0
    state = game.new_match(decks=FixedDecks([e["deck"] for e in entries], first_dealer))
    n = game.players
    views: list[HandView] = []
    steps: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        obs = [state.observation(s) for s in range(n)]
        view = _deal_view(index, entry, obs, n)
        views.append(view)
        hands = [list(o.get("hand") or []) for o in obs]
        if frames:
            steps.append(_frame(index, -1, None, None, None, hands, obs[0], view, [], None,
                                f"hand {index + 1}: dealer {view.dealer} deals"))
        trick: list[tuple[int, str]] = [(int(c[0]), str(c[1])) for c in obs[0].get("trick") or []]
        done_tricks = len(obs[0].get("tricks") or [])
        played_any = False
        for position, (seat, action) in enumerate(entry["actions"]):
            phase = state.phase
            before = hands[seat]
            state.apply(action)
            ended = len(state.deal_results) > index
            if ended:
                result = state.deal_results[index]
                after_obs = None
                shown = obs[0]
            else:
                shown = state.observation(seat)  # the public keys are the same from every seat
                after_obs = None
            # the card this action put on the table, if any
            card, completed = None, None
            if not ended:
                new_trick = [tuple(c) for c in shown.get("trick") or []]
                new_done = len(shown.get("tricks") or [])
                if len(new_trick) == len(trick) + 1 and new_trick[:-1] == trick:
                    card = new_trick[-1][1]
                elif new_done > done_tricks or (trick and not new_trick):
                    completed = _completed(shown, trick, seat, before, shown.get("hand") or [], new_done > done_tricks)
                    if completed is not None:
                        card = completed.cards[-1][1] if completed.cards else None
                trick, done_tricks = new_trick, new_done
                if card is not None:  # a card played changes only its player's hand
                    hands = list(hands)
                    hands[seat] = list(shown.get("hand") or [])
                else:  # anything else may change any hand (a run of the pack, a gift, the kitty taken)
                    after_obs = [state.observation(s) for s in range(n)]
                    hands = [list(o.get("hand") or []) for o in after_obs]
            else:
                completed = _final_trick(result, trick, seat, done_tricks)
                if completed is None and trick and len(before) == 1 and not _has_tricks(result):
                    # a game whose results do not list the tricks: the last card left ends the hand
                    cards = list(trick) + [(seat, before[0])]
                    completed = Trick(cards[0][0], cards, None)
                if completed is not None:
                    card = completed.cards[-1][1]
                    hands = [list(h) for h in hands]
                    if card in hands[seat]:
                        hands[seat].remove(card)
                trick = []
            if card is None:
                if played_any or completed is not None:
                    view.others.append((phase, seat, action))
                else:
                    view.bidding.append((phase, seat, action))
            else:
                played_any = True
            if completed is not None:
                view.tricks.append(completed)
            for o in (after_obs or []):  # what a seat was shown of the kitty, the turn-up
                _note_seen(view, o)
            if frames:
                note = f"seat {seat}: {action}"
                if completed is not None:
                    note += f" — trick {len(view.tricks)} to seat {completed.winner}" if completed.winner is not None \
                        else f" — trick {len(view.tricks)} ends"
                if ended:
                    note += " — " + hand_summary(game, result)
                shown_trick = completed.cards if completed is not None else trick
                steps.append(_frame(index, position, seat, action, phase, hands,
                                    shown if not ended else _ended_obs(shown, result), view, shown_trick,
                                    completed.winner if completed is not None else None, note))
            if ended:
                view.result = result
        if view.result is None:
            view.trick_in_progress = list(trick)
    final = checked.state.result()
    return Walk(game, dict(record), views, steps, final)


def _left(before: list[str], after: list[str]) -> list[str]:
    return list((Counter(before) - Counter(after)).elements())


def _completed(shown: Mapping[str, Any], trick: list[tuple[int, str]], seat: int, before: list[str],
               after: list[str], counted: bool) -> Trick | None:
    """The trick an action completed: the shared ``tricks`` key's last entry, or (for a game without
    it) the trick so far plus the card that left the seat's hand."""
    if counted and shown.get("tricks"):
        last = shown["tricks"][-1]
        if isinstance(last, dict) and "cards" in last:
            return Trick(last.get("leader"), [(s, c) for s, c in last["cards"]], last.get("winner"))
    gone = _left(before, after)
    if len(gone) != 1:
        return None
    cards = list(trick) + [(seat, gone[0])]
    return Trick(cards[0][0], cards, _winner_from_counts(shown, cards))


def _winner_from_counts(shown: Mapping[str, Any], cards: list[tuple[int, str]]) -> int | None:
    leader = shown.get("leader")
    if leader is not None and shown.get("trick") == []:
        return leader  # the winner leads the next trick
    to_act = shown.get("to_act")
    return to_act if to_act in {s for s, _ in cards} else None


def _final_trick(result: Mapping[str, Any], trick: list[tuple[int, str]], seat: int, done: int) -> Trick | None:
    """The trick the hand's last action completed, from the hand result's ``tricks``."""
    tricks = result.get("tricks")
    if isinstance(tricks, list) and len(tricks) > done and isinstance(tricks[-1], dict):
        last = tricks[-1]
        cards = [(s, c) for s, c in last.get("cards", [])]
        if cards and cards[-1][0] == seat:
            return Trick(last.get("leader"), cards, last.get("winner"))
    return None


def _has_tricks(result: Mapping[str, Any]) -> bool:
    tricks = result.get("tricks")
    return isinstance(tricks, list) and all(isinstance(t, dict) for t in tricks)


def _ended_obs(shown: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
    data = dict(shown)
    data["scores"] = result.get("scores", shown.get("scores"))
    if isinstance(result.get("tricks_won"), list):
        data["tricks_won"] = result["tricks_won"]
    if "contract" in result:
        data["contract"] = result["contract"]
    data["to_act"] = None
    return data


def _deal_view(index: int, entry: Mapping[str, Any], obs: list[dict[str, Any]], n: int) -> HandView:
    dealt = [list(o.get("hand") or []) for o in obs]
    active = obs[0].get("active_seats")
    active = list(active) if isinstance(active, list) else list(range(n))
    held: Counter[str] = Counter()
    for hand in dealt:
        held.update(hand)
    rest = Counter(entry["deck"]) - held
    undealt = []
    for card in entry["deck"]:
        if rest[card] > 0:
            undealt.append(card)
            rest[card] -= 1
    name = next((label for key, label in UNDEALT_NAMES if key in obs[0]), "not dealt")
    view = HandView(index, obs[0].get("dealer", entry.get("dealer")), dealt, active, undealt, name)
    for o in obs:
        _note_seen(view, o)
    return view


def _note_seen(view: HandView, o: Mapping[str, Any]) -> None:
    kitty = o.get("kitty")
    if isinstance(kitty, list) and kitty and "kitty" not in view.seen:
        view.seen["kitty"] = list(kitty)
        view.seen["kitty_seat"] = o.get("seat")
    turn_up = o.get("turn_up")
    if isinstance(turn_up, str) and "turn_up" not in view.seen:
        view.seen["turn_up"] = turn_up


def compact(value: Any) -> str:
    """A result or contract value in one short line, as the replays show it (False left out)."""
    return account.compact(value, drop_false=True)


def per_side(game: Game, values: Any) -> str:
    if isinstance(values, list) and len(values) == game.num_sides:
        return ", ".join(f"{game.side_name(side)} {v}" for side, v in enumerate(values))
    return compact(values)


def hand_summary(game: Game, result: Mapping[str, Any]) -> str:
    """The hand result in the replays' words (arena.account.hand_result, each side named)."""
    return account.hand_result(result, lambda values: per_side(game, values))


def _frame(hand: int, position: int, seat: int | None, action: str | None, phase: str | None,
           hands: list[list[str]], shown: Mapping[str, Any], view: HandView, trick: list[tuple[int, str]],
           winner: int | None, note: str) -> dict[str, Any]:
    return {
        "hand": hand,
        "action": position,
        "seat": seat,
        "text": action,
        "phase": phase,
        "hands": [list(h) for h in hands],
        "bidding": [[s, a, p] for p, s, a in view.bidding],
        "trick": [list(c) for c in trick],
        "winner": winner,
        "scores": shown.get("scores"),
        "tricks_won": shown.get("tricks_won"),
        "contract": None if shown.get("contract") is None else compact(shown.get("contract")),
        "trump": shown.get("trump"),
        "to_act": shown.get("to_act"),
        "dealer": view.dealer,
        "note": note,
    }
