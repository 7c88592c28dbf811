"""The one thing pyproject.toml cannot say: the optional C extension of the fast path.

``arena.fast._play`` (arena/fast/_play.c, plain C against the CPython API) is built when a C
compiler and Python's headers are there; ``optional=True`` makes a failed build a warning, so the
install goes on without it and ``arena.fast.available()`` is False (docs/fastpath.md).
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HEADERS = ["arena/fast/_solve.h", "arena/fast/_hand.h", "arena/fast/_heuristic.h"]


class BuildExt(build_ext):
    """GCC and Clang may fuse a multiply and an add into one instruction (where the CPU has one,
    e.g. ARM), which rounds once instead of twice: the compiled All Fours heuristic must compute its
    chances with Python's roundings to choose Python's cards (arena/fast/_heuristic.h)."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type != "msvc":
            for extension in self.extensions:
                extension.extra_compile_args = [*extension.extra_compile_args, "-ffp-contract=off"]
        super().build_extensions()


setup(ext_modules=[Extension("arena.fast._play", ["arena/fast/_play.c"], depends=HEADERS, optional=True)],
      cmdclass={"build_ext": BuildExt})
