"""The load benchmark on a private PostgreSQL: ``benchmarks/server_load.py`` of a tree against
a new PostgreSQL 15 server of its own (``tests/pg.py``: initdb in a temporary folder,
``fsync=off``), which is stopped and removed afterwards.

    python benchmarks/pg_load.py -- --tables 1000 --seconds 30 --workers 2 --compiled DIR
    python benchmarks/pg_load.py --tree /tmp/base -- --tables 1000 --seconds 30 --workers 2
    python benchmarks/pg_load.py --trace /tmp/t1 -- --tables 1000 --seconds 30 --workers 2

``--tree`` runs another checkout's benchmark (and, without ``--compiled``, its ``src``);
everything after ``--`` goes to server_load.py, with ``--database-url`` added. The load
average (1 minute) is printed at the start and the end, and last a line ``pg_load: ...``
with both and the benchmark's own last line.

``--trace DIR`` has the server write its notes (:mod:`handfoot.web.pg_trace`: every
statement on asyncpg's pools with its wait for a connection, each process's loop lateness)
and the benchmark each move's round trip (``--moves-out``) into DIR, then prints them
second by second: the moves and those over ``--slow`` ms, the statements of each kind and
their longest wait for a connection, the loops' worst lateness; then each stalled turn (a
process's loop late by more than ``pg_trace.STALL_AFTER``) with its main thread's stacks,
sampled by a thread during the turn, the most frequent first. It needs a tree whose server
has ``handfoot.web.pg_trace`` (the compiled build given included). With ``--trace-clients``
too, each clients' process notes its own loop's lateness and stacks the same way
(``server_load.py --trace-clients``), printed beside the server's and after its stalled turns.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from server_load import percentile

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    rest: list[str] = []
    if "--" in args:
        at = args.index("--")
        args, rest = args[:at], args[at + 1:]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=HERE.parent,
                        help="the checkout whose benchmark (and src) runs (default this one)")
    parser.add_argument("--trace", type=Path, metavar="DIR",
                        help="the server's notes and each move's round trip into DIR, "
                             "printed second by second")
    parser.add_argument("--slow", type=float, default=150.0, metavar="MS",
                        help="a move slower than this is counted as slow (default 150)")
    parser.add_argument("--trace-clients", action="store_true",
                        help="with --trace: the clients' processes noted too (their loop's "
                             "lateness, their stacks while late; a tree whose "
                             "server_load.py has --trace-clients)")
    ns = parser.parse_args(args)
    sys.path.insert(0, str(HERE.parent / "tests"))
    postgres = importlib.import_module("pg")  # tests/pg.py: initdb in a temporary folder

    tree = ns.tree.resolve()
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    if ns.trace is not None:
        ns.trace.mkdir(parents=True, exist_ok=True)
        for old in [*ns.trace.glob("server.*"), *ns.trace.glob("clients.*"),
                    ns.trace / "moves.json"]:
            old.unlink(missing_ok=True)
        env["HANDFOOT_PG_TRACE"] = str(ns.trace.resolve() / "server")
        rest += ["--moves-out", str(ns.trace.resolve() / "moves.json")]
        if ns.trace_clients:
            rest += ["--trace-clients", str(ns.trace.resolve() / "clients")]
    began = os.getloadavg()[0]
    print(f"pg_load: load average {began:.2f} at the start", flush=True)
    server = postgres.PostgresServer().start()
    try:
        url = server.database()
        done = subprocess.run([sys.executable, str(tree / "benchmarks" / "server_load.py"),
                               *rest, "--database-url", url], cwd=tree, env=env,
                              stdout=subprocess.PIPE, text=True, check=False)
    finally:
        server.stop()
    ended = os.getloadavg()[0]
    print(done.stdout, end="")
    lines = done.stdout.strip().splitlines()
    print(f"pg_load: load {began:.2f} -> {ended:.2f}; {lines[-1] if lines else 'no output'}")
    if ns.trace is not None and (ns.trace / "moves.json").exists():
        print_trace(ns.trace, ns.slow / 1000.0)
    return done.returncode


def print_trace(folder: Path, slow: float) -> None:
    """The moves, the pools' statements and the loops' lateness, second by second."""
    moves = json.loads((folder / "moves.json").read_text())
    start = moves["start"]
    rows: dict[int, dict[str, Any]] = defaultdict(lambda: defaultdict(float))
    for done, rtt in moves["moves"]:
        row = rows[int(done)]
        row["moves"] += 1
        row["slow"] += rtt > slow
        row["worst"] = max(row["worst"], rtt)
    kinds: dict[str, list[list[Any]]] = defaultdict(list)
    for n, path in enumerate(sorted(folder.glob("server.*"))):
        notes = json.loads(path.read_text())
        for kind, asked, waited, took, size, busy in notes["statements"]:
            kinds[kind].append([asked - start, waited, took, size, busy])
            row = rows[int(asked - start)]
            row[f"{kind} n"] += 1
            row[f"{kind} wait"] = max(row[f"{kind} wait"], waited)
            row[f"{kind} took"] = max(row[f"{kind} took"], took)
        for asked, late, cpu in notes["lags"]:
            row = rows[int(asked - start)]
            if late > row[f"lag{n}"]:
                row[f"lag{n}"], row[f"cpu{n}"] = late, cpu
        for started, generation, took in notes.get("collections", []):
            row = rows[int(started - start)]
            row[f"gc{n}"] = max(row[f"gc{n}"], took)
            row[f"gc{n} full"] += generation == 2
    for n, path in enumerate(sorted(folder.glob("clients.*"))):
        for asked, late, _cpu in json.loads(path.read_text())["lags"]:
            row = rows[int(asked - start)]
            if late > row[f"clients{n}"]:
                row[f"clients{n}"] = late
    stalls = [(n, stall) for n, path in enumerate(sorted(folder.glob("server.*")))
              for stall in json.loads(path.read_text()).get("stalls", [])]
    client_stalls = [(n, stall) for n, path in enumerate(sorted(folder.glob("clients.*")))
                     for stall in json.loads(path.read_text()).get("stalls", [])]
    slow_moves = [m for m in moves["moves"] if m[1] > slow]
    joined = moves["joined"]
    print(f"trace: {len(moves['moves'])} moves, {len(slow_moves)} over {slow * 1000:g} ms"
          + (f" (ending {min(m[0] for m in slow_moves):.1f}-"
             f"{max(m[0] for m in slow_moves):.1f} s)" if slow_moves else "")
          + (f"; all joined at {joined:.1f} s" if joined is not None else ""))
    ms = 1000.0
    for kind, notes in sorted(kinds.items()):
        waits = sorted(n[1] for n in notes)
        took = sorted(n[2] for n in notes)
        print(f"  {kind}: {len(notes)} statements ({sum(n[3] for n in notes)} games or moves), "
              f"waited for a connection p50 {percentile(waits, 0.5) * ms:.2f} / p99 "
              f"{percentile(waits, 0.99) * ms:.2f} / max {waits[-1] * ms:.2f} ms "
              f"({sum(w > 0.001 for w in waits)} over 1 ms), took p50 "
              f"{percentile(took, 0.5) * ms:.1f} / p99 {percentile(took, 0.99) * ms:.1f}"
              f" / max {took[-1] * ms:.1f} ms, "
              f"busy connections at most {max(n[4] for n in notes)}")
    names = sorted(kinds)
    print("  s  moves slow worst(ms) | " + " | ".join(
        f"{k}: n wait/took max(ms)" for k in names) + " | loop lag max(ms) per process "
          "(its main thread's CPU meanwhile, longest collection; F: a full one)"
          " | clients' loop lag max(ms) per process")
    for second in sorted(rows):
        row = rows[second]
        lags = [f"{row[k] * ms:.0f} (CPU {row['cpu' + k[3:]] * ms:.0f}, gc "
                f"{row['gc' + k[3:]] * ms:.0f}{'F' * int(row['gc' + k[3:] + ' full'])})"
                for k in sorted(row) if k.startswith("lag")]
        print(f"{second:3d} {int(row['moves']):6d} {int(row['slow']):4d} "
              f"{row['worst'] * ms:9.0f} | " + " | ".join(
                  f"{int(row[f'{k} n']):4d} {row[f'{k} wait'] * ms:6.1f}/"
                  f"{row[f'{k} took'] * ms:6.1f}" for k in names) + " | " + " ".join(lags)
              + " | " + " ".join(f"{row[k] * ms:.0f}" for k in sorted(row)
                                 if k.startswith("clients")))
    print_stalls(stalls, start)
    if client_stalls:
        print("the clients' processes:")
        print_stalls(client_stalls, start)


def print_stalls(stalls: list[tuple[int, list[Any]]], start: float) -> None:
    """Each stalled turn the sampler saw (a process's loop late by more than
    pg_trace.STALL_AFTER): when, how late at most, the main thread's CPU over the samples,
    and its most frequent stacks (innermost frames last)."""
    turns: dict[tuple[int, float], list[list[Any]]] = defaultdict(list)
    for n, (woken, late, cpu, stack) in stalls:
        turns[(n, woken)].append([late, cpu, stack])
    print(f"stalled turns (loop late over the sampler's bound): {len(turns)}")
    for (n, woken), samples in sorted(turns.items(), key=lambda t: t[0][1]):
        counts: dict[str, int] = defaultdict(int)
        for _late, _cpu, stack in samples:
            counts[";".join(stack.split(";")[-10:])] += 1
        print(f"  process {n} at {woken - start:6.2f} s: late {samples[-1][0] * 1000:.0f} ms, "
              f"{len(samples)} samples, CPU {(samples[-1][1] - samples[0][1]) * 1000:.0f} ms "
              "between the first and the last")
        for stack, count in sorted(counts.items(), key=lambda c: -c[1])[:4]:
            print(f"    {count:4d} x {stack}")


if __name__ == "__main__":
    sys.exit(main())
