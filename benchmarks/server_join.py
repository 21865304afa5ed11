"""What joining costs the web game server: N tables' four seats connect at once, no moves.

Starts ``handfoot serve`` as ``server_load.py`` does (SQLite in a temporary folder, or
``--database-url``; ``--workers`` processes on PostgreSQL), creates ``--tables`` games of four
person seats, then opens every seat's WebSocket at once: each says hello and waits for its
first ``state``. The server's CPU (all its processes, from ``/proc``) is read before the
first connection and one second after the last client had its first state (the presence
writes and the other processes' reads that follow a join are counted), and divided by the
connections. Each repeat (``--repeats``) creates new games, so that every table is loaded
from the database again; the connections of one repeat are closed before the next.
``--hold S`` keeps them open S seconds more once all have joined and gives the server's CPU
meanwhile (its upkeep with every connection open and nothing sent: heartbeats, sweeps,
keepalive pings)::

    python benchmarks/server_join.py --tables 1000 --database-url URL --workers 2 --repeats 3

The clients run in this process on uvloop (their own CPU is printed too: on a small machine
they share the cores with the server, and the time to join includes their work). Last it
prints::

    server_join: <N> tables, <C> connections, <X> ms of server CPU a connection
    (min/median/max <a>/<b>/<c>), joined in <S> s, <E> errors

(on one line: <X> the median over the repeats, <S> the median time to join).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect

import handfoot

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_clients import token_of
from server_load import Server, create_game, quiet_collector, run_loop

SETTLE = 1.0
"""Seconds the server's CPU is still counted after the last client had its first state."""

SERVE_PROFILED_JOINS = (
    "import cProfile, signal, sys, time; from handfoot.cli import main\n"
    "profiler = cProfile.Profile(time.thread_time)\n"
    "signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())\n"
    "signal.signal(signal.SIGUSR2, lambda *_: profiler.disable())\n"
    "try:\n    main(sys.argv[2:])\n"
    "finally:\n    profiler.disable(); profiler.dump_stats(sys.argv[1])\n")
"""``handfoot serve`` under cProfile (timed by the main thread's CPU time) only from SIGUSR1 to
SIGUSR2: ``--profile-server`` profiles the joins alone, not the games' creation."""


class ProfiledServer(Server):
    """The server, one process, profiled while the connections join (``--profile-server``)."""

    def start(self) -> None:
        assert self.profile is not None
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVE_PROFILED_JOINS, str(self.profile), "serve",
             "--port", str(self.port), "--database-url", self.database_url,
             "--no-open-limits", *self.extra], stdout=out, stderr=out)
        if self.log:
            out.close()  # type: ignore[union-attr]
        self.starts += 1

    def profiling(self, on: bool) -> None:
        self.process.send_signal(signal.SIGUSR1 if on else signal.SIGUSR2)  # type: ignore[union-attr]


async def _join(port: int, game_id: str, token: str, deflate: bool, joined: list[float],
                errors: list[str], done: asyncio.Event, opened: list[ClientConnection]) -> None:
    try:
        ws = await connect(f"ws://127.0.0.1:{port}/ws/{game_id}",
                           origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                           open_timeout=120, ping_interval=None, proxy=None, max_size=2**22,
                           compression="deflate" if deflate else None)
    except Exception as exc:
        errors.append(f"{game_id}: {exc!r}")
        return
    opened.append(ws)
    try:
        await ws.send(json.dumps({"type": "hello", "token": token, "seq": 0}))
        while True:
            m = orjson.loads(await asyncio.wait_for(ws.recv(), 120))
            if m["type"] == "state":
                joined.append(time.monotonic())
                break
            if m["type"] == "error":
                errors.append(f"{game_id}: {m}")
                return
        await done.wait()  # every connection stays open until all have joined
    except Exception as exc:
        errors.append(f"{game_id}: {exc!r}")


