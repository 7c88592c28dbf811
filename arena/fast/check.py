"""The differential check of the fast path against the Python engines (the rules of record).

Random matches of every bundled game, in every configuration that changes the card play
(:data:`CONFIGS`: each player count, and each option that changes the legal plays, the trick
winners or the points), are played by the Python engine with uniformly random choices. At every
decision of the card play (a *position*) the fast path's legal plays are compared with the engine's;
at every trick the engine finishes, the fast path's winner and trick points with the engine's; at
every play, the position one step (the solver's ``step``) gives with the engine's next one; and
at a share of the positions (:data:`PLAYOUT_SHARE`) a fast-path random playout of the rest of the
hand is replayed in a clone of the engine, every play of it checked legal there, and the tricks
per seat, the card points, the revokes or reneges and how the hand ended compared with the
engine's result of the hand.

``tests/test_fastpath.py`` runs it at a few thousand positions; ``arena bench --only fastpath``
at a million (docs/fastpath.md).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from arena import fast

# (game, options): every player count, and every option that changes what may be played, who takes
# a trick or what it counts. Five Hundred's contracts (suits, no trumps with or without a nominated
# joker, misere with its partners sitting out) and 56's knock-outs (fewer active seats, a smaller
# pack) come from the random auctions and the matches' course; small 56 tables knock teams out soon.
CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("five_hundred", {"players": 4}),
    ("five_hundred", {"players": 4, "joker_lead_last_trick_only": True}),
    ("five_hundred", {"players": 4, "sans_kitty": True, "allow_blind_misere": True}),
    ("five_hundred", {"players": 2}),
    ("five_hundred", {"players": 3}),
    ("five_hundred", {"players": 5}),
    ("five_hundred", {"players": 6}),
    ("five_hundred", {"players": 6, "six_player_teams": "3x2"}),
    ("fifty_six", {"players": 4}),
    ("fifty_six", {"players": 6, "initial_tables": 2}),
    ("fifty_six", {"players": 8, "initial_tables": 2}),
    ("fifty_six", {"players": 8, "team_mode": "two_sides", "initial_tables": 3}),
    ("all_fours", {"players": 4}),
    ("all_fours", {"players": 2}),
    ("all_fours", {"players": 4, "no_undertrump": True}),
    ("all_fours", {"players": 2, "no_undertrump": True}),
    ("all_fours", {"players": 4, "illegal_play_mode": "penalize"}),
    ("all_fours", {"players": 2, "illegal_play_mode": "penalize", "no_undertrump": True}),
    ("bid_euchre", {}),
    ("bid_euchre", {"deck": "double48"}),
    ("bid_euchre", {"joker": True}),
    ("bid_euchre", {"deck": "double48", "joker": True, "illegal_play_mode": "penalize"}),
    ("bid_euchre", {"allow_no_trump": True, "illegal_play_mode": "penalize"}),
    ("bid_euchre", {"deck": "double48", "allow_no_trump": True, "help_exchange_count": 3}),
)
PLAYOUT_SHARE = 1 / 16  # of the positions, those from which a fast playout is replayed in the engine
MAX_HANDS = 40  # deals per match (random play never ends some matches)
MISMATCHES_KEPT = 20
POLICIES = (fast.SIMPLE, fast.PARTNER, fast.RANDOM, fast.RANDOM)  # the playouts' policies, by seed % 4
POLICY_NAMES = {fast.RANDOM: "random", fast.SIMPLE: "simple", fast.PARTNER: "partner"}


@dataclass
class Report:
    """What one check counted (``mismatches``: a line each, the first :data:`MISMATCHES_KEPT`)."""

    positions: int = 0  # card-play decisions whose legal plays were compared
    tricks: int = 0  # finished tricks whose winner and points were compared
    playouts: int = 0  # fast playouts replayed in the engine
    plays_replayed: int = 0
    mismatch_count: int = 0
    mismatches: list[str] = field(default_factory=list)
    by_config: dict[str, int] = field(default_factory=dict)  # positions per configuration
    features: Counter[str] = field(default_factory=Counter)  # positions per play feature met (:func:`features`)
    by_policy: Counter[str] = field(default_factory=Counter)  # playouts replayed per playout policy

    def miss(self, what: str) -> None:
        self.mismatch_count += 1
        if len(self.mismatches) < MISMATCHES_KEPT:
            self.mismatches.append(what)

    def add(self, other: "Report") -> None:
        self.positions += other.positions
        self.tricks += other.tricks
        self.playouts += other.playouts
        self.plays_replayed += other.plays_replayed
        self.mismatch_count += other.mismatch_count
        self.mismatches += other.mismatches[:MISMATCHES_KEPT - len(self.mismatches)]
        self.by_config.update(other.by_config)
        self.features.update(other.features)
        self.by_policy.update(other.by_policy)


def config_name(name: str, options: dict[str, Any]) -> str:
    return name + "".join(f" {k}={v}" for k, v in options.items())


def make_game(name: str, options: dict[str, Any]) -> Any:
    from arena.games.all_fours.game import AllFoursGame
    from arena.games.bid_euchre.game import BidEuchreGame
    from arena.games.fifty_six.game import FiftySixGame
    from arena.games.five_hundred.game import FiveHundredGame
    classes: dict[str, Any] = {"five_hundred": FiveHundredGame, "fifty_six": FiftySixGame, "all_fours": AllFoursGame,
               "bid_euchre": BidEuchreGame}
    return classes[name]({**options, "max_hands": MAX_HANDS})


def check(positions: int, seed: int | str = 0, configs: tuple[tuple[str, dict[str, Any]], ...] = CONFIGS,
          playout_share: float = PLAYOUT_SHARE, on_position: Callable[[Any, fast.Position], None] | None = None) -> Report:
    """Compare the fast path with the engines on ``positions`` positions, shared evenly by ``configs``."""
    report = Report()
    for index, (name, options) in enumerate(configs):
        share = positions // len(configs) + (1 if index < positions % len(configs) else 0)
        one = check_game(make_game(name, options), share, f"{seed}/{index}", playout_share, on_position)
        one.by_config = {config_name(name, options): one.positions}
        report.add(one)
    return report


def features(name: str, state: Any, pos: fast.Position, legal: list[int]) -> list[str]:
    """The play features a position shows (the tests ask that the check meets each of them)."""
    out = [f"{name} seats in a trick {pos.nactive}"]
    if name == "five_hundred":
        bid, g = state.bid, state.game
        out.append(f"five_hundred {'misere' if bid.misere else 'no trumps' if bid.strain == 4 else 'suit'}"
                   f"{' suitless joker' if state.suitless else ' joker nominated' if state.nominated >= 0 else ''}")
        if any(a >= g.joker_lead_base for a in legal):
            out.append("five_hundred joker lead naming a suit")
        if pos.cards and legal == [g.play_base + g.pack.joker] and state.forced_joker:
            out.append("five_hundred forced joker")
    elif name == "fifty_six":
        out.append(f"fifty_six {'no trumps' if state.trump < 0 else 'trumps'}")
        out.append(f"fifty_six {pos.nactive} of {state.game.players} seats active")
    elif name == "all_fours":
        if state.g.penalize and len(legal) > lawful_count(pos):
            out.append("all_fours a revoke possible")
        if state.g.no_undertrump and pos.cards:
            out.append("all_fours no undertrump following")
    elif name == "bid_euchre":
        out.append(f"bid_euchre {'no trumps' if state.trump == 4 else 'trumps'}")
        if state.game.penalize and pos.cards:
            out.append("bid_euchre renege possible")
        if max(pos.hands) >> 32:
            out.append("bid_euchre two copies in a hand")
    return out


def lawful_count(pos: fast.Position) -> int:
    """How many cards the following rule allows the seat to play (penalize modes allow them all)."""
    return int(fast._module().lawful(pos.rules, pos.hands[pos.turn], pos.led, pos.cards).bit_count())


def _steer(game: Any, state: Any, legal: list[int], rng: random.Random) -> int:
    """A random action, but in Five Hundred's auction a misere bid a quarter of the times one is legal,
    and mostly passes over it (uniform random bidding seldom reaches a misere contract, and its play
    differs: partners sit out, the suitless joker is forced, the hand stops at the contractor's trick)."""
    if game.name == "five_hundred" and state.phase == "auction":
        high = game.bid_of[state.high]
        if high is not None and high.misere and 0 in legal and rng.random() < 0.8:
            return 0  # pass: let the misere stand
        misere = [a for a in legal if game.action_string(a) in ("bid MIS", "bid OM", "bid BM")]
        if misere and rng.random() < 0.25:
            return rng.choice(misere)
    return rng.choice(legal)


def _engine_winner(state: Any, results_before: int) -> int:
    """The seat that took the trick the last action finished (the engines keep (leader, cards,
    winner, ...) per trick; a finished hand's result lists its tricks with their winners)."""
    if len(state.deal_results) > results_before:
        return int(state.deal_results[results_before]["tricks"][-1]["winner"])
    return int(state.tricks[-1][2])


def _engine_points(name: str, state: Any, results_before: int, cards: bytes) -> int:
    if name == "fifty_six":
        if len(state.deal_results) > results_before:
            return int(state.deal_results[results_before]["tricks"][-1]["points"])
        return int(state.tricks[-1][3])
    if name == "all_fours":
        from arena.games.all_fours.cards import game_count
        return game_count(sum(1 << c for c in set(cards)))
    return 0


def check_game(game: Any, positions: int, seed: int | str = 0, playout_share: float = PLAYOUT_SHARE,
               on_position: Callable[[Any, fast.Position], None] | None = None) -> Report:
    report = Report()
    step = fast._module().step
    name = game.name
    defaults = {option.name: option.default for option in game.option_table}
    where = config_name(name, {k: v for k, v in game.options.items() if k != "max_hands" and v != defaults[k]})
    rng = random.Random(f"fastcheck/{seed}")
    kinds = game.page()["phases"]
    match = 0
    while report.positions < positions:
        state = game.new_match(seed=f"fastcheck/{seed}/{match}")
        match += 1
        while state.current_player() is not None and report.positions < positions:
            legal = state.legal_action_ids()
            if kinds.get(state.phase) != "play":
                state.apply_id(_steer(game, state, legal, rng))
                continue
            pos = fast.position(state)
            report.positions += 1
            report.features.update(features(name, state, pos, legal))
            if on_position is not None:
                on_position(state, pos)
            mine = fast.legal_ids(state, pos)
            if mine != legal:
                report.miss(f"{where}: legal plays at {state.deals[-1]['actions'][-3:]}... seat {pos.turn}: "
                            f"engine {legal}, fast {mine}")
            if rng.random() < playout_share:
                _check_playout(name, state, pos, rng.getrandbits(64), report, where)
            action = rng.choice(legal)
            results_before = len(state.deal_results)
            try:
                stepped = step(pos.rules, pos.hands, pos.turn, pos.seats, pos.cards, pos.led, pos.suits_led, action)
            except ValueError as exc:  # the fast path holds the engine's play illegal (its legal plays differ too)
                report.miss(f"{where}: step {action}: {exc}")
                state.apply_id(action)
                continue
            state.apply_id(action)
            if len(pos.cards) + 1 == pos.nactive:  # this card finished the trick
                report.tricks += 1
                cards = pos.cards + bytes([pos.card_of[action]])
                seats = pos.seats + bytes([pos.turn])
                won = seats[fast.trick_winner(pos, cards)]
                engine = _engine_winner(state, results_before)
                if won != engine or stepped[6][0] != engine:
                    report.miss(f"{where}: trick {list(cards)} by seats {list(seats)}: engine winner {engine}, fast {won}"
                                f", step {stepped[6][0]}")
                points, engine_points = fast.trick_points(pos, cards), _engine_points(name, state, results_before, cards)
                if points != engine_points or stepped[6][1] != engine_points:
                    report.miss(f"{where}: trick {list(cards)}: engine points {engine_points}, fast {points}, "
                                f"step {stepped[6][1]}")
            if len(state.deal_results) == results_before and fast.supports(state):  # the step against the engine
                after = fast.position(state)
                suits_led = after.suits_led if name == "five_hundred" else stepped[5]  # (only Five Hundred's joker reads it)
                if tuple(stepped[:6]) != (after.hands, after.turn, after.seats, after.cards, after.led, suits_led):
                    report.miss(f"{where}: step {action} from {pos[1:7]} gave {stepped[:6]}, the engine {after[1:7]}")
    return report


def _check_playout(name: str, state: Any, pos: fast.Position, seed: int, report: Report, where: str) -> None:
    """A fast playout from ``state`` (random; one in four with the simple policy and one in four with
    the partner policy, which the search bot's rollouts use), replayed in a clone of the engine, and
    the two compared."""
    if name == "all_fours" and any(serious for _, serious in state.pending):
        return  # a serious revoke earlier in this trick: the engine stops at its end; the position does not say so
    policy = POLICIES[seed % 4]
    out = fast.playout(state, seed, policy, pos)
    report.playouts += 1
    report.by_policy[POLICY_NAMES[policy]] += 1
    replay = state.clone()
    trusted = state.clone()  # the search bot's replay: every play at once, unchecked
    trusted.replay_ids(out.plays)
    results_before = len(replay.deal_results)
    done = len(state.tricks)
    for i, action in enumerate(out.plays):
        if len(replay.deal_results) > results_before:
            result = replay.deal_results[results_before]
            if name == "all_fours" and result["end"] == "won":
                _compare_replays(replay, trusted, report, where)
                return  # a revoke's point won the match mid-hand: the engine stopped, as it should
            report.miss(f"{where}: the engine's hand ended after {i} of the playout's {len(out.plays)} plays")
            return
        if action not in replay.legal_action_ids():
            report.miss(f"{where}: playout play {i} ({game_action(state, action)}) is not legal in the engine")
            return
        replay.apply_id(action)
        report.plays_replayed += 1
    if len(replay.deal_results) == results_before:
        report.miss(f"{where}: the playout's {len(out.plays)} plays did not end the engine's hand")
        return
    _compare_replays(replay, trusted, report, where)
    result = replay.deal_results[results_before]
    if name == "all_fours" and result["end"] == "won" and out.events:
        return  # a revoke's point may have won the match at the trick's end
    n = state.game.players
    taken = [0] * n
    points = [0] * n
    for trick in result["tricks"][done:]:
        taken[trick["winner"]] += 1
        if name == "fifty_six":
            points[trick["winner"]] += trick["points"]
    if list(out.tricks) != taken:
        report.miss(f"{where}: playout tricks by seat {list(out.tricks)}, engine {taken}")
    if name == "fifty_six" and list(out.points) != points:
        report.miss(f"{where}: playout points by seat {list(out.points)}, engine {points}")
    if name == "all_fours":
        from arena.games.all_fours.cards import game_count
        counts = [game_count(state.captured[side]) for side in (0, 1)]
        for seat in range(n):
            counts[seat % 2] += out.points[seat]
        if counts != result["game_counts"]:
            report.miss(f"{where}: playout game counts {counts}, engine {result['game_counts']}")
        revokes = len(state.revokes) + len(state.pending) + len(out.events)
        if revokes != len(result["revokes"]) or (out.end == 2) != (result["end"] == "lost_by_revoke"):
            report.miss(f"{where}: playout revokes {out.events} (end {out.end}), engine {result['revokes']} "
                        f"(end {result['end']})")
    if name == "bid_euchre":
        reneges = list(state.reneges)
        for seat, _, _ in out.events:
            reneges[seat & 1] += 1
        if reneges != result.get("reneges", [0, 0]):
            report.miss(f"{where}: playout reneges {reneges}, engine {result.get('reneges')}")
    if name == "five_hundred" and (out.end == 1) != bool(result["early_end"]):
        report.miss(f"{where}: playout end {out.end}, engine early_end {result['early_end']}")


def _compare_replays(checked: Any, trusted: Any, report: Report, where: str) -> None:
    """The playout replayed play by play with ``apply_id`` and at once with ``replay_ids`` must leave
    the same match: the same actions recorded, hand results and scores."""
    if (checked.deals, checked.deal_results, checked.scores()) != (trusted.deals, trusted.deal_results, trusted.scores()):
        report.miss(f"{where}: replay_ids left another state than apply_id play by play")


def game_action(state: Any, action: int) -> str:
    return str(state.game.action_string(action))


# -- whole Bid Euchre hands in C (arena/fast/_hand.h) ------------------------------------------------

# Every option that changes a hand: the deck, the joker's discard, the dealer stuck, the ace-no-face
# window, continuous bidding, the plain bid of every trick, no trumps, the help exchange's size and
# reneges allowed and charged.
HAND_CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"deck": "double48"},
    {"joker": True, "stick_the_dealer": True},
    {"ace_no_face": True, "bidding_rounds": "continuous"},
    {"allow_no_trump": True, "allow_partnership_full_bid": True, "illegal_play_mode": "penalize"},
    {"deck": "double48", "joker": True, "ace_no_face": True, "help_exchange_count": 3,
     "illegal_play_mode": "penalize"},
    {"help_exchange_count": 2, "bidding_rounds": "continuous", "stick_the_dealer": True},
    {"deck": "double48", "allow_no_trump": True, "help_exchange_count": 2, "stick_the_dealer": True,
     "allow_partnership_full_bid": True},
)
PASS_SHARE = 0.5  # of the auction calls where a pass is legal, those that pass (thrown-in deals, a stuck dealer)


