"""A broken module submission: it raises as soon as it is imported."""

raise RuntimeError("this bot is broken at import")


def make(settings, seed):  # never reached
    return None
