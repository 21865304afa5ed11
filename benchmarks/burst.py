"""How long one turn of the server's event loop lasts when many tables move at once: the
loop's lag in a burst of moves, in one process, without sockets.

``--tables`` :class:`~handfoot.web.table.Table` s on a real SQLite
:class:`~handfoot.web.store.Store` (its grouped commits), each with four seats and a
spectator on socket stand-ins that take each frame at once, as real
:class:`~handfoot.web.connection.Connection` s; hard bots choose the moves outside the
measured time. Each burst hands every table's move to its table at the same moment (as
when a thousand tables move in step and their frames are read in one turn of the loop):
the moves are read, checked, committed in groups, played and broadcast. Meanwhile a probe
task comes back to the loop at every turn (``asyncio.sleep(0)``) and notes how long each
turn took: what a ping, or another table's move, waits at most for the loop. It prints the
turns' p50 and p99 weighted by their length (the turn a moment of the bursts falls in: what
a ping that comes at a random moment may wait), the longest turn (milliseconds) and the CPU
a move (``time.process_time``), and the longest pause of the garbage collector (tuned as
the server's: web/collector.py) during the bursts.

``--thresholds G0 G1 G2`` sets the collector's thresholds instead of the server's.
``--begin N`` lets N people's moves begin a turn (web/table.py, ``BEGIN_AT_ONCE``; 0: all
in the turn after their frames were read, as before it). ``--settle N`` lets a committed
group's moves go on N a turn (web/store.py,
``SETTLE_AT_ONCE``; 0: all in one turn, as before it); ``--ack-frames``: each move's ack a
frame of its own.

    python benchmarks/burst.py [--tables 200] [--bursts 20] [--reps 3] [--begin N] [--settle N]
                               [--ack-frames] [--compiled [DIR]]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from server_move import bench_table

import handfoot
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import format_move, parse_move
from handfoot.runs.sim import bot_turn
from handfoot.web import store as store_module
from handfoot.web import table as table_module
from handfoot.web.collector import THRESHOLDS, tune_for_serving
from handfoot.web.connection import Connection
from handfoot.web.protocol import read_message
from handfoot.web.settings import Settings
from handfoot.web.store import Store
from handfoot.web.table import Table

PROFILE = "partnership-13"


async def one_rep(workdir: Path, tables: int, bursts: int, seed: int, ack_frames: bool,
                  ) -> tuple[list[float], float, list[float]]:
    """``bursts`` bursts of a move at each of ``tables`` tables, after one not measured
    (then a full collection: every table's objects are old, as in a server that has played
    a while): the loop's turns (seconds) during the bursts, the CPU seconds a move, and the
    garbage collector's pauses (seconds) during the bursts."""
    url = f"sqlite+aiosqlite:///{workdir / f'burst-{seed}.db'}"
    store = Store(url)
    await store.start()
    profile = load_profile(PROFILE)
    settings = Settings(database_url=url)
    live: list[tuple[Table, list[Connection], GameState, list[Any]]] = []
    turns: list[float] = []
    pauses: list[float] = []
    cpu = 0.0
    moves = 0
    measuring = False
    collecting = 0.0

    def collector(phase: str, _info: dict[str, int]) -> None:
        nonlocal collecting
        if phase == "start":
            collecting = time.perf_counter()
        elif measuring:
            pauses.append(time.perf_counter() - collecting)

    gc.callbacks.append(collector)
    try:
        for t in range(tables):
            table, connections, shadow, bots = await bench_table(store, profile, settings,
                                                                 seed, t, ack_frames)
            live.append((table, connections, shadow, bots))
        for burst in range(bursts + 1):
            if burst == 1:  # after the burst that warms up
                gc.collect()
                measuring = True
            sent = []
            for table, connections, shadow, bots in live:
                if shadow.is_over:
                    continue
                if table.waiting() is not None:  # everyone presses Continue at once
                    table.continued |= {(len(table.state.results), s) for s in range(4)}
                seat = shadow.to_act
                notation = format_move(bot_turn(bots[seat], shadow, seat))
                shadow.apply(parse_move(notation))
                sent.append((table, connections[seat], {"type": "move", "id": f"m{burst}",
                                                        "seq": table.seq, "move": notation}))
            await asyncio.sleep(0.01)  # every connection's frames gone
            done = asyncio.Event()
            probing = asyncio.create_task(_probe(turns, done))
            await asyncio.sleep(0)
            start = time.process_time()
            await asyncio.gather(*(table.handle(conn, read_message(frame))
                                   for table, conn, frame in sent))
            spent = time.process_time() - start
            done.set()
            await probing
            if not measuring:
                del turns[:]
                continue
            cpu += spent
            moves += len(sent)
            for table, _, shadow, _ in live:  # every move was played
                assert table.state.to_act == shadow.to_act and table.state.is_over == shadow.is_over
        for table, connections, _, _ in live:
            for conn in connections:
                conn.close()
            await table.stop()
    finally:
        gc.callbacks.remove(collector)
        await store.close()
    return turns, cpu / max(moves, 1), pauses


