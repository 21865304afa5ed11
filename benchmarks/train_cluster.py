"""A smoke-sized training run (``python -m handfoot.runs.train --smoke --games N``) in one
process, in 2 local processes and on a local Dask cluster of 2 worker processes.

    python benchmarks/train_cluster.py [--games 24] [--games-per-iteration 4] [--repeats 3]

Each way runs the same training ``--repeats`` times, as the command does (the Dask run
connects to the cluster each time), checks that every run writes the same ``.npz`` bytes,
and prints min, median and max of the wall time and of the CPU time of every process: this
one (the training steps; with Dask also the local scheduler and the nannies), plus the
process pool's children or the Dask workers. On a loaded machine the CPU time is the
steadier figure. Needs ``pip install 'handfoot[cluster]'``; the workers are processes of
this machine started by ``LocalCluster`` (one thread each, no dashboard), warmed up by
one run first (they import handfoot once).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cluster import children_cpu, spread, timed

from handfoot.game.loading import DEFAULT_PROFILE
from handfoot.runs.cluster import SCHEDULER_ENV
from handfoot.runs.train import main as train_main


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--profile", default=DEFAULT_PROFILE)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--games-per-iteration", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    import distributed

    dask: Any = distributed  # LocalCluster is not typed
    os.environ.pop(SCHEDULER_ENV, None)
    base = ["--smoke", "--profile", args.profile, "--games", str(args.games),
            "--games-per-iteration", str(args.games_per_iteration), "--seed", str(args.seed)]
    folder = Path(tempfile.mkdtemp(prefix="train-cluster-"))
    reference: bytes | None = None

    def run(*where: str) -> Callable[[], object]:
        def play() -> bytes:
            out = folder / "model"
            with contextlib.redirect_stderr(io.StringIO()):
                assert train_main([*base, *where, "--out", str(out)]) == 0
            return next(out.glob("*.npz")).read_bytes()
        return play

    def report(name: str, play: Callable[[], object],
               elsewhere: Callable[[], float] = lambda: 0.0) -> None:
        nonlocal reference
        walls, cpus, result = timed(play, args.repeats, elsewhere)
        assert isinstance(result, bytes)
        if reference is None:
            reference = result
        assert result == reference, f"{name}: another model than in one process"
        print(f"  {name:<26} wall s {spread(walls, fmt='{:.2f}')}; CPU s, every process "
              f"{spread(cpus, fmt='{:.2f}')}", flush=True)

    print(f"{args.games} one-round games of {args.profile} in iterations of "
          f"{args.games_per_iteration}, 2 evaluation games, seed {args.seed}, "
          f"{args.repeats} repeats")
    report("one process (--workers 1)", run("--workers", "1"))
    report("--workers 2", run("--workers", "2"), children_cpu)
    with dask.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                           dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        run("--scheduler", address)()  # warm up: the workers import handfoot once
        with dask.Client(address, set_as_default=False) as client:

            def workers_cpu(c: Any = client) -> float:
                return float(sum(c.run(time.process_time).values()))

            report("Dask, 2 workers", run("--scheduler", address), workers_cpu)
    print("every run wrote the same model")


if __name__ == "__main__":
    main()
