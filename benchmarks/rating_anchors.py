"""The bots' rating anchors: every bot level rated from a duplicate tournament between them.

    python benchmarks/rating_anchors.py [--profile NAME] [--games N] [--seed S]
                                        [--bots random,easy,...] [--json]

Plays ``handfoot tournament``'s round robin (every pairing of the levels, ``--games``
duplicate pairs each, over the same deals) and rates each level with openskill's
Plackett-Luce model from a new player's rating (25 ± 2 × 8.33), the games taken deal by deal
(every pairing's games of deal 1, then of deal 2, ...), so that no level meets only one
other for a long stretch. A level is one player: in a partnership its two seats are the
same player (the first seat's update counts, as :class:`handfoot.runs.ratings.Ratings`
does for a name on two seats). The result is what ``BOT_ANCHORS`` in
``src/handfoot/runs/ratings.py`` holds; the run's figures are in docs/club.md.
"""

from __future__ import annotations

import argparse
import json
import time

from handfoot.game.loading import DEFAULT_PROFILE, load_profile
from handfoot.runs.ratings import GameResult, Ratings, Seat
from handfoot.runs.tournament import run_tournament

LEVELS = "random,easy,normal,hard,learned,expert"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default=DEFAULT_PROFILE)
    parser.add_argument("--games", type=int, default=20, help="duplicate pairs per pairing")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bots", default=LEVELS)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    profile = load_profile(args.profile)
    bots = args.bots.split(",")
    started = time.process_time()
    result = run_tournament(profile, bots, args.games, args.seed, workers=args.workers)
    cpu = time.process_time() - started
    # deal by deal: (pair, pairing, game in pair)
    records = sorted(result.records, key=lambda r: (r.pair, r.pairing, r.game_in_pair))
    ratings = Ratings(anchors={})
    for rec in records:
        lay = profile.layout
        sides = tuple(tuple(Seat(rec.side_bots[side]) for _ in lay.seats_of(side))
                      for side in range(lay.sides))
        ratings.rate(GameResult(profile.name, sides, rec.totals))
    rated = ratings.players(profile.name)
    if args.json:
        print(json.dumps({"profile": profile.name, "games": len(records), "seed": args.seed,
                          "cpu_seconds": round(cpu, 1),
                          "anchors": {p.seat.name: {"mu": round(p.rating.mu, 2),
                                                    "sigma": round(p.rating.sigma, 2),
                                                    "games": p.games} for p in rated}},
                         indent=2))
        return
    print(f"{profile.name}: {len(records)} games ({args.games} duplicate pairs per pairing), "
          f"seed {args.seed}, {cpu:.0f} s of CPU in this process")
    for p in rated:
        print(f"  {p.seat.name:<8} {p.rating.text():>12}   ({p.games} games)")
    print("BOT_ANCHORS = {")
    for p in rated:
        print(f'    "{p.seat.name}": Rating({p.rating.mu:.2f}, {p.rating.sigma:.2f}),')
    print("}")


if __name__ == "__main__":
    main()
