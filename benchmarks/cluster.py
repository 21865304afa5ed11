"""Games per second in one process, in local worker processes and on a local Dask cluster,
and what going through the Dask scheduler costs per game.

    python benchmarks/cluster.py [--games N] [--bots random] [--rounds R] [--repeats 3]

Each way plays the same ``--games`` games of ``handfoot simulate`` (the same seeds, so the
same games: the statistics are checked equal) ``--repeats`` times and prints min, median
and max of the wall time's games per second. The overhead per game is measured twice:

* a game's CPU time through a one-worker Dask cluster (this process, which holds the local
  scheduler, plus the worker) minus in one process: the scheduler's round trips, pickling
  the profile and the summaries, per game (CPU time, as wall time on a loaded machine says
  more about the load than about Dask);
* empty tasks through the scheduler: wall time and this (client) process's CPU time per
  task, the cost a game pays whatever it does (tasks go in chunks of up to 8, as games do).

Needs ``pip install 'handfoot[cluster]'``. The Dask workers are processes of this machine
started by ``LocalCluster`` (one thread each, no dashboard).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from handfoot.game.loading import DEFAULT_PROFILE, load_profile
from handfoot.game.rules import Profile
from handfoot.runs.cluster import DaskRunner, run_tasks
from handfoot.runs.sim import simulate


def timed(play: Callable[[], object], repeats: int,
          elsewhere: Callable[[], float] = lambda: 0.0,
          ) -> tuple[list[float], list[float], object]:
    """Wall and CPU seconds of ``repeats`` calls (CPU: this process's and ``elsewhere()``'s,
    the workers'), and the last result."""
    walls: list[float] = []
    cpus: list[float] = []
    result: object = None
    for _ in range(repeats):
        wall, cpu, other = time.perf_counter(), time.process_time(), elsewhere()
        result = play()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu + elsewhere() - other)
    return walls, cpus, result


def children_cpu() -> float:
    """CPU seconds of this process's finished child processes (a process pool's)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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

    cpu: dict[str, list[float]] = {}

    def report(name: str, play: Callable[[], object],
               elsewhere: Callable[[], float] = lambda: 0.0) -> None:
        nonlocal reference
        walls, cpus, result = timed(play, args.repeats, elsewhere)
        if reference is None:
            reference = result
        assert result == reference, f"{name}: other statistics than in one process"
        rows[name] = walls
        cpu[name] = [c / n for c in cpus]
        print(f"  {name:<20} games/s {spread([n / w for w in walls])}; CPU ms/game, every "
              f"process {spread(cpu[name], 1000)}", flush=True)

    report("one process", run())
    report("2 local processes", run(workers=2), children_cpu)
    for workers in (1, 2):
        with dask.LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                          dashboard_address=None) as cluster:
            address = cluster.scheduler_address
            run(scheduler=address)()  # warm up: the workers import handfoot once
            with dask.Client(address, set_as_default=False) as client:

                def workers_cpu(c: Any = client) -> float:
                    return float(sum(c.run(time.process_time).values()))

                report(f"Dask, {workers} worker(s)", run(scheduler=address), workers_cpu)
            if workers == 1:
                tasks = [(k, (k,)) for k in range(args.empty_tasks)]
                walls, cpus, _ = timed(partial(run_tasks, nothing, tasks,
                                               DaskRunner(address)), args.repeats)
    one = statistics.median(cpu["one process"])
    dask1 = [c - one for c in cpu["Dask, 1 worker(s)"]]
    print(f"overhead per game through the scheduler (1 worker, vs one process, CPU of every "
          f"process incl. the scheduler's): {spread(dask1, 1000, '{:.2f}')} ms")
    print(f"an empty task through the scheduler ({args.empty_tasks} tasks, connecting "
          f"included): {spread([w / args.empty_tasks for w in walls], 1000, '{:.2f}')} ms "
          f"wall, {spread([c / args.empty_tasks for c in cpus], 1000, '{:.2f}')} ms CPU of "
          "this process")


if __name__ == "__main__":
    main()
