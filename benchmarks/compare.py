"""Two (or more) builds side by side, interleaved: hard self-play rounds/s or random-play
decisions/s, one core, CPU time.

    python benchmarks/compare.py hard partnership-13 before=/tmp/old/src after=src
    python benchmarks/compare.py random partnership-13 --size 100000 a=src b=/tmp/site

Each ``NAME=PATH`` is a folder put first on ``PYTHONPATH`` (a source tree's ``src``, or an
unpacked build such as a compiled wheel's contents). Every repetition runs each build in
turn, each in a fresh interpreter that plays the same seeded games in the one play loop
(:func:`handfoot.runs.sim.play_game`) and times them with ``time.process_time``; the script
prints min/median/max over the repetitions, each median's ratio to the first build's, and
the actions played (equal when the builds play the same games). Interleaving is what makes
a before/after comparison fair on a loaded machine: both see the same load.

``--pairs`` (two builds): each repetition is a pair, run in the order first, second, then
second, first in the next (so a drift of the machine's speed counts against both alike),
and the script prints each pair's ratio too, the second build's rate over the first's
(min/median/max): where the machine's speed swings from one minute to the next, the
pairs' ratios say more than the two medians.

``hard`` plays ``--size`` games (6) with a hard bot at every seat at the profile's default
seating; ``random`` plays one-round games between random bots until ``--size`` decisions
(100,000) have been made.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time


def play(kind: str, profile_name: str, size: int, seed: int) -> dict[str, float]:
    """The worker: the games of one measurement, in this interpreter's build, with the
    collector tuned as that build's runs tune it (if they do)."""
    with _playing_games():
        return _play(kind, profile_name, size, seed)


def _playing_games() -> contextlib.AbstractContextManager[None]:
    try:  # handfoot.runs.collector: from the eleventh pass (issue 34) on
        from handfoot.runs.collector import playing_games
    except ImportError:
        return contextlib.nullcontext()
    return playing_games()


def _play(kind: str, profile_name: str, size: int, seed: int) -> dict[str, float]:
    from handfoot.bots.registry import make_bot
    from handfoot.game.loading import load_profile
    from handfoot.runs.sim import derive_seed, play_game

    if kind == "hard":
        profile = load_profile(profile_name)
        players = profile.layout.players
        rounds = actions = 0
        start = time.process_time()
        for g in range(size):
            bots = [make_bot("hard", derive_seed(seed, "selfplay-bot", g, s))
                    for s in range(players)]
            state, summary = play_game(profile, derive_seed(seed, "selfplay", g), bots)
            rounds += len(state.results)
            actions += summary.actions
        return {"rate": rounds / (time.process_time() - start), "actions": actions}
    profile = load_profile(profile_name, overrides={"rounds": 1})
    players = profile.layout.players
    actions = g = 0
    start = time.process_time()
    while actions < size:
        bots = [make_bot("random", derive_seed(seed, "random-bot", g, s))
                for s in range(players)]
        _, summary = play_game(profile, derive_seed(seed, "random", g), bots)
        actions += summary.actions
        g += 1
    return {"rate": actions / (time.process_time() - start), "actions": actions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["hard", "random"])
    parser.add_argument("profile")
    parser.add_argument("builds", nargs="*", metavar="NAME=PATH")
    parser.add_argument("--size", type=int, help="games (hard: 6) or decisions (random: "
                        "100,000) a repetition")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", action="store_true",
                        help="two builds: alternate their order and print each pair's ratio")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_intermixed_args()
    size = args.size or (6 if args.kind == "hard" else 100_000)
    if args.worker:
        print(json.dumps(play(args.kind, args.profile, size, args.seed)))
        return
    builds = dict(b.split("=", 1) for b in args.builds)
    if not builds:
        parser.error("name at least one build: NAME=PATH")
    if args.pairs and len(builds) != 2:
        parser.error("--pairs compares two builds")
    rates: dict[str, list[float]] = {name: [] for name in builds}
    actions: dict[str, int] = {}
    for rep in range(args.reps):
        order = list(builds.items())
        if args.pairs and rep % 2:
            order.reverse()
        for name, path in order:
            run = subprocess.run(
                [sys.executable, __file__, args.kind, args.profile, "--worker",
                 "--size", str(size), "--seed", str(args.seed)],
                env={**os.environ, "PYTHONPATH": os.path.abspath(path)},
                capture_output=True, text=True, check=False)
            if run.returncode != 0:
                raise SystemExit(f"{name} failed:\n{run.stderr[-3000:]}")
            data = json.loads(run.stdout.strip().splitlines()[-1])
            rates[name].append(data["rate"])
            actions[name] = int(data["actions"])
    unit = "rounds/s" if args.kind == "hard" else "decisions/s"
    first = statistics.median(next(iter(rates.values())))
    print(f"{args.profile}, {args.kind} at every seat, {unit} min/median/max of "
          f"{args.reps} (CPU time, interleaved):")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"  {name:10} {min(values):,.1f} / {median:,.1f} / {max(values):,.1f}  "
              f"x{median / first:.2f}  ({actions[name]:,} actions)")
    if args.pairs:
        one, two = rates.values()
        ratios = [b / a for a, b in zip(one, two, strict=True)]
        print(f"  pairs      {min(ratios):.3f} / {statistics.median(ratios):.3f} / "
              f"{max(ratios):.3f}  (the second's rate over the first's, each pair)")


if __name__ == "__main__":
    main()