async def one_round(server: Server, tables: int, deflate: bool, hold: float,
                    ) -> dict[str, Any]:
    """Create ``tables`` games, then join their 4 x ``tables`` seats at once."""
    games = await asyncio.gather(*(create_game(server, {
        "profile": "partnership-13", "layout": "2x2",
        "seats": [{"kind": "human", "name": f"P{s}"} for s in range(4)]})
        for _ in range(tables)))
    await asyncio.sleep(1.0)  # the creations' own work done
    joined: list[float] = []
    errors: list[str] = []
    opened: list[ClientConnection] = []
    done = asyncio.Event()
    if isinstance(server, ProfiledServer):
        server.profiling(True)
    cpu_before = server.cpu_seconds()
    own_before = _own_cpu()
    start = time.monotonic()
    tasks = [asyncio.create_task(_join(server.port, g["game_id"], token_of(seat["link"]),
                                       deflate, joined, errors, done, opened))
             for g in games for seat in g["seats"]]
    while len(joined) + len(errors) < len(tasks):
        await asyncio.sleep(0.02)
    last = max(joined, default=start)
    await asyncio.sleep(SETTLE)
    cpu = server.cpu_seconds() - cpu_before
    own = _own_cpu() - own_before
    if isinstance(server, ProfiledServer):
        server.profiling(False)
    idle = 0.0
    if hold:  # every connection open, nothing sent: the server's own upkeep
        idle_before = server.cpu_seconds()
        await asyncio.sleep(hold)
        idle = server.cpu_seconds() - idle_before
    done.set()
    await asyncio.gather(*tasks)
    await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
    await asyncio.sleep(1.0)
    return {"connections": len(tasks), "seconds": last - start, "cpu": cpu, "own": own,
            "errors": errors, "idle": idle}


async def benchmark(tables: int, repeats: int, database_url: str | None, workers: int,
                    deflate: bool, hold: float, workdir: Path, profile: Path | None = None,
                    ) -> list[dict[str, Any]]:
    url = database_url or f"sqlite+aiosqlite:///{workdir / 'join.db'}"
    extra = ["--workers", str(workers)] if workers > 1 else []
    server = Server(url, log=workdir / "server.log", extra=extra) if profile is None \
        else ProfiledServer(url, log=workdir / "server.log", extra=extra, profile=profile)
    server.start()
    try:
        await server.ready()
        quiet_collector()
        return [await one_round(server, tables, deflate, hold) for _ in range(repeats)]
    finally:  # (SIGINT: a profiled server writes its statistics as it exits)
        server.kill(signal.SIGINT if profile is not None else signal.SIGTERM)


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables (1-2000)")
    parser.add_argument("--repeats", type=int, default=1, help="rounds of new tables (1-20)")
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes (PostgreSQL only)")
    parser.add_argument("--database-url", help="another database (default: SQLite in a "
                                               "temporary folder)")
    parser.add_argument("--hold", type=float, default=0.0, metavar="S",
                        help="keep every connection open S seconds once all have joined, "
                             "and give the server's CPU meanwhile (its upkeep: heartbeats, "
                             "sweeps)")
    parser.add_argument("--no-deflate", action="store_true",
                        help="clients ask for no per-message compression")
    parser.add_argument("--profile-server", metavar="FILE", type=Path,
                        help="run the server (one process) under cProfile, timed by its "
                             "main thread's CPU, while the connections join (each repeat "
                             "until its CPU is read), its statistics to FILE")
    ns = parser.parse_args(argv)
    if not 1 <= ns.tables <= 2000 or not 1 <= ns.repeats <= 20 or not 0 <= ns.hold <= 600:
        parser.error("--tables 1..2000, --repeats 1..20, --hold 0..600")
    if ns.profile_server is not None and ns.workers > 1:
        parser.error("--profile-server profiles one server process: --workers 1")
    print(f"handfoot {handfoot.__version__}, {handfoot.build}", flush=True)
    with tempfile.TemporaryDirectory(prefix="handfoot-join-") as tmp:
        rounds = run_loop(benchmark(ns.tables, ns.repeats, ns.database_url, ns.workers,
                                    not ns.no_deflate, ns.hold, Path(tmp),
                                    ns.profile_server))
        log = (Path(tmp) / "server.log").read_text(errors="replace").strip()
    errors = [e for r in rounds for e in r["errors"]]
    for i, r in enumerate(rounds, 1):
        print(f"round {i}: {r['connections']} connections joined in {r['seconds']:.2f} s; "
              f"server CPU {r['cpu']:.2f} s ({r['cpu'] / r['connections'] * 1000:.2f} ms a "
              f"connection); the clients' CPU {r['own']:.2f} s; {len(r['errors'])} errors; "
              f"load average {os.getloadavg()[0]:.2f}"
              + (f"; held {ns.hold:g} s: server CPU {r['idle'] * 1000 / ns.hold:.0f} ms a "
                 "second" if ns.hold else ""))
    if log and errors:
        print("server log:", log[-2000:], sep="\n")
    for text in errors[:5]:
        print(f"error: {text}")
    per = sorted(r["cpu"] / r["connections"] * 1000 for r in rounds)
    print(f"server_join: {ns.tables} tables, {rounds[0]['connections']} connections, "
          f"{statistics.median(per):.2f} ms of server CPU a connection (min/median/max "
          f"{per[0]:.2f}/{statistics.median(per):.2f}/{per[-1]:.2f}), joined in "
          f"{statistics.median(r['seconds'] for r in rounds):.2f} s, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
