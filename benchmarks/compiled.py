"""The compiled build against the pure one: hard self-play rounds/s and random-play
decisions/s, one core, CPU time, the two builds measured in turn in the same run.
Both play in the one play loop of self-play (:func:`handfoot.runs.sim.play_game`, which plays
each listed action with ``apply_listed``), as tournaments, training and the server play.

    python benchmarks/compiled.py [--compiled DIR] [--pure DIR] [--reps 3]

``--compiled`` is an unpacked compiled build (a wheel's contents, or a site-packages
folder that holds one); without it the script builds one from this tree into a temporary
folder first (``pip wheel`` with ``HANDFOOT_COMPILE=1``, about a minute of CPU, timed
and printed). ``--pure`` defaults to this tree's ``src``. Each figure is measured by a
fresh interpreter that runs only that build (it prints ``handfoot.build``, checked), as
``time.process_time`` around the games alone; each repetition measures pure then
compiled, and the script prints min/median/max over the repetitions and the ratio of the
medians.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROFILE = "partnership-13"


def selfplay(games: int, seed: int) -> dict[str, float]:
    """Hard against hard at four seats, in the one play loop of simulations and
    tournaments (:func:`handfoot.runs.sim.play_game`): rounds (and decisions) per CPU second."""
    from handfoot.bots.registry import make_bot
    from handfoot.game.loading import load_profile
    from handfoot.runs.sim import derive_seed, play_game

    profile = load_profile(PROFILE)
    players = profile.layout.players
    rounds = decisions = 0
    start = time.process_time()
    for g in range(games):
        bots = [make_bot("hard", derive_seed(seed, "selfplay-bot", g, s))
                for s in range(players)]
        state, summary = play_game(profile, derive_seed(seed, "selfplay", g), bots)
        rounds += len(state.results)
        decisions += summary.actions
    cpu = time.process_time() - start
    return {"rounds/s": rounds / cpu, "decisions": decisions, "cpu": cpu}


def random_play(decisions: int, seed: int) -> dict[str, float]:
    """Random bots at four seats, one round a game, in the play loop
    (:func:`handfoot.runs.sim.play_game`), whole games until ``decisions`` have been made:
    decisions (every action: staging steps too) per CPU second."""
    from handfoot.bots.registry import make_bot
    from handfoot.game.loading import load_profile
    from handfoot.runs.sim import derive_seed, play_game

    profile = load_profile(PROFILE, overrides={"rounds": 1})
    players = profile.layout.players
    made = g = 0
    start = time.process_time()
    while made < decisions:
        bots = [make_bot("random", derive_seed(seed, "random-bot", g, s))
                for s in range(players)]
        _, summary = play_game(profile, derive_seed(seed, "random", g), bots)
        made += summary.actions
        g += 1
    cpu = time.process_time() - start
    return {"decisions/s": made / cpu, "decisions": made, "cpu": cpu}


def worker(kind: str, size: int, seed: int) -> None:
    import handfoot

    result = selfplay(size, seed) if kind == "selfplay" else random_play(size, seed)
    print(json.dumps({"build": handfoot.build, **result}))


def measure(site: Path, kind: str, size: int, seed: int) -> tuple[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run([sys.executable, __file__, "--worker", kind, "--size", str(size),
                          "--seed", str(seed)], env=env, capture_output=True, text=True,
                         check=False)
    if run.returncode != 0:
        raise SystemExit(f"worker failed:\n{run.stderr[-3000:]}")
    data = json.loads(run.stdout.strip().splitlines()[-1])
    return str(data.pop("build")), data


def build_compiled(dest: Path) -> Path:
    """Builds this tree's compiled wheel into ``dest`` and unpacks it; prints the CPU time
    the build took (pip, mypyc and the C compiler)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "-w", str(dest / "dist"), str(ROOT)],
                   env={**os.environ, "HANDFOOT_COMPILE": "1"}, check=True,
                   stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"compiled build: {cpu:.1f} s of CPU (pip wheel, mypyc, C compiler)")
    (wheel,) = (dest / "dist").glob("handfoot-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(dest / "site")
    return dest / "site"


def without_option(argv: list[str], option: str, value: str | None) -> list[str]:
    """``argv`` without ``option`` (``--opt``, ``--opt VALUE`` or ``--opt=VALUE``)."""
    out: list[str] = []
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token == option:
            skip = bool(value)
        elif not token.startswith(option + "="):
            out.append(token)
    return out


def rerun_compiled(script: str, argv: list[str], site: str) -> None:
    """Runs a benchmark ``script`` again with ``argv`` on a compiled build, for its
    ``--compiled [DIR]`` option: ``site`` is an unpacked compiled build, or empty to build
    this tree's into a temporary folder first (about a minute of CPU). Exits with the
    script's status."""
    with tempfile.TemporaryDirectory(prefix="handfoot-compiled-") as tmp:
        folder = Path(site) if site else build_compiled(Path(tmp))
        env = {**os.environ, "PYTHONPATH": str(folder)}
        status = subprocess.run([sys.executable, script, *argv], env=env, check=False)
    raise SystemExit(status.returncode)


def add_compiled_option(parser: argparse.ArgumentParser, what: str = "measure") -> None:
    """The ``--compiled [DIR]`` option every speed benchmark takes."""
    parser.add_argument("--compiled", nargs="?", const="", metavar="DIR",
                        help=f"{what} the compiled build: an unpacked one in DIR, or (no DIR) "
                             "one built from this tree first")


def rerun_if_compiled(script: str, compiled: str | None, argv: list[str]) -> None:
    """For a benchmark's ``--compiled [DIR]`` (``compiled``: the option's value, None when
    not given): runs ``script`` again on the compiled build without the option, and exits
    with its status; returns when the option was not given."""
    if compiled is not None:
        rerun_compiled(script, without_option(argv, "--compiled", compiled), compiled)


def spread(values: list[float]) -> str:
    return (f"min {min(values):,.1f} / median {statistics.median(values):,.1f} / "
            f"max {max(values):,.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compiled", type=Path, help="an unpacked compiled build")
    parser.add_argument("--pure", type=Path, default=ROOT / "src")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--games", type=int, default=30, help="self-play games a rep")
    parser.add_argument("--decisions", type=int, default=100_000,
                        help="random-play decisions a rep")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", choices=["selfplay", "random"], help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.size, args.seed)
        return
    with tempfile.TemporaryDirectory(prefix="handfoot-compiled-") as tmp:
        compiled = args.compiled or build_compiled(Path(tmp))
        builds = {"pure": args.pure, "compiled": compiled}
        for kind, unit, size in (("selfplay", "rounds/s", args.games),
                                 ("random", "decisions/s", args.decisions)):
            figures: dict[str, list[float]] = {name: [] for name in builds}
            for _ in range(args.reps):
                for name, site in builds.items():
                    build, data = measure(site, kind, size, args.seed)
                    expected = "pure Python" if name == "pure" else "compiled with mypyc"
                    if not build.startswith(expected):
                        raise SystemExit(f"{site} runs the {build} build, not {name}")
                    figures[name].append(data[unit])
            what = ("hard self-play, 4 players" if kind == "selfplay"
                    else "random play, 4 players, one round a game")
            print(f"{PROFILE} {what} ({args.reps} reps, CPU time, one core):")
            for name, values in figures.items():
                print(f"  {name:8} {unit} {spread(values)}")
            ratio = statistics.median(figures["compiled"]) / statistics.median(figures["pure"])
            print(f"  compiled/pure (medians): {ratio:.2f}x")


if __name__ == "__main__":
    main()
