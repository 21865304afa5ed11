"""How much choice do the candidate plans offer beyond hard's own? (measure before building)

Hard bots (as :class:`~handfoot.bots.plans.PlanBot`, which plays exactly like hard) play every
seat. At each decision the candidate plans are listed and each is played on a copy of the
true state: counted are the plans, the plans the engine accepts to the end, and the
distinct positions they lead to (the seat's view after the plan), per kind of decision.

    python benchmarks/plan_counts.py [--profile P] [--games G] [--seed S]

Prints, per kind of decision (draw, play, answer), the number of decisions, the mean and
largest number of candidate plans and of distinct resulting positions, the share of
decisions with more than one distinct position, and the share of plans the engine accepts.
"""

from __future__ import annotations

import argparse
import statistics
import time

from handfoot.bots.plans import PlanBot, candidate_plans, is_decision
from handfoot.game.engine import GameState
from handfoot.game.loading import DEFAULT_PROFILE, load_profile
from handfoot.game.values import Phase
from handfoot.runs.sim import derive_seed


def measure(profile_name: str, games: int, seed: int) -> dict[str, list[tuple[int, int, int]]]:
    """Per kind of decision: (plans, plans accepted to the end, distinct positions)."""
    profile = load_profile(profile_name)
    out: dict[str, list[tuple[int, int, int]]] = {}
    for g in range(games):
        state = GameState.new(profile, seed=derive_seed(seed, "plans", g))
        bots = [PlanBot(derive_seed(seed, "plans-bot", g, s)) for s in range(state.players)]
        while not state.is_over:
            seat = state.to_act
            view = state.view(seat)
            bot = bots[seat]
            if is_decision(bot, view):
                bot._observe(view)
                plans = candidate_plans(bot, view)
                ok = 0
                positions: set[object] = set()
                for plan in plans:
                    trial = state.copy()
                    good = True
                    for a in plan.actions:
                        if a not in trial.legal_actions():
                            good = False
                            break
                        trial.apply_action(a)
                    if good:
                        ok += 1
                        after = trial.view(seat)
                        positions.add((after.hand, after.melds, after.discard_size,
                                       after.discard_top, after.phase, after.round_number,
                                       after.turn))
                kind = {Phase.DRAW: "draw", Phase.PLAY: "play"}.get(view.phase, "answer")
                out.setdefault(kind, []).append((len(plans), ok, len(positions)))
                # the bot's memory must not see this view twice: choose without observing
                action = bot._decide(view)
                bot._chosen(view, action)
            else:
                action = bot.choose(view)
            state.apply_action(action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default=DEFAULT_PROFILE)
    parser.add_argument("--games", type=int, default=10, help="full games to play")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.process_time()
    rows = measure(args.profile, args.games, args.seed)
    print(f"{args.profile}: {args.games} full games, {time.process_time() - start:.1f} s CPU")
    for kind, xs in sorted(rows.items()):
        plans = [x[0] for x in xs]
        ok = sum(x[1] for x in xs)
        distinct = [x[2] for x in xs]
        several = sum(1 for d in distinct if d > 1)
        print(f"{args.profile} {kind}: {len(xs)} decisions; plans mean "
              f"{statistics.fmean(plans):.2f} (max {max(plans)}); distinct positions mean "
              f"{statistics.fmean(distinct):.2f} (max {max(distinct)}); "
              f"{100 * several / len(xs):.1f}% with more than one; "
              f"{100 * ok / sum(plans):.1f}% of plans accepted to the end")


if __name__ == "__main__":
    main()
