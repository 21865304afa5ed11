"""A measuring aid for PostgreSQL: every statement on asyncpg's pools noted, with how long
it waited for a connection, and the event loop's lateness.

With ``HANDFOOT_PG_TRACE=PREFIX`` in its environment, each server process
(:meth:`handfoot.web.tables.Tables.start`) wraps its :class:`~handfoot.web.store.Store`'s
pools so that each statement (a table's load, a write or read of presence, a group of moves'
commit) is noted as ``[kind, asked, waited, took, size, busy]``: its kind, when it asked for
a connection (``time.monotonic``, the same clock in every process), the seconds it waited
for one and then took, how many games or moves it carried and how many of the pool's
connections were in use when it asked; and a task sleeping :data:`LAG_EVERY` notes how late
it wakes and the main thread's CPU meanwhile, ``[asked, late, cpu]`` (a turn that ran long
used the CPU; a process the machine did not run did not), and each garbage collection
``[started, generation, seconds]``. They are written to ``PREFIX.<pid>`` as JSON when the tables
close (``benchmarks/pg_load.py --trace`` reads them). Counters, not guesses: where a move's
commit queues behind other statements, ``waited`` says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

__all__ = ["LAG_EVERY", "TRACE_ENV", "PoolTrace", "TracedPool", "kind_of"]

TRACE_ENV: Final = "HANDFOOT_PG_TRACE"
"""Set to a path prefix, each server process writes its trace to ``<prefix>.<pid>``."""

LAG_EVERY: Final = 0.02
"""Seconds the lag task sleeps between two notes of the loop's lateness."""

_KINDS: Final = (("INSERT INTO moves", "commit"), ("FROM games g", "load"),
                 ("INSERT INTO presence", "presence write"),
                 ("SELECT game, seat FROM presence", "presence read"))


def kind_of(query: str) -> str:
    """What a statement on the pools is, in a word or two.

    >>> kind_of("SELECT game, seat FROM presence WHERE game = ANY($1)")
    'presence read'
    >>> kind_of("SELECT 1")
    'other'
    """
    for words, kind in _KINDS:
        if words in query:
            return kind
    return "other"


class PoolTrace:
    """One process's notes (see the module's docstring)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.statements: list[list[Any]] = []
        self.lags: list[list[float]] = []
        self.collections: list[list[float]] = []
        self._collecting = 0.0
        self._lag: asyncio.Task[None] | None = None

    @classmethod
    def from_environment(cls) -> PoolTrace | None:
        prefix = os.environ.get(TRACE_ENV)
        return cls(f"{prefix}.{os.getpid()}") if prefix else None

    def wrap(self, make_pool: Callable[[], Awaitable[Any]],
             ) -> Callable[[], Awaitable[Any]]:
        """``make_pool`` (a store's way to its pool) giving the pool wrapped in a
        :class:`TracedPool`; the lag task started."""
        if self._lag is None:
            self._lag = asyncio.create_task(self._note_lag())
        traced: dict[int, TracedPool] = {}

        async def pool() -> Any:
            made = await make_pool()
            if id(made) not in traced:
                traced.clear()
                traced[id(made)] = TracedPool(made, self)
            return traced[id(made)]
        return pool

    async def _note_lag(self) -> None:
        gc.callbacks.append(self._note_collection)
        try:
            while True:
                asked, cpu = time.monotonic(), time.thread_time()
                await asyncio.sleep(LAG_EVERY)
                self.lags.append([asked, time.monotonic() - asked - LAG_EVERY,
                                  time.thread_time() - cpu])
        finally:
            gc.callbacks.remove(self._note_collection)

    def _note_collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._collecting = time.monotonic()
        else:
            self.collections.append([self._collecting, info["generation"],
                                     time.monotonic() - self._collecting])

    async def close(self) -> None:
        """Stop the lag task and write the notes."""
        if self._lag is not None:
            self._lag.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lag
            self._lag = None
        with open(self.path, "w") as out:
            json.dump({"pid": os.getpid(), "statements": self.statements,
                       "lags": self.lags, "collections": self.collections}, out)


class TracedPool:
    """asyncpg's pool with each ``execute``, ``executemany`` and ``fetch`` noted in a
    :class:`PoolTrace` (a connection acquired as the pool's own methods do); anything else
    is the pool's."""

    def __init__(self, pool: Any, trace: PoolTrace) -> None:
        self.pool = pool
        self.trace = trace

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pool, name)

    async def execute(self, query: str, *args: Any, **options: Any) -> Any:
        return await self._run("execute", query, args, options)

    async def executemany(self, query: str, args: Any, **options: Any) -> Any:
        return await self._run("executemany", query, (args,), options)

    async def fetch(self, query: str, *args: Any, **options: Any) -> Any:
        return await self._run("fetch", query, args, options)

    async def _run(self, method: str, query: str, args: tuple[Any, ...],
                   options: dict[str, Any]) -> Any:
        kind = kind_of(query)
        first: Any = args[0] if args else ()
        size = len(first) if method == "executemany" or kind in ("load", "presence read") \
            else len(args[1]) if kind == "presence write" else 1
        busy = self.pool.get_size() - self.pool.get_idle_size()
        asked = time.monotonic()
        async with self.pool.acquire() as conn:
            got = time.monotonic()
            try:
                return await getattr(conn, method)(query, *args, **options)
            finally:
                self.trace.statements.append([kind, asked, got - asked,
                                              time.monotonic() - got, size, busy])
