"""Browser end-to-end tests: the real server in a subprocess, Debian's Chromium driven by
Playwright (see ../../../shared/notes/browser-tests.md and docs/web.md).

Fixtures: ``live_server`` (base URL of a uvicorn process on 127.0.0.1 with a temporary
SQLite database and no bot delay; one per xdist worker), ``browser`` (Chromium, one per
worker while its browser tests follow one another: tests/browsers.py) and ``context`` (a
fresh browser context per test, closed after it). The tests are skipped, with the reason,
when /usr/bin/chromium is missing (scripts/test installs it).

Screenshots go to $HANDFOOT_SCREENSHOTS when set (``HANDFOOT_SCREENSHOTS=docs/screenshots``
refreshes the committed ones), otherwise to a temporary folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import browsers

CHROMIUM = Path("/usr/bin/chromium")
HERE = Path(__file__).parent

if not CHROMIUM.exists():
    pytest.skip("the browser tests need Debian's Chromium at /usr/bin/chromium "
                "(scripts/test installs it: apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

# expect() waits 5 s by default; the whole suite may share two busy cores
sync_api.expect.set_options(timeout=20_000)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served by uvicorn in a subprocess; yields its base URL."""
    db = tmp_path_factory.mktemp("e2e-db") / "handfoot.sqlite"
    yield from serve(db)


def serve(db: Path, *args: str) -> Iterator[str]:
    """``e2e_server.py`` on the SQLite file ``db`` (``args``: its other arguments) in a
    subprocess: yields its base URL, stops it after."""
    # the server runs the handfoot these tests import: run from a worktree with
    # PYTHONPATH=src (relative), it imported another checkout's installed copy from HERE
    import handfoot

    source = str(Path(handfoot.__file__).resolve().parents[1])
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([source, *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "e2e_server.py"), f"sqlite+aiosqlite:///{db}", *args],
        stdout=subprocess.PIPE, text=True, cwd=HERE, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"the test server did not start: {line!r}")
        url = f"http://127.0.0.1:{int(line.split()[1])}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/api/profiles", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the test server does not answer") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def mail_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """A server of its own that mails through a local SMTP server (aiosmtpd: the tests'
    ``notice_services.smtp_server``), its public URL its own address: (its base URL, the
    mailbox)."""
    from notice_services import smtp_server

    with smtp_server() as (smtp_url, box):
        db = tmp_path_factory.mktemp("e2e-mail") / "handfoot.sqlite"
        for url in serve(db, smtp_url):
            yield url, box


@pytest.fixture
def browser() -> Any:
    """Chromium: one for the test process, shared by the tests that follow one another
    (tests/browsers.py; it is closed before any other test: while Playwright's sync API is
    open, its event loop counts as running in this thread, so such a test could not call
    asyncio.run())."""
    return browsers.shared(str(CHROMIUM))


@pytest.fixture
def new_context(browser: Any, live_server: str) -> Iterator[Any]:
    """A factory of browser contexts (one per player), all closed after the test."""
    made: list[Any] = []

    def make(width: int = 1366, height: int = 768) -> Any:
        ctx = browser.new_context(base_url=live_server,
                                  viewport={"width": width, "height": height})
        ctx.set_default_timeout(30_000)  # generous: the suite may share 2 cores
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


@pytest.fixture(scope="session")
def shots_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = os.environ.get("HANDFOOT_SCREENSHOTS")
    out = Path(env) if env else tmp_path_factory.mktemp("screenshots")
    out.mkdir(parents=True, exist_ok=True)
    return out
