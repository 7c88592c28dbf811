"""``python -m arena.bench [options]``: the same as ``arena bench``."""

import sys

from arena.bench.cli import main

if __name__ == "__main__":
    sys.exit(main())
