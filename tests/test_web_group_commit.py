"""The moves' grouped commits on SQLite (web/store.py, ``_GroupCommit``): once a group has
gone through the pool, the next ones go straight onto the pool's connection on its thread
(issue 34). An acknowledgement never precedes its commit (another connection to the file
already reads the move when its ``ack`` is queued), a commit that fails stores none of its
group and acknowledges none of it (the moves are tried again, and acknowledged once
stored), and a commit never lands inside another user's open transaction on the
connection."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import format_move, parse_move
from handfoot.runs.sim import bot_turn
from handfoot.web import store as st
from handfoot.web.messages import encode
from handfoot.web.protocol import read_message
from handfoot.web.settings import Settings
from handfoot.web.store import GameRow, MoveRow, SeatRow, Store
from handfoot.web.table import Table


def _row(game_id: str) -> GameRow:
    stamp = st.now()
    return GameRow(id=game_id, profile="biegames", overrides={"rounds": 1}, layout="2x2",
                   settings={"absent": "wait"}, seed=77, spectator_hash="s" * 64,
                   status="playing", created=stamp, updated=stamp,
                   seats=tuple(SeatRow(i, "human", None, f"P{i}", f"{i}" * 64)
                               for i in range(4)))


def _stored(path: Path, game_id: str) -> list[int]:
    """The seqs of a game's moves as another connection to the file reads them now."""
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT seq FROM moves WHERE game = ? ORDER BY seq",
                                         (game_id,))]


