"""One WebSocket on a table: :class:`Connection`, its seat, its outbound queue and the one
task that writes the queue to the socket, so that a slow client never stalls its table (and
no two handlers send on one socket at once).

Under uvicorn (its WebSocket protocol on websockets' sans-I/O layer, what ``handfoot
serve`` runs), a frame sent at once is written straight to the connection's transport
(:class:`_Frames`): the same bytes uvicorn would write, without the five layers of Python
between (Starlette's WebSocket and its exception wrapper, uvicorn's ``send``, websockets'
frame and its serialization), whenever uvicorn would write them at once too; in every other
case (a client's side full, a close begun, an extension such as compression, another
server) the frame goes the usual way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketState

from handfoot.web.messages import encode

__all__ = ["MAX_QUEUE", "SERVER_SEND", "Connection", "KeepServerSend"]

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
    _frames: _Frames | None = field(default=None, init=False, repr=False)
    """The way straight to uvicorn's transport (:class:`_Frames`), where there is one."""

    def __post_init__(self) -> None:
        self._frames = _Frames.of(self.ws)

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
        is full), the writer task finishes it, and later messages queue behind it. Under
        uvicorn it is written straight to the transport when uvicorn would write it at once
        (:class:`_Frames`)."""
        frames = self._frames
        if frames is not None:
            try:
                if frames.write(text):
                    return
            except Exception:  # not as expected (another uvicorn?): the usual way from now
                log.warning("frames written the usual way from now on", exc_info=True)
                self._frames = None
        send = self.ws.send_text(text)
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
            self._sending = True
            try:
                if isinstance(text, str):
                    await self.ws.send_text(text)
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


SERVER_SEND: Final = "handfoot.server_send"
"""The key of a WebSocket's scope under which :class:`KeepServerSend` keeps the server's
own ``send``."""


class KeepServerSend:
    """ASGI middleware, the outermost: a WebSocket's scope keeps the ``send`` the server
    gave (:data:`SERVER_SEND`), for :class:`_Frames` to find uvicorn's connection by."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SERVER_SEND] = send
        await self.app(scope, receive, send)


_SHORT: Final = struct.Struct("!BBH")
_LONG: Final = struct.Struct("!BBQ")
_TEXT: Final = 0x81
"""The first byte of an unfragmented text frame (FIN, opcode 1); a server's frames are not
masked (RFC 6455, 5.1)."""


class _Frames:
    """Text frames written straight to a uvicorn WebSocket's transport: the bytes its
    ``send`` writes for a ``websocket.send`` (websockets' ``Frame.serialize`` of a server's
    unfragmented text frame with no extension), when its ``send`` would write them at once:
    the client's side not full (uvicorn's ``writable``), the handshake done, no close sent
    or begun on either side, nothing of websockets' waiting to be written, and Starlette's
    side connected. :meth:`write` says False otherwise (nothing written): the caller sends
    the frame the usual way."""

    __slots__ = ("_conn", "_open", "_protocol", "_ws")

    def __init__(self, ws: WebSocket, protocol: Any, is_open: Any) -> None:
        self._ws = ws
        self._protocol = protocol
        self._conn = protocol.conn
        self._open = is_open

    @classmethod
    def of(cls, ws: WebSocket) -> _Frames | None:
        """The way for ``ws``, or None: not under uvicorn's sans-I/O WebSocket protocol
        (another server, Starlette's test client), or its connection compresses frames or
        logs each."""
        scope = getattr(ws, "scope", None)
        send = scope.get(SERVER_SEND) if isinstance(scope, dict) else None
        protocol = getattr(send, "__self__", None)
        if protocol is None:
            return None
        try:
            from uvicorn.protocols.websockets.websockets_sansio_impl import (
                WebSocketsSansIOProtocol,
            )
            from websockets.protocol import State
        except ImportError:  # pragma: no cover (uvicorn comes with the web extra)
            return None
        if not isinstance(protocol, WebSocketsSansIOProtocol) \
                or getattr(send, "__func__", None) is not WebSocketsSansIOProtocol.send:
            return None
        conn = protocol.conn
        if conn.extensions or conn.debug:
            return None
        return cls(ws, protocol, State.OPEN)

    def write(self, text: str) -> bool:
        """Write ``text`` as one frame now: True, or False with nothing written."""
        protocol, conn = self._protocol, self._conn
        if not protocol.writable.is_set() or protocol.disconnected or protocol.close_sent \
                or not protocol.handshake_complete or protocol.initial_response is not None \
                or conn.state is not self._open or conn.expect_continuation_frame \
                or conn.writes or protocol.transport.is_closing() \
                or self._ws.application_state is not WebSocketState.CONNECTED:
            return False
        data = text.encode()
        size = len(data)
        if size < 126:
            head = bytes((_TEXT, size))
        elif size < 65536:
            head = _SHORT.pack(_TEXT, 126, size)
        else:
            head = _LONG.pack(_TEXT, 127, size)
        protocol.transport.write(head + data)
        return True
