"""Game review, measured (docs/review.md): its speed, the ladder of the bot levels, and
planted mistakes.

    python benchmarks/review.py speed  [--rounds 1] [--seats 0] [--budget 30] [--reps 3]
    python benchmarks/review.py ladder [--games 30] [--samples 16]
    python benchmarks/review.py planted [--games 40] [--samples 32]

``speed`` reviews a hard self-play game of partnership-13 (four players) and prints
``review: <N> decisions in <S> s`` (CPU time, min/median/max over ``--reps``). ``ladder``
plays one-round games with one level in every seat and reviews seat 0 of each: the mean
loss per decision of each level with a 95% confidence interval over the games. ``planted``
plays one-round games of the learned bot, and at seat 0's decisions where a bad move is at
hand plants it (discarding a wild card while it could go onto one of the side's melds that
already holds one; drawing instead of taking
a pile of 8 cards or more the bot takes): how often the planted move is classed a mistake
or blunder, and how often the bot's own move there is classed good.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from handfoot import build  # noqa: E402
from handfoot.bots.registry import make_bot  # noqa: E402
from handfoot.game import cards  # noqa: E402
from handfoot.game import moves as mv  # noqa: E402
from handfoot.game.engine import GameState  # noqa: E402
from handfoot.game.loading import load_profile  # noqa: E402
from handfoot.game.record import GameRecord, GameRecorder  # noqa: E402
from handfoot.game.values import Phase  # noqa: E402
from handfoot.runs.review import lister_for, review_decision, seat_input  # noqa: E402
from handfoot.runs.review_report import classify, game_review  # noqa: E402
from handfoot.runs.sim import bot_turn, derive_seed, play_game  # noqa: E402

PROFILE = "partnership-13"
LEVELS = ("random", "easy", "normal", "hard", "learned")


def bot_game(level: str, seed: int, rounds: int = 1) -> GameRecord:
    """A recorded game of ``level`` in every seat."""
    profile = load_profile(PROFILE, overrides={"rounds": rounds})
    state = GameState.new(profile, seed=seed)
    recorder = GameRecorder(state, seat_names=[f"{level} {s + 1}" for s in range(state.players)])
    bots = [make_bot(level, derive_seed(seed, "review-bot", s)) for s in range(state.players)]
    play_game(profile, seed, bots, recorder=recorder)
    return recorder.record()


def speed(args: argparse.Namespace) -> None:
    record = bot_game("hard", 5, args.rounds)
    seats = None if args.seats == "all" else [int(s) for s in args.seats.split(",")]
    times = []
    decisions = 0
    for _ in range(args.reps):
        start = time.process_time()
        review = game_review(record, seats, budget=args.budget)
        times.append(time.process_time() - start)
        decisions = sum(len(s.decisions) for s in review.seats)
    print(f"build: {build}; {args.rounds}-round game, seats {args.seats}, budget "
          f"{args.budget:g} s, {review.samples} determinizations a decision")
    print(f"review: {decisions} decisions in {statistics.median(times):.1f} s "
          f"(CPU; min {min(times):.1f}, max {max(times):.1f} over {args.reps})")


def ladder(args: argparse.Namespace) -> None:
    print(f"build: {build}; {args.games} one-round games a level, seat 0 reviewed, "
          f"{args.samples} determinizations a decision")
    for level in args.levels.split(","):
        per_game = []
        decisions = 0
        start = time.process_time()
        for g in range(args.games):
            record = bot_game(level, derive_seed(args.seed, "ladder", g))
            review = game_review(record, [0], samples=args.samples)
            seat = review.seats[0]
            decisions += len(seat.decisions)
            per_game.append(seat.mean_loss)
        mean = statistics.fmean(per_game)
        half = 1.96 * statistics.stdev(per_game) / math.sqrt(len(per_game))
        print(f"{level:8} mean loss {mean:7.1f} (95% CI {mean - half:.1f} to {mean + half:.1f})"
              f" over {decisions} decisions, {time.process_time() - start:.0f} s CPU",
              flush=True)


def planted_spots(games: int, seed: int) -> Iterator[tuple[str, object, object, object, int]]:
    """(kind, view, pile, (planted move, the bot's move), lister) at seat 0's decisions of
    learned self-play where a bad move is at hand."""
    profile = load_profile(PROFILE, overrides={"rounds": 1})
    for g in range(games):
        state = GameState.new(profile, seed=derive_seed(seed, "planted", g))
        bots = [make_bot("learned", derive_seed(seed, "planted-bot", g, s))
                for s in range(state.players)]
        lister = lister_for(0, profile.name)
        index = 0
        while not state.is_over:
            seat = state.to_act
            move = bot_turn(bots[seat], state, seat)
            if seat == 0:
                view, pile = seat_input(state, 0)
                lister._observe(view)
                plant = plant_for(state, view, move)
                if plant is not None:
                    yield plant[0], view, pile, (plant[1], move), lister, index
                if isinstance(move, mv.Discard):
                    lister._chosen(view, mv.DISCARD + move.kind)
            while state.apply_listed(bots[seat].choose(state.play_view(seat))) is None:
                pass
            index += 1


def plant_for(state: GameState, view: object, move: mv.PlayerMove,
              ) -> tuple[str, mv.PlayerMove] | None:
    """A clearly bad move at this decision of seat 0, if there is one."""
    from handfoot.game.values import PlayerView

    assert isinstance(view, PlayerView)
    if view.phase == Phase.PLAY and isinstance(move, mv.Discard):
        hand = cards.kind_counts(view.hand)
        # ranks where the side has a meld that already holds a wild card: adding one more
        # there costs no clean book
        dirty = {m.target for m in view.melds[view.side] if m.twos + m.jokers and
                 m.target < mv.WILD_MELD}
        for w in (cards.JOKER, cards.TWO):
            if not hand[w] or mv.DISCARD + w not in view.legal_actions or move.kind == w:
                continue
            group = (mv.MeldGroup(t, twos=int(w == cards.TWO), jokers=int(w == cards.JOKER))
                     for t in sorted(dirty))
            if any(state.check(mv.Meld((g,))) is None for g in group):
                return "wild discarded", mv.Discard(w)
    if (view.phase == Phase.DRAW and isinstance(move, mv.Pickup) and view.pickup_size >= 8
            and mv.DRAW in view.legal_actions):
        return "pile refused", mv.Draw()
    return None


def planted(args: argparse.Namespace) -> None:
    print(f"build: {build}; {args.games} one-round games of learned self-play, "
          f"{args.samples} determinizations a decision")
    tally: dict[str, list[int]] = {}
    start = time.process_time()
    for kind, view, pile, (bad, own), lister, index in planted_spots(args.games, args.seed):
        seed = derive_seed(args.seed, "planted-decision", index)
        a = review_decision(view, pile, bad, lister=lister, samples=args.samples, seed=seed)
        b = review_decision(view, pile, own, lister=lister, samples=args.samples, seed=seed)
        if args.verbose:
            print(f"  {kind}: planted {a and round(a.loss)} ± {a and round(a.se)}, own "
                  f"{b and round(b.loss)} ± {b and round(b.se)}", flush=True)
        row = tally.setdefault(kind, [0, 0, 0])
        row[0] += 1
        row[1] += a is not None and classify(a.loss, a.se) in ("mistake", "blunder")
        row[2] += b is None or classify(b.loss, b.se) == "good"
    for kind, (n, caught, good) in tally.items():
        print(f"{kind}: {n} spots; planted move a mistake or blunder in {caught} "
              f"({caught / n:.0%}); the bot's own move good in {good} ({good / n:.0%})")
    n = sum(r[0] for r in tally.values())
    if n:
        print(f"all: {n} spots; {sum(r[1] for r in tally.values()) / n:.0%} caught, "
              f"{sum(r[2] for r in tally.values()) / n:.0%} own good; "
              f"{time.process_time() - start:.0f} s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--rounds", type=int, default=1)
    s.add_argument("--seats", default="0", help="comma-separated seats, or 'all'")
    s.add_argument("--budget", type=float, default=30.0)
    s.add_argument("--reps", type=int, default=3)
    lad = sub.add_parser("ladder")
    lad.add_argument("--games", type=int, default=30)
    lad.add_argument("--samples", type=int, default=16)
    lad.add_argument("--levels", default=",".join(LEVELS))
    lad.add_argument("--seed", type=int, default=1)
    pl = sub.add_parser("planted")
    pl.add_argument("--games", type=int, default=40)
    pl.add_argument("--samples", type=int, default=32)
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--verbose", action="store_true", help="print every spot's losses")
    args = parser.parse_args()
    {"speed": speed, "ladder": ladder, "planted": planted}[args.what](args)


if __name__ == "__main__":
    main()
