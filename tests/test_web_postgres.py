"""The store on SQLite and on a real PostgreSQL (started by the tests): migrations, adopting
a database made before them, the (game, seq) key that arbitrates between processes, NOTIFY,
presence, and whole games through the server on both."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, event, insert, inspect, text
from sqlalchemy.ext.asyncio import create_async_engine

from handfoot.web import migrations
from handfoot.web import store as st
from handfoot.web.store import GameRow, MoveConflict, MoveRow, SeatRow, Store
from web_client import Person, client, new_game, token_of

T = TypeVar("T")

HANDFOOT = [sys.executable, "-c", "import sys; from handfoot.cli import main; sys.exit(main())"]


def run(url: str, body: Callable[[Store], Awaitable[T]]) -> T:
    """``body(store)`` on a started store, closed afterwards."""
    async def main() -> T:
        store = Store(url)
        try:
            await store.start()
            return await body(store)
        finally:
            await store.close()
    return asyncio.run(main())


def game_row(game_id: str = "g1") -> GameRow:
    stamp = st.now()
    return GameRow(id=game_id, profile="biegames", overrides={}, layout="2x2",
                   settings={"absent": "wait"}, seed=12345678901234567890,
                   spectator_hash="s" * 64, status="playing", created=stamp, updated=stamp,
                   seats=tuple(SeatRow(i, "human", None, f"P{i}", f"{i}" * 64)
                               for i in range(4)))


def move(seq: int, notation: str = "draw") -> MoveRow:
    return MoveRow(seq, 1, (seq - 1) % 4, notation, "human", f"r{seq}")


def shipped() -> list[str]:
    """The revisions the package ships, oldest first."""
    return sorted(str(s.revision) for s in migrations.scripts().walk_revisions())


def schema_differences(conn: Connection) -> list[Any]:
    return list(compare_metadata(MigrationContext.configure(conn), st.metadata))


# -- migrations -------------------------------------------------------------------------


def test_a_new_database_is_migrated_to_the_schema_of_the_code(database_url: str) -> None:
    async def body(store: Store) -> tuple[str | None, list[Any], list[str]]:
        async with store.engine.connect() as conn:
            revision = await conn.run_sync(migrations.current)
            differences = await conn.run_sync(schema_differences)
        return revision, differences, await store.start()
    revision, differences, again = run(database_url, body)
    assert revision == migrations.head() == shipped()[-1]  # the newest revision
    assert differences == []  # the migrations make exactly the tables of store.metadata
    assert again == []  # a second start applies nothing


def test_a_database_made_before_migrations_is_adopted_without_loss(database_url: str) -> None:
    """The tables ``create_all`` made (no ``alembic_version``), with a game in them: the
    start stamps revision 0001, applies the later ones and keeps every row."""
    old_tables = [t for t in st.metadata.sorted_tables  # the tables of revision 0001
                  if t.name in ("games", "seats", "moves", "continues", "daily_results",
                                "server_secrets")]
    row = game_row()

    async def make_old() -> None:
        engine = create_async_engine(st.async_database_url(database_url))
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: st.metadata.create_all(c, tables=old_tables))
            await conn.execute(insert(st.games).values(
                id=row.id, profile=row.profile, overrides={}, layout=row.layout,
                settings=dict(row.settings), seed=str(row.seed),
                spectator_hash=row.spectator_hash, status=row.status, created=row.created,
                updated=row.updated))
            await conn.execute(insert(st.moves).values(
                game=row.id, seq=1, round=1, seat=0, notation="draw", by="human",
                request_id="a", created=row.created))
        await engine.dispose()
    asyncio.run(make_old())

    async def body(store: Store) -> tuple[str | None, list[Any], Any, Any]:
        async with store.engine.connect() as conn:
            revision = await conn.run_sync(migrations.current)
            differences = await conn.run_sync(schema_differences)
        return revision, differences, await store.game(row.id), await store.moves(row.id)
    revision, differences, game, rows = run(database_url, body)
    assert revision == migrations.head()
    assert differences == []
    assert game is not None and game.seed == row.seed
    assert rows == [MoveRow(1, 1, 0, "draw", "human", "a")]



def test_a_database_at_a_revision_the_code_does_not_have_is_refused_untouched(
        database_url: str) -> None:
    """A newer handfoot's revision: :class:`migrations.UnknownRevision` names it, and the
    database keeps its revision and its rows (the server says so instead of migrating)."""
    async def newer(store: Store) -> None:
        await store.create_game(game_row())
        async with store.engine.begin() as conn:
            await conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    run(database_url, newer)
    with pytest.raises(migrations.UnknownRevision) as refused:
        run(database_url, lambda store: asyncio.sleep(0))
    assert refused.value.revision == "9999"
    assert f"newest revision {migrations.head()}" in str(refused.value)

    async def look() -> tuple[str | None, int]:
        engine = create_async_engine(st.async_database_url(database_url))
        try:
            async with engine.connect() as conn:
                revision = await conn.run_sync(migrations.current)
                games = (await conn.execute(text("SELECT count(*) FROM games"))).scalar_one()
            return revision, games
        finally:
            await engine.dispose()
    assert asyncio.run(look()) == ("9999", 1)


def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    """Four stores start at once on a new PostgreSQL database (as ``--workers 4`` or four
    servers would): the advisory lock lets one migrate; the others find nothing to do."""
    async def main() -> list[list[str]]:
        stores = [Store(postgres_url) for _ in range(4)]
        try:
            return list(await asyncio.wait_for(
                asyncio.gather(*(s.start() for s in stores)), 60))
        finally:
            for s in stores:
                await s.close()
    applied = sorted(asyncio.run(main()))
    assert applied == [[], [], [], shipped()]


def test_db_upgrade_command_migrates_and_says_so(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    first = subprocess.run([*HANDFOOT, "db", "upgrade",
                            "--database-url", url], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert ", ".join(shipped()) in first.stdout
    again = subprocess.run([*HANDFOOT, "db", "upgrade",
                            "--database-url", url], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert f"already at revision {migrations.head()}" in again.stdout


# -- the store ---------------------------------------------------------------------------


def test_moves_waiting_together_are_committed_together_and_a_conflict_is_its_own(
        database_url: str) -> None:
    """Moves of several games sent at once go into one commit (SQLite, and PostgreSQL's
    grouped ``executemany``); a move whose seq is stored already fails alone, as
    :class:`MoveConflict`, and the others of its group are stored (issue 34)."""
    async def body(store: Store) -> None:
        commits: list[float] = []
        store.on_commit = commits.append
        for g in range(6):
            await store.create_game(game_row(f"g{g}"))
        await store.add_move("g0", move(1))
        commits.clear()
        results = await asyncio.gather(
            store.add_move("g0", move(1, "pickup")),  # seq 1 of g0 is stored already
            *(store.add_move(f"g{g}", move(1)) for g in range(1, 6)),
            return_exceptions=True)
        assert isinstance(results[0], MoveConflict), results
        assert not [r for r in results[1:] if isinstance(r, BaseException)], results
        for g in range(1, 6):
            assert [r.notation for r in await store.moves(f"g{g}")] == ["draw"]
        assert [r.notation for r in await store.moves("g0")] == ["draw"]
        # each commit that stored moves is timed (the failed group is not): at most one a
        # move, as when the group failed and its moves went one by one
        assert 1 <= len(commits) <= 5, commits
    run(database_url, body)


def test_a_seq_is_committed_once_and_a_conflict_changes_nothing(database_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_game(game_row())
        await store.add_move("g1", move(1))
        await store.add_move("g1", move(2, "pickup"))
        with pytest.raises(MoveConflict):
            await store.add_move("g1", move(2, "draw"), status="over")
        rows = await store.moves("g1")
        assert [r.notation for r in rows] == ["draw", "pickup"]
        assert (await store.game("g1")).status == "playing"  # type: ignore[union-attr]
        assert [r.seq for r in await store.moves("g1", after=1)] == [2]
        assert await store.last_seqs(["g1", "nope"]) == {"g1": 2}
        assert await store.last_seqs([]) == {}
    run(database_url, body)


def test_continues_secrets_and_settings(database_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_game(game_row())
        await store.add_continue("g1", 1, 2)
        await store.add_continue("g1", 1, 2)  # again: no error, no second row
        assert await store.continues("g1") == {(1, 2)}
        first = await store.secret("x")
        assert len(first) == 32 and await store.secret("x") == first
        await store.set_setting("g1", "rematch", "g2")
        assert (await store.settings("g1") or {})["rematch"] == "g2"
        assert await store.settings("nope") is None
    run(database_url, body)


def test_presence_of_other_processes_counts_until_it_goes_stale(database_url: str) -> None:
    async def body(store: Store) -> None:
        await store.set_presence("A", "g1", [0, 2])
        await store.set_presence("B", "g1", [1])
        assert await store.presence("g1", besides="B") == {0, 2}
        assert await store.presence("g1", besides="A") == {1}
        await store.set_presence("A", "g1", [2])
        assert await store.presence("g1", besides="B") == {2}
        async with store.engine.begin() as conn:  # A stops refreshing: it died
            await conn.execute(st.presence.update().where(st.presence.c.worker == "A")
                               .values(seen=st.now() - timedelta(
                                   seconds=st.PRESENCE_STALE + 5)))
        assert await store.presence("g1", besides="B") == set()
        await store.refresh_presence("A")
        assert await store.presence("g1", besides="B") == {2}
        await store.clear_presence("A")
        assert await store.presence("g1", besides="B") == set()
    run(database_url, body)


def test_what_was_stored_since_is_read_on_one_connection(database_url: str) -> None:
    """A table's catch-up after its load (Store.stored_since): the moves after the given
    seq, the Continue presses, the game with its settings and names, and the seats other
    live processes hold, as the separate reads give them, on one pooled connection."""
    async def body(store: Store) -> None:
        await store.create_game(game_row())
        for seq in (1, 2, 3):
            await store.add_move("g1", move(seq))
        await store.add_continue("g1", 1, 2)
        await store.set_setting("g1", "rematch", "g2")
        await store.set_presence("A", "g1", [0, 2])
        await store.set_presence("B", "g1", [1])
        checkouts: list[int] = []

        def checkout(*_: Any) -> None:
            checkouts.append(1)

        pool = store.engine.sync_engine.pool
        event.listen(pool, "checkout", checkout)
        stored = await store.stored_since("g1", after=1, besides="B")
        event.remove(pool, "checkout", checkout)
        assert len(checkouts) == 1
        assert stored.moves == await store.moves("g1", after=1) and \
            [m.seq for m in stored.moves] == [2, 3]
        assert stored.continued == await store.continues("g1") == {(1, 2)}
        assert stored.game == await store.game("g1")
        assert stored.game is not None and stored.game.settings["rematch"] == "g2"
        assert stored.presence == await store.presence("g1", besides="B") == {0, 2}
        nothing = await store.stored_since("nope", after=0, besides="B")
        assert nothing == ([], set(), None, set())
    run(database_url, body)


def test_postgres_announces_each_change_when_it_commits(postgres_url: str) -> None:
    import asyncpg

    async def body(store: Store) -> list[str]:
        heard: list[str] = []
        listener = await asyncpg.connect(store.listen_dsn())
        await listener.add_listener(st.CHANNEL, lambda *args: heard.append(args[-1]))
        try:
            await store.create_game(game_row())
            await store.add_move("g1", move(1))
            with pytest.raises(MoveConflict):
                await store.add_move("g1", move(1))  # rolled back: announces nothing
            await store.add_continue("g1", 1, 0)
            await store.set_setting("g1", "rematch", "g2")
            await store.set_presence("A", "g1", [0])
            for _ in range(100):
                if len(heard) >= 4:
                    break
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.1)
        finally:
            await listener.close()
        return heard
    heard = run(postgres_url, body)
    assert heard == [st.move_payload("g1", move(1)), "c g1", "s g1", "p g1"]
    assert heard[0].startswith("m g1 1 ")  # a move's notification carries the move
    assert st.read_move_payload(1, heard[0].split(" ", 3)[3]) == move(1)
    assert Store(postgres_url).shared and not Store("sqlite:///x.db").shared


def test_a_move_notification_carries_the_move_unless_too_long() -> None:
    row = st.MoveRow(7, 2, 3, "meld 5 5 5", "stand-in", 'id "with" spaces')
    payload = st.move_payload("g9", row)
    kind, game, seq, data = payload.split(" ", 3)
    assert (kind, game, seq) == ("m", "g9", "7")
    assert st.read_move_payload(7, data) == row
    long = st.MoveRow(8, 2, 3, "meld " + "5 " * 4000, "human", None)
    assert st.move_payload("g9", long) == "m g9 8"  # read from the table instead
    for bad in ("", "[1,2]", '[1,0,"human",null,5]', "{", '["1",0,"human",null,"draw"]'):
        assert st.read_move_payload(1, bad) is None


def test_urls_name_the_async_drivers() -> None:
    assert st.async_database_url("postgresql://u:p@h:5/d") == "postgresql+asyncpg://u:p@h:5/d"
    assert st.async_database_url("postgres://h/d") == "postgresql+asyncpg://h/d"
    assert st.async_database_url("sqlite:////tmp/a.db") == "sqlite+aiosqlite:////tmp/a.db"
    assert st.async_database_url("postgresql+psycopg://h/d") == "postgresql+psycopg://h/d"
    assert Store("postgresql://u:secret@h:5/d").listen_dsn() == "postgresql://u:secret@h:5/d"


# -- whole games through the server ------------------------------------------------------


@pytest.mark.parametrize("profile", ["biegames", "hand-knee-foot"])
def test_a_whole_game_over_the_websocket(database_url: str, profile: str) -> None:
    """A one-round game (a person played by a hard bot, bots elsewhere) to its end; every
    frame is the seat's view; the stored moves are the game's."""
    with client(database_url) as c:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "hard"},
                 {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "hard"}]
        layout = "2x2" if profile == "biegames" else "2x3"
        if layout == "2x3":
            seats += [{"kind": "bot", "level": "hard"}] * 2
        game = new_game(c, profile=profile, layout=layout, rounds=1, seats=seats)
        person = Person(c, game["game_id"], token_of(game["seats"][0]["link"]), seat=0,
                        check_frames=True)
        person.connect()
        person.until("state")
        final = person.play_to_end()
        assert final["view"]["phase"] == "game_over"
        rows = c.portal.call(c.app.state.store.moves, game["game_id"])  # type: ignore
        assert [r.seq for r in rows] == list(range(1, person.seq + 1))
        person.close()


def test_a_game_resumes_after_a_restart_on_postgres(postgres_url: str) -> None:
    with client(postgres_url) as c:
        game = new_game(c, profile="biegames", rounds=1,
                        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "hard"}] * 3)
        token = token_of(game["seats"][0]["link"])
        p = Person(c, game["game_id"], token, seat=0)
        p.connect()
        p.until("state")
        for _ in range(3):
            while not p.my_turn():
                p.receive()
            p.play(p.choose())
        p.close()
    with client(postgres_url) as c:
        q = Person(c, game["game_id"], token, seat=0)
        q.bot, q.shadow, q.seq, q.snapshots = p.bot, p.shadow, p.seq, p.snapshots
        q.connect(p.seq)
        assert q.until("state")["seq"] >= p.seq
        assert q.play_to_end()["view"]["phase"] == "game_over"
        q.close()


def test_inspect_sees_every_table(database_url: str) -> None:
    async def body(store: Store) -> set[str]:
        async with store.engine.connect() as conn:
            return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
    names = run(database_url, body)
    assert {t.name for t in st.metadata.sorted_tables} | {"alembic_version"} == names


def test_server_md_lists_every_migration() -> None:
    """docs/server.md's table of revisions names each revision the package ships."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "server.md").read_text()
    listed = re.findall(r"^\| `(\d{4})` \|", text, re.M)
    shipped = sorted(s.revision for s in migrations.scripts().walk_revisions())
    assert listed == shipped


