"""Game reviews on the web (docs/web.md, "Game review"): computed in the background, kept in
the database.

``POST /api/games/{id}/review`` with ``{"seat": N}`` starts a seat's review (if it is not
done or being computed anywhere); ``GET /api/games/{id}/review?seat=N`` tells how far it
is and gives the review once done. Both follow the replay's access rule (the game over; a
daily deal's day over): whoever may open the replay may open the review.

A review runs in a review process of its own (started at the first review a server process
is asked for): never on the event loop, nor in a thread of the server process, where it
would hold the GIL for the event loop's every turn (a request's answer took 70 ms instead of
2 while a review was computed in a thread). One is computed at a time, the others wait
their turn (at most :data:`MAX_WAITING`; beyond, a new one is refused for a while). Its
progress is kept in memory and, every few decisions and every :data:`HEARTBEAT` (waiting
ones too), in its database row, so a server process other than the one computing it
reports it too. A process that dies while computing leaves a row that is not updated: after
:data:`STALE` any process may start it again. On SQLite (one server process: nothing else can
be computing a review) a server that starts queues again at once every review a process that
died left running or waiting (:meth:`Reviews.resume`), rather than showing its last progress
until it is stale.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import select

from handfoot.game.record import GameRecord
from handfoot.runs.review_report import game_review
from handfoot.web.store import Store, now
from handfoot.web.store import reviews as review_rows

__all__ = ["BUDGET", "STALE", "Reviews"]

BUDGET = float(os.environ.get("HANDFOOT_REVIEW_BUDGET", "30"))
"""Seconds (of one core of a compiled build) a seat's review is planned for."""

HEARTBEAT = timedelta(seconds=30)
"""How often a review's row is touched while it waits or computes (a decision may take long,
and a review may wait behind others): a live review's row is never :data:`STALE`."""

STALE = timedelta(minutes=2)
"""A review row not updated for this long is taken for abandoned (its process died)."""

MAX_WAITING = int(os.environ.get("HANDFOOT_REVIEW_QUEUE", "20"))
"""Reviews a process holds at once (the one computing and those waiting); a review asked for
beyond is refused (:class:`Busy`) until some are done."""

_SAVE_EVERY = 5
"""Decisions between two progress updates of the database row."""

log = logging.getLogger("handfoot.web.reviews")


def _compute(record: GameRecord, seat: int, budget: float, report: Any) -> dict[str, Any]:
    """A seat's review as JSON (in the review process)."""
    review = game_review(record, [seat], budget=budget, progress=report)
    data = review.to_data(all_decisions=True)
    seat_data: dict[str, Any] = data.pop("seats")[0]
    seat_data.update(data)
    return seat_data


class _Stopped(Exception):
    """The server is stopping: the review being computed gives up."""


_CHILD: tuple[Any, Any] | None = None
"""In the review process: the pipe its progress goes to, and the pipe that tells it to stop
(readable once the server stops)."""


_PARENT_CHECK = 2.0
"""Seconds between two looks, in the review process, at whether its server process lives."""


def _child_init(queue: Any, stop: Any, parent: int) -> None:
    global _CHILD
    _CHILD = (queue, stop)
    # Ctrl-C in a terminal (or a service manager's SIGTERM) reaches the whole process group:
    # the review process would die with a KeyboardInterrupt that the server re-raised (a
    # traceback, the server stopped uncleanly). Its server process stops it instead (the
    # stop event, or its death: _watch_parent)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), name="handfoot-review-parent",
                     daemon=True).start()


def _watch_parent(parent: int) -> None:
    """End the review process once its server process is gone (killed: nothing else would
    end it, computing or waiting for work, an orphan)."""
    while os.getppid() == parent:
        time.sleep(_PARENT_CHECK)
    os._exit(0)


def _child_job(game_id: str, seat: int, record: GameRecord, budget: float) -> dict[str, Any]:
    """A seat's review, in the review process: its progress put on the queue, given up once
    the server stops."""
    assert _CHILD is not None
    progress, stop = _CHILD
    if stop.poll():  # stopping while it waited: not begun
        raise _Stopped

    def report(done: int, total: int) -> None:
        if stop.poll():  # the server process said stop (or is gone)
            raise _Stopped
        progress.send((game_id, seat, done, total))

    return _compute(record, seat, budget, report)


