"""A real PostgreSQL server for the tests, started in a temporary folder.

Debian's binaries (``/usr/lib/postgresql/<version>/bin``, or wherever ``pg_config
--bindir`` says); ``initdb`` and ``pg_ctl`` refuse to run as root, so as root they run as
the ``postgres`` user (``runuser``) on a folder it owns. The server listens on 127.0.0.1 at a
free port (its Unix socket in the same temporary folder), with ``fsync=off``: a test server
needs no durability. Each test gets a database of its own (:meth:`PostgresServer.database`).

When PostgreSQL is missing or does not start, the tests that need it fail and say why
(scripts/test installs Debian's ``postgresql``). Outside CI, ``HANDFOOT_SKIP_POSTGRES=1``
skips them instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from itertools import count
from pathlib import Path

import pytest

SKIP_ENV = "HANDFOOT_SKIP_POSTGRES"

WATCHDOG = """
import os, shutil, subprocess, sys, time
parent, root, *stop = sys.argv[1:]
while True:
    time.sleep(1)
    try:
        os.kill(int(parent), 0)
    except OSError:
        break
subprocess.run(stop, capture_output=True)
shutil.rmtree(root, ignore_errors=True)
"""
"""Stops the server and removes its folder once the test process is gone, however it ended
(a test run killed by a timeout leaves no PostgreSQL behind)."""


def bin_dir() -> Path | None:
    """Where PostgreSQL's server programs are (the newest installed), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name)
                   if Path(p).parent.parent.name.isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        folder = Path(out.stdout.strip())
        if (folder / "initdb").exists():
            return folder
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One PostgreSQL server in a temporary folder; :meth:`stop` removes it all."""

    def __init__(self) -> None:
        folder = bin_dir()
        if folder is None:
            raise RuntimeError("PostgreSQL's initdb was not found (Debian: apt-get install "
                               "postgresql; scripts/test installs it)")
        self.bin = folder
        self.root = Path(tempfile.mkdtemp(prefix="handfoot-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._as_postgres: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            shutil.chown(self.root, "postgres", "postgres")
            self._as_postgres = ["runuser", "-u", "postgres", "--"]
        self._names = count(1)
        self.started = False
        self._watchdog: subprocess.Popen[bytes] | None = None

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self._as_postgres, *args], capture_output=True, text=True,
                              timeout=120)
        if done.returncode != 0:
            log = self.root / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{Path(args[0]).name} failed ({done.returncode}): "
                               f"{done.stderr.strip() or done.stdout.strip()}\n{tail}")

    def start(self) -> PostgresServer:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions")
        self._start_server()
        stop = [*self._as_postgres, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m",
                "immediate", "-w", "stop"]
        self._watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG, str(os.getpid()), str(self.root), *stop],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        return self

    def _start_server(self) -> None:
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                   "-c max_connections=200")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                  str(self.root / "log"), "-o", options, "-w", "-t", "60", "start")
        self.started = True

    def outage(self) -> None:
        """Stop the server (its connections cut: ``fast``, not ``immediate``, which with
        ``synchronous_commit=off`` would lose the last commits), keeping its data: an
        outage, until :meth:`recover`."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def recover(self) -> None:
        """Start the server again after :meth:`outage`, on the same port and data."""
        self._start_server()

    def stop(self) -> None:
        if self._watchdog is not None:
            self._watchdog.kill()
            self._watchdog.wait()
            self._watchdog = None
        if self.started:
            with contextlib.suppress(Exception):
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                          "-w", "stop")
            self.started = False
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """The address of one of its databases, as ``handfoot serve`` takes it."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database; its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        asyncio.run(self._execute(f'CREATE DATABASE "{name}"'))
        return self.url(name)

    async def _execute(self, sql: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(sql)
        finally:
            await conn.close()


def start_or_fail() -> PostgresServer:
    """A started server; without one the test fails, saying why (or, outside CI with
    ``HANDFOOT_SKIP_POSTGRES=1``, is skipped)."""
    if os.environ.get(SKIP_ENV) == "1" and os.environ.get("CI") != "true":
        pytest.skip(f"PostgreSQL tests skipped ({SKIP_ENV}=1)")
    server: PostgresServer | None = None
    try:
        server = PostgresServer()
        return server.start()
    except Exception as exc:
        if server is not None:
            server.stop()
        pytest.fail(f"PostgreSQL could not be started for the tests: {exc}\n"
                    f"(install Debian's postgresql, as scripts/test does; outside CI, "
                    f"{SKIP_ENV}=1 skips these tests)", pytrace=False)
