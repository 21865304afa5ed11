"""Clubs across server processes on one PostgreSQL (real ``handfoot serve`` processes): a
player made on one process is known on the other, an invite made on one is used on the
other, two members on two processes play a club game to its end, its result is stored
once, and both processes show the same standings (nothing about players or clubs is kept
in a process's memory); a duplicate tournament that both processes move on is started
once, deals each table once, and plays every table to one end."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from handfoot.game.record import record_from_data, replay
from handfoot.web import store as st
from handfoot.web.players import PLAYER_HEADER
from handfoot.web.schema import club_tournament_games
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


def test_a_tournament_moved_on_by_two_processes_is_played_once(postgres_url: str) -> None:
    """Both processes' refresh loops (and each table's end, on the process that stored
    it) move the tournament on: it starts once, each round's tables are made once with
    the same deals, every table is played to one end (its record replays), and both
    processes show the same standings."""
    with servers(postgres_url) as (a, b):
        ann, bob = _key(), _key()
        assert call(a, "POST", "/api/players", None, {"name": "Ann", "key": ann})[0] == 200
        assert call(b, "POST", "/api/players", None, {"name": "Bob", "key": bob})[0] == 200
        club = call(a, "POST", "/api/clubs", ann, {"name": "Smiths"})[1]["club"]["id"]
        invite = call(a, "POST", f"/api/clubs/{club}/invites", ann)[1]["path"].split("#")[1]
        assert call(b, "POST", "/api/invites/join", bob, {"token": invite})[0] == 200
        starts = datetime.now(UTC) + timedelta(seconds=4)
        status, made = call(a, "POST", f"/api/clubs/{club}/tournaments", ann, {
            "name": "Tonight", "profile": "biegames", "game_rounds": 1, "tables": 2,
            "rounds": 2, "bot_level": "easy",
            "starts": starts.strftime("%Y-%m-%dT%H:%M:%SZ")})
        assert status == 200, made
        url = f"/api/clubs/{club}/tournaments/{made['id']}"
        assert call(b, "POST", f"{url}/enter", bob, {"in": True})[1]["entered"]
        deadline = time.monotonic() + 300
        while True:
            status, view = call(b, "GET", url, bob)
            assert status == 200, view
            if view["status"] == "over":
                break
            assert time.monotonic() < deadline, view
            time.sleep(0.5)
        other = call(a, "GET", url, ann)[1]
        assert other["standings"] == view["standings"] and other["status"] == "over"
        assert sorted(s["name"] for s in view["entrants"]) == ["Ann", "Bob"]
        rounds = view["rounds_played"]
        assert [len(r) for r in rounds] == [2, 2]
        for tables in rounds:
            deals = []
            for t in tables:
                got = call(a, "GET", t["record"], ann)
                assert got[0] == 200
                result = replay(record_from_data(got[1]))
                assert result.ok and result.game_over and list(result.totals) == t["totals"]
                deals.append([rnd.deal for rnd in record_from_data(got[1]).rounds])
            assert deals[0] == deals[1]

    async def made_tables() -> tuple[int, int]:
        store = st.Store(postgres_url)
        try:
            async with store.engine.connect() as conn:
                places = (await conn.execute(select(func.count()).select_from(
                    club_tournament_games).where(
                    club_tournament_games.c.tournament == made["id"]))).scalar_one()
                games = (await conn.execute(select(st.games.c.settings))).scalars().all()
        finally:
            await store.close()
        mine = [g for g in games if (g or {}).get("tournament") == made["id"]]
        return int(places), len(mine)

    assert asyncio.run(made_tables()) == (4, 4)  # no table made twice, no game orphaned
