"""Who may act, and what the server refuses: a seat's link is the only way to act for it, tokens
never reach the logs (a real uvicorn server, every log record of a whole game read), pages of
other sites are turned away by their Origin, floods are cut off, and bad frames get a clear
error and change nothing (docs/web.md, "What the server refuses")."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from handfoot.web.app import create_app
from handfoot.web.guard import TokenBucket, normalize_origin, origin_allowed
from handfoot.web.protocol import MAX_FRAME_BYTES, MAX_MESSAGE
from handfoot.web.table import Table
from web_client import Person, client, new_game, settings_for, token_of, uvicorn_thread

ALL_HUMANS = [{"kind": "human", "name": f"P{i}"} for i in range(4)]


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path / "s.db") as test_client:
        yield test_client


def table_of(c: TestClient, game_id: str) -> Table:
    assert c.portal is not None
    table = c.portal.call(c.app.state.tables.get, game_id)  # type: ignore[attr-defined]
    assert isinstance(table, Table)
    return table


def snapshot(table: Table) -> tuple[Any, ...]:
    """Everything a message could change: the position, the move count, the Continue
    presses and the acks."""
    return (table.seq, table.state.position(), frozenset(table.continued), dict(table.acks))


def seat_people(c: TestClient, game: dict[str, Any]) -> list[Person]:
    people = []
    for i, seat in enumerate(game["seats"]):
        p = Person(c, game["game_id"], token_of(seat["link"]), seat=i)
        p.connect()
        p.until("state")
        people.append(p)
    return people


def settle(people: list[Person]) -> None:
    """Read every connection up to a pong, so no frame sent before is left unread."""
    for p in people:
        p.send({"type": "ping", "id": "settle"})
        p.until("pong")


# --- authorization -------------------------------------------------------------------------


def test_only_a_seats_own_link_acts_for_it(c: TestClient) -> None:
    game = new_game(c, profile="biegames", rounds=1, seats=ALL_HUMANS)
    other = new_game(c, profile="biegames", rounds=1, seats=ALL_HUMANS)
    gid = game["game_id"]
    people = seat_people(c, game)
    table = table_of(c, gid)
    to_act = table.state.to_act
    before = snapshot(table)
    for p in people:
        if p.seat == to_act:
            continue
        # out of turn, naming the seat to act, after a second hello with its token
        p.send({"type": "move", "id": "a", "seq": 0, "move": "draw"})
        assert p.until("error")["code"] == "not_your_turn"
        p.send({"type": "move", "id": "b", "seq": 0, "move": "draw", "seat": to_act})
        error = p.until("error")
        assert error["code"] == "not_your_turn" and "turn" in error["message"]
        p.send({"type": "hello", "token": people[to_act].token, "seq": 0})
        assert p.until("error")["code"] == "bad_message"
        p.send({"type": "move", "id": "c", "seq": 0, "move": "draw"})
        assert p.until("error")["code"] == "not_your_turn"
        p.send({"type": "continue", "round": 1})
        assert p.until("error")["code"] == "bad_message"  # no round has ended
    watcher = Person(c, gid, token_of(game["spectator_link"]), seat=None)
    watcher.connect()
    watcher.until("state")
    for message in ({"type": "move", "id": "s", "seq": 0, "move": "draw"},
                    {"type": "continue", "round": 1}):
        watcher.send(message)
        assert watcher.until("error")["code"] == "not_your_turn"
    settle([*people, watcher])
    assert snapshot(table) == before
    # a link of another game opens nothing here, and no link of this game works there
    with c.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": token_of(other["seats"][to_act]["link"])})
        reply = ws.receive_json()
        assert reply["code"] == "auth" and "not valid for this game" in reply["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    for token in (people[0].token, token_of(game["spectator_link"])):
        r = c.post(f"/api/games/{other['game_id']}/status", json={"token": token})
        assert r.status_code == 404
        r = c.post(f"/api/games/{other['game_id']}/rematch", json={"token": token})
        assert r.status_code == 403 and "only a player" in r.json()["error"]
    assert c.post(f"/api/games/{gid}/rematch",
                  json={"token": token_of(game["spectator_link"])}).status_code == 403
    assert snapshot(table) == before and snapshot(table_of(c, other["game_id"]))[0] == 0
    # the seat's own link does act
    people[to_act].play("draw")
    assert table.seq == 1
    for p in [*people, watcher]:
        p.close()


def test_replayed_and_out_of_order_moves_change_nothing(c: TestClient) -> None:
    game = new_game(c, profile="biegames", rounds=1, seats=ALL_HUMANS)
    people = seat_people(c, game)
    table = table_of(c, game["game_id"])
    mover = people[table.state.to_act]
    for seq in (1, 5, 10**9):  # ahead of the game
        before = snapshot(table)
        mover.send({"type": "move", "id": f"ahead{seq}", "seq": seq, "move": "draw"})
        error = mover.until("error")
        assert error["code"] == "stale" and error["id"] == f"ahead{seq}"
        assert mover.until("state")["seq"] == 0
        assert snapshot(table) == before
    ack = mover.play("draw", "once")
    assert ack["seq"] == 1
    settle(people)
    after = snapshot(table)
    mover.send({"type": "move", "id": "once", "seq": 0, "move": "draw"})  # replayed
    assert mover.until("ack") == {"type": "ack", "id": "once", "seq": 1}
    mover.send({"type": "move", "id": "later", "seq": 0, "move": "discard 4"})  # stale
    assert mover.until("error")["code"] == "stale"
    settle(people)
    assert snapshot(table) == after
    # the same seat from a second device: the replayed id gets the same ack
    twin = Person(c, game["game_id"], mover.token, seat=mover.seat)
    twin.connect()
    twin.until("state")
    twin.send({"type": "move", "id": "once", "seq": 1, "move": "draw"})
    assert twin.until("ack") == {"type": "ack", "id": "once", "seq": 1}
    settle([*people, twin])
    assert snapshot(table) == after
    for p in [*people, twin]:
        p.close()


# --- the Origin ----------------------------------------------------------------------------


@pytest.mark.parametrize(("origin", "host", "allowed", "ok"), [
    (None, "cards.example.org", (), True),
    ("https://cards.example.org", "cards.example.org", (), True),
    ("http://localhost:8000", "localhost:8000", (), True),
    ("http://LOCALHOST:8000", "localhost:8000", (), True),
    ("https://cards.example.org:443", "cards.example.org", (), True),
    ("http://[::1]:8000", "[::1]:8000", (), True),
    ("http://localhost:8001", "localhost:8000", (), False),
    ("https://cards.example.org.evil.example", "cards.example.org", (), False),
    ("https://evil.example", "cards.example.org", (), False),
    ("null", "cards.example.org", (), False),
    ("cards.example.org", "cards.example.org", (), False),
    ("https://cards.example.org/path", "cards.example.org", (), False),
    ("https://family.example", "127.0.0.1:8000", ("https://family.example/",), True),
    ("https://family.example:8443", "127.0.0.1:8000", ("https://family.example",), False),
    ("https://evil.example", None, (), False),
])
def test_origin_policy(origin: str | None, host: str | None, allowed: tuple[str, ...],
                       ok: bool) -> None:
    assert origin_allowed(origin, host, allowed) is ok


def test_normalize_origin() -> None:
    assert normalize_origin("HTTP://Example.ORG:80") == "http://example.org"
    assert normalize_origin("https://example.org:8443/") == "https://example.org:8443"
    assert normalize_origin("https://user@example.org") is None
    assert normalize_origin("https://example.org:99999") is None
    assert normalize_origin("ftp://example.org") is None


def test_pages_of_other_sites_are_turned_away(tmp_path: Path) -> None:
    with client(tmp_path / "o.db", allowed_origins=("https://family.example",)) as c:
        game = new_game(c, profile="biegames", rounds=1)
        gid, token = game["game_id"], token_of(game["seats"][0]["link"])
        table = table_of(c, gid)
        for origin in ("https://evil.example", "null", "http://testserver.evil.example"):
            with c.websocket_connect(f"/ws/{gid}", headers={"origin": origin}) as ws:
                error = ws.receive_json()
                assert error["type"] == "error" and error["code"] == "origin"
                assert origin in error["message"] and "family.example" in error["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 4403
                assert closed.value.reason == "origin not allowed"
            body = {"profile": "biegames"}
            for path, data in (("/api/games", body), ("/api/daily", {"name": "Eve"}),
                               (f"/api/games/{gid}/status", {"token": token}),
                               (f"/api/games/{gid}/rematch", {"token": token})):
                r = c.post(path, json=data, headers={"origin": origin})
                assert r.status_code == 403, path
                assert "may not use this server" in r.json()["error"]
        assert c.get("/", headers={"origin": "https://evil.example"}).status_code == 200
        for good in ("http://testserver", "https://family.example", None):
            headers = {} if good is None else {"origin": good}
            with c.websocket_connect(f"/ws/{gid}", headers=headers) as ws:
                ws.send_json({"type": "hello", "token": token, "seq": 0})
                assert ws.receive_json()["type"] == "welcome"
            assert c.post("/api/games", json={"profile": "biegames"},
                          headers=headers).status_code == 200
        assert table.seq == 0


# --- floods --------------------------------------------------------------------------------


def test_the_token_bucket() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert bucket.refused == 1
    now[0] += 0.5  # one more
    assert [bucket.take() for _ in range(2)] == [True, False]
    now[0] += 100.0  # never more than the burst
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert bucket.refused == 1


def test_a_short_burst_is_refused_and_the_connection_kept(tmp_path: Path) -> None:
    with client(tmp_path / "r.db", message_rate=20.0, message_burst=5, flood_limit=50) as c:
        game = new_game(c, profile="biegames", rounds=1)
        p = Person(c, game["game_id"], token_of(game["seats"][0]["link"]), seat=0)
        p.connect()
        p.until("state")
        for _ in range(8):
            p.send({"type": "ping"})
        replies: list[dict[str, Any]] = []
        while len(replies) < 8:
            m = p.receive()
            if m["type"] in ("pong", "error"):
                replies.append(m)
        refused = [m for m in replies if m["type"] == "error"]
        assert 1 <= len(refused) <= 3
        assert all(m["code"] == "rate_limited" and "not read" in m["message"]
                   for m in refused)
        time.sleep(0.4)  # the bucket fills again
        p.send({"type": "ping"})
        assert p.until("pong") == {"type": "pong"}
        p.close()


def test_a_flood_is_cut_off_and_changes_nothing(tmp_path: Path) -> None:
    with client(tmp_path / "f.db", message_rate=0.001, message_burst=3, flood_limit=10) as c:
        game = new_game(c, profile="biegames", rounds=1, seats=ALL_HUMANS)
        table = table_of(c, game["game_id"])
        seat = table.state.to_act
        p = Person(c, game["game_id"], token_of(game["seats"][seat]["link"]), seat=seat)
        p.connect()
        p.until("state")
        before = snapshot(table)
        for _ in range(3):
            p.send({"type": "check", "move": "draw"})
            assert p.until("checked")["ok"] is True
        for i in range(10):  # moves the seat could make, past its rate: none is read
            p.send({"type": "move", "id": f"f{i}", "seq": 0, "move": "draw"})
        errors = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                m = p.ws.receive_json()
                assert m["type"] in ("error", "presence"), m
                if m["type"] == "error":
                    errors.append(m)
        assert closed.value.code == 4429 and closed.value.reason == "too many messages"
        assert [e["code"] for e in errors] == ["rate_limited"] * 10
        assert "closing" in errors[-1]["message"] and "closing" not in errors[0]["message"]
        assert snapshot(table) == before
        assert not table.connections
        p.close()


# --- bad frames ----------------------------------------------------------------------------


BAD_FRAMES = [
    "not json", "", "{", "[]", "null", "1", '"move"', "{\"type\": 7}", '{"type": "fly"}',
    '{"type": "move"}', '{"type": "move", "seq": 0}', '{"type": "move", "move": "draw"}',
    '{"type": "move", "seq": "0", "move": "draw"}', '{"type": "move", "seq": -1, "move": "draw"}',
    '{"type": "move", "seq": 1.0, "move": "draw"}', '{"type": "move", "seq": true, "move": "d"}',
    '{"type": "move", "seq": 1000000001, "move": "draw"}',
    '{"type": "move", "seq": ' + "9" * 4400 + ', "move": "draw"}',
    '{"type": "move", "seq": 0, "move": ["draw"]}', '{"type": "move", "seq": 0, "move": null}',
    '{"type": "continue"}', '{"type": "continue", "round": "1"}', '{"type": "check"}',
    '{"type": "ping", "id": {}}', '{"type": "ping", "id": true}',
    '{"type": "ping", "id": "' + "x" * 65 + '"}', '{"type": "hello", "token": "x"}',
    "[" * 3000 + "]" * 3000, '{"a":' * 1500 + "1" + "}" * 1500, "x" * (MAX_MESSAGE + 1),
    '{"type": "move", "seq": 0, "move": "' + "K " * 4100 + '"}', "NaN", '{"type": NaN}',
    # a move the seat could make, but with a lone surrogate in a string (no database takes it)
    '{"type": "move", "id": "\\ud800", "seq": 0, "move": "draw"}',
    '{"type": "move", "id": "a", "seq": 0, "move": "draw", "x": "\\udfff"}',
]


def test_bad_frames_get_a_clear_error_keep_the_connection_and_change_nothing(
        c: TestClient) -> None:
    game = new_game(c, profile="biegames", rounds=1, seats=ALL_HUMANS)
    table = table_of(c, game["game_id"])
    seat = table.state.to_act
    p = Person(c, game["game_id"], token_of(game["seats"][seat]["link"]), seat=seat)
    p.connect()
    p.until("state")
    before = snapshot(table)
    for frame in BAD_FRAMES:
        p.ws.send_text(frame)
        error = p.until("error")
        assert error["code"] == "bad_message" and error["message"], frame[:50]
        assert error["id"] is None
    for data in (b"\xff\xfe{", b"\x00" * (5 * MAX_MESSAGE)):
        p.ws.send_bytes(data)
        assert p.until("error")["code"] == "bad_message"
    p.ws.send_bytes(b'{"type": "ping"}')  # a binary frame of UTF-8 JSON is read
    assert p.until("pong")
    # well-formed, but not moves: the reason in words, and nothing played
    for move in ("draw draw", "meld", "discard", "pickup " + "K " * 50, "goout |", "\u00e9"):
        p.send({"type": "move", "id": "m", "seq": 0, "move": move})
        error = p.until("error")
        assert error["code"] == "illegal" and error["message"] and error["id"] == "m"
    p.send({"type": "ping"})
    assert p.until("pong") == {"type": "pong"}
    assert snapshot(table) == before
    p.close()


@pytest.mark.parametrize("first", [
    "not json", '{"type": "hello"}', '{"type": "hello", "token": 5}',
    '{"type": "hello", "token": "\\ud800"}', '{"type": "hello", "token": "' + "a" * 129 + '"}',
    '{"type": "hello", "token": "tab\\there"}', "[" * 5000, "x" * (MAX_MESSAGE + 1),
])
def test_a_bad_hello_closes_the_socket_with_a_reason(c: TestClient, first: str) -> None:
    game = new_game(c, profile="biegames", rounds=1)
    with c.websocket_connect(f"/ws/{game['game_id']}") as ws:
        ws.send_text(first)
        error = ws.receive_json()
        assert error["code"] == "bad_message" and error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


def test_bad_tokens_over_http_are_refused_not_crashed_on(c: TestClient) -> None:
    game = new_game(c, profile="biegames", rounds=1)
    gid = game["game_id"]
    for token in ("\ud800", "a" * 1000, 7, None, ["x"], {"t": 1}, ""):
        for what in ("status", "rematch"):
            r = c.post(f"/api/games/{gid}/{what}", content=json.dumps({"token": token}))
            assert r.status_code in (400, 403, 404), (what, token)
            assert r.json()["error"]
    for body in (b"not json", b"[1]", b"\xff", b'{"token": "\\ud800"}', b"[" * 100_000,
                 b'{"token": "' + b"x" * (2 << 20) + b'"}'):
        r = c.post(f"/api/games/{gid}/status", content=body)
        assert r.status_code == 400 and r.json()["error"]
    # names that no database could store, nesting no parser could read, a body too big
    seats = [{"kind": "human", "name": "\ud800"}] + [{"kind": "bot", "level": "easy"}] * 3
    requests: list[tuple[str, dict[str, Any]]] = [
        ("/api/games", {"profile": "biegames", "seats": seats}),
        ("/api/daily", {"name": "Ann\udfff"}),
        ("/api/rules/check", {"toml": "[game]\nrounds = 2\n# \ud800"})]
    for path, request in requests:
        r = c.post(path, content=json.dumps(request))
        assert r.status_code == 400 or r.json()["ok"] is False, path
    for path in ("/api/games", "/api/daily"):
        assert c.post(path, content=b"[" * 100_000).status_code == 400
        assert c.post(path, content=b" " * (1 << 20) + b"{}").status_code == 400


# --- a real server: the logs, the transport's frame limit, the Origin ------------------------


class Records(logging.Handler):
    """Every log record, formatted, with its traceback if any (but the test's own WebSocket
    client's: the server's logs are what is checked)."""

    def __init__(self) -> None:
        super().__init__(level=1)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith("websockets.client"):
            self.lines.append(self.format(record))


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Records]]:
    """A uvicorn server on a free loopback port, as ``handfoot serve`` runs it but logging
    everything (uvicorn at TRACE, its access log on, the root logger at level 1)."""
    records = Records()
    root = logging.getLogger()
    level = root.level
    root.addHandler(records)
    root.setLevel(1)
    path = tmp_path_factory.mktemp("live") / "live.db"
    app = create_app(settings_for(path))
    try:
        with uvicorn_thread(app, log_level="trace", access_log=True,
                            ws_max_size=MAX_FRAME_BYTES) as port:
            yield f"127.0.0.1:{port}", records
    finally:
        root.removeHandler(records)
        root.setLevel(level)


def http(base: str, method: str, path: str, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://{base}{path}", data=data, method=method,
                                     headers={"content-type": "application/json",
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            text = r.read().decode()
            status = r.status
    except urllib.error.HTTPError as exc:
        text, status = exc.read().decode(), exc.code
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


async def play_seat(base: str, game_id: str, token: str, seat: int | None) -> int:
    """A client that plays its seat with the server's hints (None: watches) until the game is
    over; the number of moves it made."""
    made = 0
    async with connect(f"ws://{base}/ws/{game_id}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "seq": 0}))
        seq = 0
        async for raw in ws:
            m = json.loads(raw)
            if m["type"] == "state":
                seq, view, waiting = m["seq"], m["view"], m["waiting"]
                if view["phase"] == "game_over":
                    return made
                if seat is None:
                    continue
                if waiting is not None and seat in waiting["continue"]:
                    await ws.send(json.dumps({"type": "continue", "round": waiting["round"]}))
                elif waiting is None and view["to_act"] == seat:
                    await ws.send(json.dumps({"type": "hint", "id": f"h{seq}"}))
            elif m["type"] == "hint" and m["move"] and m["id"] == f"h{seq}":
                await ws.send(json.dumps({"type": "move", "id": f"{seat}-{seq}", "seq": seq,
                                          "move": m["move"]}))
                made += 1
            elif m["type"] == "error":
                assert m["code"] == "stale", m  # a state follows
    raise AssertionError("the server closed the socket before the end")


def test_tokens_never_reach_the_logs(live: tuple[str, Records]) -> None:
    """A whole game on a real server (two people, two bots, a spectator; status, record,
    pages, rematch and a link of the rematch): not one log record holds a token or a piece
    of one, though the logs hold every request."""
    base, records = live
    status, game = http(base, "POST", "/api/games", {
        "profile": "biegames", "rounds": 1,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "hard"},
                  {"kind": "human"}, {"kind": "bot", "level": "hard"}]})
    assert status == 200
    gid = game["game_id"]
    tokens = [token_of(game["seats"][0]["link"]), token_of(game["seats"][2]["link"]),
              token_of(game["spectator_link"])]

    async def whole_game() -> list[int]:
        return list(await asyncio.wait_for(asyncio.gather(
            play_seat(base, gid, tokens[0], 0), play_seat(base, gid, tokens[1], 2),
            play_seat(base, gid, tokens[2], None)), 300))

    made = asyncio.run(whole_game())
    assert made[0] > 0 and made[1] > 0
    for token in tokens:
        status, data = http(base, "POST", f"/api/games/{gid}/status", {"token": token})
        assert status == 200 and data["over"]
    assert http(base, "GET", f"/api/games/{gid}/record")[0] == 200
    assert http(base, "GET", f"/game/{gid}")[0] == 200
    status, rematch = http(base, "POST", f"/api/games/{gid}/rematch", {"token": tokens[0]})
    assert status == 200
    tokens += [token_of(rematch["seats"][0]["link"]), token_of(rematch["spectator_link"])]

    async def peek_rematch() -> None:
        async with connect(f"ws://{base}/ws/{rematch['game_id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[3], "seq": 0}))
            assert json.loads(await ws.recv())["type"] == "welcome"

    asyncio.run(peek_rematch())
    text = "\n".join(records.lines)
    assert f'"POST /api/games/{gid}/status HTTP/1.1" 200' in text  # the access log is on
    assert f"WebSocket /ws/{gid}" in text
    assert sum(1 for line in records.lines if line.startswith("uvicorn.error")) > 10
    for token in tokens:
        for piece in (token, token[:10], token[-10:], token[10:20]):
            leaked = [line for line in records.lines if piece in line]
            assert not leaked, f"a piece of a token ({piece}) is in the log: {leaked[0][:300]}"


def test_the_transport_closes_a_frame_over_its_limit(live: tuple[str, Records]) -> None:
    base, _ = live
    status, game = http(base, "POST", "/api/games", {"profile": "biegames", "rounds": 1})
    assert status == 200

    async def run() -> tuple[int, int | None]:
        async with connect(f"ws://{base}/ws/{game['game_id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token_of(
                game["seats"][0]["link"]), "seq": 0}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send("x" * (MAX_MESSAGE + 10))  # too long for the app: an error
            while (m := json.loads(await ws.recv()))["type"] != "error":
                pass
            assert m["code"] == "bad_message"
            await ws.send(json.dumps({"type": "ping"}))
            while json.loads(await ws.recv())["type"] != "pong":
                pass
            await ws.send("x" * (MAX_FRAME_BYTES + 1))  # too long for the transport
            try:
                while True:
                    await ws.recv()
            except ConnectionClosed as exc:
                assert exc.rcvd is not None
                return exc.rcvd.code, None
        raise AssertionError("not closed")

    code, _ = asyncio.run(run())
    assert code == 1009


def test_a_real_browser_handshake_from_another_site_is_refused(
        live: tuple[str, Records]) -> None:
    base, _ = live
    _, game = http(base, "POST", "/api/games", {"profile": "biegames", "rounds": 1})
    assert http(base, "POST", "/api/games", {"profile": "biegames"},
                {"origin": "https://evil.example"})[0] == 403
    assert http(base, "POST", "/api/games", {"profile": "biegames"},
                {"origin": f"http://{base}"})[0] == 200

    async def run(origin: str) -> tuple[Any, int, str]:
        async with connect(f"ws://{base}/ws/{game['game_id']}", origin=origin) as ws:  # type: ignore[arg-type]
            first = json.loads(await ws.recv())
            try:
                await ws.recv()
            except ConnectionClosed as exc:
                assert exc.rcvd is not None
                return first, exc.rcvd.code, exc.rcvd.reason
        raise AssertionError("not closed")

    first, code, reason = asyncio.run(run("https://evil.example"))
    assert first["code"] == "origin" and (code, reason) == (4403, "origin not allowed")


def test_serve_takes_only_origins_for_allowed_origin(capsys: pytest.CaptureFixture[str]) -> None:
    from handfoot.cli import main

    assert main(["serve", "--allowed-origin", "cards.example.org"]) == 2
    err = capsys.readouterr().err
    assert "--allowed-origin" in err and "https://cards.example.org" in err
