"""New connections read a few a turn of the event loop (handfoot.web.handshakes): a wave
of WebSocket handshakes does not hold a server process's loop for one long turn."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("httptools")

from handfoot.web import handshakes


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.paused = False
        self.closing = False

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def is_closing(self) -> bool:
        return self.closing


def test_a_wave_of_first_reads_is_handled_at_most_so_many_a_turn_in_order() -> None:
    """150 connections' first reads in one turn: the first HANDSHAKES_AT_ONCE handled at
    once, the others' reading paused and handled that many a turn in the order they came,
    their reading resumed; one closed while it waited is skipped, one that fails does not
    stop the others; a first read while others wait queues behind them."""
    at_once = handshakes.HANDSHAKES_AT_ONCE
    errors: list[str] = []

    async def main() -> list[list[int]]:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: errors.append(context["message"]))
        paced = handshakes.Handshakes(loop)
        handled: list[int] = []

        def handle(n: int) -> None:
            handled.append(n)
            if n == at_once + 2:
                raise ValueError("a bad request")

        wave = [Transport() for _ in range(151)]
        for n, transport in enumerate(wave[:150]):
            paced.first_read(transport, lambda n=n: handle(n))
        assert handled == list(range(at_once))
        assert [t.paused for t in wave[:150]] == [False] * at_once + [True] * (150 - at_once)
        wave[at_once + 1].closing = True
        turns: list[list[int]] = []
        for turn in range(5):
            handled.clear()
            await asyncio.sleep(0)
            turns.append(handled[:])
            if turn == 0:
                paced.first_read(wave[150], lambda: handle(150))  # others wait: it queues
                assert wave[150].paused
        assert not paced.waiting
        assert not any(t.paused for n, t in enumerate(wave) if n != at_once + 1)
        return turns
    turns = asyncio.run(main())
    assert all(len(turn) <= at_once for turn in turns)
    order = [n for turn in turns for n in turn]
    assert order == [n for n in range(at_once, 151) if n != at_once + 1]
    assert sum(1 for turn in turns if turn) >= 2
    assert errors == ["a paced connection's first read failed"]


def test_the_server_answers_every_connection_of_a_wave(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn serving with PacedHttpToolsProtocol: 200 connections opened at once, each
    sending a request, all answered (none left paused), though no more than
    HANDSHAKES_AT_ONCE requests were handled in one turn."""
    import uvicorn
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    reads: list[int] = []
    handle = HttpToolsProtocol.data_received

    def counted(self: HttpToolsProtocol, data: bytes) -> None:
        reads.append(1)
        handle(self, data)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    monkeypatch.setattr(HttpToolsProtocol, "data_received", counted)

    async def main() -> list[bytes]:
        # log_config=None: uvicorn's own logging setup would stop the uvicorn loggers
        # propagating for the rest of this worker's tests (tests/web_client.py)
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None,
                                http=handshakes.PacedHttpToolsProtocol,
                                lifespan="off", log_level="warning")
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        per_turn: list[int] = []

        async def count_turns() -> None:
            while True:
                before = len(reads)
                await asyncio.sleep(0)
                per_turn.append(len(reads) - before)

        counting = asyncio.create_task(count_turns())
        streams = await asyncio.gather(*(asyncio.open_connection("127.0.0.1", port)
                                         for _ in range(200)))
        for _, writer in streams:
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answers = await asyncio.gather(*(reader.read() for reader, _ in streams))
        counting.cancel()
        for _, writer in streams:
            writer.close()
        server.should_exit = True
        await serving
        assert max(per_turn) <= handshakes.HANDSHAKES_AT_ONCE
        return answers
    answers = asyncio.run(main())
    assert len(answers) == 200
    assert all(answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"ok")
               for answer in answers)


def test_serve_runs_uvicorn_with_the_paced_protocol() -> None:
    """``handfoot serve`` hands uvicorn the paced protocol (httptools installed here)."""
    from handfoot.cli import serve

    assert serve.http_protocol() == serve.PACED_HTTP
    module, name = serve.PACED_HTTP.split(":")
    assert module == handshakes.__name__ and getattr(handshakes, name) is \
        handshakes.PacedHttpToolsProtocol
