"""``handfoot serve --ws-ping-interval S``: each WebSocket gets a keep-alive ping every S
seconds (uvicorn's default, 20 s, when not given), none with 0; a bad value is refused.
Read off the wire: a raw socket that opens a table's WebSocket and waits for frames."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from server_load import Server  # noqa: E402

from handfoot.cli import build_parser  # noqa: E402
from handfoot.cli.options import UsageError  # noqa: E402
from handfoot.cli.serve import WS_PING_INTERVAL, cmd_serve  # noqa: E402

PING = 0x9


def _opcodes_within(port: int, seconds: float) -> list[int]:
    """Open ``/ws/any`` on ``port`` (the upgrade only: no hello) and return the opcodes of
    the frames the server sends within ``seconds`` (a ping is not answered)."""
    key = base64.b64encode(os.urandom(16)).decode()
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as s:
        s.sendall(f"GET /ws/any HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data:
            data += s.recv(4096)
        head, _, data = data.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            s.settimeout(max(0.01, end - time.monotonic()))
            try:
                chunk = s.recv(4096)
            except TimeoutError:
                break
            if not chunk:
                break
            data += chunk
    opcodes = []
    while len(data) >= 2:  # unmasked server frames, short payloads
        opcodes.append(data[0] & 0x0F)
        data = data[2 + (data[1] & 0x7F):]
    return opcodes


async def _serve_and_read(tmp: Path, extra: list[str], seconds: float) -> list[int]:
    server = Server(f"sqlite+aiosqlite:///{tmp / 'k.db'}", extra=extra, log=tmp / "server.log")
    server.start()
    try:
        await server.ready()
        return await asyncio.to_thread(_opcodes_within, server.port, seconds)
    finally:
        server.kill()


@pytest.mark.parametrize(("interval", "pings"), [("0.3", True), ("0", False)])
def test_the_keep_alive_pings_follow_the_interval(tmp_path: Path, interval: str,
                                                  pings: bool) -> None:
    opcodes = asyncio.run(_serve_and_read(tmp_path, ["--ws-ping-interval", interval], 1.5))
    if pings:
        assert PING in opcodes, opcodes  # (the next one waits for its pong)
    else:
        assert PING not in opcodes, opcodes


def test_the_default_interval_is_uvicorns_and_a_negative_one_is_refused() -> None:
    assert build_parser().parse_args(["serve"]).ws_ping_interval == WS_PING_INTERVAL == 20.0
    with pytest.raises(UsageError, match="--ws-ping-interval"):
        cmd_serve(build_parser().parse_args(["serve", "--ws-ping-interval", "-1"]))
