"""The load benchmark's WebSocket client connection: cheap per frame, the same on the wire.

``benchmarks/server_load.py`` drives thousands of connections from a process that shares
the machine with the server it measures; every round trip it measures includes the time its
own event loop takes to get to the frame. websockets' asyncio client costs, for each frame
received, its frame parser (generators), its message assembler, a future and a task's step
for ``recv`` and the reader's own step. This connection reads frames straight from the
transport's ``data_received`` and hands each message, parsed by orjson, to a callback at
once.

What the server sees is what websockets' client sends: the opening handshake's request is
the one websockets' own sans-I/O :class:`~websockets.client.ClientProtocol` makes (made once
for an address and origin, then each connection's path and fresh key put in: the same
bytes, ``permessage-deflate`` asked for or not), its answer checked as that protocol checks
it (status 101, ``Upgrade``, ``Connection``, ``Sec-WebSocket-Accept``, no extension and no
subprotocol agreed), and each frame sent is a :class:`~websockets.frames.Frame` serialized by
websockets (masked with a fresh key); a ``ping`` is answered by a ``pong``, a ``close``
by a ``close`` with its code, and closing sends ``close`` (1000) and waits for the
server's. Frames the server sends are read as RFC 6455 says (fragments joined, control
frames in between); a compressed frame (the server agreeing to ``permessage-deflate``,
which ``handfoot serve`` does not) is an error, as is anything else this reader does not
know.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Callable
from typing import Any, ClassVar, cast

import orjson
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
from websockets.frames import Close, Frame, Opcode
from websockets.http11 import USER_AGENT
from websockets.typing import Origin
from websockets.uri import parse_uri
from websockets.utils import accept_key, generate_key

__all__ = ["Socket", "SocketClosed"]


class SocketClosed(ConnectionError):
    """The connection was closed (by the server, or lost) while a client still used it."""


_PATH = "/__load_socket_path__"
_KEY = b"\x00key\x00"
_REQUESTS: dict[tuple[str, int, str, bool], bytes] = {}
"""websockets' handshake request for an address, origin and compression asked for, with
:data:`_PATH` and :data:`_KEY` where each connection's path and key go."""


def handshake_request(host: str, port: int, path: str, origin: str, deflate: bool,
                      key: str) -> bytes:
    """The opening handshake's request websockets' client sends for ``path`` with ``key``
    (``Sec-WebSocket-Key``), made by its :class:`~websockets.client.ClientProtocol` once for
    the address, origin and compression."""
    where = (host, port, origin, deflate)
    template = _REQUESTS.get(where)
    if template is None:
        protocol = ClientProtocol(
            parse_uri(f"ws://{host}:{port}{_PATH}"), origin=Origin(origin),
            extensions=enable_client_permessage_deflate(None) if deflate else None)
        request = protocol.connect()
        request.headers.setdefault("User-Agent", USER_AGENT)  # as websockets' connect
        template = request.serialize()
        assert template.count(protocol.key.encode()) == 1 and template.count(
            _PATH.encode()) == 1
        template = _REQUESTS[where] = template.replace(protocol.key.encode(), _KEY)
    return template.replace(_PATH.encode(), path.encode(), 1).replace(_KEY, key.encode())


def check_answer(answer: bytes, key: str) -> None:
    """The server's answer to the handshake (up to its blank line), checked as websockets'
    client checks it; :class:`SocketClosed` says what is wrong."""
    lines = answer.split(b"\r\n")
    if not lines[0].startswith(b"HTTP/1.1 101 "):
        raise SocketClosed("the server refused the WebSocket: "
                           + lines[0].decode(errors="replace"))
    headers: dict[bytes, list[bytes]] = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(b":")
            headers.setdefault(name.strip().lower(), []).append(value.strip())
    connection = [t.strip().lower() for v in headers.get(b"connection", []) for t in
                  v.split(b",")]
    if b"upgrade" not in connection:
        raise SocketClosed(f"the answer's Connection is {headers.get(b'connection')}")
    upgrade = [t.strip().lower() for v in headers.get(b"upgrade", []) for t in v.split(b",")]
    if upgrade != [b"websocket"]:
        raise SocketClosed(f"the answer's Upgrade is {headers.get(b'upgrade')}")
    if headers.get(b"sec-websocket-accept") != [accept_key(key).encode()]:
        raise SocketClosed("the answer's Sec-WebSocket-Accept is "
                           f"{headers.get(b'sec-websocket-accept')}, not the key's")
    if b"sec-websocket-extensions" in headers:
        raise SocketClosed("the server agreed to an extension "
                           f"({headers[b'sec-websocket-extensions']}): this client reads "
                           "no compressed frame")
    if b"sec-websocket-protocol" in headers:
        raise SocketClosed("the server chose a subprotocol none was asked for")


