"""Hard-vs-hard self-play throughput, on one core: rounds/s and games/s.

Every seat is a hard bot choosing from its own view, in the one play loop of simulations
and tournaments (:func:`handfoot.runs.sim.play_game`), as tournaments, training and the server
play, with the collector tuned as a run tunes it (:func:`handfoot.runs.collector.playing_games`).
The time is CPU time (``time.process_time``), measured ``--reps`` times (3) and printed as
min/median/max; one line per profile, at its default seating::

    partnership-13 2x2: 45.1/45.6/46.0 rounds/s (min/median/max of 3), games/s 11.3/...,
        decisions/s 24,000/... (1,300 a round), ...

    python benchmarks/selfplay.py [--profile NAME] [--games N] [--reps R] [--bot hard]
                                  [--compiled [DIR]]

The first line says which build ran (``handfoot.build``); ``--compiled`` measures the
compiled one (an unpacked build in DIR, or one built from this tree first, about a
minute).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

import handfoot
from handfoot.bots.registry import make_bot
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout
from handfoot.runs.collector import playing_games
from handfoot.runs.sim import derive_seed, play_game


def selfplay(profile_name: str, layout: Layout | None, games: int, seed: int,
             bot: str = "hard") -> tuple[int, int, float, int]:
    """Play ``games`` games with ``bot`` at every seat: (rounds, games, CPU seconds,
    decisions: the actions played, a staged card each)."""
    profile = load_profile(profile_name)
    players = (layout or profile.layout).players
    rounds = decisions = 0
    with playing_games():  # the collector as simulations and tournaments tune it
        start = time.process_time()
        for g in range(games):
            game_seed = derive_seed(seed, "selfplay", g)
            bots = [make_bot(bot, derive_seed(seed, "selfplay-bot", g, s))
                    for s in range(players)]
            state, summary = play_game(profile, game_seed, bots, layout=layout)
            rounds += len(state.results)
            decisions += summary.actions
        return rounds, games, time.process_time() - start, decisions


def spread(values: Sequence[float], form: str = ".1f") -> str:
    """``min/median/max`` of some figures, each formatted with ``form``."""
    return "/".join(format(v, form)
                    for v in (min(values), statistics.median(values), max(values)))


def main() -> None:
    from compiled import add_compiled_option, rerun_if_compiled

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="append",
                        help="profile to measure (repeatable; default: every built-in)")
    parser.add_argument("--games", type=int, default=6, help="games per profile and rep")
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="hard", help="the bot at every seat (default: hard)")
    add_compiled_option(parser)
    args = parser.parse_args()
    rerun_if_compiled(__file__, args.compiled, sys.argv[1:])
    print(f"handfoot {handfoot.__version__}, {handfoot.build}", flush=True)
    for name in args.profile or builtin_profile_names():
        layout = load_profile(name).layout
        round_rates: list[float] = []
        game_rates: list[float] = []
        decision_rates: list[float] = []
        decisions = rounds = 0
        for _ in range(args.reps):  # the same games each time: the spread is the timing's
            rounds, games, seconds, decisions = selfplay(name, layout, args.games, args.seed,
                                                         args.bot)
            round_rates.append(rounds / seconds)
            game_rates.append(games / seconds)
            decision_rates.append(decisions / seconds)
        print(f"{name} {layout}: {spread(round_rates)} rounds/s (min/median/max of "
              f"{args.reps}), games/s {spread(game_rates)}, decisions/s "
              f"{spread(decision_rates, ',.0f')} ({decisions / max(rounds, 1):,.0f} a round), "
              f"{args.bot} at every seat, CPU time", flush=True)


if __name__ == "__main__":
    main()
