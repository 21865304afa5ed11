"""Limits per client address on opening things: new games (and daily deals and rematches),
table WebSockets and new score sheets (:class:`handfoot.web.guard.OpenLimiter`).

Past its limit a request is refused before the app sees it, with a ``429``, a
``Retry-After`` header and a JSON error saying what and when; other addresses, other kinds
and reads go on as before; the buckets refill with time.
"""

from __future__ import annotations

import asyncio
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websockets
from starlette.testclient import TestClient, WebSocketDenialResponse

from handfoot.cli import build_parser
from handfoot.web.app import create_app
from handfoot.web.guard import OpenLimit, OpenLimiter, open_kind
from handfoot.web.settings import Settings
from web_client import settings_for, token_of, uvicorn_thread

FOUR_BOTS = {"seats": [{"kind": "bot", "level": "easy"}] * 4}


def limited(path: Path, **kw: Any) -> Settings:
    return settings_for(path, open_limits=True, **kw)


def test_new_games_past_the_burst_get_429_with_retry_after(tmp_path: Path) -> None:
    app = create_app(limited(tmp_path / "g.db", games_burst=3, games_per_minute=6.0))
    with TestClient(app) as c:
        for _ in range(3):
            assert c.post("/api/games", json={}).status_code == 200
        r = c.post("/api/games", json={})
        assert r.status_code == 429
        assert r.headers["retry-after"] == "10"  # 6 a minute: one more in 10 s
        body = r.json()
        assert body["retry_after"] == 10
        assert body["error"] == ("too many new games from your address (at most 3 at once, "
                                 "6 a minute): try again in 10 s")
        # the daily deal and a rematch count as new games too
        assert c.post("/api/daily", json={"name": "Ann"}).status_code == 429
        assert c.post("/api/games/x/rematch", json={}).status_code == 429
        # reads and other kinds are not counted
        assert c.get("/api/profiles").status_code == 200
        assert c.post("/api/scores", json={}).status_code != 429
        # the refused requests made nothing
    with sqlite3.connect(tmp_path / "g.db") as db:
        assert db.execute("select count(*) from games").fetchone() == (3,)
    # another address has its own allowance
    with TestClient(app, client=("203.0.113.9", 4000)) as other:
        assert other.post("/api/games", json={}).status_code == 200


def test_websocket_opens_past_the_burst_are_refused_with_429(tmp_path: Path) -> None:
    app = create_app(limited(tmp_path / "w.db", sockets_burst=2, sockets_per_minute=1.0))
    with TestClient(app) as c:
        game = c.post("/api/games", json=FOUR_BOTS).json()
        token = token_of(game["spectator_link"])
        for _ in range(2):
            with c.websocket_connect(f"/ws/{game['game_id']}") as ws:
                ws.send_json({"type": "hello", "token": token, "seq": 0})
                assert ws.receive_json()["type"] == "welcome"
        with pytest.raises(WebSocketDenialResponse) as refused, \
                c.websocket_connect(f"/ws/{game['game_id']}"):
            pass  # pragma: no cover (the handshake is refused)
        assert refused.value.status_code == 429
        assert refused.value.headers["retry-after"] == "60"
        assert "too many table connections" in refused.value.json()["error"]
        assert c.post("/api/games", json=FOUR_BOTS).status_code == 200  # games: own bucket


def test_score_sheets_are_limited(tmp_path: Path) -> None:
    app = create_app(limited(tmp_path / "s.db", sheets_burst=1, sheets_per_minute=2.0))
    with TestClient(app) as c:
        first = c.post("/api/scores", json={"profile": "remastered-teams"})
        assert first.status_code == 200, first.text
        r = c.post("/api/scores", json={"profile": "remastered-teams"})
        assert r.status_code == 429 and r.headers["retry-after"] == "30"
        assert "too many new score sheets" in r.json()["error"]
        # the sheet made is still read and written
        assert c.get(f"/api/scores/{first.json()['sheet_id']}").status_code == 200


def test_limits_off(tmp_path: Path) -> None:
    app = create_app(settings_for(tmp_path / "off.db", games_burst=1))
    with TestClient(app) as c:
        assert all(c.post("/api/games", json={}).status_code == 200 for _ in range(5))


def test_the_defaults_limit_and_serve_can_turn_them_off() -> None:
    kinds = {limit.kind: limit for limit in Settings().open_limit_list()}
    assert set(kinds) == {"game", "socket", "sheet", "post"}
    assert Settings(open_limits=False).open_limit_list() == ()
    assert build_parser().parse_args(["serve"]).open_limits is True
    assert build_parser().parse_args(["serve", "--no-open-limits"]).open_limits is False


