"""One Chromium for the browser tests (tests/e2e) of a test process: launched by the first
test that asks for it and kept for the next ones, which come one after another (the e2e
folder is collected first); a launch of Playwright's driver and Chromium costs one to two
seconds, and each e2e module launched its own on each xdist worker.

It is closed before any test that does not use it (tests/conftest.py), and at the end:
while Playwright's sync API is open, its event loop counts as running in this thread, so
such a test could not call ``asyncio.run()``."""

from __future__ import annotations

from typing import Any

_open: list[tuple[Any, Any]] = []
"""(Playwright, its Chromium), while open."""


def shared(executable: str) -> Any:
    """The open Chromium, launched (from ``executable``) if none is, or if it died."""
    if _open and not _open[0][1].is_connected():
        close()
    if not _open:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        try:
            _open.append((playwright, playwright.chromium.launch(executable_path=executable)))
        except BaseException:
            playwright.stop()
            raise
    return _open[0][1]


def close() -> None:
    """Close the Chromium and stop Playwright, if open."""
    while _open:
        playwright, browser = _open.pop()
        try:
            browser.close()
        finally:
            playwright.stop()
