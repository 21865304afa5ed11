"""A frame a connection sends at once under uvicorn goes straight to the transport
(web/connection.py, ``_Frames``): the client reads exactly what uvicorn's own ``send`` would
have written, every length of frame header, in order with the frames that had to wait; where
the way straight is not taken (compression, another server) the frames go the usual way."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.sync.client import connect

from handfoot.web import connection
from handfoot.web.connection import Connection, KeepServerSend
from web_client import uvicorn_thread

TEXTS = ["", "a", "b" * 125, "c" * 126, "d" * 65535, "e" * 65536, "é✓😀" * 30000,
         '{"type":"state"}', "f" * 300000, "g"]
"""Each length of a frame's header (7 bits, 16, 64) and text of several bytes a character."""

FLOOD = [f"{n:03}" + "h" * 400000 for n in range(40)] + ["end"]
"""More than the socket takes before the client reads: uvicorn pauses writing and the
later frames wait their turn (the writer task)."""


def _served(ways: list[bool], texts: list[str], **config: Any) -> Any:
    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws, 0)
        conn.start()
        ways.append(conn._frames is not None)
        await ws.receive_text()
        for text in texts:
            conn.send_text(text)
        conn.close()
        assert conn.writer is not None
        await asyncio.wait_for(conn.writer, 30)

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)],
                    middleware=[Middleware(KeepServerSend)])
    return uvicorn_thread(app, **config)


@pytest.mark.parametrize(("deflate", "texts"), [(False, TEXTS), (True, TEXTS),
                                                (False, FLOOD)])
def test_frames_sent_at_once_reach_the_client_as_uvicorn_writes_them(
        deflate: bool, texts: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    straight: list[bool] = []
    write = connection._Frames.write

    def counted(self: Any, text: str) -> bool:
        done = write(self, text)
        straight.append(done)
        return done

    monkeypatch.setattr(connection._Frames, "write", counted)
    ways: list[bool] = []
    with _served(ways, texts, ws_per_message_deflate=deflate) as port, \
            connect(f"ws://127.0.0.1:{port}/ws", max_size=2 ** 22,
                    compression="deflate" if deflate else None) as ws:
        ws.send("go")
        if texts is FLOOD:
            time.sleep(0.3)  # the server sends it all meanwhile
        received = [ws.recv(timeout=30) for _ in texts]
    assert received == texts
    if deflate:  # compressed frames: uvicorn writes them
        assert ways == [False] and not straight
    elif texts is FLOOD:  # straight until the client's side is full, then the usual way
        assert ways == [True] and straight[0] and not all(straight)
    else:
        assert ways == [True] and all(straight)


def test_a_connection_without_uvicorns_send_goes_the_usual_way() -> None:
    class Socket:
        def __init__(self, **scope: Any) -> None:
            self.scope = {"type": "websocket", **scope}

        async def send_text(self, text: str) -> None:
            pass

    assert Connection(Socket(), 0)._frames is None  # type: ignore[arg-type]
    not_uvicorns = Socket(**{connection.SERVER_SEND: print})
    assert Connection(not_uvicorns, 0)._frames is None  # type: ignore[arg-type]
