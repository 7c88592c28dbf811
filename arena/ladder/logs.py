"""An author's own bot's logs (docs/submitting.md, "Your bot's logs"): what the bot printed in one
of its matches, for its author only.

Each seat of a match writes its own capped log (arena.players.logs) in the ladder's ``FILES/logs``;
the scheduler keeps the non-empty ones and each version's within the ladder's log budget
(arena.ladder.scheduler.Ladder._keep_logs, table ``ladder_logs``). A log is shown only to the
author of the bot that wrote it: another author's bot is a 403, a match the bot did not play a 404.
"""

from __future__ import annotations

from typing import Any

from arena.ladder.accounts import AccountError, owned_bot
from arena.ladder.ratings import version_name
from arena.matches import log_file


def bot_logs(ladder: Any, author: str, bot: Any, match_text: str) -> dict[str, Any]:
    """``bot``'s logs in match ``match_text``, if ``author`` owns ``bot``: {"bot", "match",
    "logs": [{"seat", "version", "kept", "size", "text"}]}, one per seat the bot held ("kept"
    False and no text when it printed nothing or the log was dropped by the budget)."""
    store = ladder.store
    name = owned_bot(store, author, bot, create=False)
    if not match_text.isdigit() or len(match_text) > 18:
        raise AccountError(f"there is no ladder match {match_text[:40]!r}", 404)
    match = store.match(int(match_text))
    if match is None:
        raise AccountError(f"there is no ladder match {int(match_text)}", 404)
    own = {version_name(v): v for v in store.versions(bot=name)}
    seats = [(seat, own[seated]) for seat, seated in enumerate(match["spec"].get("seats") or ()) if seated in own]
    if not seats:
        raise AccountError(f"{name} did not play in match {match['id']}", 404)
    kept = store.logs_of(match["id"])
    logs = []
    for seat, version in seats:
        text = None
        if seat in kept:
            try:
                with open(log_file(ladder.log_dir, match["id"], seat), "rb") as handle:
                    text = handle.read().decode("utf-8", "replace")
            except OSError:  # dropped meanwhile by the budget
                text = None
        logs.append({"seat": seat, "version": version["number"], "kept": text is not None,
                     "size": len(text.encode("utf-8")) if text is not None else 0, "text": text or ""})
    return {"bot": name, "match": match["id"], "finished": match.get("finished"), "logs": logs}
