"""Fixtures shared by the test modules: the databases the web server runs on, a local Dask
cluster."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import browsers
from pg import PostgresServer, start_or_fail


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The browser tests' Chromium closed before a test that does not use it (its
    Playwright would keep an event loop running in this thread: tests/browsers.py)."""
    if "browser" not in getattr(item, "fixturenames", ()):
        browsers.close()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    browsers.close()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session (started only when a test asks for it)."""
    server = start_or_fail()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> str:
    """A new empty PostgreSQL database."""
    return postgres.database()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new empty database of each kind the server runs on: SQLite and PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'handfoot.db'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A local Dask cluster of two worker processes, one thread each, no dashboard (the
    tests that use it are skipped without Dask distributed, the ``cluster`` extra)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as local:
        yield local
