"""Tables' loads on SQLite (handfoot.web.sqlite_loads): a group's read in one call reads
what the separate reads give; the loads asked for in one turn are one read, of at most
``at_once`` games; a table served on SQLite is loaded so."""

from __future__ import annotations

import asyncio
from pathlib import Path

from handfoot.web.pg_direct import Loaded
from handfoot.web.settings import Settings
from handfoot.web.sqlite_loads import SQLITE_LOAD_AT_ONCE, SqliteLoads
from handfoot.web.store import MoveRow, Store
from handfoot.web.tables import Tables
from test_web_pg_direct import game_row, two_games


async def _store(path: Path) -> Store:
    store = Store(f"sqlite+aiosqlite:///{path}")
    await store.start()
    await two_games(store)
    await store.create_game(game_row("g3"))
    await store.add_move("g3", MoveRow(1, 1, 0, "draw", "human", "r1"))
    await store.add_continue("g3", 1, 2)
    return store


def test_a_group_read_in_one_call_reads_what_the_separate_reads_give(tmp_path: Path) -> None:
    async def main() -> None:
        store = await _store(tmp_path / "t.db")
        loads = SqliteLoads(store, talk=3)
        try:
            found = await loads.read(["g1", "missing", "g2"])
            assert set(found) == {"g1", "g2"}
            for game_id in ("g1", "g2"):
                separate = await store.load(game_id)
                assert separate is not None
                game, moves, continued = separate
                assert found[game_id] == Loaded(game, moves, continued,
                                                await store.talk(game_id, last=3), set())
            assert [t.text for t in found["g1"].talk] == ["hello 2", "hello 3", "hello 4"]
            assert found["g1"].game.created == (await store.load("g1"))[0].created  # type: ignore[index]
        finally:
            await loads.close()
            await store.close()

    asyncio.run(main())


def test_the_loads_asked_for_in_one_turn_are_one_read_and_tables_load_so(
        tmp_path: Path) -> None:
    async def main() -> None:
        store = await _store(tmp_path / "t.db")
        tables = Tables(store, Settings())
        await tables.start()
        try:
            loads = tables._loads
            assert isinstance(loads, SqliteLoads)
            one, two, none = await asyncio.gather(tables.get("g3"), tables.get("g2"),
                                                  tables.get("missing"))
            assert loads.statements == 1  # the three loads of one turn: one call
            assert one is not None and two is not None and none is None
            assert one.seq == 1 and one.continued == {(1, 2)} and two.seq == 0
            assert [s.name for s in one.seats] == ["Ann", "Bot", "Cy", "Di"]
            assert one.absent == "wait" and one.profile.rounds == 1
            assert await tables.get("g3") is one  # held: no read
            assert loads.statements == 1
            assert loads.at_once == SQLITE_LOAD_AT_ONCE
            loads.at_once = 1  # at most that many games a read
            tables._tables.clear()
            await asyncio.gather(tables.get("g3"), tables.get("g2"))
            assert loads.statements == 3
        finally:
            await tables.close()
            await store.close()

    asyncio.run(main())
