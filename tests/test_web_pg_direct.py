"""Joining on PostgreSQL (handfoot.web.pg_direct): a table's load in one statement reads
what the separate reads give; presence written and read for many tables at once; a table
loaded on a shared database catches up only when something was heard of it while it
loaded."""

from __future__ import annotations

import asyncio
import collections
import time
from typing import Any

import pytest

from handfoot.web import pg_direct
from handfoot.web import sharing as sharing_module
from handfoot.web import store as st
from handfoot.web.settings import Settings
from handfoot.web.sharing import Presences
from handfoot.web.store import GameRow, MoveRow, SeatRow, Store, TalkRow
from handfoot.web.tables import Tables


def game_row(game_id: str) -> GameRow:
    stamp = st.now()
    return GameRow(id=game_id, profile="biegames", overrides={"rounds": 1}, layout="2x2",
                   settings={"absent": "wait", "talk": {"chat": True}},
                   seed=12345678901234567890, spectator_hash="s" * 64, status="playing",
                   created=stamp, updated=stamp,
                   seats=(SeatRow(0, "human", None, "Ann", "0" * 64),
                          SeatRow(1, "bot", "hard", "Bot", None),
                          SeatRow(2, "human", None, "Cy", "2" * 64),
                          SeatRow(3, "human", None, "Di", "3" * 64)))


async def two_games(store: Store) -> None:
    """g1 with three moves (one without a request id), a Continue press and five messages;
    g2 with nothing."""
    await store.create_game(game_row("g1"))
    await store.create_game(game_row("g2"))
    for seq in (1, 2, 3):
        await store.add_move("g1", MoveRow(seq, 1, seq - 1, "draw", "human",
                                           None if seq == 2 else f"r{seq}"))
    await store.add_continue("g1", 1, 2)
    for i in range(5):
        await store.add_talk("g1", TalkRow(0, i, i % 2 or None, f"N{i}", None,
                                           f"hello {i}", st.now()))


async def _started(url: str) -> Store:
    store = Store(url)
    await store.start()
    return store


def test_a_load_in_one_statement_reads_what_the_separate_reads_give(
        postgres_url: str) -> None:
    async def main() -> None:
        store = await _started(postgres_url)
        try:
            await two_games(store)
            await store.set_presence("A", "g1", [0, 2])
            await store.set_presence("B", "g1", [3])
            pool = await store.direct()
            loaded = await pg_direct.load_game(pool, "g1", talk=3, besides="B")
            assert loaded is not None
            assert loaded.game == await store.game("g1")
            assert loaded.moves == await store.moves("g1")
            assert loaded.continued == await store.continues("g1") == {(1, 2)}
            assert loaded.talk == await store.talk("g1", last=3)
            assert [t.text for t in loaded.talk] == ["hello 2", "hello 3", "hello 4"]
            assert loaded.presence == await store.presence("g1", besides="B") == {0, 2}
            empty = await pg_direct.load_game(pool, "g2", talk=3, besides="B")
            assert empty is not None and empty.game == await store.game("g2")
            assert (empty.moves, empty.continued, empty.talk, empty.presence) == \
                ([], set(), [], set())
            assert await pg_direct.load_game(pool, "nope", talk=3, besides="B") is None
            many = await pg_direct.load_games(pool, ["g2", "nope", "g1"], talk=3,
                                              besides="B")
            assert many == {"g1": loaded, "g2": empty}
        finally:
            await store.close()
    asyncio.run(main())


def test_presence_of_many_tables_is_written_and_announced_in_one_statement(
        postgres_url: str) -> None:
    import asyncpg

    async def main() -> None:
        store = await _started(postgres_url)
        heard: list[str] = []
        listener = await asyncpg.connect(store.listen_dsn())
        await listener.add_listener(st.CHANNEL, lambda *args: heard.append(args[-1]))
        try:
            await store.set_presence("A", "g1", [0, 1])
            await store.set_presence("A", "g3", [2])  # not written again: kept
            await store.set_presence("B", "g1", [1])  # another process's: kept
            pool = await store.direct()
            await pg_direct.write_presences(pool, "A", {"g1": [1, 3], "g2": [0], "g4": []})
            assert await store.presence("g1", besides="B") == {1, 3}
            assert await store.presence("g2", besides="B") == {0}
            assert await store.presence("g3", besides="B") == {2}
            assert await store.presence("g4", besides="B") == set()
            assert await store.presence("g1", besides="A") == {1}
            read = await pg_direct.read_presences(pool, ["g1", "g2", "g3", "g5"],
                                                  besides="B")
            assert read == await store.presences(["g1", "g2", "g3", "g5"], besides="B")
            assert read == {"g1": {1, 3}, "g2": {0}, "g3": {2}, "g5": set()}
            for _ in range(100):
                if len(heard) >= 6:
                    break
                await asyncio.sleep(0.02)
        finally:
            await listener.close()
            await store.close()
        assert heard[3:] == ["P A g1 g2 g4"]  # one notice of the writer's, for all three
    asyncio.run(main())


