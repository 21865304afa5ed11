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
``[started, generation, seconds]``. A thread samples the main thread's stack while the
loop is late by more than :data:`STALL_AFTER` (the lag task not woken), every
:data:`SAMPLE_EVERY`: ``[stalled, seconds late, main thread's CPU, stack]`` (a long turn's
callback named, its innermost Python frames). They are written to ``PREFIX.<pid>`` as JSON
when the tables close (``benchmarks/pg_load.py --trace`` reads them). Counters, not guesses:
where a move's commit queues behind other statements, ``waited`` says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

__all__ = ["LAG_EVERY", "SAMPLE_EVERY", "STALL_AFTER", "TRACE_ENV", "PoolTrace", "TracedPool",
           "kind_of", "stack_of"]

TRACE_ENV: Final = "HANDFOOT_PG_TRACE"
"""Set to a path prefix, each server process writes its trace to ``<prefix>.<pid>``."""

LAG_EVERY: Final = 0.02
"""Seconds the lag task sleeps between two notes of the loop's lateness."""

STALL_AFTER: Final = 0.06
"""Seconds the lag task may be late before the loop's turn counts as stalled and sampled."""

SAMPLE_EVERY: Final = 0.005
"""Seconds between two samples of the main thread's stack (and two looks at the loop)."""

STACK_DEPTH: Final = 24
"""Frames kept of a sampled stack, innermost last."""

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
        self.stalls: list[list[Any]] = []
        self._lag: asyncio.Task[None] | None = None
        self._woken = time.monotonic()
        self._sampling = threading.Event()
        self._sampler: threading.Thread | None = None

    @classmethod
    def from_environment(cls) -> PoolTrace | None:
        prefix = os.environ.get(TRACE_ENV)
        return cls(f"{prefix}.{os.getpid()}") if prefix else None

    def wrap(self, make_pool: Callable[[], Awaitable[Any]],
             ) -> Callable[[], Awaitable[Any]]:
        """``make_pool`` (a store's way to its pool) giving the pool wrapped in a
        :class:`TracedPool`; the lag task started."""
        self.start()
        traced: dict[int, TracedPool] = {}

        async def pool() -> Any:
            made = await make_pool()
            if id(made) not in traced:
                traced.clear()
                traced[id(made)] = TracedPool(made, self)
            return traced[id(made)]
        return pool

    def start(self) -> None:
        """The lag task and the sampler thread started (once), with no pool: what a process
        that uses none notes (the load benchmark's clients, ``server_load.py``)."""
        if self._lag is None:
            self._lag = asyncio.create_task(self._note_lag())
            self._sampler = threading.Thread(target=self._sample, args=(
                threading.get_ident(),), name="pg-trace-sampler", daemon=True)
            self._sampler.start()

    async def _note_lag(self) -> None:
        gc.callbacks.append(self._note_collection)
        try:
            while True:
                asked, cpu = time.monotonic(), time.thread_time()
                self._woken = asked
                await asyncio.sleep(LAG_EVERY)
                self._woken = time.monotonic()
                self.lags.append([asked, time.monotonic() - asked - LAG_EVERY,
                                  time.thread_time() - cpu])
        finally:
            gc.callbacks.remove(self._note_collection)

    def _sample(self, main: int) -> None:
        """The sampler thread: the main thread's stack every :data:`SAMPLE_EVERY` while the
        lag task is late by more than :data:`STALL_AFTER`."""
        clock = time.pthread_getcpuclockid(main)
        while not self._sampling.wait(SAMPLE_EVERY):
            late = time.monotonic() - self._woken - LAG_EVERY
            if late > STALL_AFTER:
                frame = sys._current_frames().get(main)
                if frame is not None:
                    self.stalls.append([self._woken, late, time.clock_gettime(clock),
                                        stack_of(frame)])

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
        if self._sampler is not None:
            self._sampling.set()
            self._sampler.join()
            self._sampler = None
        with open(self.path, "w") as out:
            json.dump({"pid": os.getpid(), "statements": self.statements,
                       "lags": self.lags, "collections": self.collections,
                       "stalls": self.stalls}, out)


def stack_of(frame: Any) -> str:
    """A frame's stack as ``file:function:line`` from the outermost of the innermost
    :data:`STACK_DEPTH` frames, ``;``-separated.

    >>> stack_of(sys._getframe()).split(";")[-1].split(":")[1]  # the innermost: here
    '<module>'
    """
    frames: list[str] = []
    while frame is not None and len(frames) < STACK_DEPTH:
        code = frame.f_code
        frames.append(f"{os.path.basename(code.co_filename)}:{code.co_name}:{frame.f_lineno}")
        frame = frame.f_back
    return ";".join(reversed(frames))


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
