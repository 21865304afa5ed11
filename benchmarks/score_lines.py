"""What decides a profile's games: two bots in duplicate pairs, line by line of the score.

Each deal is played once for each side, the first bot at that side and the second at the
others, and every line of the round breakdowns (books by kind, cards on the table,
going out, cards caught in hand, red 3s, ...) is summed per game for the first bot's side
minus the mean of the other sides'. Printed per line: the mean difference per game with its
95% interval and the standard deviation over games. A line with a large deviation is one
that decides games; a line with a mean far from 0 is where the first bot gains or loses.
Also: the first bot's share of the games, how the rounds ended and which bot's side went
out. A bot against itself (``hard,hard``) plays each game from both sides: every mean is 0,
and the deviations say what decides its games.

    python benchmarks/score_lines.py --profile hand-knee-foot \
        --bots hard:keep_special=50,hard --deals 300 --seed 777
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter, defaultdict

from handfoot.bots.registry import make_bot
from handfoot.game.loading import load_profile
from handfoot.game.rules import Layout
from handfoot.runs.sim import derive_seed, play_game
from handfoot.runs.tournament import mean_ci


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="partnership-13")
    parser.add_argument("--layout", help="SIDESxSEATS (default: the profile's first)")
    parser.add_argument("--bots", default="learned,hard", help="FIRST,SECOND (bot specs)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=777)
    args = parser.parse_args()
    profile = load_profile(args.profile)
    lay = Layout.parse(args.layout) if args.layout else profile.layout
    profile.check_layout(lay)
    first, second = (s.strip() for s in args.bots.split(",", 1))
    lines: defaultdict[str, list[float]] = defaultdict(list)
    ends: Counter[str] = Counter()
    went_out: Counter[str] = Counter()
    shares: list[float] = []
    cpu = time.process_time()
    for deal in range(args.deals):
        for side in range(lay.sides):
            bots = [make_bot(first if lay.side_of(seat) == side else second,
                             derive_seed(args.seed, "score-lines-bot", deal, seat))
                    for seat in range(lay.players)]
            state, _ = play_game(profile, derive_seed(args.seed, "score-lines", deal), bots,
                                 layout=lay)
            game: defaultdict[str, float] = defaultdict(float)
            for result in state.results:
                ends[result.reason.value] += 1
                if result.went_out is not None:
                    went_out["first" if lay.side_of(result.went_out) == side else "second"] += 1
                for score in result.scores:
                    sign = 1.0 if score.side == side else -1.0 / (lay.sides - 1)
                    for line in score.lines:
                        game[line.key] += sign * line.points
                    game["total"] += sign * score.total
            for key in set(game) | set(lines):
                lines[key].append(game.get(key, 0.0))
            totals = state.totals
            best_other = max(t for s, t in enumerate(totals) if s != side)
            shares.append(1.0 if totals[side] > best_other else
                          0.5 if totals[side] == best_other else 0.0)
    games = len(shares)
    print(f"{profile.name} {lay}: {first} against {second}, {args.deals} deals, {games} games, "
          f"{time.process_time() - cpu:.0f} s CPU")
    print(f"games won by the first: {statistics.fmean(shares):.1%} "
          f"({1 / lay.sides:.1%} between equals)")
    print("rounds ended: " + ", ".join(f"{k} {v}" for k, v in ends.most_common()))
    print("went out: " + ", ".join(f"{k} {v}" for k, v in sorted(went_out.items())))
    print(f"{'line':22} {'mean a game':>12} {'95% CI':>20} {'sd':>8}")
    for key, values in sorted(lines.items(), key=lambda kv: -statistics.pstdev(kv[1])):
        values = values + [0.0] * (games - len(values))
        mean, lo, hi = mean_ci(values)
        print(f"{key:22} {mean:+12.0f} {f'({lo:+.0f} to {hi:+.0f})':>20} "
              f"{statistics.pstdev(values):8.0f}")


if __name__ == "__main__":
    main()
