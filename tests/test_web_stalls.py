"""Nothing one client sends stalls the other tables (issue 33, items 1 and 2): a hostile
house-rule upload is refused by its shape before it is parsed, and what is parsed is
parsed off the event loop; hints and checks are worked out off the event loop. Meanwhile
another table's ping (a round trip on its WebSocket) stays under 50 ms."""

from __future__ import annotations

import asyncio
import contextlib
import json
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from handfoot.web.app import create_app
from handfoot.web.protocol import MAX_FRAME_BYTES
from web_client import settings_for, token_of, uvicorn_thread

PING_LIMIT_MS = 50.0

pytestmark = pytest.mark.timing  # run alone by scripts/test: a ping's wait is the measure

HUMAN_FIRST = {"seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3}


@contextlib.contextmanager
def _served(path: Path) -> Iterator[int]:
    """The app on a SQLite file, served by uvicorn as ``handfoot serve`` runs it: its port."""
    with uvicorn_thread(create_app(settings_for(path)), ws_max_size=MAX_FRAME_BYTES) as port:
        yield port


def _post(port: int, path: str, body: dict[str, Any], timeout: float = 60.0,
          ) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                     data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


async def _hello(port: int, link_game: dict[str, Any]) -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{port}/ws/{link_game['game_id']}",
                       max_size=MAX_FRAME_BYTES)
    await ws.send(json.dumps({"type": "hello", "token": token_of(link_game["seats"][0]["link"]),
                              "seq": 0}))
    return ws


async def _until(ws: ClientConnection, wanted: Callable[[dict[str, Any]], bool],
                 ) -> dict[str, Any]:
    while True:
        msg = json.loads(await ws.recv())
        if wanted(msg):
            return msg


@contextlib.asynccontextmanager
async def _pinging(port: int, game: dict[str, Any]) -> AsyncIterator[list[float]]:
    """Ping another table every 5 ms while the body runs: the round trips (ms)."""
    ws = await _hello(port, game)
    await _until(ws, lambda m: m["type"] == "state")
    times: list[float] = []
    stop = asyncio.Event()

    async def run() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            await ws.send('{"type":"ping"}')
            await _until(ws, lambda m: m["type"] == "pong")
            times.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.005)

    task = asyncio.create_task(run())
    try:
        yield times
    finally:
        stop.set()
        await task
        await ws.close()


def _report(what: str, times: list[float]) -> float:
    """Print the round trips' median, p99 and max; return the p99 (the test's measure: on
    a machine other jobs share, one ping in a hundred may wait for a core whatever the
    server does; the max before the fixes was 0.9 to 14 s)."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{what}: {len(times)} pings, median {statistics.median(times):.1f} ms, "
          f"p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms")
    return p99


def test_a_hostile_house_rule_upload_does_not_stall_other_tables(tmp_path: Path) -> None:
    figures: list[float] = []  # up to three tries (see the next test)
    while len(figures) < 3 and (not figures or figures[-1] >= PING_LIMIT_MS):
        figures.append(_hostile_uploads(tmp_path / f"r{len(figures)}.db"))
    assert figures[-1] < PING_LIMIT_MS, figures


def _hostile_uploads(path: Path) -> float:
    """The issue's hostile house rules uploaded while another table is pinged: the p99 of
    its pings (ms); every upload is refused with a reason."""
    with _served(path) as port:
        status, game = _post(port, "/api/games", HUMAN_FIRST)
        assert status == 200
        key = "a" + ".a" * 20_000  # the issue's: a 40 KB dotted key
        bodies = [
            ("/api/rules/check", {"toml": f"{key} = 1\n"}),
            ("/api/scores", {"toml": f"{key[:60_000]} = 1\n"}),
            ("/api/games", {"toml": "[x]\n" + "a = [" * 2000 + "]" * 2000}),
            # the worst shape let through: as many lines of as many dots as allowed
            ("/api/rules/check", {"toml": "".join(
                f"k{i}.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q = 1\n" for i in range(900))}),
        ]
        answers: list[tuple[int, dict[str, Any]]] = []

        def upload() -> None:
            for path, body in bodies * 3:
                answers.append(_post(port, path, body))

        async def main() -> list[float]:
            async with _pinging(port, game) as times:
                await asyncio.sleep(0.2)
                uploader = threading.Thread(target=upload)
                uploader.start()
                while uploader.is_alive():
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.1)
            return times

        times = asyncio.run(main())
    p99 = _report("another table during hostile uploads", times)
    assert len(answers) == 12
    for (path, _), (status, answer) in zip(bodies * 3, answers, strict=True):
        assert status in (200, 400), (path, status, answer)
        assert "error" in answer, (path, answer)
    return p99


def test_a_burst_of_hints_and_checks_does_not_stall_other_tables(tmp_path: Path) -> None:
    # up to three tries: on a machine other jobs share, a try's p99 may catch a wait for a
    # core whatever the server does; before the fix every try stalled for a second or more
    figures: list[float] = []
    while len(figures) < 3 and (not figures or figures[-1] >= PING_LIMIT_MS):
        figures.append(_hint_burst(tmp_path / f"h{len(figures)}.db"))
    assert figures[-1] < PING_LIMIT_MS, figures


def _hint_burst(path: Path) -> float:
    """10 sockets on tables of their own, each sending 200 hints and checks at once, while
    another table is pinged: the p99 of its pings (ms)."""
    sockets, burst = 10, 200
    with _served(path) as port:
        games = []
        for _ in range(sockets + 1):
            status, game = _post(port, "/api/games", HUMAN_FIRST)
            assert status == 200
            games.append(game)

        async def hinter(game: dict[str, Any]) -> list[dict[str, Any]]:
            ws = await _hello(port, game)
            state = await _until(ws, lambda m: m["type"] == "state")
            assert state["view"]["to_act"] == 0
            await ws.send(json.dumps({"type": "move", "move": "draw", "seq": 0, "id": "d"}))
            await _until(ws, lambda m: m["type"] == "ack")
            # the hard bot's advice and the check of a meld, in the play phase
            for i in range(burst):
                await ws.send(json.dumps({"type": "hint", "id": str(i)} if i % 2 == 0 else
                                         {"type": "check", "id": str(i), "move": "meld 5"}))
            answers = [await _until(ws, lambda m: m["type"] in ("hint", "checked"))
                       for _ in range(burst)]
            await ws.close()
            return answers

        async def main() -> tuple[list[float], list[list[dict[str, Any]]], float]:
            async with _pinging(port, games[-1]) as times:
                await asyncio.sleep(0.2)
                start = time.perf_counter()
                answers = await asyncio.gather(*(hinter(g) for g in games[:-1]))
                took = time.perf_counter() - start
                await asyncio.sleep(0.1)
            return times, answers, took

        times, answers, took = asyncio.run(main())
    p99 = _report(f"another table during {sockets} sockets x {burst} hints and checks "
                    f"({took:.2f} s)", times)
    for answer in answers:
        assert [a["id"] for a in answer] == [str(i) for i in range(burst)]
        assert all(a["type"] == ("hint" if int(a["id"]) % 2 == 0 else "checked")
                   for a in answer)
        assert any(a["type"] == "hint" and a["move"] for a in answer)
    return p99
