"""Correspondence games (handfoot.web.turns): a time per move, timers in the database that a
clock the test controls makes run out, the stand-in's turn marked in the moves list, the
game that waits and the seat the others give to a bot, and nothing at all before the time."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from handfoot.web.app import create_app
from handfoot.web.turns import read_turn
from web_client import settings_for, token_of

HOUR = 3600


class TestClock:
    """A clock the test moves (naive UTC)."""

    __test__ = False

    def __init__(self) -> None:
        self.at = datetime(2026, 12, 6, 12, 0, 0)

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@contextmanager
def app_client(path: Path | str, clock: TestClock, **kw: Any) -> Iterator[TestClient]:
    app = create_app(settings_for(path, timer_every=3600.0, **kw), clock=clock)
    with TestClient(app) as c:
        yield c


def moves(c: TestClient, game_id: str) -> list[Any]:
    store = c.app.state.store  # type: ignore[attr-defined]
    return list(c.portal.call(store.moves, game_id))  # type: ignore[union-attr]


def turn(c: TestClient, game_id: str) -> Any:
    store = c.app.state.store  # type: ignore[attr-defined]
    return c.portal.call(read_turn, store, game_id)  # type: ignore[union-attr]


def run_timers(c: TestClient) -> int:
    timers = c.app.state.timers  # type: ignore[attr-defined]
    return int(c.portal.call(timers.run_once))  # type: ignore[union-attr]


def wait_for(check: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def new_correspondence(c: TestClient, on_timeout: str = "bot", per_move: int = HOUR,
                       seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    body = {"profile": "biegames", "layout": "2x1",
            "seats": seats or [{"kind": "human", "name": "Ann"},
                               {"kind": "bot", "level": "easy", "name": "Bot"}],
            "correspondence": {"per_move": per_move, "on_timeout": on_timeout}}
    r = c.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def human_turn(c: TestClient, game_id: str, seat: int = 0) -> Any:
    """Wait until the game waits for ``seat`` (bots move with nobody connected)."""
    return wait_for(lambda: (t := turn(c, game_id)) is not None and t.seat == seat and t)


def timeout_turns(rows: list[Any]) -> list[list[Any]]:
    """The runs of consecutive moves stand-ins played on time-outs."""
    runs: list[list[Any]] = []
    for i, row in enumerate(rows):
        if row.by != "timeout":
            continue
        if i and rows[i - 1].by == "timeout":
            runs[-1].append(row)
        else:
            runs.append([row])
    return runs


def test_the_stand_in_plays_the_turn_once_the_time_runs_out(database_url: str) -> None:
    """On SQLite and PostgreSQL."""
    clock = TestClock()
    with app_client(database_url, clock) as c:
        game = new_correspondence(c)
        gid = game["game_id"]
        first = human_turn(c, gid)
        assert first.due == first.started + timedelta(hours=1)
        before = len(moves(c, gid))
        clock.advance(HOUR - 1)  # a second early: nothing happens
        run_timers(c)
        assert len(moves(c, gid)) == before and turn(c, gid).seq == first.seq
        clock.advance(2)
        run_timers(c)
        rows = moves(c, gid)
        runs = timeout_turns(rows)
        assert len(runs) == 1 and {r.seat for r in runs[0]} == {0}
        assert runs[0][0].seq == before + 1
        # the stand-in played the whole turn: the next turn is another's, or a new round's
        nxt = wait_for(lambda: (t := turn(c, gid)) is not None and t.seq > first.seq and t)
        assert nxt.seq >= runs[0][-1].seq
        # the next time-out is a new turn's, an hour after it began
        again = human_turn(c, gid)
        assert again.seq > first.seq and again.due == again.started + timedelta(hours=1)
        run_timers(c)  # the same time: nothing more
        assert len(timeout_turns(moves(c, gid))) == 1


def test_the_moves_list_marks_the_stand_ins_moves(tmp_path: Path) -> None:
    clock = TestClock()
    with app_client(tmp_path / "g.db", clock) as c:
        game = new_correspondence(c)
        gid = game["game_id"]
        first = human_turn(c, gid)
        clock.advance(HOUR + 1)
        run_timers(c)
        timed = [r.seq for r in moves(c, gid) if r.by == "timeout"]
        assert timed
        wait_for(lambda: (t := turn(c, gid)) is not None and t.seq > first.seq and t.seat == 0)
        with c.websocket_connect(f"/ws/{gid}") as ws:
            ws.send_json({"type": "hello", "token": token_of(game["seats"][0]["link"])})
            welcome = ws.receive_json()
            assert welcome["game"]["correspondence"] == {"per_move": HOUR, "on_timeout": "bot"}
            state = ws.receive_json()
            marked = state["view"]["correspondence"]["timeouts"]
            assert marked == [s - 1 for s in timed]  # event numbers
            assert state["view"]["correspondence"]["due"] is not None


def test_a_waiting_game_waits_and_the_others_may_give_the_seat_to_a_bot(
        database_url: str) -> None:
    clock = TestClock()
    with app_client(database_url, clock) as c:
        game = new_correspondence(c, "wait", seats=[{"kind": "human", "name": "Ann"},
                                                    {"kind": "human", "name": "Ben"}])
        gid = game["game_id"]
        first = turn(c, gid)
        assert first is not None
        late = first.seat
        other = game["seats"][1 - late]
        too_soon = c.post(f"/api/games/{gid}/give-to-bot",
                          json={"token": token_of(other["link"]), "seat": late})
        assert too_soon.status_code == 409
        clock.advance(HOUR + 1)
        run_timers(c)
        assert moves(c, gid) == []  # nothing played: the game waits
        assert turn(c, gid).fired
        own = c.post(f"/api/games/{gid}/give-to-bot",
                     json={"token": token_of(game["seats"][late]["link"]), "seat": late})
        assert own.status_code == 400  # not one's own seat
        stranger = c.post(f"/api/games/{gid}/give-to-bot",
                          json={"token": "x" * 43, "seat": late})
        assert stranger.status_code == 404
        r = c.post(f"/api/games/{gid}/give-to-bot",
                   json={"token": token_of(other["link"]), "seat": late})
        assert r.status_code == 200 and r.json()["given_to_bot"] == [late]
        run_timers(c)
        wait_for(lambda: any(m.seat == late for m in moves(c, gid)))
        assert all(m.by == "stand-in" for m in moves(c, gid) if m.seat == late)
        human_turn(c, gid, 1 - late)


def test_a_live_game_has_no_timer_and_bad_times_are_refused(tmp_path: Path) -> None:
    clock = TestClock()
    with app_client(tmp_path / "g.db", clock) as c:
        r = c.post("/api/games", json={"profile": "biegames", "layout": "2x1"})
        assert r.status_code == 200
        assert turn(c, r.json()["game_id"]) is None
        for bad in ({"per_move": 60}, {"per_move": 4 * 86400}, {"per_move": "1h"},
                    {"per_move": HOUR, "on_timeout": "skip"}, "daily"):
            r = c.post("/api/games", json={"profile": "biegames", "layout": "2x1",
                                           "correspondence": bad})
            assert r.status_code == 400, bad
            assert "correspondence" in r.json()["error"]


def test_a_move_in_time_passes_the_turn_and_no_stand_in_plays(tmp_path: Path) -> None:
    from web_client import Person

    clock = TestClock()
    with app_client(tmp_path / "g.db", clock) as c:
        game = new_correspondence(c)
        gid = game["game_id"]
        first = human_turn(c, gid)
        person = Person(c, gid, token_of(game["seats"][0]["link"]), seat=0)
        person.connect()
        person.until("state")
        while person.seq < first.seq:
            person.receive()
        clock.advance(HOUR - 60)
        assert person.my_turn()
        while person.my_turn():  # the whole turn, in time
            person.play(person.choose())
        person.close()
        clock.advance(120)  # past the first turn's hour
        run_timers(c)
        assert not any(m.by == "timeout" for m in moves(c, gid))
        nxt = human_turn(c, gid)
        assert nxt.seq > first.seq and nxt.started >= first.started + timedelta(seconds=3540)


def test_one_process_claims_each_timer(database_url: str) -> None:
    """Eight processes' timers look at the same due turns at once: each turn is claimed by
    exactly one; a claim lapses after its lease and can then be taken again."""
    import asyncio

    from handfoot.web.store import Store
    from handfoot.web.turns import TIMER_LEASE, TurnRow, claim_turns, settle_turn, write_turn

    async def main() -> None:
        stores = [Store(database_url) for _ in range(8)]
        await stores[0].start()
        try:
            at = datetime(2026, 12, 6, 12, 0)
            async with stores[0].engine.begin() as conn:  # the turns' games need rows
                from sqlalchemy import insert

                from handfoot.web.store import games as games_table
                for i in range(5):
                    await conn.execute(insert(games_table).values(
                        id=f"g{i}", profile="biegames", overrides={}, layout="2x1",
                        settings={}, seed="1", spectator_hash="x", status="playing",
                        created=at, updated=at))
            for i in range(5):
                await write_turn(stores[0], TurnRow(f"g{i}", 3, 0, at, at, True, False))
            won = await asyncio.gather(*(claim_turns(s, f"w{n}", at + timedelta(seconds=1))
                                         for n, s in enumerate(stores)))
            claimed = sorted(t.game for got in won for t in got)
            assert claimed == [f"g{i}" for i in range(5)]  # each once, by one process
            later = at + timedelta(seconds=TIMER_LEASE + 2)
            again = await asyncio.gather(*(claim_turns(s, f"v{n}", later)
                                           for n, s in enumerate(stores)))
            assert sorted(t.game for got in again for t in got) == claimed  # lapsed: again
            owner = next(n for n, got in enumerate(again) if got)
            await settle_turn(stores[0], again[owner][0], f"v{owner}", fired=True)
            done = again[owner][0].game  # settled (claim given up), fired: nothing to do
            much_later = later + timedelta(seconds=TIMER_LEASE + 2)  # every other lapsed
            left = await claim_turns(stores[1], "x", much_later)
            assert sorted(t.game for t in left) == [g for g in claimed if g != done]
        finally:
            for s in stores:
                await s.close()

    asyncio.run(main())


def test_two_processes_on_postgresql_play_a_time_out_once(postgres_url: str) -> None:
    """Two server processes (two apps on one PostgreSQL database) look at the timers at the
    same instant, again and again: the stand-in plays the timed-out turn once."""
    import threading

    clock = TestClock()
    with app_client(postgres_url, clock) as a, app_client(postgres_url, clock) as b:
        game = new_correspondence(a)
        gid = game["game_id"]
        first = human_turn(a, gid)
        b.get(f"/api/games/{gid}/record")  # b holds the table too
        assert b.post("/api/my-games", json={"seats": [{
            "game_id": gid, "token": token_of(game["seats"][0]["link"])}]}).status_code == 200
        before = len(moves(a, gid))
        clock.advance(HOUR + 1)
        for _ in range(3):
            threads = [threading.Thread(target=run_timers, args=(c,)) for c in (a, b)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        rows = moves(a, gid)
        runs = timeout_turns(rows)
        assert len(runs) == 1 and {r.seat for r in runs[0]} == {0}
        assert runs[0][0].seq == before + 1 and first.seat == 0
        assert [r.seq for r in rows] == list(range(1, len(rows) + 1))


def test_a_turn_lost_in_a_crash_is_mended_at_the_next_start(tmp_path: Path) -> None:
    """A process that died between storing the move that passed the turn and storing the
    next turn left the old turn's row: the next start loads the game and stores its turn."""
    from handfoot.web.turns import TurnRow, write_turn

    clock = TestClock()
    with app_client(tmp_path / "g.db", clock) as c:
        game = new_correspondence(c)
        gid = game["game_id"]
        first = human_turn(c, gid)
        clock.advance(HOUR + 1)
        run_timers(c)  # the stand-in's turn, then the bot's: moves after the first turn
        now = wait_for(lambda: (t := turn(c, gid)) is not None and t.seq > first.seq
                       and t.seat == 0 and t)
        store = c.app.state.store  # type: ignore[attr-defined]
        stale = TurnRow(gid, first.seq, 1, clock.now(), clock.now() + timedelta(days=3),
                        True, False)  # as if the turn never passed: a bot's, far ahead
        c.portal.call(write_turn, store, stale)  # type: ignore[union-attr]
    clock.advance(60)
    with app_client(tmp_path / "g.db", clock) as c:
        mended = wait_for(lambda: (t := turn(c, gid)) is not None and t.seq == now.seq and t)
        assert mended.seat == 0 and mended.due == clock.now() + timedelta(hours=1)


