"""What an operator watches: ``/healthz`` (the process and its database) and ``/metrics``
(Prometheus' text format, with ``prometheus-client``).

:class:`Metrics` holds one server process's figures in a registry of its own (a test's apps
do not share them): the tables in memory and the connections to them (read when scraped),
the moves committed (a counter: ``rate()`` gives moves/s), a move's latency (a person's
move read until its ``ack`` is queued, its commit included), the database's commit time
for moves, and the event loop's lag (a task that sleeps :data:`LAG_EVERY` seconds and notes
how late it wakes). With ``serve --workers N`` each process keeps and serves its own: a
scrape through the shared port reaches one of them (docs/server.md, "Watching a server").

Nothing here names a game, a seat or a token: the labels are fixed words only.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, Protocol

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from handfoot._version import __version__


class _Connection(Protocol):
    @property
    def seat(self) -> int | None: ...


class _Table(Protocol):
    @property
    def connections(self) -> Sequence[_Connection]: ...


class _Tables(Protocol):
    """What is read of :class:`~handfoot.web.tables.Tables` (not imported: it imports
    this module)."""

    def live(self) -> Sequence[_Table]: ...


class _Database(Protocol):
    """What ``/healthz`` asks of :class:`~handfoot.web.store.Store`."""

    async def ping(self) -> None: ...

    @property
    def kind(self) -> str: ...

__all__ = ["HEALTH_TIMEOUT", "LAG_EVERY", "Metrics", "health_routes"]

LAG_EVERY: Final = 0.05
"""Seconds between two wake-ups of the event-loop lag probe."""

HEALTH_TIMEOUT: Final = 2.0
"""Seconds ``/healthz`` waits for the database's answer before it says 503."""

_MS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Histogram buckets (seconds) for what takes about a millisecond when all is well."""


class _Live(Collector):
    """The tables in memory and the connections to them, read when scraped."""

    def __init__(self, tables: Callable[[], _Tables | None]) -> None:
        self._tables = tables

    def collect(self) -> Iterator[GaugeMetricFamily]:
        tables = self._tables()
        held = tables.live() if tables is not None else []
        yield GaugeMetricFamily("handfoot_tables", "Games held in memory by this process",
                                value=len(held))
        people = GaugeMetricFamily("handfoot_connections",
                                   "Open table WebSockets on this process", labels=["kind"])
        seats = sum(1 for t in held for c in t.connections if c.seat is not None)
        watchers = sum(1 for t in held for c in t.connections if c.seat is None)
        people.add_metric(["seat"], seats)
        people.add_metric(["spectator"], watchers)
        yield people


class Metrics:
    """One server process's figures (see the module's text)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.tables: _Tables | None = None
        r = self.registry
        self.moves = Counter("handfoot_moves", "Moves committed by this process",
                             ["by"], registry=r)
        self._moved = {by: self.moves.labels(by) for by in ("human", "bot")}
        """Each kind's counter (both shown from the start, at 0), looked up once."""
        self.move_seconds = Histogram(
            "handfoot_move_seconds", "A person's move: read until acknowledged (its commit "
            "included)", buckets=_MS, registry=r)
        self.commit_seconds = Histogram(
            "handfoot_db_commit_seconds", "Committing moves to the database (one "
            "transaction, which may hold several moves)", buckets=_MS, registry=r)
        self.lag_seconds = Histogram(
            "handfoot_event_loop_lag_seconds", f"How late the event loop wakes a task "
            f"sleeping {LAG_EVERY:g} s", buckets=_MS, registry=r)
        self.lag_max = Gauge("handfoot_event_loop_lag_max_seconds",
                             "The longest event-loop lag since the last scrape", registry=r)
        self.info = Gauge("handfoot_build_info", "This server's version (the value is 1)",
                          ["version"], registry=r)
        self.info.labels(__version__).set(1)
        r.register(_Live(lambda: self.tables))
        ProcessCollector(registry=r)
        self._worst = 0.0
        self._lag_task: asyncio.Task[None] | None = None

    # -- noting ---------------------------------------------------------------------------

    def moved(self, by: str) -> None:
        self._moved["human" if by == "human" else "bot"].inc()

    def committed(self, seconds: float) -> None:
        self.commit_seconds.observe(seconds)

    def acknowledged(self, seconds: float) -> None:
        self.move_seconds.observe(seconds)

    # -- the event loop's lag ---------------------------------------------------------------

    def start(self) -> None:
        if self._lag_task is None:
            self._lag_task = asyncio.create_task(self._probe())

    async def stop(self) -> None:
        task, self._lag_task = self._lag_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _probe(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(LAG_EVERY)
            lag = max(0.0, time.perf_counter() - start - LAG_EVERY)
            self.lag_seconds.observe(lag)
            self._worst = max(self._worst, lag)

    # -- the answer -------------------------------------------------------------------------

    def text(self) -> bytes:
        self.lag_max.set(self._worst)
        self._worst = 0.0
        return generate_latest(self.registry)


def health_routes(metrics: Metrics, store: _Database, tables: _Tables) -> list[Any]:
    """``GET /healthz`` and ``GET /metrics``."""
    from starlette.routing import Route

    async def healthz(request: Request) -> Response:
        started = time.perf_counter()
        try:
            await asyncio.wait_for(store.ping(), HEALTH_TIMEOUT)
        except Exception as exc:  # the database does not answer: say so, whatever it was
            database: dict[str, Any] = {"ok": False, "error": type(exc).__name__}
        else:
            database = {"ok": True}
        database["seconds"] = round(time.perf_counter() - started, 4)
        database["kind"] = store.kind
        ok = bool(database["ok"])
        held = tables.live()
        body = {"status": "ok" if ok else "unavailable", "version": __version__,
                "pid": os.getpid(), "database": database, "tables": len(held),
                "connections": sum(len(t.connections) for t in held)}
        return JSONResponse(body, status_code=200 if ok else 503,
                            headers={"cache-control": "no-store"})

    async def metrics_page(request: Request) -> Response:
        return Response(metrics.text(), media_type=CONTENT_TYPE_LATEST,
                        headers={"cache-control": "no-store"})

    return [Route("/healthz", healthz), Route("/metrics", metrics_page)]
