"""Idle games leave memory and come back by replay (issue 12, item 7).

A game nobody is connected to or has asked for in ``Settings.idle_timeout`` seconds is
dropped from memory (:meth:`Tables.drop_idle`, run by a sweeper); the next request rebuilds
it from the database exactly as it was: the same views, events, moves, statistics and
version (seq), with bots that remember what they saw and play on as they would have.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from handfoot.web.table import Table
from web_client import Person, client, new_game, token_of

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from server_load import restore_times  # noqa: E402

SEATS = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "level": "hard"}] * 3


def _snapshot(table: Table) -> dict[str, Any]:
    """Everything a client or an API request can get from a table."""
    return {
        "seq": table.seq,
        "states": [_state(table, seat) for seat in (*range(len(table.seats)), None)],
        "rounds": table.record_data()["rounds"],
        "stats": table.stats.json(),
        "acks": dict(table.acks),
        "waiting": table.waiting(),
    }


class _Sink:
    """A connection that keeps what it is sent, as parsed JSON."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.last_event = 0
        self.sent: list[Any] = []

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))


def _state(table: Table, seat: int | None) -> Any:
    """The ``state`` a new connection of ``seat`` that has seen nothing is sent: its view
    and every event."""
    sink = _Sink(seat)
    table.send_state(sink)  # type: ignore[arg-type]
    return sink.sent[-1]


def _drop(c: Any, game_id: str) -> Table:
    """Drop the game from memory (the clock moved far on); the table that was held."""
    tables = c.app.state.tables
    table = c.portal.call(tables.get, game_id)
    deadline = time.monotonic() + 10
    while True:  # the server lets the last connection go in its own time
        dropped = c.portal.call(tables.drop_idle, time.monotonic() + 1e6)
        if game_id in dropped:
            break
        assert time.monotonic() < deadline, "the table was never idle"
        time.sleep(0.02)
    assert game_id not in tables.held()
    return table  # type: ignore[no-any-return]


def _play_turns(p: Person, turns: int) -> None:
    for _ in range(turns):
        while not p.my_turn():
            p.receive()
        p.play(p.choose())


def _game_with_a_drop(db: Path, drop: bool) -> tuple[list[Any], dict[str, Any] | None]:
    """A two-round game of a person (a hard bot through its view) and three hard bots,
    left after six of the person's turns and (if ``drop``) dropped from memory, then played
    on to the end; its moves, and the table before and after the drop."""
    with client(db, idle_timeout=3600.0) as c:
        game = new_game(c, profile="biegames", layout="2x2", rounds=2, seats=SEATS)
        gid = game["game_id"]
        token = token_of(game["seats"][0]["link"])
        p = Person(c, gid, token, seat=0)
        p.connect()
        p.until("state")
        _play_turns(p, 6)
        p.close()
        compared = None
        if drop:
            before = _drop(c, gid)
            snapshot = _snapshot(before)
            after = c.portal.call(c.app.state.tables.get, gid)
            assert after is not before
            compared = {"before": snapshot, "after": _snapshot(after)}
        q = Person(c, gid, token, seat=0)
        q.bot, q.shadow, q.seq, q.snapshots = p.bot, p.shadow, p.seq, p.snapshots
        q.connect(p.seq)
        first = q.until("state")
        assert first["seq"] == p.seq
        final = q.play_to_end()
        assert final["view"]["phase"] == "game_over"
        q.close()
        rounds = c.get(f"/api/games/{gid}/record").json()["rounds"]
        return rounds, compared


def test_a_dropped_game_comes_back_identical_and_its_bots_play_on(tmp_path: Path) -> None:
    rounds, compared = _game_with_a_drop(tmp_path / "dropped.db", drop=True)
    assert compared is not None
    assert compared["after"] == compared["before"]
    assert compared["before"]["seq"] > 6
    # the same game never dropped (the same seed: each app counts its games from zero)
    # is played move for move the same: the bots came back remembering what they saw
    kept, _ = _game_with_a_drop(tmp_path / "kept.db", drop=False)
    assert rounds == kept
    assert sum(len(r["moves"]) for r in rounds) > compared["before"]["seq"]


def test_the_sweeper_drops_idle_games_but_not_watched_ones(tmp_path: Path) -> None:
    with client(tmp_path / "s.db", idle_timeout=0.3) as c:
        tables = c.app.state.tables
        left = new_game(c, rounds=1, seats=SEATS)
        watched = new_game(c, rounds=1, seats=SEATS)
        p = Person(c, left["game_id"], token_of(left["seats"][0]["link"]), seat=0)
        p.connect()
        p.until("state")
        w = Person(c, watched["game_id"], token_of(watched["spectator_link"]), seat=None)
        w.connect()
        w.until("state")
        assert {left["game_id"], watched["game_id"]} <= set(tables.held())
        p.close()
        deadline = time.monotonic() + 10
        while left["game_id"] in tables.held():
            assert time.monotonic() < deadline, "the idle game stayed in memory"
            time.sleep(0.05)
        time.sleep(1.0)  # three idle times more: the watched game stays
        assert watched["game_id"] in tables.held()
        w.close()
        # a request brings the dropped game back
        status = c.post(f"/api/games/{left['game_id']}/status",
                        json={"token": token_of(left["spectator_link"])})
        assert status.status_code == 200
        assert left["game_id"] in tables.held()


def test_a_finished_game_comes_back_with_the_same_record_and_replay(tmp_path: Path) -> None:
    with client(tmp_path / "f.db", idle_timeout=3600.0) as c:
        game = new_game(c, rounds=1, seats=SEATS)
        gid = game["game_id"]
        p = Person(c, gid, token_of(game["seats"][0]["link"]), seat=0)
        p.connect()
        p.until("state")
        p.play_to_end()
        p.close()
        record = c.get(f"/api/games/{gid}/record").json()
        replay = c.get(f"/api/games/{gid}/replay").json()
        spectator = {"token": token_of(game["spectator_link"])}
        status = c.post(f"/api/games/{gid}/status", json=spectator).json()
        before = _snapshot(_drop(c, gid))
        assert c.get(f"/api/games/{gid}/record").json() == record
        assert c.get(f"/api/games/{gid}/replay").json() == replay
        assert c.post(f"/api/games/{gid}/status", json=spectator).json() == status
        assert _snapshot(c.portal.call(c.app.state.tables.get, gid)) == before


def test_restoring_a_game_is_measured(tmp_path: Path) -> None:
    """The figures docs/server.md gives (``benchmarks/server_load.py --restore``), on
    one-round games here; a generous bound, as the machine may be busy."""
    times = asyncio.run(restore_times(tmp_path, games=2, rounds=1, repeat=2))
    for kind, values in times.items():
        assert len(values) == 4, kind
        print(f"restore {kind}: min {min(values) * 1000:.1f} ms, median "
              f"{statistics.median(values) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms")
        assert statistics.median(values) < 1.0, (kind, values)
