"""The game review on the web server (issue 29): refused while the game is played, computed
in the background once asked for, its progress told, kept in the database (SQLite and
PostgreSQL), the replay's access rule."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from handfoot.web import reviews
from web_client import Person, client, new_game, played_game, token_of


def wait_done(c: TestClient, gid: str, seat: int, timeout: float = 240) -> dict[str, Any]:
    """Poll a seat's review until it is done; every answer on the way is a progress."""
    end = time.monotonic() + timeout
    seen = []
    while time.monotonic() < end:
        r = c.get(f"/api/games/{gid}/review", params={"seat": seat})
        assert r.status_code == 200, r.text
        status = r.json()
        seen.append(status)
        if status["status"] == "done":
            return status
        assert status["status"] == "running", status
        assert 0 <= status["done"] <= status["total"]
        time.sleep(0.2)
    raise AssertionError(f"the review did not finish: {seen[-3:]}")


def test_a_finished_games_review_is_computed_kept_and_refused_before_the_end(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviews, "BUDGET", 0.5)  # the fewest play-outs: a fast test
    with client(database_url, absent_grace=0.0) as c:
        game = new_game(c, profile="biegames", rounds=1, absent="bot",
                        seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"},
                               {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}])
        gid = game["game_id"]
        tokens = {s["seat"]: token_of(s["link"]) for s in game["seats"] if "link" in s}
        ann = Person(c, gid, tokens[0], seat=0)
        ann.connect()
        ann.until("state")
        for r in (c.get(f"/api/games/{gid}/review", params={"seat": 0}),
                  c.post(f"/api/games/{gid}/review", json={"seat": 0, "token": tokens[0]})):
            assert r.status_code == 403 and r.json() == {"error": "the game is not over"}
        ann.play_to_end()
        ann.close()

        assert c.get(f"/api/games/{gid}/review", params={"seat": 0}).json()["status"] == "none"
        for bad in ("9", "-1", "x", "", "1e3"):
            r = c.get(f"/api/games/{gid}/review", params={"seat": bad})
            assert r.status_code == 400 and "seat" in r.json()["error"]
        for body in ({"seat": True}, {"seat": "0"}, {"seat": 4}, {}):
            assert c.post(f"/api/games/{gid}/review", json=body).status_code == 400
        assert c.get("/api/games/nosuchgame/review", params={"seat": 0}).status_code == 404

        started = c.post(f"/api/games/{gid}/review", json={"seat": 0})
        assert started.status_code in (200, 202)
        assert started.json()["status"] in ("running", "done")
        done = wait_done(c, gid, 0)
        review = done["review"]
        assert review["seat"] == 0 and review["name"] == "Ann"
        assert review["decisions"] == len(review["timeline"]) > 5
        assert sum(review["classes"].values()) == review["decisions"]
        for d in review["timeline"]:
            assert d["class"] in ("good", "inaccuracy", "mistake", "blunder")
            assert isinstance(d["played_cards"], list) and d["played_words"]
        again = c.post(f"/api/games/{gid}/review", json={"seat": 0})
        assert again.status_code == 200 and again.json() == done  # not computed again
        monkeypatch.setattr(reviews, "MAX_WAITING", 0)  # a server holding all it may
        busy = c.post(f"/api/games/{gid}/review", json={"seat": 1})
        assert busy.status_code == 503 and "busy" in busy.json()["error"]
        assert c.post(f"/api/games/{gid}/review", json={"seat": 0}).json() == done
        monkeypatch.setattr(reviews, "MAX_WAITING", 20)

    with client(database_url) as c:  # another server on the same database keeps it
        assert c.get(f"/api/games/{gid}/review", params={"seat": 0}).json() == done
        assert c.get(f"/api/games/{gid}/review", params={"seat": 1}).json()["status"] == "none"


def test_a_review_left_running_by_a_dead_process_can_be_started_again(tmp_path: Path) -> None:
    with client(tmp_path / "r.db") as c:
        store = c.app.state.store  # type: ignore[attr-defined]
        assert c.portal.call(store.claim_review, "g1", 0, 10, reviews.STALE)
        assert not c.portal.call(store.claim_review, "g1", 0, 10, reviews.STALE)
        from datetime import timedelta
        assert c.portal.call(store.claim_review, "g1", 0, 10, timedelta(0))  # stale: taken
        c.portal.call(store.finish_review, "g1", 0, {"x": 1})
        assert not c.portal.call(store.claim_review, "g1", 0, 10, timedelta(0))  # done


def test_a_review_left_by_a_dead_process_is_queued_again_at_a_sqlite_servers_start(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a ``kill -9`` and a restart, a review showed its last progress for 2 minutes,
    then "failed", and was computed only when asked again. A server on SQLite (one process:
    nothing else can be computing it) queues it again at its start; on PostgreSQL another
    live process may hold it, and its row's heartbeat decides as before."""
    monkeypatch.setattr(reviews, "BUDGET", 0.5)
    with client(database_url, absent_grace=0.0) as c:
        gid = played_game(c)["game_id"]
        store = c.app.state.store  # type: ignore[attr-defined]
        # what a process killed while computing (or while the review waited) leaves behind
        for seat in (0, 1):
            assert c.portal.call(store.claim_review, gid, seat, 40, reviews.STALE)
        c.portal.call(store.review_progress, gid, 0, 7)
    with client(database_url) as c:
        if "sqlite" in database_url:
            for seat in (0, 1):
                status = c.get(f"/api/games/{gid}/review", params={"seat": seat}).json()
                assert status["status"] in ("running", "done") and status["done"] != 7
                assert wait_done(c, gid, seat, timeout=120)["review"]["seat"] == seat
        else:  # not taken over: it is not stale yet, and another process may hold it
            for _ in range(3):
                status = c.get(f"/api/games/{gid}/review", params={"seat": 0}).json()
                assert status["status"] == "running" and status["done"] == 7
                time.sleep(0.5)
