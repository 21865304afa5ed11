"""One WebSocket on a table: :class:`Connection`, its seat, its outbound queue and the one
task that writes the queue to the socket, so that a slow client never stalls its table (and
no two handlers send on one socket at once)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from starlette.websockets import WebSocket

from handfoot.web.messages import encode

__all__ = ["MAX_QUEUE", "Connection"]

log = logging.getLogger("handfoot.web")

MAX_QUEUE: Final = 500
"""Frames waiting for one slow client before it is disconnected (it resyncs on reconnect)."""


@dataclass(eq=False)
class Connection:
    """One WebSocket on a table: its seat (None for a spectator) and its outbound queue."""

    ws: WebSocket
    seat: int | None
    last_event: int = 0
    """The seq of the table when it was last sent a ``state`` (its events from there on are
    the ones it lacks)."""
    closed: bool = False
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    writer: asyncio.Task[None] | None = None
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the server has let the connection go (its reader stops waiting)."""
    close_code: tuple[int, str] = (1000, "")
    _reader: asyncio.Task[Any] | None = None
    """The task waiting in :meth:`receive` (one per connection: its handler's)."""

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue a message; a client that stopped reading is let go."""
        if not self.closed:
            self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already written as JSON."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            log.info("a client fell %d frames behind: disconnected", MAX_QUEUE)
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Let the connection go once the frames queued before are sent (closing the
        WebSocket with ``code`` and ``reason``); a reader waiting in :meth:`receive` is
        woken (the socket may never answer: a client that stopped reading)."""
        if not self.closed:
            self.closed = True
            self.close_code = (code, reason)
            self.queue.put_nowait(None)
            reader = self._reader
            if reader is not None and reader is not asyncio.current_task():
                reader.cancel()
        self.ended.set()

    async def receive(self) -> dict[str, Any] | None:
        """The next frame from the client, or None once either side has let go (when the
        server lets go, :meth:`close` wakes a reader waiting here)."""
        if self.closed:
            return None
        self._reader = asyncio.current_task()
        try:
            frame: dict[str, Any] = dict(await self.ws.receive())
        except asyncio.CancelledError:
            task = self._reader
            self._reader = None
            if not self.closed or task is None or task.uncancel() > 0:
                raise  # not (only) the wake-up of close(): a real cancellation
            return None
        self._reader = None
        return None if frame["type"] == "websocket.disconnect" else frame

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                break
            try:
                await self.ws.send_text(text)
            except Exception:  # the socket is gone; the reader notices too
                break
        self.closed = True
        self.ended.set()
        with contextlib.suppress(Exception):
            await self.ws.close(*self.close_code)
