"""Reading a TOML settings file (a tournament file, a ladder file) with one-line errors."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from arena.errors import ArenaError


def read(path: str | Path, what: str, error: type[ArenaError]) -> dict[str, Any]:
    """The TOML document at ``path``, or ``error`` saying, in one line, why it is not a ``what``."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise error(f"{path}: cannot read it: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text: byte {exc.start} cannot be decoded") from None
    except RecursionError:
        raise error(f"{path}: nested too deeply to be a {what}") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML: {exc}") from exc
