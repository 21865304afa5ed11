"""Random-play throughput of the engine, on one core.

A *decision* is one legal-action listing plus one action applied, as a random player
does it. Prints one line per profile (and seating) with ``<N> decisions/s``, games/s and
legal-action listings/s (over positions sampled from random games).
If OpenSpiel is installed (``pip install -e '.[bench]'``), the same run also measures its
C++ gin rummy played with random legal actions from Python, as a baseline, and prints each
profile's ratio to it.

    python benchmarks/engine.py [--profile NAME] [--games N] [--baseline-games N]
"""

from __future__ import annotations

import argparse
import random
import time

from handfoot.engine import GameState
from handfoot.rules import Layout, builtin_profile_names, load_profile


def run(profile_name: str, layout: Layout | None, games: int, seed: int) -> tuple[float, float]:
    """Play ``games`` random games; return (decisions/s, games/s)."""
    profile = load_profile(profile_name)
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        state = GameState.new(profile, layout=layout, seed=seed + g)
        rng = random.Random(seed + g)
        choice = rng.choice
        while not state.is_over:
            state.apply_action(choice(state.legal_actions()))
            decisions += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed


def listings(profile_name: str, layout: Layout | None, games: int, seed: int) -> float:
    """Legal-action listings per second over the positions of random games."""
    profile = load_profile(profile_name)
    states: list[GameState] = []
    for g in range(games):
        state = GameState.new(profile, layout=layout, seed=seed + g)
        rng = random.Random(seed + g)
        step = 0
        while not state.is_over:
            if step % 50 == 0:
                states.append(state.copy())
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    start = time.perf_counter()
    for _ in range(5):
        for state in states:
            state.legal_actions()
    return 5 * len(states) / (time.perf_counter() - start)


def gin_rummy_baseline(games: int, seed: int) -> float | None:
    """Decisions/s of OpenSpiel's gin rummy with random legal actions, or None."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="append",
                        help="profile to measure (repeatable; default: every built-in)")
    parser.add_argument("--games", type=int, default=20, help="games per profile")
    parser.add_argument("--baseline-games", type=int, default=200,
                        help="OpenSpiel gin rummy games for the baseline")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = args.profile or builtin_profile_names()
    baseline = gin_rummy_baseline(args.baseline_games, args.seed)
    if baseline is None:
        print("baseline: OpenSpiel not installed (pip install -e '.[bench]'); no ratios")
    else:
        print(f"baseline open_spiel gin_rummy: {baseline:.0f} decisions/s")
    for name in names:
        profile = load_profile(name)
        for layout in profile.layouts:
            dps, gps = run(name, layout, args.games, args.seed)
            lps = listings(name, layout, max(1, args.games // 4), args.seed)
            ratio = "" if baseline is None else f", {dps / baseline:.2f}x the baseline"
            print(f"{name} {layout}: {dps:.0f} decisions/s, {gps:.2f} games/s, "
                  f"{lps:.0f} legal-action listings/s{ratio}")


if __name__ == "__main__":
    main()
