"""The action numbering (docs/games/all_fours.md §12a): action id <-> canonical action string.

The numbering is the same for every option: 0 ``stand``, 1 ``beg``, 2 ``give one``, 3 ``run``, then
``play <card>`` as ``PLAY + card id``. The phases (the decisions a state can wait for) are named
here too, since each action answers exactly one of them.
"""

from __future__ import annotations

from arena.cards import normalize_card
from arena.games.all_fours.cards import CARD_OF, PACK

# The phases: the eldest's stand/beg (§7.1), the dealer's give one/run (§7.2), trick play (§8), done.
STAND_OR_BEG, GIVE_OR_RUN, PLAYING, OVER = "stand_or_beg", "give_or_run", "play", "over"

STAND, BEG, GIVE_ONE, RUN, PLAY = 0, 1, 2, 3, 4
DECISIONS = ("stand", "beg", "give one", "run")

ACTION_STRINGS: tuple[str, ...] = DECISIONS + tuple("play " + card for card in PACK)
NUM_ACTIONS = len(ACTION_STRINGS)
_IDS = {text: index for index, text in enumerate(ACTION_STRINGS)}


def action_string(action_id: int) -> str:
    return ACTION_STRINGS[action_id]


def action_id(action: object) -> int | None:
    """The id of an action string, tolerating case, extra spaces and ``T`` for ten; None if it is none."""
    if not isinstance(action, str):
        return None
    words = action.lower().split()
    found = _IDS.get(" ".join(words))
    if found is not None or len(words) != 2 or words[0] != "play":
        return found
    card = normalize_card(words[1])
    return PLAY + CARD_OF[card] if card in CARD_OF else None
