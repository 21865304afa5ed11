"""What one move costs the web server, in pieces: CPU time per move of each step of a
person's move, in one process, without sockets.

A :class:`~handfoot.web.table.Table` on a real SQLite :class:`~handfoot.web.store.Store`
(its grouped commits, on aiosqlite's thread) with four seats and a spectator, each a real
:class:`~handfoot.web.connection.Connection` (its queue and writer task) on a socket
stand-in that takes each frame as it comes; hard bots choose the moves outside the
measured time. Each move goes the way ``Table._move`` takes it, each step timed
(``time.process_time``: the process's CPU, the database thread's included), with the
garbage collector tuned as a server's (web/collector.py: with CPython's defaults, the
collections the bots' allocations set off land in the measured steps, ``views`` most,
and weigh a third of them; ``--default-collector`` measures that way):

- ``verify``: the notation read and the move checked by the engine;
- ``store``: the move committed (``Store.add_move``: the group commit, its hops to the
  database thread and SQLite's own work);
- ``play``: the move played as checked (engine, statistics, the bots' notes, metrics);
- ``views``: every connection's ``state`` (the public part once, each seat's own part, the
  JSON), the mover's carrying its acknowledgement (``"acks": "state"``, as the browser's
  client asks; ``--ack-frames``: an ``ack`` frame of its own first), sent or queued;
- ``writes``: the connections' writer tasks handing each frame to the socket.

What this leaves out is the server's part of the sockets: reading the move's frame
(uvicorn, websockets, Starlette, the JSON read) and writing five frames (the framing and
the system calls); ``benchmarks/server_load.py`` measures the whole, sockets included.

    python benchmarks/server_move.py [--moves 2000] [--reps 3] [--ack-frames] [--default-collector]
                                     [--compiled [DIR]]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import handfoot
from handfoot.bots.heuristic import Bot
from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import format_move, parse_move
from handfoot.game.rules import Profile
from handfoot.runs.sim import bot_turn, derive_seed
from handfoot.web import messages
from handfoot.web.connection import Connection
from handfoot.web.settings import Settings
from handfoot.web.store import GameRow, MoveRow, SeatRow, Store, now
from handfoot.web.table import Table

PIECES = ("verify", "store", "play", "views", "writes")


class _Socket:
    """Stands in for a Starlette WebSocket: takes each frame at once."""

    def __init__(self) -> None:
        self.frames = 0

    async def send_text(self, text: str) -> None:
        self.frames += 1

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


async def bench_table(store: Store, profile: Profile, settings: Settings, seed: int,
                      number: int, ack_frames: bool,
                      ) -> tuple[Table, list[Connection], GameState, list[Bot]]:
    """Game ``number`` of run ``seed``: a table of four people (in the database, with a
    connection to :class:`_Socket` for each seat and a spectator), its shadow game (the
    state the players' bots see) and the four hard bots that play it. Also for
    ``benchmarks/burst.py``."""
    row = GameRow(f"g{seed}-{number}", profile.name, {}, "2x2", {"absent": "wait"},
                  derive_seed(seed, "game", number), "h", "playing", now(), now(),
                  tuple(SeatRow(s, "human", None, f"P{s}", f"t{s}") for s in range(4)))
    await store.create_game(row)
    table = Table(row, profile, store, settings, lambda: None)  # type: ignore[arg-type,return-value]
    connections = [Connection(_Socket(), seat, acks_in_state=not ack_frames)  # type: ignore[arg-type]
                   for seat in (0, 1, 2, 3, None)]
    for conn in connections:
        table.connections.append(conn)
        conn.start()
    shadow = GameState.new(profile, layout=table.layout, seed=row.seed)
    bots = [make_bot("hard", derive_seed(seed, "bot", number, s)) for s in range(4)]
    return table, connections, shadow, bots


async def _drained(connections: list[Connection]) -> None:
    while any(c.queue.qsize() for c in connections):
        await asyncio.sleep(0)
    await asyncio.sleep(0)  # the writers' last send returns


async def one_rep(workdir: Path, moves: int, seed: int, ack_frames: bool = False,
                  ) -> dict[str, float]:
    """``moves`` moves (games one after another), CPU seconds per move of each piece."""
    url = f"sqlite+aiosqlite:///{workdir / f'moves-{seed}.db'}"
    store = Store(url)
    await store.start()
    profile = load_profile("partnership-13")
    cpu = dict.fromkeys(PIECES, 0.0)
    done = game = 0
    clock: Callable[[], float] = time.process_time
    try:
        while done < moves:
            table, connections, shadow, bots = await bench_table(
                store, profile, Settings(database_url=url), seed, game, ack_frames)
            while done < moves and not shadow.is_over:
                seat = shadow.to_act
                notation = format_move(bot_turn(bots[seat], shadow, seat))
                shadow.apply(parse_move(notation))
                if table.waiting() is not None:  # everyone presses Continue at once
                    table.continued |= {(len(table.state.results), s) for s in range(4)}
                await _drained(connections)
                request = f"r{done}"
                t0 = clock()
                effect = table.state.verify(parse_move(notation))
                t1 = clock()
                stored = MoveRow(table.seq + 1, table.state.round_number, seat, notation,
                              "human", request)
                await table.storing(functools.partial(store.add_move, table.id, stored),
                                    f"move {stored.seq}")
                t2 = clock()
                table._play(effect.seat, effect.move, request, "human",  # type: ignore[arg-type]
                            effect=effect)
                t3 = clock()
                if ack_frames:
                    connections[seat].send(messages.ack(request, table.seq))
                    table.broadcast()
                else:
                    table.broadcast(acked=(connections[seat], request))
                t4 = clock()
                await _drained(connections)
                t5 = clock()
                for piece, spent in zip(PIECES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3,
                                                 t5 - t4), strict=True):
                    cpu[piece] += spent
                done += 1
            for conn in connections:
                conn.close()
            await table.stop()
            game += 1
    finally:
        await store.close()
    return {piece: spent / moves for piece, spent in cpu.items()}


SOCKET_CLIENT = """
import sys
from websockets.sync.client import connect
port, rounds, answers = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
with connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22, compression=None) as ws:
    ws.send(f"{rounds} {answers}")
    for _ in range(rounds):
        ws.send('{"type":"move"}')
        for _ in range(answers):
            ws.recv()