class Busy(Exception):
    """This process holds :data:`MAX_WAITING` reviews already: ask again later."""


class Reviews:
    """The reviews this process computes, and the answers of the review API."""

    def __init__(self, store: Store, budget: float | None = None, *,
                 processes: bool = True) -> None:
        """``processes=False``: compute in a thread of this process instead (for tests that
        replace what a review computes)."""
        self.store = store
        self.budget = BUDGET if budget is None else budget
        self._processes = processes
        self._pool: concurrent.futures.Executor | None = None  # made at the first review
        self._queue: Any = None
        self._stop: Any = None
        self._progress: dict[tuple[str, int], tuple[int, int]] = {}
        self._order: list[tuple[str, int]] = []  # held here, the one computing first
        self._tasks: set[asyncio.Task[None]] = set()
        self._reader: threading.Thread | None = None
        self._closing = False

    async def status(self, game_id: str, seat: int) -> dict[str, Any]:
        """How far a seat's review is: ``status`` (``none``, ``running``, ``done``,
        ``failed``), ``done`` and ``total`` decisions, ``waiting`` (reviews this process
        computes before it starts: 0 once it has), and ``review`` once done."""
        row = await self.store.review(game_id, seat)
        if row is None:
            return {"seat": seat, "status": "none", "done": 0, "total": 0, "waiting": 0,
                    "review": None}
        key = (game_id, seat)
        done, total = self._progress.get(key, (row["done"], row["total"]))
        if key not in self._progress and row["status"] == "running" \
                and row["updated"] < now() - STALE:
            status = "failed"  # abandoned by a process that died: may be started again
        else:
            status = row["status"]
        waiting = self._order.index(key) if status == "running" and key in self._order else 0
        return {"seat": seat, "status": status, "done": done, "total": total,
                "waiting": waiting, "review": row["data"] if status == "done" else None}

    async def start(self, game_id: str, record: GameRecord, seat: int, *,
                    stale: timedelta = STALE) -> dict[str, Any]:
        """Start a seat's review unless it is done or being computed (its row updated within
        ``stale``); its status. Raises :class:`Busy` when it would have to be started and
        this process holds :data:`MAX_WAITING` reviews already."""
        total = sum(1 for r in record.rounds for m in r.moves if m.seat == seat)
        if len(self._order) >= MAX_WAITING:
            status = await self.status(game_id, seat)
            if status["status"] in ("running", "done"):
                return status
            raise Busy
        if await self.store.claim_review(game_id, seat, total, stale):
            key = (game_id, seat)
            self._progress[key] = (0, total)
            self._order.append(key)
            task = asyncio.create_task(self._run(game_id, record, seat))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await self.status(game_id, seat)

    async def resume(self, record_of: Callable[[str], Awaitable[GameRecord | None]]) -> int:
        """At the server's start, on a database no other process uses (SQLite): queue again
        every review left running or waiting by a process that died (a ``kill -9``, a power
        cut), at once; one whose game is gone, or beyond :data:`MAX_WAITING`, is marked
        failed (asked for again, it is computed anew). On PostgreSQL another live process may
        be computing it: its row's heartbeat tells, and nothing is done here. The reviews
        queued again."""
        if self.store.shared:
            return 0
        async with self.store.engine.connect() as conn:
            left = (await conn.execute(select(review_rows.c.game, review_rows.c.seat).where(
                review_rows.c.status == "running").order_by(review_rows.c.updated))).all()
        resumed = 0
        for game_id, seat in left:
            try:
                record = await record_of(game_id)
            except Exception:  # a game that no longer loads: the server starts anyway
                log.exception("the review of game %s, seat %d is not resumed", game_id,
                              seat + 1)
                record = None
            if record is not None:
                try:
                    # nothing else computes it: taken whatever its row's age
                    await self.start(game_id, record, seat, stale=timedelta(0))
                    resumed += 1
                    continue
                except Busy:
                    pass
            await self.store.finish_review(game_id, seat, None)
        if left:
            log.info("reviews left by a process that died: %d queued again, %d failed",
                     resumed, len(left) - resumed)
        return resumed

    def _executor(self, loop: asyncio.AbstractEventLoop) -> concurrent.futures.Executor:
        if self._pool is None:
            if self._processes:
                ctx = multiprocessing.get_context("spawn")  # no fork of a server's threads
                # pipes, not a queue and an event: those hold named semaphores, which the
                # resource tracker reported leaked when the server stopped (uvicorn ends a
                # server stopped by SIGTERM by raising the signal again: no exit handler
                # runs, and the semaphores, held by threads' frames, were never unlinked)
                self._queue = ctx.Pipe(duplex=False)  # progress: (read, write)
                self._stop = ctx.Pipe(duplex=False)  # a word on it: stop
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1, mp_context=ctx, initializer=_child_init,
                    initargs=(self._queue[1], self._stop[0], os.getpid()))
                self._reader = threading.Thread(
                    target=self._read_progress, args=(self._queue[0], loop),
                    name="handfoot-review-progress", daemon=True)
                self._reader.start()
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="handfoot-review")
        return self._pool

    def _read_progress(self, pipe: Any, loop: asyncio.AbstractEventLoop) -> None:
        """The review process's progress, handed to the event loop (in a thread of its own,
        waiting on the pipe: it holds no GIL while it waits)."""
        try:
            while (item := pipe.recv()) is not None:
                loop.call_soon_threadsafe(self._progressed, *item)
        except (RuntimeError, OSError, EOFError):  # the loop or the pipe is closed
            pass

    def _progressed(self, game_id: str, seat: int, done: int, total: int) -> None:
        key = (game_id, seat)
        if key not in self._progress:
            return
        self._progress[key] = (done, total)
        if done % _SAVE_EVERY == 0:
            task = asyncio.ensure_future(self.store.review_progress(game_id, seat, done))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, game_id: str, record: GameRecord, seat: int) -> None:
        loop = asyncio.get_running_loop()
        key = (game_id, seat)

        def report(done: int, total: int) -> None:  # in the review thread
            if self._closing:
                raise _Stopped
            loop.call_soon_threadsafe(self._progressed, game_id, seat, done, total)

        def job() -> dict[str, Any]:  # in the review thread
            if self._closing:  # stopping while it waited: not begun
                raise _Stopped
            return _compute(record, seat, self.budget, report)

        data: dict[str, Any] | None = None
        try:
            pool = self._executor(loop)
            if self._processes:
                future = loop.run_in_executor(pool, _child_job, game_id, seat, record,
                                              self.budget)
            else:
                future = loop.run_in_executor(pool, job)
            while not (await asyncio.wait({future}, timeout=HEARTBEAT.total_seconds()))[0]:
                # alive, computing or waiting its turn: the row says so to every process
                await self.store.review_progress(game_id, seat, self._progress[key][0])
            data = future.result()
        except _Stopped:
            pass  # the server is stopping: marked failed, any process may start it again
        except Exception:  # a review that fails is marked so; the server goes on
            log.exception("the review of game %s, seat %d failed", game_id, seat + 1)
        finally:
            await self.store.finish_review(game_id, seat, data)
            self._progress.pop(key, None)
            self._order.remove(key)

    async def close(self) -> None:
        """Stop the reviews being computed (at their next decision; each is marked failed,
        to be started again when asked for)."""
        self._closing = True
        if self._stop is not None:
            self._stop[1].send(True)
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pool is not None:  # every review has given up: the process ends at once
            await asyncio.to_thread(self._pool.shutdown, wait=True, cancel_futures=True)
        if self._queue is not None:
            self._queue[1].send(None)  # the progress reader ends
        if self._reader is not None:
            await asyncio.to_thread(self._reader.join, 5.0)
        for pipe in (self._queue or ()) + (self._stop or ()):
            pipe.close()
        self._pool = self._queue = self._stop = self._reader = None

