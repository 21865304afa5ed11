"""Hearing what other server processes did: PostgreSQL ``LISTEN`` on the store's channel.

Every change to a game (a move, a Continue press, a rematch, who is connected) is announced
by the store with ``NOTIFY`` in the transaction that makes it, so it is heard only once it
is committed (see :data:`handfoot.web.store.CHANNEL`). A :class:`Listener` keeps one
connection of its own listening and hands each payload to its callback.

``NOTIFY`` is not durable: a notification sent while the connection is down is lost. So the
listener checks its connection every :data:`CHECK_EVERY` seconds (and at once when the
driver reports it closed), reconnects when it is gone and then calls ``on_reconnect``, and
the server reads what it missed from the tables (a catch-up after a reconnection, or on a
gap in the seqs heard, reads all the moves after the last one it played).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Final

__all__ = ["CHECK_EVERY", "Listener"]

log = logging.getLogger("handfoot.web")

CHECK_EVERY: Final = 5.0
"""Seconds between checks that the listening connection is still there."""


class Listener:
    """One listening connection to PostgreSQL (asyncpg), kept alive."""

    def __init__(self, dsn: str, channel: str, on_message: Callable[[str], None],
                 on_reconnect: Callable[[], None], *, check_every: float = CHECK_EVERY,
                 ) -> None:
        self.dsn = dsn
        self.channel = channel
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self.check_every = check_every
        self.connection: Any = None
        self.reconnects = 0
        self._task: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()

    async def start(self) -> None:
        """Listen (raises if the database cannot be reached), then keep listening."""
        await self._connect()
        self._task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._disconnect()

    async def _connect(self) -> None:
        import asyncpg

        connection = await asyncpg.connect(self.dsn)
        await connection.add_listener(self.channel, self._heard)
        connection.add_termination_listener(lambda _connection: self._lost.set())
        self._lost.clear()
        self.connection = connection

    async def _disconnect(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.close(), 2.0)

    def _heard(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            self.on_message(payload)
        except Exception:
            log.exception("a notification could not be handled: %r", payload)

    async def alive(self) -> bool:
        """Whether the listening connection still answers."""
        connection = self.connection
        if connection is None or connection.is_closed():
            return False
        try:
            await asyncio.wait_for(connection.fetchval("SELECT 1"), self.check_every)
        except Exception:
            return False
        return True

    async def _watch(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._lost.wait(), self.check_every)
            self._lost.clear()
            if await self.alive():
                continue
            log.warning("the database's notifications stopped: listening again")
            await self._disconnect()
            try:
                await self._connect()
            except Exception as exc:
                log.warning("listening again failed (%s): next try in %.0f s", exc,
                            self.check_every)
                continue
            self.reconnects += 1
            self.on_reconnect()  # whatever was announced meanwhile is read from the tables
