"""What the correspondence timers cost a server: the CPU time of one pass of a process's
timer loop (``handfoot.web.turns.claim_turns``: the query for turns needing something, and
the claim of each) over a SQLite database holding many correspondence games' turns, none due
(the usual case, once a second in every process), and with some due (each claimed by a
conditional UPDATE).

    python benchmarks/timers.py [--turns 2000] [--due 20] [--reps 50]

Prints, for each case, the CPU time (``time.process_time``) of a pass, min/median/max over
the repeats. The database is a temporary file; nothing is played (only the rows are read
and claimed).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import insert

from handfoot.web.store import Store, games, turns
from handfoot.web.turns import TIMER_LEASE, claim_turns


async def _fill(store: Store, count: int, due: int, at: datetime) -> None:
    rows = [{"id": f"g{i}", "profile": "biegames", "overrides": {}, "layout": "2x1",
             "settings": {}, "seed": "1", "spectator_hash": "x", "status": "playing",
             "created": at, "updated": at} for i in range(count)]
    later = at + timedelta(hours=20)
    turn_rows = [{"game": f"g{i}", "seq": 10, "seat": 0, "started": at,
                  "due": at if i < due else later, "notified": True, "fired": False,
                  "worker": None, "lease": None} for i in range(count)]
    async with store.engine.begin() as conn:
        await conn.execute(insert(games), rows)
        await conn.execute(insert(turns), turn_rows)


async def _measure(count: int, due: int, reps: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite+aiosqlite:///{Path(folder) / 'timers.db'}")
        await store.start()
        try:
            at = datetime(2026, 12, 6, 12, 0)
            await _fill(store, count, due, at)
            await claim_turns(store, "warm", at - timedelta(days=1))  # a first connection
            out = []
            for rep in range(reps):
                # every claim from the pass before has lapsed by this pass's time
                now = at + timedelta(seconds=(TIMER_LEASE + 1) * (rep + 1))
                start = time.process_time()
                won = await claim_turns(store, f"w{rep}", now)
                out.append(time.process_time() - start)
                assert len(won) == min(due, 50), len(won)
            return out
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--due", type=int, default=20)
    parser.add_argument("--reps", type=int, default=50)
    args = parser.parse_args()
    for due in (0, args.due):
        times = asyncio.run(_measure(args.turns, due, args.reps))
        ms = [t * 1000 for t in times]
        print(f"{args.turns} turns, {due} due: {min(ms):.2f}/{statistics.median(ms):.2f}/"
              f"{max(ms):.2f} ms CPU a pass (min/median/max of {args.reps})")


if __name__ == "__main__":
    main()
