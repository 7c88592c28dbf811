"""The ladder (``arena ladder``): a standing competition of submitted bots, played in rounds of
duplicate deal sets, rated with TrueSkill, watched on a live board. docs/ladder.md."""