async def _probe(turns: list[float], done: asyncio.Event) -> None:
    """Back to the loop at every turn until ``done``: each turn's length into ``turns``."""
    last = time.perf_counter()
    while not done.is_set():
        await asyncio.sleep(0)
        at = time.perf_counter()
        turns.append(at - last)
        last = at


def main() -> int:
    from compiled import add_compiled_option, rerun_if_compiled

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--bursts", type=int, default=20, help="moves a table a repetition")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--settle", type=int, help="moves let go a turn after a group's "
                        "commit (default: web/store.py's SETTLE_AT_ONCE; 0: all at once)")
    parser.add_argument("--begin", type=int, help="people's moves begun a turn (default: "
                        "web/table.py's BEGIN_AT_ONCE; 0: all at once, as before it)")
    parser.add_argument("--thresholds", type=int, nargs=3, metavar=("G0", "G1", "G2"),
                        help="the collector's thresholds (default: web/collector.py's)")
    parser.add_argument("--ack-frames", action="store_true",
                        help="each move's ack a frame of its own, before the states")
    add_compiled_option(parser)
    args = parser.parse_args()
    rerun_if_compiled(__file__, args.compiled, sys.argv[1:])
    if args.settle is not None:
        store_module.SETTLE_AT_ONCE = args.settle or 1_000_000  # type: ignore[misc]
    if args.begin is not None:
        table_module.BEGIN_AT_ONCE = args.begin
    print(f"handfoot {handfoot.__version__}, {handfoot.build}; moves begun "
          f"{getattr(table_module, 'BEGIN_AT_ONCE', 0) or 'all'} a turn, a group let go "
          f"{store_module.SETTLE_AT_ONCE} moves a turn; collector thresholds "
          f"{tuple(args.thresholds or THRESHOLDS)}", flush=True)
    try:
        import uvloop
        run: Any = uvloop.run
    except ImportError:  # pragma: no cover
        run = asyncio.run
    tune_for_serving()  # the server's collector (web/collector.py)
    if args.thresholds:
        gc.set_threshold(*args.thresholds)
    p50s, p99s, longest, cpus, gcs = [], [], [], [], []
    with tempfile.TemporaryDirectory(prefix="handfoot-burst-") as tmp:
        for rep in range(args.reps):
            turns, cpu, pauses = run(one_rep(Path(tmp), args.tables, args.bursts, rep + 1,
                                             args.ack_frames))
            gcs.append(max(pauses, default=0.0))
            p50s.append(_weighted(turns, 0.5))
            p99s.append(_weighted(turns, 0.99))
            longest.append(max(turns))
            cpus.append(cpu)
    print(f"{args.tables} tables, {args.bursts} bursts a repetition, {args.reps} repetitions "
          "(min / median / max):")
    for name, values, scale, unit in (("turn p50", p50s, 1e3, "ms"),
                                      ("turn p99", p99s, 1e3, "ms"),  # (by time)
                                      ("longest turn", longest, 1e3, "ms"),
                                      ("longest GC", gcs, 1e3, "ms"),
                                      ("CPU a move", cpus, 1e6, "µs")):
        ordered = sorted(values)
        print(f"  {name:12} {ordered[0] * scale:7.2f} / "
              f"{statistics.median(ordered) * scale:7.2f} / {ordered[-1] * scale:7.2f} {unit}")
    return 0


def _weighted(turns: list[float], share: float) -> float:
    """The turn a moment of the bursts falls in, at ``share`` of them ordered by the
    length of their turn (a ping that comes at a random moment waits up to its turn's
    length): the turns weighted by how long they last."""
    ordered = sorted(turns)
    total, running = sum(ordered), 0.0
    for turn in ordered:
        running += turn
        if running >= share * total:
            return turn
    return ordered[-1]


if __name__ == "__main__":
    sys.exit(main())
