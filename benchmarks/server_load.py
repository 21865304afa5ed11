"""Load on the web game server: N tables of four bot clients over real WebSockets.

Starts ``handfoot serve`` as a subprocess (SQLite in a temporary folder, or
``--database-url``), creates ``--tables`` games with four person seats, and plays each seat
from its own client on loopback: the client waits ``--think`` seconds on its turn, then
sends the move a bot (``--bot``) chooses from the seat's view. A finished game is followed
by a new one at the same table. After ``--seconds`` every client stops (a run never lasts
longer than ``--seconds`` plus a few seconds to start and stop).

    python benchmarks/server_load.py --tables 200 --seconds 60 [--think 1.0]
    python benchmarks/server_load.py --tables 20 --seconds 20 --think 0      # saturation
    python benchmarks/server_load.py --tables 50 --seconds 60 --server-bots expert
    python benchmarks/server_load.py --tables 20 --seconds 30 --talk-flood 50
    python benchmarks/server_load.py --tables 1000 --seconds 30 --compiled [DIR]

``--compiled`` serves from the compiled build (the one the users' scripts install): an
unpacked one in DIR, or one built from this tree first (about a minute of CPU); the first
line says which build ran. ``--profile-server FILE`` runs the server under cProfile timed
by its main thread's CPU time (slow: for where the CPU goes, not for the figures);
``--profile-play FILE`` does the same from the moment the last connection has joined its table
(the play alone: at a thousand tables the joins' CPU would outweigh it in the profile);
``--profile-clients FILE`` runs each clients' process so, to FILE.PID.
``--collector-log`` notes the server's garbage collections (``gc.callbacks``) and prints,
for the play once every client had joined, each generation's count, pauses and CPU;
``--server-thresholds G0 G1 G2`` sets the server's collector thresholds for a comparison,
and ``--serve-arg ARG`` passes an argument more to ``handfoot serve``.

``--talk-flood RATE`` adds, at each table, a second connection of seat 0 that sends RATE
preset reactions a second (web/talk.py lets 5 in 10 s through and refuses the rest), from a
process of its own: the move round trips with and without it say whether a flood of talk
holds the moves up.

It prints moves/s, the move round trip (a move sent until the state that includes it comes
off the mover's own socket: p50, p99, max; beside it the same until the client had handled
that state and everything else its event loop read in that turn), errors (error frames, dropped
connections, time-outs), the server's RSS before and after the tables joined (VmRSS of
/proc/PID/status) and per table, and the event-loop lag, measured from another process as
the round trip of a ``ping`` over a spectator socket every 20 ms (what a client waits for
the server's loop to answer anything: an upper bound of the loop's lag). Last it prints::

    server_load: <N> tables, p99 <X> ms, <E> errors, <M> moves/s

Before it, the server's own figure (its ``/metrics`` histogram of a move read until
acknowledged, one server process only: the share within 5, 10, 25, 50, 100, 250 and 500
ms) and the clients' own event-loop lag, which every round trip they measure includes: a
round trip far above both is the clients' waiting, not the server's. ``--client-processes
K`` spreads the clients over K processes (default one per 500 tables); ``--think-spread F``
draws each wait from think x (1 - F) to think x (1 + F), seeded, where by default every
table waits exactly ``--think`` and the tables move in step, a thousand moves at a time.
``--connect-slice N`` has each clients' process open at most N connections a turn of its
event loop, the others in the next turns (default: all at once), to show how much of the
joins' cost is the clients' own burst of connections. ``--moves-out FILE`` writes each
move's end and round trip and each ping's as JSON (``benchmarks/pg_load.py --trace`` reads
it with the server's own notes); ``--trace-clients PREFIX`` has each clients' process note its
own event loop's lateness and sample its stack while it is late (:mod:`handfoot.web.pg_trace`,
as the server's processes), to ``PREFIX.PID``.

Before those, the same figures once every client had joined (the play alone: a thousand
tables' four thousand connections arriving at once cost the server seconds of CPU at the
start of the measured time, which the per-move figure above includes).

``--server-bots LEVEL`` makes the four seats server bots instead (one spectator client
watches each table, so the bots play; ``--bot-delay`` is then 0): the figures are then
moves/s and the loop lag, the round trip being the bots' own business.

The clients know each game's seed (read from the database, as only a test or a benchmark
may) so that they can follow the game in a shadow :class:`~handfoot.game.engine.GameState` and
choose legal moves with a bot; a benchmark client is a driver, not a player. Each seat's
connection is a :class:`load_socket.Socket` (benchmarks/load_socket.py): websockets' own
handshake and frames on the wire, but each frame read and handled as it arrives, so that
the clients, which share the machine with the server, cost it little CPU and their own
event loop holds the round trips they measure up as little as it can.
Its clients (``load_clients.py``) are reused by ``tests/test_web_durability.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import json
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from load_clients import SeatClient, Shadow, Slices, Stats, token_of
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

import handfoot
from handfoot.bots.registry import make_bot
from handfoot.runs.sim import derive_seed
from handfoot.web.pg_trace import PoolTrace
from handfoot.web.store import Store

PING_EVERY = 0.02
"""Seconds between two pings of the lag probe."""

T = TypeVar("T")

SERVE = "import sys; from handfoot.cli import main; sys.exit(main(sys.argv[1:]))"

SERVE_PROFILED = (
    "import cProfile, sys, time; from handfoot.cli import main\n"
    "profiler = cProfile.Profile(time.thread_time)\n"
    "profiler.enable()\n"
    "try:\n    main(sys.argv[2:])\n"
    "finally:\n    profiler.disable(); profiler.dump_stats(sys.argv[1])\n")
"""``handfoot serve`` under cProfile timed by the main thread's CPU time (``--profile-server``:
where the CPU goes, not the wall time a busy machine adds while the process waits to run)."""

SERVE_PROFILED_PLAY = (
    "import asyncio, cProfile, sys, time; from handfoot.cli import main\n"
    "from handfoot.web.table import Table\n"
    "profiler = cProfile.Profile(time.thread_time)\n"
    "joins, wanted, joined = [0], int(sys.argv[2]), Table.join\n"
    "def join(self, conn, since=None):\n"
    "    joined(self, conn, since)\n"
    "    joins[0] += 1\n"
    "    if joins[0] == wanted:\n"
    "        asyncio.get_running_loop().call_soon(profiler.enable)\n"
    "Table.join = join\n"
    "try:\n    main(sys.argv[3:])\n"
    "finally:\n    profiler.disable(); profiler.dump_stats(sys.argv[1])\n")
"""As :data:`SERVE_PROFILED` (``--profile-play``), the profiler on only from the moment the
``wanted``-th connection has joined a table (every client of the benchmark's tables) until
the server stops: the play, without the thousands of joins whose CPU would otherwise
outweigh it in the profile. (A benchmark's hook on ``Table.join``, a Python class in every
build.)"""

SERVE_COLLECTOR_LOGGED = (
    "import atexit, gc, json, sys, time; from handfoot.cli import main\n"
    "log, began = [], [0.0, 0.0]\n"
    "def note(phase, info):\n"
    "    if phase == 'start':\n"
    "        began[:] = time.perf_counter(), time.thread_time()\n"
    "    else:\n"
    "        log.append((time.monotonic(), info['generation'], time.perf_counter() - began[0],\n"
    "                    time.thread_time() - began[1], info['collected']))\n"
    "gc.callbacks.append(note)\n"
    "if sys.argv[2] != '-':\n"
    "    import handfoot.web.collector as collector\n"
    "    collector.THRESHOLDS = tuple(map(int, sys.argv[2].split(',')))\n"
    "def dump():\n"
    "    with open(sys.argv[1], 'w') as out:\n"
    "        json.dump(log, out)\n"
    "atexit.register(dump)\n"
    "sys.exit(main(sys.argv[3:]))\n")
"""``handfoot serve`` with each garbage collection noted (``--collector-log``): when it
ended (``time.monotonic``), its generation, its pause (wall and CPU seconds) and what it
freed, written to a file as JSON when the server exits; and the collector's thresholds
``G0,G1,G2`` where not ``-`` (``--server-thresholds``: web/collector.py's otherwise)."""


# -- the server process ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``handfoot serve`` in a subprocess on loopback, which can be killed and restarted."""

    def __init__(self, database_url: str, *, port: int | None = None, bot_delay: float = 0.0,
                 extra: Sequence[str] = (), log: Path | None = None,
                 profile: Path | None = None, collector_log: Path | None = None,
                 thresholds: Sequence[int] = (), profile_after: int = 0) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.extra = list(extra)
        self.log = log
        self.profile = profile
        self.profile_after = profile_after
        """With ``profile``: the joins after which the profiler starts (0: from the start)."""
        self.collector_log = collector_log
        self.thresholds = ",".join(map(str, thresholds)) or "-"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.up = asyncio.Event()
        """Set while the server answers (from :meth:`ready` to :meth:`kill`)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        command = [sys.executable, "-c", SERVE]
        if self.profile is not None and self.profile_after:
            command = [sys.executable, "-c", SERVE_PROFILED_PLAY, str(self.profile),
                       str(self.profile_after)]
        elif self.profile is not None:
            command = [sys.executable, "-c", SERVE_PROFILED, str(self.profile)]
        elif self.collector_log is not None:
            command = [sys.executable, "-c", SERVE_COLLECTOR_LOGGED, str(self.collector_log),
                       self.thresholds]
        self.process = subprocess.Popen(
            [*command, "serve", "--port", str(self.port),
             "--database-url", self.database_url, "--bot-delay", str(self.bot_delay),
             "--no-open-limits", *self.extra], stdout=out, stderr=out)
        if self.log:
            out.close()  # type: ignore[union-attr]
        self.starts += 1

    async def ready(self, timeout: float = 60.0) -> None:
        """Wait until the server answers HTTP."""
        deadline = time.monotonic() + timeout
        while True:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                await asyncio.to_thread(_get, f"{self.base}/api/profiles", 2.0)
                self.up.set()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.05)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        self.up.clear()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait()
        self.process = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def processes(self) -> list[int]:
        """The server's process and its descendants (``--workers``, the experts' pool)."""
        out, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            out.append(pid)
            for task in Path(f"/proc/{pid}/task").glob("*/children"):
                with contextlib.suppress(OSError):
                    todo += [int(c) for c in task.read_text().split()]
        return out

    def rss_kib(self, tree: bool = True) -> int:
        """The resident memory (VmRSS) of the server's processes (``tree``) or of its
        main process, KiB."""
        total = 0
        for pid in self.processes() if tree else [self.pid]:
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        return total

    def cpu_seconds(self) -> float:
        """User and system CPU time the server's processes have used so far."""
        total = 0
        for pid in self.processes():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")


def _get(url: str, timeout: float) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return bytes(r.read())


def _post(url: str, body: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


async def create_game(server: Server, body: dict[str, Any]) -> dict[str, Any]:
    return await asyncio.to_thread(_post, f"{server.base}/api/games", body)


MOVE_BUCKETS = "handfoot_move_seconds_bucket"


def move_histogram(server: Server) -> dict[float, float] | None:
    """The server's own histogram of a person's move, read until acknowledged (its
    ``/metrics``: bucket upper bound in seconds -> moves so far), or ``None`` where it
    does not answer."""
    try:
        text = _get(f"{server.base}/metrics", 10.0).decode()
    except OSError:
        return None
    out: dict[float, float] = {}
    for line in text.splitlines():
        if line.startswith(MOVE_BUCKETS + "{"):
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            out[float(bound)] = float(line.rsplit(" ", 1)[1])
    return out or None


def histogram_shares(before: dict[float, float] | None,
                     after: dict[float, float] | None) -> list[tuple[float, float, float]]:
    """Between two readings of :func:`move_histogram`: for each bucket, its bound, the
    share of the moves acknowledged within it and how many moves (the last is every
    move)."""
    if not after:
        return []
    start = before or {}
    total = after.get(float("inf"), 0.0) - start.get(float("inf"), 0.0)
    if total <= 0:
        return []
    return [(bound, (n - start.get(bound, 0.0)) / total, total)
            for bound, n in sorted(after.items())]


async def own_lag(until: float, out: list[float]) -> None:
    """The clients' own event loop: how late it wakes a task sleeping
    :data:`PING_EVERY` (a client's round trip includes this wait too)."""
    while time.monotonic() < until:
        asked = time.perf_counter()
        await asyncio.sleep(PING_EVERY)
        out.append(time.perf_counter() - asked - PING_EVERY)


# -- the benchmark --------------------------------------------------------------------------


@dataclass
class Run:
    tables: int
    seconds: float
    think: float
    bot: str
    profile: str
    rounds: int | None
    server_bots: str | None
    deflate: bool = True
    bot_delay: float = 0.0
    workers: int = 1
    talk_flood: float = 0.0
    client_processes: int = 1
    think_spread: float = 0.0
    ack_frames: bool = False
    collector_log: bool = False
    thresholds: tuple[int, ...] = ()
    serve_args: tuple[str, ...] = ()
    profile_clients: str = ""
    connect_slice: int = 0
    moves_out: str = ""
    trace_clients: str = ""


async def table_game(server: Server, store: Store, run: Run) -> tuple[dict[str, Any], Shadow]:
    """A new game for a table of the run, and its shadow."""
    body: dict[str, Any] = {"profile": run.profile, "layout": "2x2"}
    if run.rounds:
        body["rounds"] = run.rounds
    if run.server_bots:
        body["seats"] = [{"kind": "bot", "level": run.server_bots}] * 4
    else:
        body["seats"] = [{"kind": "human", "name": f"P{s}"} for s in range(4)]
    game = await create_game(server, body)
    return game, await Shadow.load(store, game["game_id"])


async def play_table(server: Server, store: Store, run: Run, index: int, stats: Stats,
                     until: float, games: list[int],
                     first: tuple[dict[str, Any], Shadow] | None = None,
                     opening: Slices | None = None) -> None:
    """One table: ``first``, then new games one after another until ``until``; its
    connections opened in ``opening``'s slices, if given."""
    game_number = 0
    while time.monotonic() < until:
        try:
            game, shadow = first or await table_game(server, store, run)
        except OSError as exc:
            stats.error(f"table {index}: creating a game: {exc!r}")
            return
        first = None
        clients: list[SeatClient] = []
        if run.server_bots:
            clients.append(SeatClient(server, shadow, token_of(game["spectator_link"]), None,
                                      None, stats))
        else:
            for s in game["seats"]:
                bot = make_bot(run.bot, derive_seed(index, "load", game_number, s["seat"]))
                clients.append(SeatClient(server, shadow, token_of(s["link"]), s["seat"],
                                          bot, stats, think=run.think,
                                          spread=run.think_spread,
                                          seed=derive_seed(index, "think", game_number,
                                                           s["seat"])))
        for c in clients:
            c.compression = "deflate" if run.deflate else None
            c.acks = "frame" if run.ack_frames else "state"
            c.table_seats = 0 if run.server_bots else len(clients)
            c.opening = opening
        before = shadow.seq
        await asyncio.gather(*(c.run(until) for c in clients))
        if run.server_bots:
            stats.moves += shadow.seq - before
        games.append(shadow.seq)
        game_number += 1


async def talk_flood(server: Server, game_id: str, token: str, rate: float,
                     until: float, stats: Stats) -> None:
    """Reactions sent at ``rate`` a second on a second connection of a seat, until ``until``;
    the answers counted by kind (``talk`` or an error's code)."""
    async with connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}",
                       origin=f"http://127.0.0.1:{server.port}",  # type: ignore[arg-type]
                       ping_interval=None, proxy=None, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))

        async def read() -> None:
            async for text in ws:
                m = json.loads(text)
                if m.get("id") is not None and m["type"] in ("talk", "error"):
                    kind = m["type"] if m["type"] == "talk" else str(m.get("code"))
                    stats.talk[kind] = stats.talk.get(kind, 0) + 1

        reader = asyncio.create_task(read())
        n = 0
        try:
            while time.monotonic() < until and not reader.done():
                n += 1
                await ws.send(json.dumps({"type": "react", "id": f"f{n}", "preset": "gg"}))
                stats.talk["sent"] = stats.talk.get("sent", 0) + 1
                await asyncio.sleep(1.0 / rate)
        except ConnectionClosed:
            pass
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await reader