"""
"""The socket benchmark's client (a process of its own): ``rounds`` times, one small frame
sent and ``answers`` frames awaited."""


async def socket_costs(rounds: int, answers: int, size: int = 2000) -> float:
    """The server's CPU (its event loop's thread, ``time.thread_time``) per round of one
    small frame received and ``answers`` frames of ``size`` characters sent, each round
    waiting for the one before (as a move does), over uvicorn, websockets and Starlette as
    ``handfoot serve`` runs them (no compression; each frame sent through a
    :class:`~handfoot.web.connection.Connection`, as a table sends it), to a client process
    on loopback: the sockets' part of a move, which :func:`one_rep` leaves out."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket

    payload = "x" * size
    spent: list[float] = []

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws, 0)  # each frame sent as a table sends it
        conn.start()
        count, each = map(int, (await ws.receive_text()).split())
        start = time.thread_time()
        for _ in range(count):
            await ws.receive_text()
            for _ in range(each):
                conn.send_text(payload)
            while conn.queue.qsize() or conn._sending:  # (a frame that had to wait)
                await asyncio.sleep(0)
        spent.append(time.thread_time() - start)
        conn.close()

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    with socket_port() as port:
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                               log_level="warning",
                                               ws_per_message_deflate=False))
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        client = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SOCKET_CLIENT, str(port), str(rounds), str(answers))
        await client.wait()
        while not spent:
            await asyncio.sleep(0.01)
        server.should_exit = True
        await serving
    return spent[0] / rounds


@contextlib.contextmanager
def socket_port() -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    yield port


def main() -> int:
    from compiled import add_compiled_option, rerun_if_compiled

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000, help="moves a repetition")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--frames", type=int, default=3000,
                        help="rounds in the WebSocket stack's measure")
    parser.add_argument("--ack-frames", action="store_true",
                        help="each move's ack a frame of its own, before the states")
    parser.add_argument("--default-collector", action="store_true",
                        help="CPython's collector thresholds, not the server's")
    add_compiled_option(parser)
    args = parser.parse_args()
    rerun_if_compiled(__file__, args.compiled, sys.argv[1:])
    print(f"handfoot {handfoot.__version__}, {handfoot.build}", flush=True)
    if not args.default_collector:
        from handfoot.web.collector import tune_for_serving

        tune_for_serving()  # the server's collector (web/collector.py)
    reps: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="handfoot-move-") as tmp:
        for rep in range(args.reps):
            reps.append(asyncio.run(one_rep(Path(tmp), args.moves, rep + 1,
                                            args.ack_frames)))
        sockets = [(asyncio.run(socket_costs(args.frames, 1)),
                    asyncio.run(socket_costs(args.frames, 4)),
                    asyncio.run(socket_costs(args.frames, 5))) for _ in range(args.reps)]
    print(f"CPU per move, {args.moves} moves a repetition, {args.reps} repetitions "
          "(min / median / max, microseconds):")
    totals = [sum(r.values()) for r in reps]
    for piece in (*PIECES, "total"):
        values = sorted(totals if piece == "total" else [r[piece] for r in reps])
        print(f"  {piece:7} {_spread(values)}")
    print(f"the WebSocket stack alone (uvicorn, websockets, Starlette, the system calls; "
          f"{args.frames} rounds, CPU of the server's loop thread, microseconds a round):")
    print(f"  a small frame read, one 2 KB frame written    {_spread([a for a, _, _ in sockets])}")
    print(f"  a small frame read, four 2 KB frames written  {_spread([b for _, b, _ in sockets])}"
          "  (as a move at a table of four: four states, the mover's with its ack)")
    print(f"  a small frame read, five 2 KB frames written  {_spread([c for _, _, c in sockets])}"
          "  (the same with the ack a frame of its own: --ack-frames)")
    return 0


def _spread(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"{ordered[0] * 1e6:7.1f} / {statistics.median(ordered) * 1e6:7.1f} / "
            f"{ordered[-1] * 1e6:7.1f}")


if __name__ == "__main__":
    sys.exit(main())
