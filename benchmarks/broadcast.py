"""What one broadcast costs the web server: CPU time per move of ``Table.broadcast`` alone.

The same hard-bot games (seeded) are replayed move by move at a
:class:`~handfoot.web.table.Table` with four seats and a spectator, each a real
:class:`~handfoot.web.connection.Connection` on a socket stand-in that takes each frame at
once; only the broadcast after each move is timed (``time.process_time``): every
connection's ``state`` (the public part once, each seat's own part, the JSON) and its
send. Each repetition replays the same games, so two builds or two commits compare move
for move, with less noise than ``benchmarks/server_move.py``'s whole move.

    python benchmarks/broadcast.py [--games 4] [--reps 5] [--compiled [DIR]]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from datetime import datetime
from typing import Any

import handfoot
from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.moves import format_move, parse_move
from handfoot.runs.sim import bot_turn, derive_seed
from handfoot.web.connection import Connection
from handfoot.web.settings import Settings
from handfoot.web.store import GameRow, MoveRow, SeatRow, now
from handfoot.web.table import Table

PROFILE = "partnership-13"


class _Store:
    """Takes every move (nothing is stored: only the broadcast is measured)."""

    async def add_move(self, game_id: str, move: MoveRow, *, status: str | None = None,
                       ) -> datetime:
        return now()


class _Socket:
    """Stands in for a Starlette WebSocket: takes each frame at once."""

    async def send_text(self, text: str) -> None:
        pass

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


def games(count: int, seed: int, most: int = 500) -> list[tuple[int, list[str]]]:
    """``count`` hard-bot games (at most ``most`` moves each): each one's seed and moves."""
    profile = load_profile(PROFILE)
    out = []
    for g in range(count):
        game_seed = derive_seed(seed, "game", g)
        state = GameState.new(profile, seed=game_seed)
        bots = [make_bot("hard", derive_seed(seed, "bot", g, s)) for s in range(4)]
        notes: list[str] = []
        while not state.is_over and len(notes) < most:
            notation = format_move(bot_turn(bots[state.to_act], state, state.to_act))
            state.apply(parse_move(notation))
            notes.append(notation)
        out.append((game_seed, notes))
    return out


async def one_rep(played: list[tuple[int, list[str]]]) -> float:
    """CPU seconds per move of the broadcasts after every move of ``played``."""
    profile = load_profile(PROFILE)
    spent, moves = 0.0, 0
    for game_seed, notes in played:
        row = GameRow("g", PROFILE, {}, "2x2", {"absent": "wait"}, game_seed, "h", "playing",
                      now(), now(), tuple(SeatRow(s, "human", None, f"P{s}", f"t{s}")
                                          for s in range(4)))
        store: Any = _Store()
        table = Table(row, profile, store, Settings(), lambda: None)  # type: ignore[arg-type,return-value]
        connections = [Connection(_Socket(), seat) for seat in (0, 1, 2, 3, None)]  # type: ignore[arg-type]
        for conn in connections:
            table.connections.append(conn)
            conn.start()
        for notation in notes:
            if table.waiting() is not None:  # everyone presses Continue at once
                table.continued |= {(len(table.state.results), s) for s in range(4)}
            effect = table.state.verify(parse_move(notation))
            table._play(effect.seat, effect.move, None, "human",  # type: ignore[arg-type]
                        effect=effect)
            start = time.process_time()
            table.broadcast()
            spent += time.process_time() - start
            moves += 1
            await asyncio.sleep(0)
        for conn in connections:
            conn.close()
        await asyncio.sleep(0)
    return spent / moves


def main() -> int:
    from compiled import add_compiled_option, rerun_if_compiled

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games replayed a repetition")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    add_compiled_option(parser)
    args = parser.parse_args()
    rerun_if_compiled(__file__, args.compiled, sys.argv[1:])
    print(f"handfoot {handfoot.__version__}, {handfoot.build}", flush=True)
    played = games(args.games, args.seed)
    values = sorted(asyncio.run(one_rep(played)) for _ in range(args.reps))
    print(f"broadcast CPU per move, {sum(len(n) for _, n in played)} moves a repetition, "
          f"{args.reps} repetitions (min / median / max, microseconds): "
          f"{values[0] * 1e6:.1f} / {statistics.median(values) * 1e6:.1f} / "
          f"{values[-1] * 1e6:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