def test_a_club_game_may_be_a_correspondence_game(tmp_path: Path) -> None:
    """A member deals a correspondence game in the club (from the club's page or the lobby
    with the club chosen): its time per move holds, its timers run, the member who takes
    the free seat later plays it by the day too; a bad time is refused as in the lobby."""
    from test_web_clubs import Who, make_club

    clock = TestClock()
    with app_client(tmp_path / "c.db", clock) as c:
        ann, bob = Who(c, "Ann"), Who(c, "Bob")
        club = make_club(c, ann, bob)
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        slow = {"per_move": HOUR, "on_timeout": "bot"}
        made = [ann.post(f"/api/clubs/{club}/games", {
            "profile": "biegames", "layout": "2x1", "seats": seats,
            "correspondence": slow}).json()]
        made.append(ann.post("/api/games", {"club": club, "profile": "biegames",
                                            "layout": "2x1", "seats": seats,
                                            "correspondence": slow}).json())
        for game in made:
            gid = game["game_id"]
            assert game["club"] == club
            first = turn(c, gid)
            assert first is not None and first.due - first.started == timedelta(hours=1)
            joined = bob.post(f"/api/clubs/{club}/games/{gid}/join").json()
            notices = c.post(f"/api/games/{gid}/notices",  # for correspondence games only
                             json={"token": token_of(joined["link"]), "muted": False})
            assert notices.status_code == 200, notices.text
            clock.advance(HOUR + 1)  # nobody plays: the stand-in plays the turn
            run_timers(c)
            wait_for(lambda: (t := turn(c, gid)) is not None and t.seq > first.seq)  # noqa: B023
        bad = ann.post(f"/api/clubs/{club}/games", {
            "profile": "biegames", "layout": "2x1", "seats": seats,
            "correspondence": {"per_move": 5, "on_timeout": "bot"}})
        assert bad.status_code == 400
