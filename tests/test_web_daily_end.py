"""A daily game ends with its day (issue 33, item 3): once the day's seed is published (from
midnight UTC after it), no game of that day can move, so the seed tells nothing about a deal
still being played; the leaderboard counts only games finished within their day. The server's
clock here is the test's (``daily.today``, which ``Tables.today`` is by default)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from handfoot.web import daily
from web_client import Person, client, token_of

DAY = dt.date(2026, 12, 4)


def test_once_the_seed_is_published_a_daily_game_of_that_day_cannot_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [DAY]
    monkeypatch.setattr(daily, "today", lambda: clock[0])  # before the app takes its clock
    c: TestClient
    with client(tmp_path / "d.db") as c:
        tables = c.app.state.tables  # type: ignore[attr-defined]
        started = c.post("/api/daily", json={"name": "Ann"}).json()
        assert started["date"] == DAY.isoformat()
        game_id = started["game_id"]
        assert c.get(f"/api/daily/{DAY}").json()["seed"] is None
        person = Person(c, game_id, token_of(started["link"]), seat=0)
        try:
            person.connect()
            person.until("state")
            while not person.my_turn():
                person.receive()
            person.play(person.choose())  # the game is under way within its day
            clock[0] = DAY + dt.timedelta(days=1)  # midnight UTC: the day is over
            secret = c.portal.call(c.app.state.store.secret,  # type: ignore[union-attr]
                                   daily.SECRET_NAME)
            assert c.get(f"/api/daily/{DAY}").json()["seed"] == str(
                daily.daily_seed(secret, DAY))
            table = c.portal.call(tables.get, game_id)  # type: ignore[union-attr]
            seq = table.seq
            assert seq > 0 and not table.bots_may_play()
            person.send({"type": "move", "move": "draw", "seq": seq, "id": "late"})
            answer = person.until("error")
            assert answer["message"] == (f"the daily deal of {DAY} ended at midnight UTC: "
                                         "its games can no longer move"), answer
            person.send({"type": "hint", "id": "h"})
            hint = person.until("hint")
            assert hint["move"] is None and "ended at midnight UTC" in hint["reason"], hint
            person.send({"type": "ping"})
            person.until("pong")
            assert table.seq == seq  # nobody moved: neither the person nor the bots
            assert c.portal.call(c.app.state.store.moves,  # type: ignore[union-attr]
                                 game_id)[-1].seq == seq
        finally:
            person.close()
        board = c.get(f"/api/daily/{DAY}").json()["leaderboard"]
        assert board == [{"name": "Ann", "score": None, "won": None, "finished": False}]
