"""``arena show RECORD``: a game record printed as a card player reads it — the dealt hands, the
kitty or stock, the auction as a table (a column per seat, a row per round), each trick by seat
with its winner marked, and the hand result — the same for every game (see :mod:`arena.replays.walk`)."""

from __future__ import annotations

from typing import Any

from arena.replays.walk import HandView, Walk, compact, hand_summary, per_side


def columns(rows: list[list[str]], indent: str = "    ") -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [indent + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]


def rounds(actions: list[tuple[int, str]], players: int) -> tuple[list[int], list[list[str]]]:
    """Actions laid out by round: the columns are the seats in the order they first act (so a game
    played to the right reads left to right too), and a row ends when a seat acts again."""
    order = list(dict.fromkeys(seat for seat, _ in actions))
    order += [seat for seat in range(players) if seat not in order]
    column = {seat: i for i, seat in enumerate(order)}
    rows: list[list[str]] = []
    last = players
    for seat, action in actions:
        if not rows or column[seat] <= last:
            rows.append([""] * players)
        rows[-1][column[seat]] = action
        last = column[seat]
    return order, rows


def _segments(bidding: list[tuple[str, int, str]]) -> list[tuple[str, list[tuple[int, str]]]]:
    """Consecutive actions of one phase, in order."""
    out: list[tuple[str, list[tuple[int, str]]]] = []
    for phase, seat, action in bidding:
        if not out or out[-1][0] != phase:
            out.append((phase, []))
        out[-1][1].append((seat, action))
    return out


def seat_label(walk: Walk, seat: int) -> str:
    seats = walk.record.get("seats") or []
    return f"seat {seat} {seats[seat]}" if seat < len(seats) else f"seat {seat}"


def hand_lines(walk: Walk, view: HandView) -> list[str]:
    game = walk.game
    n = game.players
    lines = [f"Hand {view.index + 1} — dealer: seat {view.dealer}"]
    lines.append("  Dealt")
    rows = []
    for seat in range(n):
        cards = " ".join(view.dealt[seat]) if seat in view.active else "(not dealt in)"
        rows.append([seat_label(walk, seat), f"({game.side_name(game.side_of(seat))})", cards or "-"])
    lines += columns(rows)
    if view.undealt:
        lines.append(f"    {view.undealt_name} ({len(view.undealt)}): {' '.join(view.undealt)}")
    if "turn_up" in view.seen:
        lines.append(f"    turned up: {view.seen['turn_up']}")
    if "kitty" in view.seen:
        lines.append(f"    kitty taken by seat {view.seen['kitty_seat']}: {' '.join(view.seen['kitty'])}")
    if view.bidding:
        lines.append("  Auction")
        for phase, actions in _segments(view.bidding):
            if len({seat for seat, _ in actions}) >= 2:
                order, rows = rounds(actions, n)
                table = [[phase] + [f"seat {s}" for s in order]] + [[str(i + 1)] + row for i, row in enumerate(rows)]
                lines += columns(table)
            else:
                seat = actions[0][0]
                lines.append(f"    {phase}: seat {seat}: {', '.join(a for _, a in actions)}")
    if view.tricks or view.trick_in_progress:
        lines.append("  Tricks (* the winner)")
        table = [["trick", "led by"] + [f"seat {s}" for s in range(n)]]
        shown = [(t.leader, t.cards, t.winner) for t in view.tricks]
        if view.trick_in_progress:
            shown.append((view.trick_in_progress[0][0], view.trick_in_progress, None))
        for number, (leader, trick_cards, winner) in enumerate(shown, 1):
            row = ["." for _ in range(n)]
            for seat, card in trick_cards:
                row[seat] = card + ("*" if seat == winner else "")
            label = str(number) if winner is not None or number <= len(view.tricks) else f"{number} (in play)"
            table.append([label, "-" if leader is None else str(leader)] + row)
        lines += columns(table)
    if view.others:
        lines.append("  Also: " + ", ".join(f"seat {s} {a} ({p})" for p, s, a in view.others))
    if view.result is not None:
        lines.append("  Result: " + hand_summary(game, view.result))
    else:
        lines.append("  Result: the hand was not finished")
    return lines


def text(walk: Walk) -> str:
    game = walk.game
    record = walk.record
    n = game.players
    lines = [f"{game.title} ({game.name}), {n} players"]
    lines.append("Seats: " + ", ".join(seat_label(walk, s) for s in range(n)))
    lines.append("Sides: " + ", ".join(game.side_name(side) for side in range(game.num_sides)))
    defaults = {o.name: o.default for o in game.option_table}
    changed = {k: v for k, v in game.options.items() if defaults.get(k) != v and k != "players"}
    lines.append("Options: " + (compact(changed) if changed else "the defaults"))
    if record.get("seed") is not None:
        lines.append(f"Seed: {record['seed']}")
    for view in walk.hands:
        lines.append("")
        lines += hand_lines(walk, view)
    lines.append("")
    lines.append(result_line(walk))
    return "\n".join(lines)


def result_line(walk: Walk) -> str:
    game = walk.game
    result: dict[str, Any] = walk.result
    winners = result.get("winners") or []
    carried = walk.record.get("result") or {}
    if carried.get("winners") is not None:  # the referee's ranking (a forfeit) is the record's
        winners = carried["winners"]
    text = f"Match: scores {per_side(game, result['scores'])}; winner: " + (
        ", ".join(game.side_name(w) for w in winners) if winners else "none")
    if result.get("end"):
        text += f" ({result['end']})"
    termination = walk.record.get("termination") or {}
    if termination.get("how") == "forfeit":
        fault = termination.get("fault") or {}
        kind = str(fault.get("kind"))
        text += (f"; forfeit by seat {fault.get('seat')} for {'an' if kind[:1] in 'aeiou' else 'a'} {kind} fault: "
                 f"{str(fault.get('message', '')).splitlines()[0] if fault.get('message') else ''}")
    elif termination.get("how") == "unfinished" or (not result.get("over") and termination.get("how") != "forfeit"):
        text += "; not finished"
    faults = walk.record.get("faults") or []
    if faults:
        text += f"; faults: {len(faults)}"
    return text