def test_store_doctests() -> None:
    import doctest

    result = doctest.testmod(st)
    assert result.attempted > 0 and result.failed == 0


def test_a_heard_move_is_played_without_reading_the_database(database_url: str) -> None:
    """Another process's move, as its notification carries it: the next seq is played at
    once; on a gap the moves are read from the table; while the table is busy the move
    waits, then is played without a read."""
    from handfoot.bots.registry import make_bot
    from handfoot.game.moves import format_move
    from handfoot.runs.sim import bot_turn
    from handfoot.web.connection import Connection as TableConnection
    from handfoot.web.settings import Settings
    from handfoot.web.tables import Tables

    async def body(store: Store) -> None:
        await store.create_game(game_row())
        tables = Tables(store, Settings(database_url=database_url))
        table = await tables.get("g1")
        assert table is not None
        watcher = TableConnection(ws=None, seat=None)  # type: ignore[arg-type]
        table.connections.append(watcher)  # watched here: not let go on a move elsewhere
        reads: list[int] = []
        read = store.moves

        async def counted(game_id: str, after: int = 0) -> list[MoveRow]:
            reads.append(after)
            return await read(game_id, after)
        store.moves = counted  # type: ignore[method-assign]
        shadow = table.state.copy()
        bot = make_bot("random", 5)

        async def elsewhere() -> MoveRow:  # another process stores the next move
            seat, number = shadow.to_act, shadow.round_number
            move = bot_turn(bot, shadow, seat)
            shadow.apply(move)
            row = MoveRow(shadow.moves_played, number, seat, format_move(move), "human",
                          None)
            await store.add_move("g1", row)
            return row

        async def settle() -> None:
            while tables._following:
                await asyncio.gather(*tables._following)

        try:
            first = await elsewhere()
            tables._heard(st.move_payload("g1", first))
            assert (table.seq, reads) == (1, [])  # played at once, nothing read
            assert watcher.queue.qsize() == 1  # and shown to the connection here
            await elsewhere()
            third = await elsewhere()
            tables._heard(st.move_payload("g1", third))  # move 2 was not heard: a gap
            await settle()
            assert (table.seq, reads) == (3, [1])
            fourth = await elsewhere()
            async with table.lock:  # busy: the move waits
                tables._heard(st.move_payload("g1", fourth))
                assert table.seq == 3
            await settle()
            assert (table.seq, reads) == (4, [1])
            assert table.state.position() == shadow.position()
        finally:
            await tables.close()
    run(database_url, body)


