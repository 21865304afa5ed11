"""No acknowledged move is ever lost: the real server killed with SIGKILL in mid-game, again
and again (issue 12, item 4).

``handfoot serve`` runs as a subprocess on a SQLite file (WAL, ``synchronous=NORMAL``) with
``--bot-delay 0``. Fifty games are played over WebSockets: some with one or two person seats
played by client-side bots, some by four server bots watched by a spectator. The server is
killed with SIGKILL twenty times, each time after a random number of moves (sometimes
while it is still rebuilding its games), and started again on the same file; every client
reconnects with the last seq it saw. Every move a client saw acknowledged (its own ``ack``)
or announced (an event in a ``state`` frame) must still be there after each restart, with
the same notation, and every game must go on to its end.

``HANDFOOT_DURABILITY=big`` plays the bigger variant: whole four-round games and forty kills.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_clients import SeatClient, Shadow, Stats, token_of  # noqa: E402
from server_load import Server, create_game  # noqa: E402

from handfoot.bots.registry import make_bot  # noqa: E402
from handfoot.runs.sim import derive_seed  # noqa: E402
from handfoot.web.store import Store  # noqa: E402

BIG = os.environ.get("HANDFOOT_DURABILITY") == "big"
GAMES = 50
KILLS = 40 if BIG else 20
ROUNDS = None if BIG else 1
MOVES_BETWEEN_KILLS = 600 if BIG else 180
"""About how many moves (over all games) are played between two kills, on average."""
TIME_LIMIT = 1800.0 if BIG else 600.0


def _game_body(i: int) -> dict[str, Any]:
    """Game ``i``'s settings: one person and three bots, two partners against two bots, or
    four bots (watched by a spectator)."""
    levels = ("hard", "hard", "normal", "hard")
    bots = [{"kind": "bot", "level": levels[(i + s) % len(levels)]} for s in range(4)]
    if i % 3 == 0:
        seats = [{"kind": "human", "name": "Ann"}, *bots[1:]]
    elif i % 3 == 1:
        seats = [{"kind": "human", "name": "Ann"}, bots[1],
                 {"kind": "human", "name": "Bob"}, bots[3]]
    else:
        seats = bots
    body: dict[str, Any] = {"profile": "biegames" if i % 4 == 3 else "partnership-13",
                            "layout": "2x2", "seats": seats, "absent": "wait"}
    if ROUNDS is not None:
        body["rounds"] = ROUNDS
    return body


async def _clients(server: Server, store: Store, stats: Stats,
                   ) -> tuple[list[Shadow], list[SeatClient]]:
    shadows: list[Shadow] = []
    clients: list[SeatClient] = []
    for i in range(GAMES):
        game = await create_game(server, _game_body(i))
        shadow = await Shadow.load(store, game["game_id"])
        shadows.append(shadow)
        people = [s for s in game["seats"] if s["kind"] == "human"]
        for s in people:
            bot = make_bot("hard", derive_seed(i, "durability", s["seat"]))
            clients.append(SeatClient(server, shadow, token_of(s["link"]), s["seat"], bot,
                                      stats, reconnect=True))
        if not people:
            clients.append(SeatClient(server, shadow, token_of(game["spectator_link"]),
                                      None, None, stats, reconnect=True))
    return shadows, clients


async def _scenario(tmp: Path) -> tuple[Stats, list[Shadow], list[SeatClient], Server,
                                        dict[str, list[str]], int]:
    url = f"sqlite+aiosqlite:///{tmp / 'games.db'}"
    server = Server(url, bot_delay=0.0, log=tmp / "server.log")
    store = Store(url)
    stats = Stats()
    rng = random.Random(20261201)
    server.start()
    kills = 0
    try:
        await server.ready()
        shadows, clients = await _clients(server, store, stats)
        deadline = time.monotonic() + TIME_LIMIT
        tasks = [asyncio.create_task(c.run(deadline)) for c in clients]

        def played() -> int:
            return sum(s.seq for s in shadows)

        def all_over() -> bool:
            return all(s.state.is_over for s in shadows)

        for _ in range(KILLS):
            target = played() + rng.randint(0, 2 * MOVES_BETWEEN_KILLS)
            while played() < target and not all_over() and time.monotonic() < deadline:
                await asyncio.sleep(0.005)
            if all_over():
                break
            server.kill(signal.SIGKILL)
            kills += 1
            server.start()
            await server.ready()
        await asyncio.wait_for(asyncio.gather(*tasks), max(1.0, deadline - time.monotonic()))
        stored = {s.game_id: [m.notation for m in await store.moves(s.game_id)]
                  for s in shadows}
        return stats, shadows, clients, server, stored, kills
    finally:
        server.kill(signal.SIGTERM)
        await store.close()


def test_sigkill_loses_no_acknowledged_move_and_every_game_ends(tmp_path: Path) -> None:
    stats, shadows, clients, server, stored, kills = asyncio.run(_scenario(tmp_path))
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert kills == KILLS, f"the games ended after {kills} kills: play more between kills"
    assert server.starts == KILLS + 1
    assert not stats.lost, stats.lost[:5]
    assert not stats.errors, (stats.errors[:5], log[-3000:])
    assert "Traceback" not in log, log[-3000:]
    assert stats.reconnects >= KILLS  # every client came back after each kill it saw
    for shadow in shadows:
        assert shadow.state.is_over, (shadow.game_id, shadow.seq)
        moves = stored[shadow.game_id]
        assert len(moves) == shadow.seq
    acknowledged = 0
    for client in clients:
        moves = stored[client.shadow.game_id]
        for n, notation in client.acked.items():
            assert moves[n - 1] == notation, (client.shadow.game_id, n, notation)
        acknowledged += len(client.acked)
    assert acknowledged >= sum(s.seq for s in shadows)