@dataclass
class HandReport:
    """What :func:`check_hands` compared (``mismatches``: a line each, the first :data:`MISMATCHES_KEPT`)."""

    hands: int = 0
    decisions: int = 0  # decisions whose seat, phase and legal actions were compared
    ends: Counter[str] = field(default_factory=Counter)  # hands per way of ending
    phases: Counter[str] = field(default_factory=Counter)  # decisions per phase
    features: Counter[str] = field(default_factory=Counter)  # hands per feature met (:func:`_hand_features`)
    mismatch_count: int = 0
    mismatches: list[str] = field(default_factory=list)

    def miss(self, what: str) -> None:
        self.mismatch_count += 1
        if len(self.mismatches) < MISMATCHES_KEPT:
            self.mismatches.append(what)


def check_hands(hands: int, seed: int | str = 0, configs: tuple[dict[str, Any], ...] = HAND_CONFIGS) -> HandReport:
    """Play ``hands`` Bid Euchre hands (shared evenly by ``configs``) in the engine and in C from the
    same decks with the same random choices, and compare at every decision the seat to act, the
    phase and the legal actions, and at the end the score changes, how the hand ended, the tricks
    per seat and the reneges."""
    from arena.games.bid_euchre.fast import new_hand
    report = HandReport()
    rng = random.Random(f"handcheck/{seed}")
    for index, options in enumerate(configs):
        game = make_game("bid_euchre", options)
        where = config_name("bid_euchre", options)
        share = hands // len(configs) + (1 if index < hands % len(configs) else 0)
        for _ in range(share):
            deck = list(game.pack)
            rng.shuffle(deck)
            dealer = rng.randrange(4)
            _check_hand(game.start_hand(dealer, deck), new_hand(game, dealer, deck), rng, report,
                        f"{where} dealer {dealer} deck {' '.join(deck)}")
    return report


