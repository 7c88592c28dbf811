"""The one thing pyproject.toml cannot say: the optional C extension of the fast path.

``arena.fast._play`` (arena/fast/_play.c, plain C against the CPython API) is built when a C
compiler and Python's headers are there; ``optional=True`` makes a failed build a warning, so the
install goes on without it and ``arena.fast.available()`` is False (docs/fastpath.md).
"""

from setuptools import Extension, setup

HEADERS = ["arena/fast/_solve.h", "arena/fast/_hand.h", "arena/fast/_heuristic.h"]
setup(ext_modules=[Extension("arena.fast._play", ["arena/fast/_play.c"], depends=HEADERS,
                           optional=True)])