async def lag_probe(server: Server, token: str, game_id: str, seconds: float,
                    ) -> list[tuple[float, float]]:
    """Ping round trips over a spectator socket, one every :data:`PING_EVERY`: when each
    was sent (``time.monotonic``, the same clock in every process) and its round trip
    (seconds). A connection the server lets go (``busy``: its database did not answer
    in time) is made again, as a browser would."""
    out: list[tuple[float, float]] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            async with connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}",
                               origin=f"http://127.0.0.1:{server.port}",  # type: ignore[arg-type]
                               ping_interval=None, proxy=None, max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                while time.monotonic() < end:
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "ping"}))
                    while json.loads(await ws.recv())["type"] != "pong":
                        pass
                    out.append((time.monotonic(), time.perf_counter() - sent))
                    await asyncio.sleep(PING_EVERY)
        except ConnectionClosed:
            await asyncio.sleep(0.5)
    return out


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """``main`` run on uvloop's event loop (as the server's), else asyncio's: the clients'
    own cost per frame (their event loop, JSON reading) is then about half, so that one
    process of clients can keep up with more tables."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        return asyncio.run(main)
    return uvloop.run(main)


def quiet_collector() -> None:
    """The clients' process, like the server (:func:`handfoot.web.collector.
    tune_for_serving`): what exists is frozen and young collections are rare, so that the
    clients' own garbage collection (full collections of 0.1-0.6 s with hundreds of
    tables' shadows and bots) is not counted as the server's latency."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 1_000)


def flood_main(port: int, rate: float, seconds: float, games: Sequence[str]) -> None:
    """The floods of reactions (``--talk-flood``) in a process of their own, so that the
    clients measuring the moves' round trips share no event loop with them: ``games`` is
    game id, seat 0's token, game id, token..."""
    server = Server("", port=port)
    stats = Stats()
    until = time.monotonic() + seconds

    async def all_floods() -> None:
        await asyncio.gather(*(talk_flood(server, games[i], games[i + 1], rate, until, stats)
                               for i in range(0, len(games), 2)))
    run_loop(all_floods())
    print(json.dumps(stats.talk))


def joins_expected(run: Run) -> int:
    """How many connections join a table in a run: the clients (four a table, or one
    spectator a table with ``--server-bots``), the lag probe and a flood's second connection
    a table (``--profile-play`` starts its profiler at the last of them)."""
    return (1 if run.server_bots else 4) * run.tables + 1 \
        + (run.tables if run.talk_flood else 0)


def probe_main(port: int, token: str, game_id: str, seconds: float) -> None:
    """The lag probe in a process of its own (so the clients' work does not count)."""
    quiet_collector()
    server = Server("", port=port)
    times = run_loop(lag_probe(server, token, game_id, seconds))
    print(json.dumps(times))


def clients_main(port: int, url: str, run_json: str, until_text: str) -> None:
    """A share of the tables' clients in a process of their own (``--client-processes``):
    their first games as JSON lines on stdin (index, game, its shadow's facts), ``joined``
    on stdout once every one of its clients has had its first state, then what they
    measured as JSON."""
    quiet_collector()
    run = Run(**json.loads(run_json))
    until = float(until_text)
    firsts = [json.loads(line) for line in sys.stdin if line.strip()]  # index, game, facts

    async def play() -> dict[str, Any]:
        server = Server("", port=port)
        server.up.set()
        store = Store(url)
        stats = Stats()
        games: list[int] = []
        own_lags: list[float] = []
        trace = PoolTrace(f"{run.trace_clients}.{os.getpid()}") if run.trace_clients \
            else None
        if trace is not None:  # its loop's lateness, and its stack while late
            trace.start()
        try:
            shadows = [Shadow.of(store, game["game_id"], facts) for _, game, facts in firsts]

            async def joined() -> None:
                while stats.joined < 4 * len(firsts):
                    await asyncio.sleep(0.05)
                print("joined", flush=True)

            watcher = asyncio.create_task(joined())
            lags = asyncio.create_task(own_lag(until, own_lags))
            opening = Slices(run.connect_slice) if run.connect_slice else None
            await asyncio.gather(*(play_table(server, store, run, index, stats, until, games,
                                              (game, shadow), opening)
                                   for (index, game, _), shadow in zip(firsts, shadows,
                                                                       strict=True)))
            watcher.cancel()
            lags.cancel()
        finally:
            await store.close()
            if trace is not None:
                await trace.close()
        return {"round_trips": stats.round_trips, "handled_trips": stats.handled_trips,
                "arrived": stats.arrived,
                "table_trips": stats.table_trips, "moves": stats.moves,
                "errors": stats.errors, "games": games, "own_lag": own_lags,
                "cpu": _own_cpu()}

    if run.profile_clients:  # cProfile by the thread's CPU time, FILE.PID
        import cProfile
        profiler = cProfile.Profile(time.thread_time)
        profiler.enable()
        result = run_loop(play())
        profiler.disable()
        profiler.dump_stats(f"{run.profile_clients}.{os.getpid()}")
    else:
        result = run_loop(play())
    print(json.dumps(result), flush=True)


async def _client_processes(run: Run, server: Server, url: str, until: float,
                            firsts: Sequence[tuple[dict[str, Any], Shadow]], stats: Stats,
                            games: list[int], own_lags: list[float],
                            all_joined: asyncio.Event) -> float:
    """The tables' clients spread over ``run.client_processes`` processes (table ``i`` in
    process ``i % K``), their measurements merged into ``stats``, ``games`` and
    ``own_lags``; ``all_joined`` set once every process has said ``joined``. Returns the
    processes' CPU seconds."""
    k = run.client_processes
    children = []
    for c in range(k):
        child = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--clients", str(server.port), url,
            json.dumps(dataclasses.asdict(run)), repr(until),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=2**30)  # the measurements come as one line of JSON
        assert child.stdin is not None
        lines = [json.dumps([i, game, shadow.facts]) for i, (game, shadow) in enumerate(firsts)
                 if i % k == c]
        child.stdin.write(("\n".join(lines) + "\n").encode())
        await child.stdin.drain()
        child.stdin.close()
        children.append(child)
    joined = 0
    cpu = 0.0

    async def read(child: asyncio.subprocess.Process) -> None:
        nonlocal joined, cpu
        assert child.stdout is not None
        async for raw in child.stdout:
            line = raw.decode().strip()
            if line == "joined":
                joined += 1
                if joined == k:
                    all_joined.set()
            elif line.startswith("{"):
                got = stats.parsed(line, "a clients' process", None)
                if got is None:
                    continue
                stats.round_trips.extend(got["round_trips"])
                stats.handled_trips.extend(got["handled_trips"])
                stats.arrived.extend(got["arrived"])
                stats.table_trips.extend(got["table_trips"])
                stats.moves += got["moves"]
                stats.errors.extend(got["errors"])
                games.extend(got["games"])
                own_lags.extend(got["own_lag"])
                cpu += got["cpu"]
        if await child.wait() != 0:
            stats.error(f"a clients' process ended with status {child.returncode}")

    await asyncio.gather(*(read(child) for child in children))
    return cpu


async def benchmark(run: Run, database_url: str | None, workdir: Path,
                    profile: Path | None = None, profile_after: int = 0) -> dict[str, Any]:
    url = database_url or f"sqlite+aiosqlite:///{workdir / 'load.db'}"
    collections = workdir / "collections.json" if run.collector_log or run.thresholds \
        else None
    server = Server(url, bot_delay=run.bot_delay, log=workdir / "server.log", profile=profile,
                    extra=[*(["--workers", str(run.workers)] if run.workers > 1 else ()),
                           *run.serve_args], collector_log=collections,
                    thresholds=run.thresholds, profile_after=profile_after)
    server.start()
    store = Store(url)
    stats = Stats()
    games: list[int] = []
    try:
        await server.ready()
        probe_game = await create_game(server, {"rounds": 1, "seats": [
            {"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3})
        await asyncio.sleep(0.5)
        rss_before = server.rss_kib()
        main_before = server.rss_kib(tree=False)
        firsts = await asyncio.gather(*(table_game(server, store, run)
                                        for _ in range(run.tables)))
        quiet_collector()
        cpu_before = server.cpu_seconds()
        own_before = _own_cpu()
        start = time.monotonic()
        until = start + run.seconds
        probe = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--probe", str(server.port),
            token_of(probe_game["spectator_link"]), probe_game["game_id"],
            str(max(0.5, run.seconds - 2)), stdout=asyncio.subprocess.PIPE)
        flood = None
        if run.talk_flood and not run.server_bots:  # at each table's first game
            pairs = [x for game, _ in firsts
                     for x in (game["game_id"], token_of(game["seats"][0]["link"]))]
            flood = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--flood", str(server.port), str(run.talk_flood),
                str(max(0.5, run.seconds - 1)), *pairs, stdout=asyncio.subprocess.PIPE)
        steady: list[tuple[float, float, int]] = []
        histograms: list[dict[float, float] | None] = []
        own_lags: list[float] = []
        children_cpu = 0.0
        if run.client_processes > 1:
            all_joined = asyncio.Event()
            watcher = asyncio.create_task(_snapshot(server, stats, all_joined, steady,
                                                    histograms))
            children_cpu = await _client_processes(run, server, url, until, firsts, stats,
                                                   games, own_lags, all_joined)
            own_task = None
        else:
            watcher = asyncio.create_task(_all_joined(server, stats, run, steady, histograms))
            own_task = asyncio.create_task(own_lag(until, own_lags))
            opening = Slices(run.connect_slice) if run.connect_slice else None
            await asyncio.gather(*(play_table(server, store, run, i, stats, until, games,
                                              first, opening)
                                   for i, first in enumerate(firsts)))
        watcher.cancel()
        if own_task is not None:
            own_task.cancel()
        if histograms and run.workers == 1:  # one process's figures: all of them
            histograms.append(await asyncio.to_thread(move_histogram, server))
        if flood is not None:
            flooded, _ = await asyncio.wait_for(flood.communicate(), 30)
            stats.talk = stats.parsed(flooded, "the reactions' flood", {}) if (
                flooded.strip()) else {}
        elapsed = time.monotonic() - start
        rss_after = server.rss_kib()
        main_after = server.rss_kib(tree=False)
        cpu_now = server.cpu_seconds()
        cpu = cpu_now - cpu_before
        own = _own_cpu() - own_before + children_cpu
        out, _ = await asyncio.wait_for(probe.communicate(), 30)
        pings = stats.parsed(out, "the event-loop lag probe", []) if out.strip() else []
        lag = [rtt for _, rtt in pings]
        joined: dict[str, Any] | None = None
        if steady:
            at, cpu_then, moves_then = steady[0]
            joined = {"after": at - start, "seconds": start + elapsed - at,
                      "cpu": cpu_now - cpu_then,
                      "moves": stats.moves - moves_then if run.client_processes == 1
                      else sum(1 for done in stats.arrived if done >= at),
                      "lag": sorted(rtt for sent, rtt in pings if sent >= at),
                      "trips": sorted(rtt for done, rtt in zip(stats.arrived,
                                                               stats.round_trips, strict=True)
                                      if done >= at)}
    finally:
        server.kill(signal.SIGINT if profile or collections else signal.SIGTERM)
        await store.close()
    if run.moves_out:  # each move's end and round trip, each ping's: seconds from the start
        Path(run.moves_out).write_text(json.dumps({
            "start": start, "joined": steady[0][0] - start if steady else None,
            "moves": [[done - start, rtt] for done, rtt in zip(stats.arrived,
                                                               stats.round_trips, strict=True)],
            "pings": [[sent - start, rtt] for sent, rtt in pings]}))
    if collections is not None and joined is not None:  # the play's collections alone
        joined["collections"] = [c for c in json.loads(collections.read_text())
                                 if steady[0][0] <= c[0] <= start + elapsed]
    trips = sorted(stats.round_trips)
    return {
        "tables": run.tables, "seconds": elapsed, "moves": stats.moves,
        "moves_per_s": stats.moves / elapsed, "round_trips": trips,
        "handled_trips": sorted(stats.handled_trips),
        "table_trips": sorted(stats.table_trips),
        "errors": stats.errors, "rss_before": rss_before, "rss_after": rss_after,
        "main_before": main_before, "main_after": main_after,
        "lag": sorted(lag), "server_cpu": cpu, "games": games, "client_cpu": own,
        "talk": stats.talk, "joined": joined, "own_lag": sorted(own_lags),
        "server_moves": histogram_shares(*histograms) if len(histograms) == 2 else [],
    }


async def _snapshot(server: Server, stats: Stats, all_joined: asyncio.Event,
                    out: list[tuple[float, float, int]],
                    histograms: list[dict[float, float] | None]) -> None:
    """:func:`_all_joined` for clients in other processes: the moves made by then are
    counted afterwards (from :attr:`Stats.arrived`), so 0 is noted here."""
    await all_joined.wait()
    out.append((time.monotonic(), server.cpu_seconds(), 0))
    histograms.append(await asyncio.to_thread(move_histogram, server))


async def _all_joined(server: Server, stats: Stats, run: Run,
                      out: list[tuple[float, float, int]],
                      histograms: list[dict[float, float] | None]) -> None:
    """Once every client of the run's first games has had its first state: when, the
    server's CPU then and the moves made by then, into ``out`` (the figures after it are
    the play's alone, without the connections' arrival)."""
    clients = run.tables * (1 if run.server_bots else 4)
    while stats.joined < clients:
        await asyncio.sleep(0.05)
    out.append((time.monotonic(), server.cpu_seconds(), stats.moves))
    histograms.append(await asyncio.to_thread(move_histogram, server))


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def restore_times(workdir: Path, games: int = 6, rounds: int | None = None,
                        repeat: int = 3) -> dict[str, list[float]]:
    """Seconds to bring a game back into memory (:meth:`Tables.get` after
    :meth:`Tables.drop_idle`: read the database, replay), for ``games`` finished games and
    ``games`` ongoing ones (stopped halfway through), each a person (played by a hard bot
    client) with three hard server bots, each restored ``repeat`` times; and for the
    ongoing ones, until the bots have rebuilt their memory too (which they do in a thread
    before their next move)."""
    from handfoot.web.settings import Settings
    from handfoot.web.tables import Tables

    url = f"sqlite+aiosqlite:///{workdir / 'restore.db'}"
    server = Server(url, bot_delay=0.0, log=workdir / "restore.log")
    store = Store(url)
    stats = Stats()
    made: dict[str, list[str]] = {"finished": [], "ongoing": []}
    server.start()
    try:
        await server.ready()
        for kind in made:
            for i in range(games):
                body: dict[str, Any] = {"profile": "partnership-13", "seats": [
                    {"kind": "human"}] + [{"kind": "bot", "level": "hard"}] * 3}
                if rounds:
                    body["rounds"] = rounds
                game = await create_game(server, body)
                shadow = await Shadow.load(store, game["game_id"])
                # about half a game: moves in a game of this many rounds, by the bots' pace
                half = 95 * (rounds or shadow.state.profile.rounds)
                client = SeatClient(server, shadow, token_of(game["seats"][0]["link"]), 0,
                                    make_bot("hard", derive_seed(i, "restore")), stats,
                                    stop_at=half if kind == "ongoing" else None)
                await client.run(time.monotonic() + 600)
                made[kind].append(shadow.game_id)
    finally:
        server.kill(signal.SIGTERM)
        await store.close()
    if stats.errors:
        raise RuntimeError(stats.errors[:3])
    store = Store(url)
    tables = Tables(store, Settings(database_url=url))
    out: dict[str, list[float]] = {kind: [] for kind in made}
    out["ongoing, then the bots' memory"] = []
    for kind in list(out):
        out[f"{kind} (CPU)"] = []
    try:
        await tables.get(made["finished"][0])  # the first load reads the profiles
        for _ in range(repeat):
            for kind, ids in made.items():
                for game_id in ids:
                    await tables.drop_idle(time.monotonic() + 1e9)
                    started = time.perf_counter()
                    cpu = time.process_time()  # the process's, its threads' included
                    table = await tables.get(game_id)
                    out[kind].append(time.perf_counter() - started)
                    out[f"{kind} (CPU)"].append(time.process_time() - cpu)
                    assert table is not None
                    if kind == "ongoing":  # what the bots do before their next move
                        await asyncio.to_thread(table.bots.catch_up)
                        out[f"{kind}, then the bots' memory"].append(
                            time.perf_counter() - started)
                        out[f"{kind}, then the bots' memory (CPU)"].append(
                            time.process_time() - cpu)
    finally:
        await tables.close()
        await store.close()
    return out


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(result: dict[str, Any], run: Run) -> None:
    ms = 1000.0
    trips = result["round_trips"]
    n = run.tables
    seats = f"server {run.server_bots} bots (bot delay {run.bot_delay:g} s), a spectator " \
        "each" if run.server_bots else \
        f"4 clients each ({run.bot} bot, think {run.think:g} s" + (
            f" ± {run.think_spread * 100:g}%)" if run.think_spread else ")")
    if not run.deflate:
        seats += ", no compression"
    if run.ack_frames:
        seats += ", acks as frames of their own"
    if run.workers > 1:
        seats += f", {run.workers} server processes"
    if run.talk_flood:
        seats += f", a flood of {run.talk_flood:g} reactions a second at each table"
    if run.client_processes > 1:
        seats += f", clients in {run.client_processes} processes"
    print(f"{n} tables, {seats}, {run.profile}, {result['seconds']:.1f} s; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"moves: {result['moves']} ({result['moves_per_s']:.1f} moves/s); "
          f"games finished or stopped: {len(result['games'])}")
    if trips:
        print(f"move round trip: p50 {percentile(trips, 0.5) * ms:.1f} ms, "
              f"p99 {percentile(trips, 0.99) * ms:.1f} ms, max {trips[-1] * ms:.1f} ms "
              f"({len(trips)} moves)")
    handled = result["handled_trips"]
    if handled:
        print(f"the same until the client had handled the state (and the rest read in that "
              f"turn): p50 {percentile(handled, 0.5) * ms:.1f} ms, p99 "
              f"{percentile(handled, 0.99) * ms:.1f} ms, max {handled[-1] * ms:.1f} ms")
    table = result["table_trips"]
    if table:
        print(f"table round trip (until all 4 seats have the move): p50 "
              f"{percentile(table, 0.5) * ms:.1f} ms, p99 {percentile(table, 0.99) * ms:.1f} "
              f"ms, max {table[-1] * ms:.1f} ms")
    lag = result["lag"]
    if lag:
        print(f"event-loop lag (ping round trip every {PING_EVERY * ms:.0f} ms): "
              f"p50 {percentile(lag, 0.5) * ms:.1f} ms, p99 {percentile(lag, 0.99) * ms:.1f} "
              f"ms, max {lag[-1] * ms:.1f} ms ({len(lag)} pings)")
    grown = result["rss_after"] - result["rss_before"]
    main = result["main_after"] - result["main_before"]
    print(f"server RSS: {result['main_before'] / 1024:.1f} MiB before, "
          f"{result['main_after'] / 1024:.1f} MiB after: {main / 1024 / n:.3f} MiB per table "
          f"(with its child processes, {result['rss_before'] / 1024:.1f} and "
          f"{result['rss_after'] / 1024:.1f} MiB: {grown / 1024 / n:.3f} MiB per table)")
    per_move = result["server_cpu"] / max(1, result["moves"]) * ms
    print(f"server CPU: {result['server_cpu']:.1f} s in {result['seconds']:.1f} s "
          f"({result['server_cpu'] / result['seconds'] * 100:.0f}% of one core, "
          f"{per_move:.2f} ms a move); the clients' processes: {result['client_cpu']:.1f} s "
          f"({result['client_cpu'] / max(1, result['moves']) * ms:.2f} ms a move)")
    joined = result["joined"]
    if joined is None:
        print("steady play: not every client had joined before the end")
    elif joined["seconds"] > 0:
        moves, spent = joined["moves"], joined["cpu"]
        steady, later = joined["lag"], joined["trips"]
        print(f"once every client had joined ({joined['after']:.1f} s in; the last "
              f"{joined['seconds']:.1f} s): {moves} moves, server CPU {spent:.1f} s "
              f"({spent / max(1, moves) * ms:.2f} ms a move)"
              + (f", move round trip p50 {percentile(later, 0.5) * ms:.1f} ms, p99 "
                 f"{percentile(later, 0.99) * ms:.1f} ms" if later else "")
              + (f", event-loop lag p50 {percentile(steady, 0.5) * ms:.1f} ms, p99 "
                 f"{percentile(steady, 0.99) * ms:.1f} ms, max {steady[-1] * ms:.1f} ms "
                 f"({len(steady)} pings)" if steady else ""))
        if "collections" in joined:
            report_collections(joined["collections"], joined["seconds"], moves)
    shares = result["server_moves"]
    if shares:
        within = ", ".join(f"{bound * ms:g} ms {share * 100:.1f}%"
                           for bound, share, _ in shares
                           if bound != float("inf") and 0.005 <= bound <= 0.5)
        print(f"the server's own figure once every client had joined (its /metrics: a "
              f"move read until acknowledged, {shares[-1][2]:.0f} moves): within {within}")
    own = result["own_lag"]
    if own:
        print(f"the clients' own event loop (a 20 ms sleep woken late by): p50 "
              f"{percentile(own, 0.5) * ms:.1f} ms, p99 {percentile(own, 0.99) * ms:.1f} ms, "
              f"max {own[-1] * ms:.1f} ms (a move's round trip includes it)")
    if result["talk"]:
        print("reactions: " + ", ".join(f"{k} {v}" for k, v in sorted(result["talk"].items())))
    for text in result["errors"][:5]:
        print(f"error: {text}")
    # with --server-bots nobody sends a move: the round trip is then the ping's
    p99 = percentile(trips or lag, 0.99) * ms if trips or lag else float("nan")
    print(f"server_load: {n} tables, p99 {p99:.1f} ms, {len(result['errors'])} errors, "
          f"{result['moves_per_s']:.0f} moves/s")


def report_collections(collections: Sequence[Sequence[float]], seconds: float,
                       moves: int) -> None:
    """The server's garbage collections once every client had joined (``--collector-log``):
    for each generation, how many, their pauses (wall time: p50, p99, max) and their CPU in
    all, a second and a move."""
    ms = 1000.0
    for generation, name in enumerate(("young", "middle", "full")):
        mine = [c for c in collections if c[1] == generation]
        if not mine:
            print(f"  {name} collections: none")
            continue
        pauses = sorted(c[2] for c in mine)
        cpu = sum(c[3] for c in mine)
        print(f"  {name} collections: {len(mine)} ({len(mine) / seconds:.2f} a second), "
              f"pause p50 {percentile(pauses, 0.5) * ms:.2f} ms, p99 "
              f"{percentile(pauses, 0.99) * ms:.2f} ms, max {pauses[-1] * ms:.2f} ms; CPU "
              f"{cpu * ms:.0f} ms in all, {cpu / max(1, moves) * 1e6:.1f} µs a move; freed "
              f"{sum(int(c[4]) for c in mine) / len(mine):.0f} objects each on average")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--flood"]:
        flood_main(int(args[1]), float(args[2]), float(args[3]), args[4:])
        return 0
    if args[:1] == ["--probe"]:
        probe_main(int(args[1]), args[2], args[3], float(args[4]))
        return 0
    if args[:1] == ["--clients"]:
        clients_main(int(args[1]), args[2], args[3], args[4])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="concurrent tables (1-2000)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="how long the clients play (at most 3600)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a client waits on its turn before moving (default 1)")
    parser.add_argument("--think-spread", type=float, default=0.0, metavar="F",
                        help="each wait drawn uniformly from think x (1 - F) to think x "
                             "(1 + F), seeded (default 0: every table in step)")
    parser.add_argument("--bot", default="hard", help="the bot choosing the clients' moves")
    parser.add_argument("--profile", default="partnership-13")
    parser.add_argument("--rounds", type=int, help="rounds per game (default the profile's)")
    parser.add_argument("--server-bots", metavar="LEVEL",
                        help="seats played by server bots of this level (a spectator each)")
    parser.add_argument("--bot-delay", type=float, default=0.0,
                        help="the server's --bot-delay (default 0; handfoot serve's is 0.9)")
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes (handfoot serve --workers; PostgreSQL only): "
                             "the seats of a table land on different ones")
    parser.add_argument("--database-url", help="another database (default: SQLite in a "
                                               "temporary folder)")
    parser.add_argument("--no-deflate", action="store_true",
                        help="clients ask for no per-message compression (browsers do ask)")
    parser.add_argument("--ack-frames", action="store_true",
                        help="clients ask for each move's ack as a frame of its own (the "
                             "protocol's default) instead of within the state that shows "
                             "the move (what the browser's client asks for)")
    parser.add_argument("--talk-flood", type=float, default=0.0, metavar="RATE",
                        help="a second connection of seat 0 at each table sends RATE "
                             "reactions a second")
    parser.add_argument("--client-processes", type=int, metavar="K",
                        help="spread the tables' clients over K processes (default: one "
                             "per 500 tables), so that one process's own event loop does "
                             "not hold the round trips it measures up")
    parser.add_argument("--connect-slice", type=int, default=0, metavar="N",
                        help="each clients' process opens at most N connections a turn of "
                             "its event loop (default 0: all at once)")
    parser.add_argument("--moves-out", metavar="FILE", default="",
                        help="write each move's end and round trip, and the lag probe's "
                             "pings, to FILE as JSON (seconds from the start)")
    parser.add_argument("--trace-clients", metavar="PREFIX", default="",
                        help="each clients' process (--client-processes 2 or more) notes "
                             "its event loop's lateness and samples its stack while late "
                             "(handfoot.web.pg_trace), to PREFIX.PID as JSON")
    parser.add_argument("--profile-clients", metavar="FILE", default="",
                        help="run each clients' process (--client-processes 2 or more) "
                             "under cProfile, its statistics to FILE.PID")
    parser.add_argument("--profile-server", metavar="FILE", type=Path,
                        help="run the server under cProfile, its statistics to FILE")
    parser.add_argument("--profile-play", metavar="FILE", type=Path,
                        help="the same, the profiler on only once every client has joined "
                             "its table (the play, not the joins)")
    parser.add_argument("--collector-log", action="store_true",
                        help="note the server's garbage collections (gc.callbacks) and "
                             "print their pauses once every client had joined")
    parser.add_argument("--server-thresholds", type=int, nargs=3, default=(),
                        metavar=("G0", "G1", "G2"),
                        help="the server's collector thresholds instead of "
                             "web/collector.py's (implies --collector-log)")
    parser.add_argument("--serve-arg", action="append", default=[], metavar="ARG",
                        help="an argument more for handfoot serve (repeatable), like "
                             "--serve-arg=--allowed-host=localhost")
    parser.add_argument("--compiled", nargs="?", const="", metavar="DIR",
                        help="serve from the compiled build: an unpacked one in DIR, or (no "
                             "DIR) one built from this tree first (about a minute)")
    parser.add_argument("--restore", type=int, metavar="GAMES",
                        help="measure instead how long bringing a game back into memory "
                             "takes, over GAMES finished and GAMES ongoing games")
    ns = parser.parse_args(args)
    if ns.compiled is not None:  # the server (a child process) runs what the clients run
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from compiled import rerun_compiled, without_option

        rerun_compiled(__file__, without_option(args, "--compiled", ns.compiled), ns.compiled)
    print(f"handfoot {handfoot.__version__}, {handfoot.build}", flush=True)
    if ns.restore:
        with tempfile.TemporaryDirectory(prefix="handfoot-restore-") as tmp:
            times = asyncio.run(restore_times(Path(tmp), ns.restore, ns.rounds))
        for kind, values in times.items():
            ordered = sorted(values)
            print(f"restore {kind}: min {ordered[0] * 1000:.1f} ms, median "
                  f"{statistics.median(ordered) * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} "
                  f"ms ({len(ordered)} loads)")
        return 0
    if not 1 <= ns.tables <= 2000 or not 0 < ns.seconds <= 3600 or ns.think < 0 \
            or not 0 <= ns.think_spread <= 1:
        parser.error("--tables 1..2000, --seconds 0..3600, --think at least 0, "
                     "--think-spread 0..1")
    processes = ns.client_processes
    if processes is None:
        processes = 1 if ns.server_bots else max(1, (ns.tables + 499) // 500)
    if ns.connect_slice < 0:
        parser.error("--connect-slice: at least 0")
    if not 1 <= processes <= 8 or (processes > 1 and ns.server_bots):
        parser.error("--client-processes 1..8, and 1 with --server-bots")
    run = Run(ns.tables, ns.seconds, ns.think, ns.bot, ns.profile, ns.rounds, ns.server_bots,
              not ns.no_deflate, ns.bot_delay, ns.workers, ns.talk_flood, processes,
              ns.think_spread, ns.ack_frames, ns.collector_log,
              tuple(ns.server_thresholds), tuple(ns.serve_arg),
              str(Path(ns.profile_clients).resolve()) if ns.profile_clients else "",
              ns.connect_slice, str(Path(ns.moves_out).resolve()) if ns.moves_out else "",
              str(Path(ns.trace_clients).resolve()) if ns.trace_clients else "")
    with tempfile.TemporaryDirectory(prefix="handfoot-load-") as tmp:
        result = run_loop(benchmark(run, ns.database_url, Path(tmp),
                                    ns.profile_server or ns.profile_play,
                                    0 if ns.profile_server else joins_expected(run)))
        log = (Path(tmp) / "server.log").read_text(errors="replace").strip()
        if log:
            print("server log:", log[-2000:], sep="\n")
    report(result, run)
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