@pytest.mark.parametrize("heard", [None, "c", "m", "p"])
def test_a_table_loaded_on_a_shared_database_catches_up_only_if_it_heard_of_a_change(
        postgres_url: str, heard: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its load read the presence elsewhere with the rest: with nothing heard of the game
    while it loaded, no catch-up follows; a notification heard meanwhile (a Continue
    press, a move stored elsewhere) makes it catch up with everything once loaded, and a
    change of presence alone makes it read the presence again."""
    followed: list[str] = []
    read: list[str] = []

    async def main() -> None:
        store = await _started(postgres_url)
        tables = Tables(store, Settings())
        try:
            await store.create_game(game_row("g1"))
            await tables.start()
            await store.set_presence("elsewhere", "g1", [2])
            await asyncio.sleep(0.3)  # its notice heard before the load (nothing held)
            load = pg_direct.load_games

            async def loading(*args: Any, **kwargs: Any) -> Any:
                loaded = await load(*args, **kwargs)
                if heard is not None:  # as the listener would, while the table loads
                    tables._heard(f"{heard} g1 1" if heard == "m" else f"{heard} g1")
                return loaded

            monkeypatch.setattr(pg_direct, "load_games", loading)
            real_follow = tables._follow

            def follow(table: Any, what: str) -> None:
                followed.append(what)
                real_follow(table, what)

            monkeypatch.setattr(tables, "_follow", follow)
            assert tables._presences is not None
            real_read = tables._presences.read

            def reading(sharing: Any) -> None:
                read.append(sharing.table.id)
                real_read(sharing)

            monkeypatch.setattr(tables._presences, "read", reading)
            table = await tables.get("g1")
            assert table is not None
            assert table.sharing.remote_known or heard not in (None, "p")
            await asyncio.sleep(0.2)
            assert table.sharing.remote == {2} and table.sharing.remote_known
            assert tables._missed == {}
        finally:
            await tables.close()
            await store.close()
    asyncio.run(main())
    assert followed == ([] if heard in (None, "p") else ["mcsp"])
    assert read == (["g1"] if heard == "p" else [])


def test_presence_changes_in_one_turn_make_one_write_and_the_latest_is_written_last(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables whose connections change in one event-loop turn are written by one
    statement; a change while it is on its way goes into the next write."""
    writes: list[dict[str, set[int]]] = []
    seats = {"g1": {0}, "g2": {1, 2}, "g3": set()}

    class FakeSharing:
        def __init__(self, game_id: str) -> None:
            self.table = type("T", (), {"id": game_id, "has_bots": False})()

        def seats_here(self) -> set[int]:
            return set(seats[self.table.id])

    class FakeStore:
        async def direct(self) -> None:
            return None

    async def write(_pool: Any, worker: str, given: dict[str, set[int]]) -> None:
        assert worker == "w"
        writes.append(given)
        await asyncio.sleep(0.05)

    monkeypatch.setattr(sharing_module, "write_presences", write)

    async def main() -> None:
        presences = Presences(FakeStore(), "w")  # type: ignore[arg-type]
        one, two, three = (FakeSharing(g) for g in ("g1", "g2", "g3"))
        for sharing in (one, two, three, one):
            presences.write(sharing)  # type: ignore[arg-type]
        await asyncio.sleep(0.01)  # the first write is on its way
        seats["g1"] = {0, 3}
        presences.write(one)  # type: ignore[arg-type]
        presences.write(two)  # type: ignore[arg-type]
        await asyncio.sleep(0.2)
        await presences.close()
    asyncio.run(main())
    assert writes == [{"g1": {0}, "g2": {1, 2}, "g3": set()}, {"g1": {0, 3}, "g2": {1, 2}}]


def test_a_new_games_load_replays_no_moves_in_a_thread(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table with no moves stored is loaded without a thread (a burst of new games'
    joins paid a hop to a thread and back each for nothing); one with moves replays them
    in a thread, as before."""
    threaded: list[str] = []
    real = asyncio.to_thread

    async def to_thread(work: Any, *args: Any, **kwargs: Any) -> Any:
        threaded.append(getattr(work, "__name__", ""))
        return await real(work, *args, **kwargs)

    async def main() -> None:
        store = await _started(f"sqlite+aiosqlite:///{tmp_path / 't.db'}")
        tables = Tables(store, Settings())
        try:
            await store.create_game(game_row("g1"))
            await store.create_game(game_row("g2"))
            await store.add_move("g2", MoveRow(1, 1, 0, "draw", "human", None))
            monkeypatch.setattr(asyncio, "to_thread", to_thread)
            new = await tables.get("g1")
            assert new is not None and new.seq == 0
            assert "replay" not in threaded
            moved = await tables.get("g2")
            assert moved is not None and moved.seq == 1
            assert "replay" in threaded
        finally:
            await tables.close()
            await store.close()
    asyncio.run(main())


def test_a_presence_notice_is_read_for_the_tables_held_and_a_process_skips_its_own(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``P <worker> <game>...``: another process's notice makes this one read the presence
    elsewhere at the tables of it that it holds (a table loading notes it, to read once
    loaded); its own notice reads nothing (nothing changed elsewhere)."""
    read: list[str] = []

    async def main() -> None:
        store = await _started(postgres_url)
        tables = Tables(store, Settings())
        try:
            await store.create_game(game_row("g1"))
            await store.create_game(game_row("g2"))
            await tables.start()
            assert tables._presences is not None and tables.worker is not None
            monkeypatch.setattr(tables._presences, "read",
                                lambda sharing: read.append(sharing.table.id))
            assert await tables.get("g1") is not None
            tables._missed["g3"] = set()  # as while g3 loads
            tables._heard(f"P {tables.worker} g1 g3")
            assert read == [] and tables._missed["g3"] == set()
            tables._heard("P elsewhere g1 g2 g3")
            assert read == ["g1"] and tables._missed["g3"] == {"p"}
            tables._missed.pop("g3")
        finally:
            await tables.close()
            await store.close()
    asyncio.run(main())


def test_loads_asked_for_together_or_meanwhile_are_one_statement_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A burst's loads (handfoot.web.pg_direct.GameLoads): those asked for in one turn are
    read by one statement, those asked for while it is on its way by the next (one at a
    time, at most LOAD_AT_ONCE games each); each load gets its own game (None: not found),
    and a failed statement fails the loads it carried, not the next ones."""
    statements: list[list[str]] = []
    fail = {"bad"}

    async def load_games(_pool: Any, ids: list[str], *, talk: int, besides: str) -> Any:
        assert (talk, besides) == (7, "w")
        statements.append(list(ids))
        await asyncio.sleep(0.02)
        if fail & set(ids):
            raise ConnectionError("the database went away")
        return {i: f"loaded {i}" for i in ids if not i.startswith("no")}

    monkeypatch.setattr(pg_direct, "load_games", load_games)
    monkeypatch.setattr(pg_direct, "LOAD_AT_ONCE", 5)

    async def pool() -> None:
        return None

    async def main() -> None:
        loads = pg_direct.GameLoads(pool, talk=7, besides="w")
        first = [asyncio.create_task(loads.load(f"g{i}")) for i in range(3)]
        assert await loads.load("alone") == "loaded alone"
        assert [await t for t in first] == ["loaded g0", "loaded g1", "loaded g2"]
        assert [sorted(one) for one in statements] == [["alone", "g0", "g1", "g2"]]
        statements.clear()
        burst = [asyncio.create_task(loads.load(f"b{i}")) for i in range(2)]
        await asyncio.sleep(0.005)  # on its way: the next ones wait for it
        later = [asyncio.create_task(loads.load(g)) for g in
                 ("c0", "no1", "c2", "c3", "c4", "c5", "bad")]
        assert await asyncio.gather(*burst) == ["loaded b0", "loaded b1"]
        assert await asyncio.gather(*later[:5]) == \
            ["loaded c0", None, "loaded c2", "loaded c3", "loaded c4"]
        for task in later[5:]:  # (c5 went with bad)
            with pytest.raises(ConnectionError):
                await task
        assert statements == [["b0", "b1"], ["c0", "no1", "c2", "c3", "c4"], ["c5", "bad"]]
        assert loads.statements == 4
        assert await loads.load("g9") == "loaded g9"  # the next load is not failed
        await _closing_cancels(loads, "g10")
    asyncio.run(main())


class LoopTurns:
    """Counts the running event loop's turns (:attr:`turn`), from its making to
    :meth:`stop`: a task that yields once a turn."""

    def __init__(self) -> None:
        self.turn = 0
        self._task = asyncio.create_task(self._count())

    async def _count(self) -> None:
        while True:
            await asyncio.sleep(0)
            self.turn += 1

    def stop(self) -> None:
        self._task.cancel()


async def _closing_cancels(loads: Any, game_id: str) -> None:
    """A load asked for just before ``loads`` close is cancelled."""
    pending = asyncio.create_task(loads.load(game_id))
    await asyncio.sleep(0)
    await loads.close()
    with pytest.raises(asyncio.CancelledError):
        await pending


def test_a_traced_process_notes_each_statement_on_its_pool_with_its_wait(
        postgres_url: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With HANDFOOT_PG_TRACE set (a measuring aid: handfoot.web.pg_trace), a server
    process notes each statement on asyncpg's pool (a table's load, its presence written,
    a move's commit) with its kind, its wait for a connection and its size, and the loop's
    lateness, and writes them to PREFIX.<pid> when its tables close."""
    import json
    import os

    from handfoot.web import pg_trace

    monkeypatch.setenv(pg_trace.TRACE_ENV, str(tmp_path / "trace"))

    async def main() -> None:
        store = await _started(postgres_url)
        tables = Tables(store, Settings())
        try:
            await store.create_game(game_row("g1"))
            await tables.start()
            table = await tables.get("g1")
            assert table is not None
            table.sharing.presence_changed()
            await store.add_move("g1", MoveRow(1, 1, 0, "draw", "human", "r1"))
            await asyncio.sleep(0.1)
        finally:
            await tables.close()
            await store.close()
    asyncio.run(main())
    notes = json.loads((tmp_path / f"trace.{os.getpid()}").read_text())
    kinds = {kind: (size, waited) for kind, _, waited, _, size, _ in notes["statements"]}
    assert kinds["load"][0] == 1 and kinds["commit"][0] == 1
    assert kinds["presence write"][0] == 1
    assert all(waited >= 0 for _, waited in kinds.values())
    assert notes["lags"] and all(late > -0.005 and cpu >= 0 for _, late, cpu in notes["lags"])
    assert all(gen in (0, 1, 2) and took >= 0 for _, gen, took in notes["collections"])


def test_a_traced_process_samples_the_stack_of_a_long_turn(tmp_path: Any) -> None:
    """handfoot.web.pg_trace: while the event loop runs one long turn (the lag task not
    woken), a thread samples the main thread's stack, so the trace names the callback
    that held the loop, with how late the loop was; a loop that turns freely is not
    sampled."""
    import json

    from handfoot.web import pg_trace

    def a_long_turn() -> None:
        until = time.monotonic() + 0.3
        while time.monotonic() < until:
            pass

    async def pool() -> Any:
        return None

    async def main() -> None:
        trace = pg_trace.PoolTrace(str(tmp_path / "trace"))
        trace.wrap(pool)
        await asyncio.sleep(0.1)  # free turns: nothing sampled
        assert trace.stalls == []
        asyncio.get_running_loop().call_soon(a_long_turn)
        await asyncio.sleep(0.05)
        await trace.close()
    asyncio.run(main())
    stalls = json.loads((tmp_path / "trace").read_text())["stalls"]
    assert len(stalls) >= 5
    assert all("a_long_turn" in stack for _, _, _, stack in stalls)
    assert max(late for _, late, _, _ in stalls) >= 0.2
    assert stalls[-1][2] > stalls[0][2]  # the main thread's CPU went on: a busy turn


def test_a_traced_pool_counts_the_wait_for_a_connection() -> None:
    """handfoot.web.pg_trace.TracedPool: a statement's wait is the time its connection took
    to come (not the statement's own time), with what it carried."""
    from handfoot.web import pg_trace

    class Connection:
        async def executemany(self, query: str, args: list[Any]) -> None:
            await asyncio.sleep(0.01)

    class Acquired:
        async def __aenter__(self) -> Connection:
            await asyncio.sleep(0.05)  # every connection busy a while
            return Connection()

        async def __aexit__(self, *_: Any) -> None:
            return None

    class Pool:
        def acquire(self) -> Acquired:
            return Acquired()

        def get_size(self) -> int:
            return 8

        def get_idle_size(self) -> int:
            return 0

    trace = pg_trace.PoolTrace("unused")
    pool = pg_trace.TracedPool(Pool(), trace)
    asyncio.run(pool.executemany('INSERT INTO moves (game) VALUES ($1)', [("a",), ("b",)]))
    [(kind, _, waited, took, size, busy)] = trace.statements
    assert (kind, size, busy) == ("commit", 2, 8)
    assert 0.04 <= waited < 0.5 and 0.005 <= took < waited


def test_a_statements_loads_go_on_a_few_a_turn_while_the_next_is_on_its_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The games one statement read go on SETTLE_LOADS_AT_ONCE a turn of the event loop
    (each then builds its table and joins its connections in that turn), the next ones in
    the next turns, in the order asked; the next statement does not wait for them."""
    statements: list[list[str]] = []

    async def load_games(_pool: Any, ids: list[str], *, talk: int, besides: str) -> Any:
        statements.append(list(ids))
        await asyncio.sleep(0.01)
        return {i: f"loaded {i}" for i in ids}

    monkeypatch.setattr(pg_direct, "load_games", load_games)

    async def pool() -> None:
        return None

    async def main() -> None:
        turns = LoopTurns()
        loads = pg_direct.GameLoads(pool, talk=7, besides="w")
        went_on: list[tuple[str, int]] = []

        async def load(game_id: str) -> None:
            assert await loads.load(game_id) == f"loaded {game_id}"
            went_on.append((game_id, turns.turn))

        ids = [f"g{i:02d}" for i in range(20)]
        first = [asyncio.create_task(load(i)) for i in ids]
        await asyncio.sleep(0.012)  # the statement came back; its loads going on
        later = asyncio.create_task(load("h0"))
        await asyncio.gather(*first, later)
        turns.stop()
        assert [g for g, _ in went_on if g != "h0"] == ids
        per_turn = collections.Counter(at for _, at in went_on)
        assert max(per_turn.values()) <= pg_direct.SETTLE_LOADS_AT_ONCE
        assert len({at for g, at in went_on if g != "h0"}) >= 20 // pg_direct.SETTLE_LOADS_AT_ONCE
        assert statements == [ids, ["h0"]]
        await _closing_cancels(loads, "g99")
    asyncio.run(main())


def test_notifications_heard_together_are_handled_a_few_a_turn_in_order(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The notifications asyncpg hands over together (another process's commit of a group
    of moves) are handled HEARD_AT_ONCE a turn of the event loop, in the order heard, so
    that a hundred moves heard do not all play and broadcast in one turn; one that fails
    does not stop the others; closing drops those not yet handled."""
    from handfoot.web import tables as tables_module

    handled: list[tuple[str, int]] = []

    async def main() -> None:
        store = await _started(f"sqlite+aiosqlite:///{tmp_path / 't.db'}")
        tables = Tables(store, Settings())
        turns = LoopTurns()

        def heard(payload: str) -> None:
            if payload == "m bad":
                raise ValueError("unreadable")
            handled.append((payload, turns.turn))

        monkeypatch.setattr(tables, "_heard", heard)
        await asyncio.sleep(0)
        try:
            payloads = [f"m g{i}" for i in range(40)]
            payloads.insert(3, "m bad")
            for payload in payloads:  # as asyncpg calls the listener: in one turn
                tables._hear(payload)
            assert handled == []
            for _ in range(10):
                await asyncio.sleep(0)
            assert [p for p, _ in handled] == [p for p in payloads if p != "m bad"]
            per_turn = collections.Counter(at for _, at in handled)
            assert max(per_turn.values()) <= tables_module.HEARD_AT_ONCE
            assert len(per_turn) >= 3
            tables._hear("m late")
            await tables.close()
            await asyncio.sleep(0)
            assert handled[-1][0] == "m g39"
        finally:
            turns.stop()
            await tables.close()
            await store.close()
    asyncio.run(main())
