"""The load benchmark's WebSocket client (benchmarks/load_socket.py) against websockets' own
server: the same handshake and frames as websockets' client, each message handed over as
it arrives, fragments joined, pings answered, closes echoed, and compression refused."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
from websockets.frames import Frame, Opcode
from websockets.http11 import USER_AGENT
from websockets.typing import Origin
from websockets.uri import parse_uri

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_socket import Socket, SocketClosed, handshake_request  # noqa: E402


async def _with_server(handler: Any, client: Any, *, compression: str | None = None) -> Any:
    async with serve(handler, "127.0.0.1", 0, compression=compression,
                     ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        return await client(port)


def test_messages_fragments_pings_and_the_closing_handshake() -> None:
    seen: dict[str, Any] = {}

    async def handler(ws: ServerConnection) -> None:
        seen["request"] = ws.request
        await ws.send('{"type": "state", "seq": 1}')
        await ws.send(['{"type": ', '"state", ', '"seq": 2}'])  # three fragments
        await ws.send(b'{"type": "binary"}')
        pong = await ws.ping(b"p1")
        await asyncio.wait_for(pong, 5)
        seen["pong"] = True
        seen["got"] = await ws.recv()
        await ws.send('{"type": "last"}')
        async for _ in ws:  # until the client closes
            pass
        seen["close"] = ws.close_code

    async def client(port: int) -> list[Any]:
        got: list[Any] = []
        ws = await Socket.open("127.0.0.1", port, "/ws/g1", f"http://127.0.0.1:{port}",
                               got.append)
        ws.send_text('{"type": "hello"}')
        while len(got) < 4:
            await asyncio.sleep(0.01)
        await ws.close()
        assert ws.lost
        return got

    got = asyncio.run(asyncio.wait_for(_with_server(handler, client), 20))
    assert got == [{"type": "state", "seq": 1}, {"type": "state", "seq": 2},
                   {"type": "binary"}, {"type": "last"}]
    assert seen["pong"] is True
    assert seen["got"] == '{"type": "hello"}'
    assert seen["close"] == 1000
    headers = seen["request"].headers
    assert seen["request"].path == "/ws/g1"
    assert headers["Origin"].startswith("http://127.0.0.1:")
    assert headers["Sec-WebSocket-Extensions"] == "permessage-deflate; client_max_window_bits"
    assert headers["User-Agent"].startswith("Python/")


def test_a_server_that_closes_is_answered_and_said() -> None:
    async def handler(ws: ServerConnection) -> None:
        await ws.close(1001, "going away")

    async def client(port: int) -> str:
        ws = await Socket.open("127.0.0.1", port, "/", f"http://127.0.0.1:{port}",
                               lambda m: None)
        await asyncio.wait_for(ws.done, 5)
        with pytest.raises(SocketClosed):
            ws.send_text("{}")
        await ws.close()
        return str(ws.closed_error())

    said = asyncio.run(asyncio.wait_for(_with_server(handler, client), 20))
    assert "1001" in said and "going away" in said


def test_a_server_that_compresses_is_refused_and_one_not_asked_does_not() -> None:
    async def handler(ws: ServerConnection) -> None:
        await ws.send('{"x": 1}')
        await ws.wait_closed()

    async def asked(port: int) -> None:
        await Socket.open("127.0.0.1", port, "/", f"http://127.0.0.1:{port}", print)

    with pytest.raises(SocketClosed, match="compress"):
        asyncio.run(asyncio.wait_for(_with_server(handler, asked, compression="deflate"), 20))

    async def not_asked(port: int) -> list[Any]:
        got: list[Any] = []
        ws = await Socket.open("127.0.0.1", port, "/", f"http://127.0.0.1:{port}",
                               got.append, deflate=False)
        while not got:
            await asyncio.sleep(0.01)
        await ws.close()
        return got

    assert asyncio.run(asyncio.wait_for(
        _with_server(handler, not_asked, compression="deflate"), 20)) == [{"x": 1}]


def test_the_request_is_websockets_own_byte_for_byte() -> None:
    for deflate in (True, False):
        protocol = ClientProtocol(
            parse_uri("ws://127.0.0.1:8123/ws/g7"), origin=Origin("http://127.0.0.1:8123"),
            extensions=enable_client_permessage_deflate(None) if deflate else None)
        request = protocol.connect()
        request.headers.setdefault("User-Agent", USER_AGENT)
        ours = handshake_request("127.0.0.1", 8123, "/ws/g7", "http://127.0.0.1:8123",
                                 deflate, protocol.key)
        assert ours == request.serialize()
        assert (b"permessage-deflate" in ours) is deflate


class _Transport(asyncio.Transport):
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: Any) -> None:
        self.written.append(data)

    def abort(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_frames_split_anywhere_are_read_whole() -> None:
    async def run() -> tuple[list[Any], list[bytes]]:
        got: list[Any] = []
        ws = Socket("127.0.0.1", 1, "/", "http://127.0.0.1:1", got.append)
        transport = _Transport()
        ws.connection_made(transport)
        ws.is_open = True  # as after the handshake
        ws.opened.set_result(None)
        big = b'{"k": "' + b"x" * 70_000 + b'"}'  # a 64-bit length
        mid = b'{"k": "' + b"y" * 300 + b'"}'  # a 16-bit length
        stream = b"".join(Frame(op, data, fin=fin).serialize(mask=False) for op, data, fin in [
            (Opcode.TEXT, b'{"a": 1}', True), (Opcode.TEXT, mid, True),
            (Opcode.TEXT, b'{"b": ', False), (Opcode.PING, b"hi", True),
            (Opcode.CONT, b"2}", True), (Opcode.BINARY, big, True)])
        for i in range(0, len(stream), 7):
            ws.data_received(stream[i:i + 7])
        assert ws.failure is None
        return got, transport.written[1:]

    got, written = asyncio.run(run())
    assert got[0] == {"a": 1} and got[1] == {"k": "y" * 300} and got[2] == {"b": 2}
    assert got[3] == {"k": "x" * 70_000} and len(got) == 4
    assert len(written) == 1 and written[0][0] == 0x8A and written[0][1] == 0x82  # a pong


def test_a_masked_or_compressed_frame_is_a_failure() -> None:
    async def run(data: bytes) -> str:
        ws = Socket("127.0.0.1", 1, "/", "http://127.0.0.1:1", lambda m: None)
        ws.connection_made(_Transport())
        ws.is_open = True
        ws.opened.set_result(None)
        ws.data_received(data)
        assert ws.done.done()
        return str(ws.failure)

    assert "masked" in asyncio.run(run(Frame(Opcode.TEXT, b"{}").serialize(mask=True)))
    assert "reserved" in asyncio.run(run(bytes([0xC1, 2]) + b"{}"))  # RSV1: deflated


def test_after_reads_every_socket_read_in_a_turn_is_handled_in_the_next_in_order() -> None:
    """``after_reads`` (the load benchmark's clients): what the sockets read in one turn is
    handled in the next, in the order read, each message with the time its data came off
    the socket (:attr:`Socket.read_at`), not the time the ones read before it had been
    handled; a connection lost after a read is lost after that read is handled."""
    async def run() -> list[tuple[str, Any, float]]:
        got: list[tuple[str, Any, float]] = []
        sockets: list[Socket] = []
        for name in ("a", "b"):
            ws = Socket("127.0.0.1", 1, "/", "http://127.0.0.1:1",
                        lambda m, name=name: got.append((name, m, sockets[ord(name) - 97]
                                                         .read_at)), after_reads=True)
            ws.connection_made(_Transport())
            ws.is_open = True  # as after the handshake
            ws.opened.set_result(None)
            sockets.append(ws)
        a, b = sockets
        before = time.perf_counter()
        a.data_received(Frame(Opcode.TEXT, b'{"n": 1}').serialize(mask=False))
        b.data_received(Frame(Opcode.TEXT, b'{"n": 2}').serialize(mask=False))
        a.data_received(Frame(Opcode.TEXT, b'{"n": 3}').serialize(mask=False))
        a.connection_lost(None)
        read = time.perf_counter()
        assert got == [] and not a.lost and not a.gone.done()  # nothing handled yet
        time.sleep(0.01)  # the handling comes later than the reading
        await asyncio.sleep(0)
        assert [(name, m) for name, m, _ in got] == [("a", {"n": 1}), ("b", {"n": 2}),
                                                     ("a", {"n": 3})]
        assert all(before <= at <= read for _, _, at in got)
        assert a.lost and a.gone.done() and not b.lost
        return got

    asyncio.run(run())
