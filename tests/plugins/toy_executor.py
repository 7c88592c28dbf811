"""A toy executor, in one file: ``backwards`` plays the matches in this process, last first, and
writes the order it played them in to the file given by its own option ``--order-file``."""

from __future__ import annotations

from arena.plugins import hookimpl
from arena.tournaments.executors import ExecutorKind, play_spec


class Backwards:
    def __init__(self, order_file):
        self.order_file = order_file

    def run(self, specs):
        for spec in reversed(list(specs)):
            if self.order_file:
                with open(self.order_file, "a") as out:
                    out.write(f"{spec.index}\n")
            yield spec, play_spec(spec)

    def close(self):
        pass


@hookimpl
def arena_register_executors():
    return [ExecutorKind("backwards", "one match at a time, last first", lambda workers, options:
                         Backwards(options.get("order_file")),
                         arguments=((("--order-file",), {"metavar": "FILE", "help": "write the order here"}),))]
