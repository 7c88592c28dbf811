"""Debian's chromium, driven by Playwright, for the browser tests (Playwright's own browser download
does not work on these machines): where it is, the reason a test is skipped without it, and the
flags it is launched with (headless as root, and nothing that reaches for the closed network)."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium (make test installs it: scripts/system-packages)")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def launch(p):
    """A headless chromium from a ``sync_playwright()`` context ``p``."""
    return p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