def _check_hand(state: Any, hand: Any, rng: random.Random, report: HandReport, where: str) -> None:
    report.hands += 1
    actions: list[int] = []
    while not state.deal_results:
        legal = state.legal_action_ids()
        report.decisions += 1
        report.phases[state.phase] += 1
        seen = (hand.current_player(), hand.phase, hand.legal_action_ids())
        if seen != (state.current_player(), state.phase, legal):
            report.miss(f"{where}: after {actions}: engine seat {state.current_player()} {state.phase} {legal}, "
                        f"C {seen}")
            return
        if state.phase == "auction" and 0 not in legal:
            report.features["a stuck dealer"] += 1
        if state.phase == "auction" and 0 in legal and rng.random() < PASS_SHARE:
            action = 0
        else:
            action = rng.choice(legal)
        actions.append(action)
        state.apply_id(action)
        hand.apply_id(action)
    result, mine = state.deal_results[0], hand.result()
    report.ends[result["end"]] += 1
    report.features.update(_hand_features(state.game, result))
    if not hand.is_over() or mine is None:
        report.miss(f"{where}: after {actions}: the engine's hand ended ({result['end']}), C's goes on")
        return
    engine = (list(result["changes"]), result["end"], result.get("tricks_won_by_seat", [0, 0, 0, 0]),
              result.get("reneges", [0, 0]))
    compiled = (list(mine["changes"]), mine["end"], list(mine["tricks_won_by_seat"]), list(mine["reneges"]))
    if engine != compiled:
        report.miss(f"{where}: after {actions}: engine (changes, end, tricks by seat, reneges) {engine}, C {compiled}")


def _hand_features(game: Any, result: dict[str, Any]) -> list[str]:
    contract = result["contract"]
    if contract is None:
        return []
    found = [f"bid {contract['bid']}" if contract["alone"] else "a number bid", f"trump {contract['trump']}"]
    if any(result["reneges"]):
        found.append("a renege")
    if game.double:
        found.append("the double deck")
    return found
