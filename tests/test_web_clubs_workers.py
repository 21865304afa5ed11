"""Clubs across server processes on one PostgreSQL (real ``handfoot serve`` processes): a
player made on one process is known on the other, an invite made on one is used on the
other, two members on two processes play a club game to its end, its result is stored
once, and both processes show the same standings (nothing about players or clubs is kept
in a process's memory)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import urllib.error
import urllib.request
from typing import Any

from sqlalchemy import select

from handfoot.web import store as st
from handfoot.web.players import PLAYER_HEADER
from test_web_workers import Player, Server, assert_agree, play_together, servers
from web_client import token_of


def _key() -> str:
    return base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()


def call(server: Server, method: str, path: str, key: str | None,
         body: dict[str, Any] | None = None) -> tuple[int, Any]:
    headers = {"content-type": "application/json", "origin": server.base}
    if key is not None:
        headers[PLAYER_HEADER] = key
    request = urllib.request.Request(server.base + path, method=method, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_a_club_game_between_members_on_two_processes(postgres_url: str) -> None:
    with servers(postgres_url) as (a, b):
        ann, bob = _key(), _key()
        assert call(a, "POST", "/api/players", None, {"name": "Ann", "key": ann})[0] == 200
        assert call(b, "POST", "/api/players", None, {"name": "Bob", "key": bob})[0] == 200
        assert call(b, "GET", "/api/me", ann)[1]["player"]["name"] == "Ann"
        club = call(a, "POST", "/api/clubs", ann, {"name": "Smiths"})[1]["club"]["id"]
        invite = call(a, "POST", f"/api/clubs/{club}/invites", ann)[1]["path"].split("#")[1]
        assert call(b, "GET", f"/api/clubs/{club}", bob)[0] == 404
        assert call(b, "POST", "/api/invites/join", bob, {"token": invite})[0] == 200
        assert call(b, "GET", f"/api/clubs/{club}", bob)[0] == 200
        status, game = call(a, "POST", f"/api/clubs/{club}/games", ann, {
            "profile": "biegames", "layout": "2x1", "rounds": 1,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
        assert status == 200, game
        gid = game["game_id"]
        joined = call(b, "POST", f"/api/clubs/{club}/games/{gid}/join", bob)[1]
        people = [Player(a, postgres_url, gid, token_of(game["seats"][0]["link"]), seat=0,
                         seed=1),
                  Player(b, postgres_url, gid, token_of(joined["link"]), seat=1, seed=2)]
        for p in people:
            p.connect()
            p.until("state")
        play_together(people)
        assert_agree(people)
        totals = people[0].last["view"]["scores"]["totals"]  # type: ignore[index]
        pages = [call(s, "GET", f"/api/clubs/{club}", k)[1] for s, k in ((a, ann), (b, bob))]
        assert pages[0]["standings"] == pages[1]["standings"]
        points = {s["name"]: s["points"] for s in pages[0]["standings"]}
        assert points == {"Ann": totals[0], "Bob": totals[1]}
        assert pages[0]["head_to_head"][0]["games"] == 1

    async def finished_rows() -> list[Any]:
        store = st.Store(postgres_url)
        try:
            async with store.engine.connect() as conn:
                return list((await conn.execute(select(st.seat_players).where(
                    st.seat_players.c.game == gid))).all())
        finally:
            await store.close()
    rows = asyncio.run(finished_rows())
    assert len(rows) == 2 and all(r.finished is not None for r in rows)
