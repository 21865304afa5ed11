"""Smaller server defects of issue 33, item 6: the nginx examples pass the client's address;
a bot's move never shows before the expert's search budget; no traceback for a client that
disconnects mid-body or sends invalid UTF-8; a body that never comes times out with 408; at
debug level the database libraries do not log a live game's seed."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import re
import socket
import time
import urllib.request
from pathlib import Path

import pytest

from handfoot.web import requests as requests_module
from handfoot.web.app import create_app
from handfoot.web.guard import QUIET_LOGGERS
from web_client import Person, client, new_game, settings_for, token_of, uvicorn_thread

ROOT = Path(__file__).resolve().parent.parent


def test_every_nginx_example_passes_the_clients_address() -> None:
    blocks = 0
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for block in re.findall(r"```[a-z]*\n(.*?)```", doc.read_text(), flags=re.S):
            if "proxy_pass" not in block:
                continue
            blocks += 1
            assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for" in block, (
                doc.name, block)
    assert blocks >= 2


SEED = 271828182845904523536028747135266249775


def test_at_debug_level_the_database_libraries_do_not_log_seeds(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # the root logger: what --log-level debug gives
    for name in QUIET_LOGGERS:  # as a host's logging setup may leave them: not set
        logging.getLogger(name).setLevel(logging.NOTSET)
    with client(tmp_path / "s.db", seed_source=lambda *_: SEED) as c:
        game = new_game(c, seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3)
        person = Person(c, game["game_id"], token_of(game["seats"][0]["link"]), seat=0)
        person.connect()
        person.until("state")
        while not person.my_turn():
            person.receive()
        person.play(person.choose())
        person.close()
    assert caplog.records  # debug logging was on
    assert str(SEED) not in caplog.text
    assert f"{SEED:x}" not in caplog.text


def _raw(port: int, head: bytes, body: bytes) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(head + body)
    return s


def _head(length: int) -> bytes:
    return (b"POST /api/rules/check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: "
            + str(length).encode() + b"\r\n\r\n")


def test_client_faults_leave_no_traceback_and_a_short_body_times_out(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosedError

    monkeypatch.setattr(requests_module, "BODY_TIMEOUT", 0.5, raising=False)
    caplog.set_level(logging.INFO)
    app = create_app(settings_for(tmp_path / "t.db"))
    with uvicorn_thread(app) as port:
        # a client that disconnects in the middle of its body
        _raw(port, _head(1000), b'{"toml": "').close()
        # a body shorter than its Content-Length: 408 once the time is up, not never
        s = _raw(port, _head(1000), b'{"toml": "')
        started = time.monotonic()
        answer = s.recv(4096)
        waited = time.monotonic() - started
        while chunk := s.recv(4096):  # the body may come in a segment of its own
            answer += chunk
        s.close()
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        assert b"did not arrive within 0.5 s" in answer
        assert 0.3 < waited < 5
        # a text frame that is not UTF-8: the socket is closed with 1007
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=b"{}",
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request) as r:
            game = json.loads(r.read())

        async def bad_frame() -> int | None:
            async with connect(f"ws://127.0.0.1:{port}/ws/{game['game_id']}") as ws:
                await ws.send(json.dumps({"type": "hello", "seq": 0,
                                          "token": token_of(game["seats"][0]["link"])}))
                await ws.recv()
                await ws.send(b'{"type": "ping", "x": "\xff\xfe"}', text=True)
                try:
                    while True:
                        await ws.recv()
                except ConnectionClosedError as exc:
                    return exc.rcvd.code if exc.rcvd else None

        assert asyncio.run(bad_frame()) == 1007
        time.sleep(0.2)
    assert "Invalid UTF-8 sequence received from client." in caplog.text
    assert "Traceback" not in caplog.text
    assert "Exception in ASGI application" not in caplog.text
    assert not any(r.exc_info for r in caplog.records)


def test_an_expert_bots_move_never_shows_before_its_search_budget(tmp_path: Path) -> None:
    budget = 0.15
    with client(tmp_path / "e.db", expert_budget=budget) as c:  # bot_delay 0
        game = new_game(c, seats=[{"kind": "bot", "level": "expert"}] * 4)
        watcher = Person(c, game["game_id"], token_of(game["spectator_link"]), seat=None)
        watcher.connect()
        watcher.until("state")
        times: list[float] = []
        while len(times) < 16:
            seq = watcher.seq
            watcher.receive()
            if watcher.seq > seq:
                times.append(time.monotonic())
        watcher.close()
    gaps = [b - a for a, b in itertools.pairwise(times)]
    print("gaps between expert moves (s):", " ".join(f"{g:.2f}" for g in gaps))
    assert min(gaps) >= budget, gaps


@pytest.mark.parametrize("name", ["headers", "guard", "requests", "daily"])
def test_web_doctests(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"handfoot.web.{name}"))
    assert result.attempted > 0 and result.failed == 0
