"""Decision time of each bot level: p50 and p99 per decision, on one core.

Every seat is played by the measured bot; each ``choose()`` call is timed.

    python benchmarks/bots.py [--profile NAME] [--games N] [--rounds R] [--bots random,easy,...]

For the expert it also prints the times of the decisions it searched (the others are the
hard bot's); ``HANDFOOT_EXPERT_BUDGET`` sets its budget in seconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from handfoot.bots.registry import BOTS, make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import DEFAULT_PROFILE, load_profile
from handfoot.runs.sim import derive_seed


def decision_times(profile_name: str, bot: str, games: int, seed: int,
                   searched: list[float] | None = None, rounds: int | None = None,
                   ) -> list[float]:
    """Seconds per ``choose()`` call over ``games`` games played by ``bot`` at every seat.

    For a bot that counts its searches (``searched``), the times of the decisions it
    decided by search are also appended to ``searched``.
    """
    profile = load_profile(profile_name, overrides={"rounds": rounds} if rounds else None)
    times: list[float] = []
    clock = time.perf_counter
    for g in range(games):
        state = GameState.new(profile, seed=derive_seed(seed, "bench", g))
        players = [make_bot(bot, derive_seed(seed, "bench-bot", g, s))
                   for s in range(state.players)]
        while not state.is_over:
            seat = state.to_act
            view = state.view(seat)
            bot_at = players[seat]
            before = getattr(bot_at, "searched", 0)
            start = clock()
            action = bot_at.choose(view)
            elapsed = clock() - start
            times.append(elapsed)
            if searched is not None and getattr(bot_at, "searched", 0) != before:
                searched.append(elapsed)
            state.apply_action(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default=DEFAULT_PROFILE)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--bots", default=",".join(BOTS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, help="rounds per game (default: the profile's)")
    args = parser.parse_args()
    for bot in args.bots.split(","):
        searched: list[float] = []
        times = decision_times(args.profile, bot, args.games, args.seed, searched,
                               args.rounds)
        cuts = statistics.quantiles(times, n=100, method="inclusive")
        print(f"{args.profile} {bot}: p50 {cuts[49] * 1e6:.0f} us, p99 {cuts[98] * 1e6:.0f} us, "
              f"mean {statistics.fmean(times) * 1e6:.0f} us over {len(times)} decisions")
        if len(searched) >= 2:
            cuts = statistics.quantiles(searched, n=100, method="inclusive")
            print(f"{args.profile} {bot} searched decisions: p50 {cuts[49] * 1e3:.0f} ms, "
                  f"p99 {cuts[98] * 1e3:.0f} ms, max {max(searched) * 1e3:.0f} ms "
                  f"over {len(searched)}")


if __name__ == "__main__":
    main()