def test_a_move_stored_here_is_not_heard_back_while_its_commit_returns(
        database_url: str) -> None:
    """The notification of a move this process is storing can come back before its
    commit returns (a group's moves are let go a few at a time): it is not kept as heard
    nor followed by a catch-up (a task and the table's lock a move, for nothing); the move
    is played once, when its commit returns."""
    from handfoot.bots.registry import make_bot
    from handfoot.runs.sim import bot_turn
    from handfoot.web.connection import Connection as TableConnection
    from handfoot.web.settings import Settings
    from handfoot.web.tables import Tables

    async def body(store: Store) -> None:
        await store.create_game(game_row())
        tables = Tables(store, Settings(database_url=database_url))
        table = await tables.get("g1")
        assert table is not None
        table.connections.append(TableConnection(ws=None, seat=None))  # type: ignore[arg-type]
        add = store.add_move
        heard_while_storing: list[int] = []

        async def add_and_hear(game_id: str, row: MoveRow, *, status: str | None = None,
                               ) -> Any:
            stamp = await add(game_id, row, status=status)
            tables._heard(st.move_payload(game_id, row))  # back before the commit returns
            heard_while_storing.append(len(tables._following) + len(table.sharing.heard))
            return stamp
        store.add_move = add_and_hear  # type: ignore[method-assign]
        try:
            move = bot_turn(make_bot("random", 5), table.state.copy(), table.state.to_act)
            async with table.lock:
                await table.commit(table.state.verify(move), "human", None)
            assert heard_while_storing == [0]  # nothing kept, nothing followed
            assert (table.seq, table.sharing.storing) == (1, None)
            tables._heard(st.move_payload("g1", MoveRow(1, 1, 0, "draw", "human", None)))
            assert not tables._following and table.seq == 1  # played: ignored as before
        finally:
            await tables.close()
    run(database_url, body)


