"""Games per second in one process, in local worker processes and on a local Dask cluster,
and what going through the Dask scheduler costs per game.

    python benchmarks/cluster.py [--games N] [--bots random] [--rounds R] [--repeats 3]

Each way plays the same ``--games`` games of ``handfoot simulate`` (the same seeds, so the
same games: the statistics are checked equal) ``--repeats`` times and prints min, median
and max of the wall time's games per second. The overhead per game is measured twice:

* a game's wall time through a one-worker Dask cluster minus in this process (the
  scheduler's round trips, pickling the profile and the summaries, per game);
* empty tasks through the scheduler: wall time and this (client) process's CPU time per
  task, the cost a game pays whatever it does (tasks go in chunks of up to 8, as games do).

Needs ``pip install 'handfoot[cluster]'``. The Dask workers are processes of this machine
started by ``LocalCluster`` (one thread each, no dashboard).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from handfoot.cluster import DaskRunner, run_tasks
from handfoot.rules import DEFAULT_PROFILE, Profile, load_profile
from handfoot.sim import simulate


def timed(play: Callable[[], object], repeats: int) -> tuple[list[float], list[float], object]:
    """Wall and CPU (this process) seconds of ``repeats`` calls, and the last result."""
    walls: list[float] = []
    cpus: list[float] = []
    result: object = None
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        result = play()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus, result


def spread(values: list[float], scale: float = 1.0, fmt: str = "{:.1f}") -> str:
    v = sorted(x * scale for x in values)
    return "min " + fmt.format(v[0]) + ", median " + fmt.format(statistics.median(v)) \
        + ", max " + fmt.format(v[-1])


def nothing(x: int) -> int:
    return x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default=DEFAULT_PROFILE)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds per game (default 1: short games show the overhead)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--empty-tasks", type=int, default=400)
    args = parser.parse_args()
    import distributed

    dask: Any = distributed  # LocalCluster is not typed

    profile: Profile = load_profile(args.profile, overrides={"rounds": args.rounds})
    bots = args.bots.split(",")
    n = args.games

    def run(**where: Any) -> Callable[[], object]:
        return lambda: simulate(profile, n, 1, bots=bots, **where).as_dict()

    print(f"{n} games of {profile.name} ({args.rounds} round(s)), bots {args.bots}, "
          f"{args.repeats} repeats; games/s from wall time")
    rows: dict[str, list[float]] = {}
    reference = None

    def report(name: str, play: Callable[[], object]) -> None:
        nonlocal reference
        walls, cpus, result = timed(play, args.repeats)
        if reference is None:
            reference = result
        assert result == reference, f"{name}: other statistics than in one process"
        rows[name] = walls
        print(f"  {name:<28} games/s {spread([n / w for w in walls])}; this process's "
              f"CPU ms/game {spread([c / n for c in cpus], 1000)}", flush=True)

    report("one process", run())
    report("2 local processes", run(workers=2))
    for workers in (1, 2):
        with dask.LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                          dashboard_address=None) as cluster:
            address = cluster.scheduler_address
            run(scheduler=address)()  # warm up: the workers import handfoot once
            report(f"Dask, {workers} worker(s)", run(scheduler=address))
            if workers == 1:
                tasks = [(k, (k,)) for k in range(args.empty_tasks)]
                walls, cpus, _ = timed(partial(run_tasks, nothing, tasks,
                                               DaskRunner(address)), args.repeats)
    one = statistics.median(rows["one process"]) / n
    dask1 = [w / n - one for w in rows["Dask, 1 worker(s)"]]
    print(f"overhead per game through the scheduler (1 worker, vs one process): "
          f"{spread(dask1, 1000, '{:.2f}')} ms wall")
    print(f"an empty task through the scheduler ({args.empty_tasks} tasks, connecting "
          f"included): {spread([w / args.empty_tasks for w in walls], 1000, '{:.2f}')} ms "
          f"wall, {spread([c / args.empty_tasks for c in cpus], 1000, '{:.2f}')} ms CPU of "
          "this process")


if __name__ == "__main__":
    main()
