"""Rating one finished deal set: one TrueSkill update for the whole set (never a half-played one),
the faults each version made in it, and the probation rule.

A deal set is one lineup (a version per side) playing the same deals once per rotation of the
lineup over the sides. Each lineup position's margin is summed over the rotations (its side's score
minus the mean of the other sides', ``arena.rating.duplicate_margins``; a forfeit costs at least
the worst margin of the set's other matches), and the positions are ranked by that sum (equal sums
draw): the luck of the cards cancels, only the play counts.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from arena.rating import duplicate_margins, environment, forfeit_penalty

TIE = 1e-9  # sums this close are equal (margins are means of whole scores)
MIN_FORFEIT_MARGIN = 1.0  # the least a forfeit costs in a match's duplicate margin (one point)
PROBATION_SHARE = 0.10  # more than this share of a version's recent matches with a fault of its own ...
PROBATION_MIN_MATCHES = 5  # ... after at least this many of them: probation (not scheduled)
PROBATION_WINDOW = 50  # the recent matches: its last this many in the ladder ...
PROBATION_HOURS = 24.0  # ... finished within this many hours (older faults are forgiven)
ARENA_ERROR = "arena_error"  # arena.matches.ARENA_ERROR: a match the arena could not play


def version_name(version: Mapping[str, Any]) -> str:
    """The name a version plays under (a match's seats and lineup, the record, the replay)."""
    return f"{version['bot']} v{version['number']}"


def side_sums(matches: Sequence[Mapping[str, Any]], sides: int) -> list[float]:
    """Each lineup position's duplicate margin summed over the deal set's rotations."""
    pairs = [(m["spec"], m["result"]) for m in matches]
    # A forfeit loses by at least one point even when no match of the set has a loser yet (the
    # penalty is 0 then): a side that forfeited while ahead is beaten, as the referee ranked it,
    # in the rating and on every page alike (never a draw).
    penalty = max(forfeit_penalty(pairs), MIN_FORFEIT_MARGIN)
    sums = [0.0] * sides
    for spec, result in pairs:
        rotation = spec["rotation"]
        for side, margin in enumerate(duplicate_margins(spec, result, penalty)):
            sums[(side + rotation) % sides] += margin
    return sums


def ranks_of(sums: Sequence[float]) -> list[int]:
    """Competition ranks (0 = best) of the sums, higher first; equal sums share a rank."""
    return [sum(1 for other in sums if other > value + TIE) for value in sums]


def outcome_of(mine: float, theirs: float) -> str:
    """"won", "drawn" or "lost": a position's sum against another's, as ``ranks_of`` ranks them."""
    if abs(mine - theirs) < TIE:
        return "drawn"
    return "won" if mine > theirs else "lost"


def faulted_positions(spec: Mapping[str, Any], result: Mapping[str, Any]) -> set[int]:
    """The lineup positions whose bot made at least one fault in this match."""
    lineup = list(spec["lineup"])
    seats = list(spec["seats"])
    positions: set[int] = set()
    for fault in result.get("faults") or ():
        seat = fault.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(seats) and seats[seat] in lineup:
            positions.add(lineup.index(seats[seat]))
    return positions


def rate_deal_set(deal_set: Mapping[str, Any], current: Mapping[int, Mapping[str, Any] | None]
                  ) -> dict[int, tuple[float, float, int, int]]:
    """The store's ``rate`` updates for a finished deal set: version -> (mu, sigma, matches played,
    matches with a fault of its own). ``current``: each version's rating row in this ladder (None:
    not rated yet, TrueSkill's prior)."""
    lineup: list[int] = list(deal_set["lineup"])
    matches = deal_set["matches"]
    env = environment()
    ratings = []
    for version in lineup:
        row = current.get(version)
        ratings.append(env.create_rating() if row is None else env.create_rating(row["mu"], row["sigma"]))
    sums = side_sums(matches, len(lineup))
    rated = env.rate([(r,) for r in ratings], ranks=ranks_of(sums))
    faults = [0] * len(lineup)
    for match in matches:
        for position in faulted_positions(match["spec"], match["result"]):
            faults[position] += 1
    return {version: (group[0].mu, group[0].sigma, len(matches), faults[position])
            for position, (version, group) in enumerate(zip(lineup, rated))}


def is_void(deal_set: Mapping[str, Any]) -> bool:
    """Whether a deal set holds a match the arena could not play (``arena_error``): it is not rated,
    not counted in head to head nor towards any probation (nobody is charged with the arena's failure)."""
    return any((((m.get("result") or {}).get("termination") or {}).get("how") == ARENA_ERROR)
               for m in deal_set.get("matches") or ())


def probation(window: Sequence[Mapping[str, Any]], version_name_: str) -> str | None:
    """Why a version goes on (or stays on) probation (None: it does not), judged on ``window``: its
    most recent matches in one ladder (at most :data:`PROBATION_WINDOW`, none older than
    :data:`PROBATION_HOURS`; the store's ``recent_matches``): faults of its own in more than 10% of
    them, after at least 5. Old faults leave the window, so a version whose faults are old comes
    off; the reason names the last fault's cause."""
    played = [m for m in window if (((m.get("result") or {}).get("termination") or {}).get("how") != ARENA_ERROR)]
    faulty = sum(1 for m in played if version_name_ in fault_names(m["spec"], m["result"]))
    if len(played) < PROBATION_MIN_MATCHES or faulty <= PROBATION_SHARE * len(played):
        return None
    cause = last_fault(list(reversed(played)), version_name_)
    share = round(100 * faulty / len(played))
    return (f"faults in {faulty} of its last {len(played)} matches ({share}%, the window: its last "
            f"{PROBATION_WINDOW} matches within {PROBATION_HOURS:g} h)" + (f": {cause}" if cause else ""))


def fault_names(spec: Mapping[str, Any], result: Mapping[str, Any]) -> set[str]:
    """The seats' names (version names) with at least one fault in this match."""
    seats = list(spec["seats"])
    return {seats[f["seat"]] for f in result.get("faults") or ()
            if isinstance(f.get("seat"), int) and 0 <= f["seat"] < len(seats)}


def last_fault(matches: Sequence[Mapping[str, Any]], name: str) -> str:
    """The last fault ``name`` made in these matches, in words ("crash: ...")."""
    found = ""
    for match in matches:
        seats = list(match["spec"]["seats"])
        for fault in match["result"].get("faults") or ():
            seat = fault.get("seat")
            if isinstance(seat, int) and 0 <= seat < len(seats) and seats[seat] == name:
                message = str(fault.get("message") or "").strip().splitlines()
                found = f"{fault.get('kind')}: {message[0][:200] if message else 'no message'}"
    return found