def test_a_games_bots_are_leased_to_one_process_at_a_time(database_url: str) -> None:
    """A takes the lease; B is refused while A renews it; A lets it lapse (it died) and B
    takes it over; A's renewal then fails; a release frees it at once."""
    async def lapse(store: Store, worker: str) -> None:
        async with store.engine.begin() as conn:
            await conn.execute(st.bot_leases.update().where(st.bot_leases.c.worker == worker)
                               .values(expires=st.now() - timedelta(seconds=1)))

    async def body(store: Store) -> None:
        assert await store.claim_bots("A", ["g1", "g2"]) == {"g1", "g2"}
        assert await store.claim_bots("B", ["g1", "g3"]) == {"g3"}
        assert await store.claim_bots("A", ["g1"]) == {"g1"}  # renewed
        assert await store.bot_lease("g1") == "A"
        await lapse(store, "A")
        assert await store.bot_lease("g1") is None
        assert await store.claim_bots("B", ["g1"]) == {"g1"}
        assert await store.claim_bots("A", ["g1", "g2"]) == {"g2"}  # g1 is B's now
        await store.release_bots("B", ["g1"])
        assert await store.claim_bots("A", ["g1"]) == {"g1"}
        await store.clear_presence("A")  # a process that stops gives up all it holds
        assert await store.bot_lease("g1") is None and await store.bot_lease("g2") is None
        assert await store.bot_lease("g3") == "B"
    run(database_url, body)


