"""A program submission: a gRPC bot server on the Unix socket it is given (``python3 bot.py {socket}``).
It plays the last legal action. It finds the arena's gRPC runtime because the ladder runs
``python3`` as its own Python."""

import sys
import threading

from arena.players.base import Player
from arena.players.serve import serve_player


class LastLegal(Player):
    def act(self, observation):
        return observation["legal_actions"][-1]


def make(settings, seed):
    return LastLegal()


if __name__ == "__main__":
    server = serve_player(make, name="last-legal", socket_path=sys.argv[1])
    print(f"serving on {sys.argv[1]}", flush=True)
    threading.Event().wait()