class _Reads:
    """What the sockets of one event loop read in one turn (``after_reads``), handled in the
    next turn in the order read: every socket ready in a turn is read (and its reading
    time noted) before any of them is handled, so a message's time is when it came off
    the socket, not when the messages read before it in that turn had been handled."""

    _of: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Reads]] = \
        weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.items: list[tuple[Socket, bytes | None, float, Exception | None]] = []
        self.due = False

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> _Reads:
        reads = cls._of.get(loop)
        if reads is None:
            reads = cls._of[loop] = cls(loop)
        return reads

    def add(self, socket: Socket, data: bytes | None, at: float,
            exc: Exception | None = None) -> None:
        """``data`` read at ``at`` (``time.perf_counter``), or (None) the connection lost."""
        self.items.append((socket, data, at, exc))
        socket.queued += 1
        if not self.due:
            self.due = True
            self.loop.call_soon(self._handle)

    def _handle(self) -> None:
        self.due = False
        items, self.items = self.items, []
        for socket, data, at, exc in items:
            socket.queued -= 1
            if data is None:
                socket.lost_now(exc)
            else:
                socket.handle(data, at)


class Socket(asyncio.Protocol):
    """One client connection: :meth:`open` it, :meth:`send_text`, get each message as a
    parsed JSON object through ``deliver`` (called within ``data_received``, in order;
    with ``after_reads``, in the next turn after every socket ready in this one was read,
    :attr:`read_at` then the time its data came off the socket), wait on :attr:`done`,
    then :meth:`close`."""

    def __init__(self, host: str, port: int, path: str, origin: str,
                 deliver: Callable[[Any], None], *, deflate: bool = True,
                 max_size: int = 2**22, after_reads: bool = False) -> None:
        self.deliver = deliver
        self.max_size = max_size
        self.reads = _Reads.of(asyncio.get_running_loop()) if after_reads else None
        self.queued = 0
        """Reads (and a loss) waiting in :attr:`reads` to be handled."""
        self.read_at = time.perf_counter()
        """When the data being handled was read (``time.perf_counter``)."""
        self.key = generate_key()
        self.request = handshake_request(host, port, path, origin, deflate, self.key)
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.done: asyncio.Future[None] = loop.create_future()
        """Resolved when the connection is lost or closed, or by :meth:`finish`."""
        self.gone: asyncio.Future[None] = loop.create_future()
        """Resolved when the connection is lost (closed by either side)."""
        self.transport: asyncio.Transport | None = None
        self.is_open = False
        self.lost = False
        self.close_sent = False
        self.failure: BaseException | None = None
        self._head = b""
        self._rest = b""
        self._fragments: list[bytes] | None = None
        self.received: Close | None = None
        self.last = time.monotonic()
        """When the last data came (``time.monotonic``)."""

    @classmethod
    async def open(cls, host: str, port: int, path: str, origin: str,
                   deliver: Callable[[Any], None], *, deflate: bool = True,
                   timeout: float = 30.0, max_size: int = 2**22,
                   after_reads: bool = False) -> Socket:
        """A connection to ``ws://host:port/path`` through the opening handshake (or an
        :class:`OSError`, :class:`TimeoutError` or the handshake's own exception)."""
        loop = asyncio.get_running_loop()
        socket = cls(host, port, path, origin, deliver, deflate=deflate, max_size=max_size,
                     after_reads=after_reads)
        async with asyncio.timeout(timeout):
            try:
                await loop.create_connection(lambda: socket, host, port)
                await socket.opened
            except BaseException:
                socket.abort()
                raise
        return socket

    # -- asyncio.Protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no subclass
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if self.reads is not None:
            self.last = time.monotonic()
            self.reads.add(self, data, time.perf_counter())
            return
        self.handle(data, time.perf_counter())

    def handle(self, data: bytes, at: float) -> None:
        """``data``, read at ``at`` (``time.perf_counter``)."""
        if self.failure is not None:  # read before the failure, handled after it
            return
        self.read_at = at
        self.last = time.monotonic()
        try:
            if self.is_open:
                self._frames(data)
            else:
                self._answer(data)
        except Exception as exc:
            self._fail(exc)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.reads is not None and self.queued:  # after what was read before
            self.reads.add(self, None, time.perf_counter(), exc)
        else:
            self.lost_now(exc)

    def lost_now(self, exc: Exception | None) -> None:
        self.lost = True
        self.is_open = False
        if not self.opened.done():
            self.opened.set_exception(exc or SocketClosed("connection lost during the "
                                                          "opening handshake"))
        if exc is not None and self.failure is None:
            self.failure = exc
        if not self.done.done():
            self.done.set_result(None)
        if not self.gone.done():
            self.gone.set_result(None)

    # -- the opening handshake -------------------------------------------------------------

    def _answer(self, data: bytes) -> None:
        """The server's answer to the handshake (:func:`check_answer`); what follows it
        is frames."""
        head = self._head + data
        end = head.find(b"\r\n\r\n")
        if end < 0:
            if len(head) > 65536:
                raise SocketClosed("the handshake's answer has no end")
            self._head = head
            return
        self._head = b""
        check_answer(head[:end], self.key)
        rest = head[end + 4:]
        self.is_open = True
        self.opened.set_result(None)
        if rest:
            self._frames(rest)

    # -- frames ----------------------------------------------------------------------------

    def _frames(self, data: bytes) -> None:
        """Every whole frame in what came so far; the rest kept for the next data."""
        buf = self._rest + data if self._rest else data
        n = len(buf)
        pos = 0
        while n - pos >= 2:
            b0 = buf[pos]
            b1 = buf[pos + 1]
            length = b1 & 0x7F
            head = 2
            if length == 126:
                if n - pos < 4:
                    break
                length = int.from_bytes(buf[pos + 2:pos + 4], "big")
                head = 4
            elif length == 127:
                if n - pos < 10:
                    break
                length = int.from_bytes(buf[pos + 2:pos + 10], "big")
                head = 10
            if b1 & 0x80:
                raise SocketClosed("the server sent a masked frame")
            if length > self.max_size:
                raise SocketClosed(f"a frame of {length} bytes (more than {self.max_size})")
            end = pos + head + length
            if end > n:
                break
            self._frame(b0, buf[pos + head:end])
            pos = end
            if not self.is_open:  # closed by that frame
                return
        self._rest = buf[pos:] if pos < n else b""

    def _frame(self, b0: int, payload: bytes) -> None:
        if b0 & 0x70:
            raise SocketClosed("a frame with reserved bits set (compressed?)")
        opcode = b0 & 0x0F
        fin = b0 & 0x80
        if opcode == 0:  # continuation
            if self._fragments is None:
                raise SocketClosed("a continuation frame with nothing to continue")
            self._fragments.append(payload)
            if fin:
                whole = b"".join(self._fragments)
                self._fragments = None
                self._message(whole)
        elif opcode <= 2:  # text, binary
            if self._fragments is not None:
                raise SocketClosed("a new message before the last one ended")
            if fin:
                self._message(payload)
            else:
                self._fragments = [payload]
        elif opcode == Opcode.PING:
            self._send(Frame(Opcode.PONG, payload))
        elif opcode == Opcode.PONG:
            pass
        elif opcode == Opcode.CLOSE:
            self.received = Close.parse(payload)
            if not self.close_sent:  # the server's close echoed, as websockets does
                self._send(Frame(Opcode.CLOSE, payload))
                self.close_sent = True
            self.is_open = False  # the server closes the TCP connection next
            if not self.done.done():
                self.done.set_result(None)
        else:
            raise SocketClosed(f"a frame of unknown opcode {opcode}")

    def _message(self, payload: bytes) -> None:
        if len(payload) > self.max_size:
            raise SocketClosed(f"a message of {len(payload)} bytes (more than "
                               f"{self.max_size})")
        self.deliver(orjson.loads(payload))

    # -- sending and closing ---------------------------------------------------------------

    def _send(self, frame: Frame) -> None:
        if self.transport is not None and not self.lost:
            self.transport.write(frame.serialize(mask=True))

    def send_text(self, text: str) -> None:
        """A text frame; :class:`SocketClosed` when the connection is not open."""
        if not self.is_open or self.close_sent:
            raise SocketClosed(self._why())
        self._send(Frame(Opcode.TEXT, text.encode()))

    def finish(self) -> None:
        """Wake whoever waits on :attr:`done` (the client is through with the
        connection)."""
        if not self.done.done():
            self.done.set_result(None)

    def _fail(self, exc: BaseException) -> None:
        if self.failure is None:
            self.failure = exc
        self.is_open = False
        if not self.opened.done():
            self.opened.set_exception(exc)
        self.abort()

    def _why(self) -> str:
        if self.received is not None:
            return f"the server closed the connection ({self.received})"
        if self.failure is not None:
            return f"the connection failed: {self.failure!r}"
        return "the connection is closed"

    def closed_error(self) -> SocketClosed:
        """Why the connection ended, as an exception to raise."""
        error = SocketClosed(self._why())
        if self.failure is not None:
            error.__cause__ = self.failure
        return error

    def abort(self) -> None:
        self.is_open = False
        if self.transport is not None:
            self.transport.abort()
        if not self.done.done():
            self.done.set_result(None)

    async def close(self, timeout: float = 10.0) -> None:
        """The closing handshake: ``close`` (1000) sent, the server's awaited until it
        closes the connection (at most ``timeout``), then the connection closed."""
        if self.transport is None or self.lost:
            return
        if self.is_open and not self.close_sent:
            self._send(Frame(Opcode.CLOSE, Close(1000, "").serialize()))
            self.close_sent = True
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await asyncio.shield(self.gone)
        self.is_open = False
        self.transport.close()
