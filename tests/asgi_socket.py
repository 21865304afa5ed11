"""A WebSocket to the app inside the app's own event loop: frames pass as ASGI messages, with
no thread and no network between a test and the server (much faster than the TestClient's
sockets, each of whose frames is a hop between threads: tests that send thousands of frames
run their clients as coroutines in the loop, through ``TestClient.portal.call``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from starlette.types import ASGIApp, Message
from starlette.websockets import WebSocketDisconnect

TIMEOUT = 30.0
"""Seconds a test waits for a frame before it calls the server stuck."""


class Socket:
    """One WebSocket to ``app`` at ``path`` (headers as (name, value) pairs)."""

    def __init__(self, app: ASGIApp, path: str,
                 headers: Sequence[tuple[str, str]] = ()) -> None:
        self.to_app: asyncio.Queue[Message] = asyncio.Queue()
        self.from_app: asyncio.Queue[Message] = asyncio.Queue()
        raw = [(b"host", b"testserver"),
               *((k.lower().encode(), v.encode()) for k, v in headers)]
        scope = {"type": "websocket", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "scheme": "ws", "server": ("testserver", 80), "client": ("testclient", 50000),
                 "root_path": "", "path": path, "raw_path": path.encode(), "query_string": b"",
                 "headers": raw, "subprotocols": [], "state": {}}
        self.closed: tuple[int, str] | None = None
        self.task = asyncio.ensure_future(app(scope, self.to_app.get, self.from_app.put))

    async def open(self) -> None:
        """The handshake: raises WebSocketDisconnect if the app refuses it."""
        self.to_app.put_nowait({"type": "websocket.connect"})
        message = await self.next()
        if message["type"] == "websocket.close":
            self.closed = (message.get("code", 1000), message.get("reason") or "")
            raise WebSocketDisconnect(*self.closed)
        assert message["type"] == "websocket.accept", message

    def send_json(self, data: Any) -> None:
        self.send_text(json.dumps(data, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        self.to_app.put_nowait({"type": "websocket.receive", "text": text})

    def send_bytes(self, data: bytes) -> None:
        self.to_app.put_nowait({"type": "websocket.receive", "bytes": data})

    async def next(self, timeout: float = TIMEOUT) -> Message:
        """The app's next ASGI message; the app's exception if it failed instead."""
        if not self.from_app.empty():
            return self.from_app.get_nowait()
        getting = asyncio.ensure_future(self.from_app.get())
        done, _ = await asyncio.wait({getting, self.task}, timeout=timeout,
                                     return_when=asyncio.FIRST_COMPLETED)
        if getting in done:
            return getting.result()
        getting.cancel()
        if self.task in done:
            self.task.result()  # raises what the app raised
            if not self.from_app.empty():
                return self.from_app.get_nowait()
            raise AssertionError("the app ended the socket without closing it")
        raise AssertionError(f"no frame from the server in {timeout} s")

    async def receive_json(self, timeout: float = TIMEOUT) -> Any:
        """The next frame as JSON; WebSocketDisconnect (with the code and reason) once the
        server closed the socket."""
        message = await self.next(timeout)
        if message["type"] == "websocket.close":
            self.closed = (message.get("code", 1000), message.get("reason") or "")
            raise WebSocketDisconnect(*self.closed)
        return json.loads(message["text"])

    def waiting(self) -> list[Any]:
        """The frames already sent and not read yet (without waiting for more)."""
        out = []
        while not self.from_app.empty():
            message = self.from_app.get_nowait()
            if message["type"] == "websocket.close":
                self.closed = (message.get("code", 1000), message.get("reason") or "")
                break
            out.append(json.loads(message["text"]))
        return out

    async def close(self) -> None:
        """The client goes; the app's handler must end (its exception is raised)."""
        self.to_app.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(asyncio.shield(self.task), TIMEOUT)
        self.task.result()