class _Socket:
    """A connection of a seat that checks, as each ``ack`` is queued, that its move is
    already committed (read from the file by a connection of its own)."""

    def __init__(self, seat: int, path: Path, game_id: str, log: list[str]) -> None:
        self.seat = seat
        self.last_event = 0
        self.acks_in_state = False
        self.closed = False
        self.path = path
        self.game_id = game_id
        self.log = log
        self.acked: list[int] = []

    def send(self, message: Mapping[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, frame: str) -> None:
        message = json.loads(frame)
        if message["type"] == "ack":
            seq = int(message["seq"])
            assert seq in _stored(self.path, self.game_id), f"move {seq} acked before stored"
            self.acked.append(seq)
            self.log.append(f"ack {seq}")
        elif message["type"] == "error":
            self.log.append(f"error {message['code']}")


def _tables(path: Path, store: Store, count: int) -> list[Table]:
    profile = load_profile("biegames", overrides={"rounds": 1})
    settings = Settings(database_url=f"sqlite+aiosqlite:///{path}")
    return [Table(_row(f"g{i}"), profile, store, settings, lambda: None)  # type: ignore[arg-type,return-value]
            for i in range(count)]


async def _play(tables: list[Table], path: Path, moves: int, log: list[str],
                ) -> list[list[_Socket]]:
    """Four seats at each table send their moves; the tables move at the same time, so
    their moves wait at the commit together."""
    sockets = [[_Socket(s, path, t.id, log) for s in range(4)] for t in tables]
    for table, seats in zip(tables, sockets, strict=True):
        table.connections = list(seats)  # type: ignore[arg-type]

    async def one(table: Table, seats: list[_Socket]) -> None:
        shadow = GameState.new(table.profile, layout=table.layout, seed=table.row.seed)
        bots = [make_bot("hard", s) for s in range(4)]
        for n in range(moves):
            seat = shadow.to_act
            notation = format_move(bot_turn(bots[seat], shadow, seat))
            message = read_message({"type": "move", "id": f"m{n}", "seq": table.seq,
                                    "move": notation})
            before = table.seq
            await table.handle(seats[seat], message)  # type: ignore[arg-type]
            if table.seq > before:
                shadow.apply(parse_move(notation))

    await asyncio.gather(*(one(t, s) for t, s in zip(tables, sockets, strict=True)))
    return sockets


async def _started(path: Path, games: int) -> Store:
    store = Store(f"sqlite:///{path}")
    await store.start()
    for g in range(games):
        await store.create_game(_row(f"g{g}"))
    return store


def test_no_move_is_acknowledged_before_another_connection_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "acks.db"
    log: list[str] = []

    async def body() -> None:
        store = await _started(path, 12)  # (groups of up to 12: let go over two turns)
        try:
            tables = _tables(path, store, 12)
            sockets = await _play(tables, path, 12, log)
            assert store._group is not None and store._group._direct is not None
            for table, seats in zip(tables, sockets, strict=True):
                acked = sorted(seq for s in seats for seq in s.acked)
                assert acked == list(range(1, table.seq + 1)) == _stored(path, table.id)
                assert table.seq == 12
        finally:
            await store.close()
    asyncio.run(body())
    assert not [e for e in log if e.startswith("error")], log


def test_a_committed_group_is_let_go_a_few_moves_a_turn_of_the_event_loop() -> None:
    """A group's moves go on :data:`~handfoot.web.store.SETTLE_AT_ONCE` a turn (each
    plays and sends its states in that turn), so a big group does not hold every other
    connection for the whole of it; a group cancelled meanwhile lets all go at once."""
    async def body(cancel_after: int | None) -> list[int]:
        loop = asyncio.get_running_loop()
        group: list[tuple[dict[str, Any], str | None, asyncio.Future[None]]] = [
            ({}, None, loop.create_future()) for _ in range(2 * st.SETTLE_AT_ONCE + 3)]
        settling = asyncio.create_task(st._settle_by_turns(group))
        done: list[int] = []
        for _ in range(5):
            await asyncio.sleep(0)
            done.append(sum(f.done() for _, _, f in group))
            if cancel_after is not None and len(done) == cancel_after:
                settling.cancel()
        await asyncio.gather(settling, return_exceptions=True)
        assert all(f.done() and f.result() is None for _, _, f in group)
        return done

    n = st.SETTLE_AT_ONCE
    assert asyncio.run(body(None)) == [n, 2 * n, 2 * n + 3, 2 * n + 3, 2 * n + 3]
    assert asyncio.run(body(1))[:2] == [n, 2 * n + 3]


def test_a_failed_commit_stores_and_acknowledges_none_of_its_group(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit fails after its inserts ran (twice): none of the group's moves is
    stored or acknowledged then; the moves are tried again and each is acknowledged once
    stored; every acknowledged move is in the file."""
    path = tmp_path / "failing.db"
    log: list[str] = []
    real = st._commit_moves
    failures: list[int] = []

    def failing(db: sqlite3.Connection, rows: list[tuple[Any, ...]], *rest: Any) -> bool:
        if len(failures) >= 2 or len(rows) < 2:
            return real(db, rows, *rest)
        failures.append(len(rows))
        before = {row[0]: _stored(path, row[0]) for row in rows}
        with pytest.raises(sqlite3.OperationalError):
            real(_FailingCommit(db), rows, *rest)  # type: ignore[arg-type]
        assert not db.in_transaction
        assert {game: _stored(path, game) for game in before} == before  # none stored
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(st, "_commit_moves", failing)
    monkeypatch.setattr("handfoot.web.table.STORE_RETRIES", (0.01, 0.01, 0.01))

    async def body() -> None:
        store = await _started(path, 6)
        try:
            tables = _tables(path, store, 6)
            sockets = await _play(tables, path, 8, log)
            for table, seats in zip(tables, sockets, strict=True):
                acked = sorted(seq for s in seats for seq in s.acked)
                assert acked == list(range(1, 9)) == _stored(path, table.id)
        finally:
            await store.close()
    asyncio.run(body())
    assert len(failures) == 2, failures
    assert not [e for e in log if e.startswith("error")], log


class _FailingCommit:
    """A SQLite connection whose commit fails (after the group's statements ran)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    @property
    def in_transaction(self) -> bool:
        return self._db.in_transaction

    def execute(self, *args: Any) -> Any:
        return self._db.execute(*args)

    def executemany(self, *args: Any) -> Any:
        return self._db.executemany(*args)

    def commit(self) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    def rollback(self) -> None:
        self._db.rollback()


def test_a_commit_waits_for_another_users_open_transaction(tmp_path: Path) -> None:
    """While another user of the pool's connection has a transaction open (its statements
    run, not committed), a group is not committed inside it: it waits for the connection,
    and the other user's rollback takes none of the moves with it."""
    path = tmp_path / "busy.db"

    async def body() -> None:
        store = await _started(path, 2)
        try:
            await store.add_move("g0", MoveRow(1, 1, 0, "draw", "human", "a"))
            assert store._group is not None and store._group._direct is not None
            inside, release = asyncio.Event(), asyncio.Event()

            async def other_user() -> None:
                async with store.engine.connect() as conn:
                    await conn.execute(text("UPDATE games SET status = 'broken' "
                                            "WHERE id = 'g1'"))
                    inside.set()
                    await release.wait()
                    await conn.rollback()

            holder = asyncio.create_task(other_user())
            await inside.wait()
            adding = asyncio.create_task(
                store.add_move("g1", MoveRow(1, 1, 0, "draw", "human", "b")))
            await asyncio.sleep(0.2)
            assert not adding.done()  # waiting for the connection, not inside the other's
            assert _stored(path, "g1") == []
            release.set()
            await holder
            await adding
            assert _stored(path, "g1") == [1]
            game = await store.game("g1")
            assert game is not None and game.status == "playing"
        finally:
            await store.close()
    asyncio.run(body())


def test_groups_are_committed_on_the_event_loops_thread_and_checkpointed_off_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the first group (through the pool, on aiosqlite's thread), every group is
    committed by the event loop's own connection in the loop's thread
    (web/sqlite_writer.py), each ack still after its commit (the sockets check the file);
    the WAL's checkpoints run on another thread, so the file keeps the moves once the WAL is
    gone, and the WAL stays small."""
    import threading

    from handfoot.web import sqlite_writer

    path = tmp_path / "loop.db"
    log: list[str] = []
    threads: list[int] = []
    checkpointed: list[int] = []
    real_commit, real_checkpoint = st._commit_moves, sqlite_writer._checkpoint

    def commit(db: sqlite3.Connection, *rest: Any) -> bool:
        threads.append(threading.get_ident())
        return real_commit(db, *rest)

    def checkpoint(file: str) -> None:
        checkpointed.append(threading.get_ident())
        real_checkpoint(file)

    monkeypatch.setattr(st, "_commit_moves", commit)
    monkeypatch.setattr(sqlite_writer, "_checkpoint", checkpoint)
    monkeypatch.setattr(sqlite_writer, "CHECKPOINT_EVERY", 0.0)
    loop_thread = threading.get_ident()  # asyncio.run's loop runs on this thread

    async def body() -> None:
        store = await _started(path, 6)
        try:
            tables = _tables(path, store, 6)
            sockets = await _play(tables, path, 40, log)
            group = store._group
            assert group is not None and group._loop is not None
            for table, seats in zip(tables, sockets, strict=True):
                acked = sorted(seq for s in seats for seq in s.acked)
                assert acked == list(range(1, table.seq + 1)) == _stored(path, table.id)
        finally:
            await store.close()

    asyncio.run(body())
    assert not [e for e in log if e.startswith("error")], log
    assert threads[0] != loop_thread  # the first group: the pool's connection
    assert len(threads) > 10 and all(t == loop_thread for t in threads[1:])
    assert checkpointed and loop_thread not in checkpointed
    wal = Path(f"{path}-wal")
    assert not wal.exists() or wal.stat().st_size < 1_000_000
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:  # every move is stored
        assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == 240


def test_the_loop_writer_is_not_used_where_it_cannot_be(tmp_path: Path) -> None:
    """No loop connection for a database in memory, a file that is not there, or a file
    not in WAL mode (its commits would flush the file on the event loop)."""
    from handfoot.web.sqlite_writer import LoopWriter

    assert LoopWriter.open(None) is None
    assert LoopWriter.open(":memory:") is None
    assert LoopWriter.open(str(tmp_path / "missing.db")) is None
    plain = tmp_path / "plain.db"
    with sqlite3.connect(plain) as db:
        db.execute("CREATE TABLE t (x)")
    assert LoopWriter.open(str(plain)) is None
    with sqlite3.connect(plain) as db:
        db.execute("PRAGMA journal_mode=WAL")
    writer = LoopWriter.open(str(plain))
    assert writer is not None
    assert writer.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    asyncio.run(writer.close())


def test_a_games_talk_read_on_sqlite_is_what_sqlalchemy_reads(tmp_path: Path) -> None:
    """Store.talk reads SQLite in one call on aiosqlite's thread (every table's load reads
    its talk): the same rows, dates included, as SQLAlchemy's query; the last few too."""
    from sqlalchemy import select

    async def body() -> None:
        store = await _started(tmp_path / "talk.db", 2)
        try:
            for n in range(6):
                await store.add_talk("g0", st.TalkRow(
                    0, n, None if n == 3 else n % 4, f"P{n}", None if n % 2 else "wave",
                    f"hello {n} ✓" if n % 2 else None, st.now()))
            await store.add_talk("g1", st.TalkRow(0, 0, 0, "P0", "wave", None, st.now()))
            async with store.engine.connect() as conn:
                expected = [st.TalkRow._make(r) for r in (await conn.execute(
                    select(st.talk.c.id, st.talk.c.seq, st.talk.c.seat, st.talk.c.name,
                           st.talk.c.preset, st.talk.c.text, st.talk.c.created)
                    .where(st.talk.c.game == "g0").order_by(st.talk.c.id))).all()]
            assert len(expected) == 6 and isinstance(expected[0].created, st.datetime)
            assert await store.talk("g0") == expected
            assert await store.talk("g0", last=2) == expected[-2:]
            assert await store.talk("g9") == []
        finally:
            await store.close()
    asyncio.run(body())


def test_a_groups_times_are_written_as_sqlalchemy_writes_them() -> None:
    """The grouped commits write a move's times past SQLAlchemy (web/sqlite_writer.py,
    ``datetime_writer``: ``isoformat`` where that gives SQLite's text): the same text as
    SQLAlchemy's own, for every time, a time with a zone included (its own way)."""
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import DateTime
    from sqlalchemy.dialects import postgresql, sqlite

    from handfoot.web.sqlite_writer import datetime_writer

    for dialect in (sqlite.dialect(), postgresql.dialect()):
        ours = datetime_writer(dialect)
        theirs = DateTime().dialect_impl(dialect).bind_processor(dialect) or (lambda v: v)
        start = datetime(2026, 12, 7, 23, 59, 59, 999_999)
        for value in (start, start.replace(microsecond=0), datetime(5, 1, 1),
                      start.replace(tzinfo=UTC), *(start + timedelta(microseconds=k * 7_919)
                                                   for k in range(200))):
            assert ours(value) == theirs(value)