# -- the middleware alone, on a clock of its own ------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _call(limiter: OpenLimiter, path: str, client: str = "198.51.100.7",
          method: str = "POST") -> tuple[int, dict[str, str]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "client": (client, 1234),
             "headers": []}
    asyncio.run(limiter(scope, receive, send))
    start = sent[0]
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}


async def _ok(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})


def test_a_bucket_refills_with_time_and_says_when() -> None:
    clock = Clock()
    limiter = OpenLimiter(_ok, [OpenLimit("game", 2, 12.0, "new games")], clock=clock)
    assert [_call(limiter, "/api/games")[0] for _ in range(3)] == [200, 200, 429]
    clock.now += 2.0  # 12 a minute: a new one every 5 s; 2 s in, 3 s to go
    status, headers = _call(limiter, "/api/games")
    assert status == 429 and headers["retry-after"] == "3"
    clock.now += 3.0
    assert _call(limiter, "/api/games")[0] == 200
    assert _call(limiter, "/api/games")[0] == 429
    assert _call(limiter, "/api/games", client="198.51.100.8")[0] == 200
    assert _call(limiter, "/api/games", method="GET")[0] == 200  # not a new game
    assert _call(limiter, "/api/games/abc/record")[0] == 200


def test_quiet_addresses_are_forgotten() -> None:
    clock = Clock()
    limiter = OpenLimiter(_ok, [OpenLimit("game", 1, 60.0, "new games")], clock=clock)
    for i in range(50):
        _call(limiter, "/api/games", client=f"192.0.2.{i}")
    assert len(limiter.buckets) == 50
    clock.now += 0.5
    _call(limiter, "/api/games", client="192.0.2.200")
    clock.now += 0.6  # the first 50 are full again, the last not
    limiter.prune()
    assert list(limiter.buckets) == [("game", "192.0.2.200")]


@pytest.mark.parametrize(("kind", "method", "path", "expected"), [
    ("http", "POST", "/api/games", "game"),
    ("http", "POST", "/api/daily", "game"),
    ("http", "POST", "/api/games/abc/rematch", "game"),
    ("http", "POST", "/api/games/abc/status", "post"),
    ("http", "POST", "/api/rules/check", "post"),
    ("http", "POST", "/api/scores", "sheet"),
    ("http", "POST", "/api/scores/abc/rounds/1", "post"),
    ("http", "GET", "/api/scores", None),
    ("websocket", "GET", "/ws/abc", "socket"),
    ("http", "GET", "/ws/abc", None),
])
def test_what_counts(kind: str, method: str, path: str, expected: str | None) -> None:
    assert open_kind(kind, method, path) == expected


# -- through uvicorn, as `handfoot serve` runs it -------------------------------------------


def _post(base: str, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(f"{base}{path}", data=b"{}", method="POST",
                                     headers={"content-type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, dict(r.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers)


def test_behind_a_proxy_each_forwarded_address_has_its_own_limit(tmp_path: Path) -> None:
    """uvicorn takes the client's address from ``X-Forwarded-For`` when the request comes
    from a proxy it trusts (127.0.0.1 by default): each player behind the proxy has an
    allowance of their own, and a WebSocket handshake past the limit is answered 429."""
    app = create_app(limited(tmp_path / "p.db", games_burst=2, games_per_minute=1.0,
                             sockets_burst=1, sockets_per_minute=1.0))
    with uvicorn_thread(app, ws_per_message_deflate=False) as port:
        base = f"http://127.0.0.1:{port}"
        ann = {"x-forwarded-for": "203.0.113.1"}
        bob = {"x-forwarded-for": "203.0.113.2"}
        assert [_post(base, "/api/games", ann)[0] for _ in range(3)] == [200, 200, 429]
        status, headers = _post(base, "/api/games", ann)
        assert status == 429 and headers["retry-after"] == "60"
        assert _post(base, "/api/games", bob)[0] == 200

        async def opens() -> list[int]:
            out = []
            for _ in range(2):
                try:
                    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/x",
                                                  additional_headers=ann):
                        out.append(101)
                except websockets.InvalidStatus as exc:
                    out.append(exc.response.status_code)
                    assert exc.response.headers["retry-after"] == "60"
            return out

        assert asyncio.run(opens()) == [101, 429]
