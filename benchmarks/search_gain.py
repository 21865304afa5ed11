"""How much could the expert's one-step search gain over the hard bot? (split-half estimate)

Hard bots play every seat. At each decision the expert would search (a draw with a pickup
possible, a decision where a candidate goes out, and a sampled fraction of the other
meld/discard decisions), the expert's candidate moves are listed and ``--samples``
determinizations of the seat's view are drawn: exactly what the expert's search sees.
Every candidate is played out on every sample to the end of the round by hard bots
(common random numbers). The gain of choosing by sample means is then estimated without
selection bias: pick on one half of the samples, score the pick against the hard bot's own
move on the other half, and the other way round.

    python benchmarks/search_gain.py [--profile P] [--games G] [--samples N]
        [--play-fraction F] [--seed S] [--kinds draw,go-out,play] [--see-hands]

``--see-hands`` gives the search what no seat knows: each sample keeps every player's true
hand, Foot and Knee and the true pile, and re-deals only the stock's order (the cards
nobody has seen). The games, the decisions measured and the play-outs' bot seeds are the
same as without it (the view's determinizations are still drawn, for the random stream,
and thrown away), so the two runs are paired: the difference is an upper bound on what
inferring the hidden hands could add to this search.

Prints, per kind of decision (draw, go-out, play), the number of decisions and the mean
gain per decision in round points (95% CI) for three rules: always take the best mean
(z = 0), and switch from the hard bot's move only when the best beats it by z = 1 or z = 2
standard errors of the paired difference (the expert's rule). A negative gain means the
search's choices are worse than the hard bot's at that number of samples.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence

from handfoot.bots.search import UNPLAYABLE, ExpertBot, determinize, pick_candidate
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import DEFAULT_PROFILE, load_profile
from handfoot.game.values import Phase, PlayerView
from handfoot.runs.sim import derive_seed

RULES = (0.0, 1.0, 2.0)
KINDS = ("draw", "go-out", "play")


def split_half_gain(values: list[list[float]], z: float) -> float:
    """Unbiased gain over candidate 0 of choosing by ``z`` on one half, scored on the other."""
    half = len(values[0]) // 2
    a = [v[:half] for v in values]
    b = [v[half:2 * half] for v in values]
    gain = 0.0
    for pick_on, score_on in ((a, b), (b, a)):
        c = pick_candidate(pick_on, z)  # the expert's own rule
        gain += statistics.fmean(score_on[c]) - statistics.fmean(score_on[0])
    return gain / 2


class _Probe(ExpertBot):
    """Plays as hard; at a searched decision, records the split-half gains."""

    def __init__(self, seed: int, samples: int, play_fraction: float,
                 gains: dict[str, list[list[float]]], kinds: Sequence[str] = KINDS,
                 see_hands: bool = False) -> None:
        super().__init__(seed, time_budget=None, iterations=1, horizon=None, scope="all")
        self.n_samples = samples
        self.play_fraction = play_fraction
        self.gains = gains
        self.kinds = tuple(kinds)
        self.rng = random.Random(seed)
        self.see_hands = see_hands
        self.stock_rng = random.Random(derive_seed(seed, "stock"))  # apart: runs stay paired
        self.truth: GameState | None = None
        """The true state at the decision (set by :func:`measure` under ``see_hands``)."""

    def _search(self, view: PlayerView, candidates: list[list[int]]) -> int:
        if view.phase == Phase.DRAW:
            kind = "draw"
        elif any(mv.GO_OUT <= plan[-1] < mv.DISCARD for plan in candidates):
            kind = "go-out"
        else:
            kind = "play"
        if kind not in self.kinds:
            return 0
        if kind == "play" and self.rng.random() >= self.play_fraction:
            return 0
        picked = mv.KNOCK in view.legal_actions
        values: list[list[float]] = [[] for _ in candidates]
        for _ in range(self.n_samples):
            try:
                world = determinize(view, self.rng, list(self._pile), picked_pile=picked)
            except ValueError:
                world = determinize(view, self.rng, (), picked_pile=picked)
            if self.see_hands:
                assert self.truth is not None, "measure() sets the true state"
                world = self.truth.copy()
                self.stock_rng.shuffle(world.stock)  # only the unseen stock is re-dealt
            seed = self.rng.getrandbits(32)
            for c, plan in enumerate(candidates):
                v = self._playout(world.copy(), view, plan, seed)  # to the end of the round
                if v <= UNPLAYABLE:
                    return 0
                values[c].append(v)
        self.gains.setdefault(kind, []).append([split_half_gain(values, z) for z in RULES])
        return 0


def measure(profile_name: str, games: int, samples: int, play_fraction: float,
            seed: int, kinds: Sequence[str] = KINDS,
            see_hands: bool = False) -> dict[str, list[list[float]]]:
    """Per kind of decision, the split-half gains of each rule in :data:`RULES`.

    ``see_hands``: the samples keep every hidden packet as it truly is but the stock's order.
    """
    profile = load_profile(profile_name, overrides={"rounds": 1})
    gains: dict[str, list[list[float]]] = {}
    for g in range(games):
        state = GameState.new(profile, seed=derive_seed(seed, "gain", g))
        bots = [_Probe(derive_seed(seed, "gain-bot", g, s), samples, play_fraction, gains,
                       kinds, see_hands) for s in range(state.players)]
        while not state.is_over:
            bot = bots[state.to_act]
            bot.truth = state if see_hands else None
            state.apply_action(bot.choose(state.view(state.to_act)))
    return gains


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default=DEFAULT_PROFILE)
    parser.add_argument("--games", type=int, default=4, help="one-round games to play")
    parser.add_argument("--samples", type=int, default=32, help="determinizations per decision")
    parser.add_argument("--play-fraction", type=float, default=0.1,
                        help="share of meld/discard decisions measured (they are many)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help="kinds of decision to measure (default: all three)")
    parser.add_argument("--see-hands", action="store_true",
                        help="samples keep every true hand, Foot and Knee; only the stock's "
                             "order is re-dealt (an upper bound for inferring hands)")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    if not kinds or any(k not in KINDS for k in kinds):
        parser.error(f"--kinds takes a comma-separated list from {', '.join(KINDS)}")
    if args.samples < 4:
        parser.error("--samples must be at least 4")
    start = time.process_time()
    gains = measure(args.profile, args.games, args.samples, args.play_fraction, args.seed,
                    kinds, args.see_hands)
    seen = "the true hands, stock re-dealt" if args.see_hands else "the seat's view"
    print(f"{args.profile}: {args.games} games, {args.samples} samples per decision "
          f"({args.samples // 2} per half) of {seen}, "
          f"{time.process_time() - start:.0f} s CPU")
    for kind in sorted(gains):
        rows = gains[kind]
        parts = []
        for i, z in enumerate(RULES):
            xs = [r[i] for r in rows]
            mean = statistics.fmean(xs)
            half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
            parts.append(f"z={z:g}: {mean:+.1f} ({mean - half:+.1f} to {mean + half:+.1f})")
        print(f"{args.profile} {kind}: {len(rows)} decisions, gain per decision "
              + "; ".join(parts))


if __name__ == "__main__":
    main()
