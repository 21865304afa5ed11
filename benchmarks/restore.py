"""CPU time to bring an idle game back into memory (issue 12, item 7: "restoring one ≤ 20 ms").

A restore is :meth:`Tables.get` after :meth:`Tables.drop_idle`: read the game from the
database, then play its stored moves again. This benchmark stores games once in a SQLite
file, then measures restores in processes of their own, so that the code before a change
and after it (``--baseline SRC``: another checkout's ``src`` folder) load the very same
games alternately in one run on the same machine, whatever its load:

    python benchmarks/restore.py --games 4 --loads 5 --runs 3
    python benchmarks/restore.py --games 4 --runs 3 --baseline /tmp/handfoot-base/src
    python benchmarks/restore.py --code BUILD/site --baseline BASE_BUILD/site   # compiled

The games (partnership-13, four rounds; a person's seat and three hard bots' seats, every
move chosen by a hard bot from its seat's view, as ``server_load.py --restore`` plays
them): ``--games`` finished ones and as many stopped halfway. Each run loads every game
``--loads`` times per code version and prints, per kind of game and code version, the
CPU time (:func:`time.process_time`, the process's threads included: the database is read
in aiosqlite's thread) of each load, min / median / max over all runs. Last line::

    restore: finished median <A> ms CPU (baseline <B> ms), ongoing median <C> ms (<D> ms)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

KINDS = ("finished", "ongoing")
PROFILE = "partnership-13"


async def make_games(path: Path, games: int) -> dict[str, list[str]]:
    """Store ``games`` finished and ``games`` half-played games in a new SQLite file."""
    from handfoot.bots.registry import make_bot
    from handfoot.game.engine import GameState
    from handfoot.game.loading import load_profile
    from handfoot.game.moves import format_move
    from handfoot.game.rules import Layout
    from handfoot.runs.sim import bot_turn, derive_seed
    from handfoot.web.store import GameRow, MoveRow, SeatRow, Store, now, token_hash

    url = f"sqlite+aiosqlite:///{path}"
    store = Store(url)
    await store.start()
    profile = load_profile(PROFILE)
    layout = Layout.parse("2x2")
    made: dict[str, list[str]] = {kind: [] for kind in KINDS}
    try:
        for kind in KINDS:
            for i in range(games):
                seed = derive_seed(i, "restore-benchmark", kind)
                game_id = f"{kind}-{i}"
                stamp = now()
                seats = (SeatRow(0, "human", None, "Ann", token_hash(f"t{i}")),
                         *(SeatRow(s, "bot", "hard", f"Bot {s}") for s in (1, 2, 3)))
                await store.create_game(GameRow(
                    id=game_id, profile=PROFILE, overrides={}, layout="2x2", settings={},
                    seed=seed, spectator_hash=token_hash(f"s{i}"), status="playing",
                    created=stamp, updated=stamp, seats=seats))
                state = GameState.new(profile, layout=layout, seed=seed)
                bots = [make_bot("hard", derive_seed(seed, "bot", s)) for s in range(4)]
                stop = 95 * profile.rounds if kind == "ongoing" else None
                seq = 0
                while not state.is_over and (stop is None or seq < stop):
                    seat = state.to_act
                    move = bot_turn(bots[seat], state, seat)
                    state.apply(move)
                    seq += 1
                    await store.add_move(game_id, MoveRow(
                        seq, state.round_number, seat, format_move(move),
                        "human" if seat == 0 else "bot", f"r{seq}" if seat == 0 else None),
                        status="over" if state.is_over else None)
                made[kind].append(game_id)
    finally:
        await store.close()
    return made


async def measure(path: Path, made: dict[str, list[str]], loads: int) -> dict[str, list[float]]:
    """CPU seconds of each restore: every game ``loads`` times, the kinds alternately."""
    from handfoot.web.settings import Settings
    from handfoot.web.store import Store
    from handfoot.web.tables import Tables

    url = f"sqlite+aiosqlite:///{path}"
    store = Store(url)
    tables = Tables(store, Settings(database_url=url))
    out: dict[str, list[float]] = {kind: [] for kind in made}
    try:
        await tables.get(made["finished"][0])  # the first load reads the profile
        for _ in range(loads):
            for kind, ids in made.items():
                for game_id in ids:
                    await tables.drop_idle(time.monotonic() + 1e9)
                    cpu = time.process_time()
                    table = await tables.get(game_id)
                    out[kind].append(time.process_time() - cpu)
                    assert table is not None and table.seq > 0
    finally:
        await tables.close()
        await store.close()
    return out


def _child(argv: Sequence[str]) -> int:
    """``--child DB GAMES_JSON LOADS``: measure in this process, print JSON."""
    path, made, loads = Path(argv[0]), json.loads(argv[1]), int(argv[2])
    print(json.dumps(asyncio.run(measure(path, made, loads))))
    return 0


def _run_child(src: Path, path: Path, made: dict[str, list[str]],
               loads: int) -> dict[str, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, __file__, "--child", str(path), json.dumps(made),
                           str(loads)], env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _figures(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"{ordered[0] * 1000:.1f} / {statistics.median(ordered) * 1000:.1f} / "
            f"{ordered[-1] * 1000:.1f} ms")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--child"]:
        return _child(args[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games of each kind")
    parser.add_argument("--loads", type=int, default=5, help="loads of each game per run")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs (each code version once per run, alternately)")
    parser.add_argument("--baseline", type=Path, metavar="SRC",
                        help="the src folder of the code to compare with")
    parser.add_argument("--code", type=Path, metavar="SRC",
                        help="the code measured (default this tree's src; or an unpacked "
                             "compiled build, see benchmarks/compiled.py)")
    ns = parser.parse_args(args)
    here = ns.code or Path(__file__).resolve().parent.parent / "src"
    versions = {"this": here.resolve()}
    if ns.baseline:
        versions["baseline"] = ns.baseline.resolve()
    with tempfile.TemporaryDirectory(prefix="handfoot-restore-") as tmp:
        path = Path(tmp) / "games.db"
        made = asyncio.run(make_games(path, ns.games))
        print(f"{ns.games} finished four-round games and {ns.games} stopped halfway; "
              f"{ns.runs} runs of {ns.loads} loads each per version; load average "
              f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        times: dict[str, dict[str, list[float]]] = {
            v: {kind: [] for kind in KINDS} for v in versions}
        for run in range(ns.runs):
            order = list(versions) if run % 2 == 0 else list(reversed(versions))
            for version in order:
                for kind, values in _run_child(versions[version], path, made,
                                               ns.loads).items():
                    times[version][kind].extend(values)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    for version, src in versions.items():
        for kind in KINDS:
            values = times[version][kind]
            print(f"{version} ({src}): {kind}: CPU min / median / max {_figures(values)} "
                  f"({len(values)} loads)")

    def median(version: str, kind: str) -> str:
        return f"{statistics.median(times[version][kind]) * 1000:.1f} ms"

    base = "baseline" if ns.baseline else "this"
    print(f"restore: finished median {median('this', 'finished')} CPU (baseline "
          f"{median(base, 'finished')}), ongoing median {median('this', 'ongoing')} "
          f"({median(base, 'ongoing')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