def test_two_rematches_pressed_at_once_on_two_processes_make_one_game(
        database_url: str) -> None:
    """Two stores (two processes; on SQLite, which takes one process, presses within
    one) make a rematch of one game at the same moment: one game is made, and every press
    is told its id."""
    shared = not database_url.startswith("sqlite")

    async def body(store: Store) -> None:
        other = Store(database_url) if shared else store
        if shared:
            await other.start()
        try:
            await store.create_game(game_row("old"))
            made = await asyncio.gather(*(
                s.create_rematch("old", game_row(f"new{i}"))
                for _ in range(4) for i, s in enumerate((store, other))))
            assert len(set(made)) == 1
            assert (await store.settings("old") or {})["rematch"] == made[0]
            async with store.engine.connect() as conn:
                ids = (await conn.execute(st.games.select().with_only_columns(
                    st.games.c.id))).scalars().all()
            assert sorted(ids) == sorted(["old", made[0]])
        finally:
            if shared:
                await other.close()
    run(database_url, body)


def test_sqlite_commits_a_group_of_moves_in_one_call(tmp_path: Path) -> None:
    """On a SQLite file the moves waiting together go into one transaction run in one call
    on the driver's thread; what it wrote reads back as SQLAlchemy writes it (times
    included), the game's status is set by the move that ends it, and a seq stored twice
    is a :class:`MoveConflict` that changes nothing."""
    url = f"sqlite:///{tmp_path / 'group.db'}"

    async def body(store: Store) -> None:
        assert store._group is not None
        await store.create_game(game_row())
        stamps = await asyncio.gather(*(store.add_move("g1", move(i)) for i in (1, 2, 3)),
                                      store.add_move("g1", move(4, "pickup"), status="over"))
        assert store._group._stamp is not None  # the one-call path was taken
        with pytest.raises(MoveConflict):
            await store.add_move("g1", move(4, "draw"))
        rows = await store.moves("g1")
        assert [r.notation for r in rows] == ["draw", "draw", "draw", "pickup"]
        game = await store.game("g1")
        assert game is not None and game.status == "over" and game.updated == max(stamps)
        async with store.engine.connect() as conn:
            created = (await conn.execute(st.moves.select().with_only_columns(
                st.moves.c.created).order_by(st.moves.c.seq))).scalars().all()
        assert list(created) == stamps
    run(url, body)
