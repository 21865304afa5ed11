"""New connections read a few a turn of the event loop, so that a wave of them does not
hold the loop for one long turn.

uvloop accepts every connection waiting on the listening socket and reads every socket
with data in one turn of its loop, and uvicorn parses each new connection's request (for
the game, a WebSocket handshake: headers parsed, the answer written, the app's task made)
as it is read. When a thousand players' connections arrive together, a server process
ran them all in one turn: 100-120 ms of its CPU, while the moves of the tables already
playing waited (docs/server.md, "Issue 34, twelfth pass"). :class:`PacedHttpToolsProtocol`
is uvicorn's HTTP protocol with each new connection's first read handled at most
:data:`HANDSHAKES_AT_ONCE` a turn: beyond those, the connection's reading is paused and
its first read handled in a later turn, in the order they came, that many a turn, the
loop's I/O (the moves) read between.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from collections.abc import Callable
from typing import Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["HANDSHAKES_AT_ONCE", "Handshakes", "PacedHttpToolsProtocol", "handshakes"]

HANDSHAKES_AT_ONCE: Final = 64
"""New connections' first reads handled in one turn of the event loop at most; the next
wait a turn."""


class Handshakes:
    """One event loop's new connections' first reads, handled :attr:`at_once` a turn (see
    the module's docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop,
                 at_once: int = HANDSHAKES_AT_ONCE) -> None:
        self.loop = loop
        self.at_once = at_once
        self.handled = 0
        """First reads handled since this turn began."""
        self.waiting: deque[tuple[asyncio.ReadTransport, Callable[[], None]]] = deque()
        self._turning = False

    def first_read(self, transport: asyncio.ReadTransport, handle: Callable[[], None]) -> None:
        """A new connection's first read (its request, for the game a WebSocket handshake):
        ``handle`` called now if fewer than :attr:`at_once` were handled this turn and none
        waits before it, else the connection's reading paused and ``handle`` called in its
        turn."""
        self._next_turn()
        if not self.waiting and self.handled < self.at_once:
            self.handled += 1
            handle()
            return
        transport.pause_reading()
        self.waiting.append((transport, handle))

    def _next_turn(self) -> None:
        if not self._turning:
            self._turning = True
            self.loop.call_soon(self._turn)

    def _turn(self) -> None:
        """A new turn: up to :attr:`at_once` of those waiting handled, in order, their
        reading resumed (one closed meanwhile skipped; one that fails logged)."""
        self._turning = False
        self.handled = 0
        while self.waiting and self.handled < self.at_once:
            transport, handle = self.waiting.popleft()
            if transport.is_closing():
                continue
            self.handled += 1
            transport.resume_reading()
            try:
                handle()
            except Exception as exc:  # one connection's failure: the others go on
                self.loop.call_exception_handler({
                    "message": "a paced connection's first read failed",
                    "exception": exc, "transport": transport})
        if self.waiting or self.handled:
            self._next_turn()


_BY_LOOP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Handshakes] = \
    weakref.WeakKeyDictionary()


def handshakes(loop: asyncio.AbstractEventLoop) -> Handshakes:
    """The loop's :class:`Handshakes` (one a loop, made when first asked)."""
    paced = _BY_LOOP.get(loop)
    if paced is None:
        paced = _BY_LOOP[loop] = Handshakes(loop)
    return paced


class PacedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, each new connection's first read handled in its turn
    (:class:`Handshakes`); ``handfoot serve`` runs uvicorn with it."""

    _first = True

    def data_received(self, data: bytes) -> None:
        if not self._first:
            super().data_received(data)
            return
        self._first = False
        handshakes(asyncio.get_running_loop()).first_read(
            self.transport, lambda: super(PacedHttpToolsProtocol, self).data_received(data))
