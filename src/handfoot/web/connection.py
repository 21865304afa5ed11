"""One WebSocket on a table: :class:`Connection`, its seat, its outbound queue and the one
task that writes the queue to the socket, so that a slow client never stalls its table (and
no two handlers send on one socket at once).

Once the socket is open, a connection reads and writes its frames through the socket's own
ASGI ``receive`` and ``send`` (:attr:`Connection.channel`) where the endpoint has them
(web/app.py's :class:`~handfoot.web.app.SocketEndpoint`), not through Starlette's
:class:`~starlette.websockets.WebSocket`: its state checks and the route's exception
wrapper are three coroutines more for every frame, four frames a move (docs/server.md,
"Issue 34, eighth pass")."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import types
from collections.abc import Awaitable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from starlette.types import Receive, Send
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
    acks_in_state: bool = False
    """Whether its client asked (``"acks": "state"`` in its hello) for a move's
    acknowledgement within the ``state`` that shows the move (its ``id``), one frame where
    there were two (an ``ack``, then the ``state``)."""
    channel: tuple[Receive, Send] | None = None
    """The socket's ASGI ``receive`` and ``send``, which its frames go through once it is
    open (None: through :attr:`ws`'s methods, as a test's stand-in socket has only
    those)."""
    last_event: int = 0
    """The seq of the table when it was last sent a ``state`` (its events from there on are
    the ones it lacks)."""
    closed: bool = False
    queue: asyncio.Queue[str | _Unfinished | None] = field(default_factory=asyncio.Queue)
    writer: asyncio.Task[None] | None = None
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the server has let the connection go (its reader stops waiting)."""
    close_code: tuple[int, str] = (1000, "")
    _reader: asyncio.Task[Any] | None = None
    """The task waiting in :meth:`receive` (one per connection: its handler's)."""
    _sending: bool = False
    """A send is under way (the writer's, or one started at once that had to wait)."""

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue a message; a client that stopped reading is let go."""
        if not self.closed:
            self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Send a message already written as JSON: at once when nothing is queued or being
        sent (the socket's send does not wait unless the client's side is full: the queue
        and the writer task's turn cost more than the send), else queued behind the rest."""
        if self.closed:
            return
        if not self._sending and self.writer is not None and not self.queue.qsize():
            self._send_now(text)
            return
        if self.queue.qsize() >= MAX_QUEUE:
            log.info("a client fell %d frames behind: disconnected", MAX_QUEUE)
            self.close()
            return
        self.queue.put_nowait(text)

    def _send_now(self, text: str) -> None:
        """Start the socket's send of ``text`` here; if it has to wait (the client's side
        is full), the writer task finishes it, and later messages queue behind it."""
        send = self._send_text(text)
        try:
            waiting = send.send(None)
        except StopIteration:
            return
        except Exception:  # the socket is gone: let the writer close it, as after its send
            self.closed = True
            self.queue.put_nowait(None)
            return
        self._sending = True
        self.queue.put_nowait(_Unfinished(send, waiting))

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
            channel = self.channel
            frame: dict[str, Any] = dict(await (self.ws.receive() if channel is None
                                                else channel[0]()))
        except asyncio.CancelledError:
            task = self._reader
            self._reader = None
            if not self.closed or task is None or task.uncancel() > 0:
                raise  # not (only) the wake-up of close(): a real cancellation
            return None
        self._reader = None
        return None if frame["type"] == "websocket.disconnect" else frame

    def _send_text(self, text: str) -> Coroutine[Any, Any, None]:
        """The socket's send of a text frame (not started)."""
        if self.channel is None:
            return self.ws.send_text(text)
        send = self.channel[1]({"type": "websocket.send", "text": text})
        return send if type(send) is types.CoroutineType else _awaited(send)

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                break
            self._sending = True
            try:
                if isinstance(text, str):
                    await self._send_text(text)
                else:
                    await text.finish()
            except Exception:  # the socket is gone; the reader notices too
                break
            finally:
                self._sending = False
        self.closed = True
        self.ended.set()
        with contextlib.suppress(Exception):
            await self.ws.close(*self.close_code)


async def _awaited(awaitable: Awaitable[None]) -> None:
    """An ASGI server's send that is not a coroutine, as one (:meth:`Connection._send_now`
    steps a coroutine)."""
    await awaitable


class _Unfinished:
    """A send started at once (:meth:`Connection.send_text`) that had to wait: the writer
    task finishes it, as a task would have (``waiting``: what it waits for, None for a
    turn of the loop)."""

    __slots__ = ("send", "waiting")

    def __init__(self, send: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.send = send
        self.waiting = waiting

    async def finish(self) -> None:
        send, waiting = self.send, self.waiting
        while True:
            if waiting is None:
                await asyncio.sleep(0)
            else:  # a future: waited for as a task waits, its outcome read by the send
                waiting._asyncio_future_blocking = False
                await asyncio.wait((waiting,))
            try:
                waiting = send.send(None)
            except StopIteration:
                return
