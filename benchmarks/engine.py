"""Random-play throughput of the engine, on one core.

A *decision* is one legal-action listing plus one action applied, as a random player
does it. Prints one line per profile (and seating) with ``<N> decisions/s`` and games/s.

    python benchmarks/engine.py [--profile NAME] [--games N]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="append",
                        help="profile to measure (repeatable; default: every built-in)")
    parser.add_argument("--games", type=int, default=20, help="games per profile")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = args.profile or builtin_profile_names()
    for name in names:
        profile = load_profile(name)
        for layout in profile.layouts:
            dps, gps = run(name, layout, args.games, args.seed)
            print(f"{name} {layout}: {dps:,.0f} decisions/s, {gps:.2f} games/s"
                  .replace(",", ""))


if __name__ == "__main__":
    main()
