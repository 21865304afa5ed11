"""Decision time of each bot level: p50 and p99 per decision, on one core.

Every seat is played by the measured bot; each ``choose()`` call is timed.

    python benchmarks/bots.py [--profile NAME] [--games N] [--bots random,easy,...]
"""

from __future__ import annotations

import argparse
import statistics
import time

from handfoot.bots import BOTS, make_bot
from handfoot.engine import GameState
from handfoot.rules import DEFAULT_PROFILE, load_profile
from handfoot.sim import derive_seed


def decision_times(profile_name: str, bot: str, games: int, seed: int) -> list[float]:
    """Seconds per ``choose()`` call over ``games`` games played by ``bot`` at every seat."""
    profile = load_profile(profile_name)
    times: list[float] = []
    clock = time.perf_counter
    for g in range(games):
        state = GameState.new(profile, seed=derive_seed(seed, "bench", g))
        players = [make_bot(bot, derive_seed(seed, "bench-bot", g, s))
                   for s in range(state.players)]
        while not state.is_over:
            seat = state.to_act
            view = state.view(seat)
            start = clock()
            action = players[seat].choose(view)
            times.append(clock() - start)
            state.apply_action(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default=DEFAULT_PROFILE)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--bots", default=",".join(BOTS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for bot in args.bots.split(","):
        times = decision_times(args.profile, bot, args.games, args.seed)
        cuts = statistics.quantiles(times, n=100)
        print(f"{args.profile} {bot}: p50 {cuts[49] * 1e6:.0f} us, p99 {cuts[98] * 1e6:.0f} us, "
              f"mean {statistics.fmean(times) * 1e6:.0f} us over {len(times)} decisions")


if __name__ == "__main__":
    main()
