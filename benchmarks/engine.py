"""Random-play throughput of the engine against OpenSpiel's gin rummy, on one core.

Random players (uniform over the legal actions) play whole games; the time is CPU time
(``time.process_time``), so other work on the machine does not count. Three units, side
by side, each with its ratio to gin rummy:

* a *decision*: one legal-action listing plus one action of it applied (a card staged
  for a meld is a decision of its own), through the engine's fast path for a listed
  action (``GameState.apply_listed``);
* a *move*: a committed player move (draw, pickup, meld, discard, go out, ...); in gin
  every decision is a move;
* a *turn*: one seat's turn, from its draw or pickup to its end; in gin a draw and a
  discard.

The baseline is OpenSpiel's C++ gin rummy played with random legal actions from Python
(``pip install -e '.[bench]'``), measured just before and just after each profile, so a
ratio compares two runs under the same load. Each figure is measured ``--reps`` times
(3) and printed as min/median/max. One line per profile (and seating)::

    partnership-13 2x2: decisions/s 40,000/41,000/42,000 (1.00/1.02/1.05x gin); moves/s ...

    python benchmarks/engine.py [--profile NAME] [--games N] [--baseline-games N] [--reps R]
                                [--compiled [DIR]]

The first line says which build ran (``handfoot.build``); ``--compiled`` measures the
compiled one (an unpacked build in DIR, or one built from this tree first, about a
minute).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import handfoot
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.rules import Layout

UNITS = ("decisions", "moves", "turns")


@dataclass(frozen=True)
class Counts:
    """What a run played, and the CPU seconds it took."""

    decisions: int
    moves: int
    turns: int
    games: int
    seconds: float

    def rate(self, unit: str) -> float:
        return float(getattr(self, unit)) / self.seconds


def play_random(profile_name: str, layout: Layout | None, games: int, seed: int) -> Counts:
    """Play ``games`` random games of a profile; count decisions, moves and turns."""
    profile = load_profile(profile_name)
    decisions = moves = turns = 0
    turn_starts = (mv.Draw, mv.Pickup)
    start = time.process_time()
    for g in range(games):
        state = GameState.new(profile, layout=layout, seed=seed + g)
        rng = random.Random(seed + g)
        randrange = rng.randrange
        legal_actions = state.legal_actions
        # (an engine from before apply_listed, for a before/after comparison: apply_action)
        apply_action = getattr(state, "apply_listed", state.apply_action)
        while not state.is_over:
            actions = legal_actions()
            move = apply_action(actions[randrange(len(actions))])
            decisions += 1
            if move is not None:
                moves += 1
                if isinstance(move, turn_starts):
                    turns += 1
    return Counts(decisions, moves, turns, games, time.process_time() - start)


_GIN_DRAWS = (52, 53)
"""OpenSpiel gin rummy's "Draw upcard" and "Draw stock": each starts a turn."""


def play_gin(games: int, seed: int) -> Counts | None:
    """OpenSpiel gin rummy with random legal actions (None if OpenSpiel is missing)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    decisions = turns = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
                state.apply_action(action)
                decisions += 1
                if action in _GIN_DRAWS:
                    turns += 1
    return Counts(decisions, decisions, turns, games, time.process_time() - start)


def spread(values: Sequence[float], digits: int = 0) -> str:
    """``min/median/max`` of some figures."""
    fmt = f"{{:,.{digits}f}}"
    return "/".join(fmt.format(v) for v in (min(values), statistics.median(values),
                                            max(values)))


@dataclass(frozen=True)
class Measured:
    """The repetitions of one profile, each with the gin runs around it."""

    label: str
    runs: list[Counts]
    gin: list[tuple[Counts, Counts]] | None

    def rates(self, unit: str) -> list[float]:
        return [run.rate(unit) for run in self.runs]

    def ratios(self, unit: str) -> list[float] | None:
        if self.gin is None:
            return None
        return [run.rate(unit) / ((before.rate(unit) + after.rate(unit)) / 2)
                for run, (before, after) in zip(self.runs, self.gin, strict=True)]

    def line(self) -> str:
        parts = []
        for unit in UNITS:
            text = f"{unit}/s {spread(self.rates(unit))}"
            ratios = self.ratios(unit)
            if ratios is not None:
                text += f" ({spread(ratios, 2)}x gin)"
            parts.append(text)
        games = [run.games / run.seconds for run in self.runs]
        per_turn = self.runs[0].decisions / max(1, self.runs[0].turns)
        return (f"{self.label}: " + "; ".join(parts)
                + f"; games/s {spread(games, 2)}; {per_turn:.1f} decisions a turn")


def measure(profile_name: str, layout: Layout | None, games: int, baseline_games: int,
            seed: int, reps: int) -> Measured:
    """``reps`` repetitions of a profile, each between two gin runs."""
    runs: list[Counts] = []
    gin: list[tuple[Counts, Counts]] | None = []
    for _ in range(reps):  # the same games each time: the spread is the timing's
        before = play_gin(baseline_games, seed)
        runs.append(play_random(profile_name, layout, games, seed))
        after = play_gin(baseline_games, seed)
        if before is None or after is None or gin is None:
            gin = None
        else:
            gin.append((before, after))
    return Measured(f"{profile_name} {layout}", runs, gin)


def main() -> None:
    from compiled import add_compiled_option, rerun_if_compiled

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="append",
                        help="profile to measure (repeatable; default: every built-in)")
    parser.add_argument("--games", type=int, default=5, help="games per profile and rep")
    parser.add_argument("--baseline-games", type=int, default=150,
                        help="OpenSpiel gin rummy games before and after each profile")
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all-seatings", action="store_true",
                        help="every seating of each profile (default: its default seating)")
    add_compiled_option(parser)
    args = parser.parse_args()
    rerun_if_compiled(__file__, args.compiled, sys.argv[1:])
    print(f"handfoot {handfoot.__version__}, {handfoot.build}", flush=True)
    names = args.profile or builtin_profile_names()
    gin = play_gin(args.baseline_games, args.seed)
    if gin is None:
        print("baseline: OpenSpiel not installed (pip install -e '.[bench]'); no ratios")
    print(f"CPU time, min/median/max of {args.reps} reps; gin rummy measured just before "
          "and after each profile")
    for name in names:
        profile = load_profile(name)
        layouts = profile.layouts if args.all_seatings else (profile.layout,)
        for layout in layouts:
            found = measure(name, layout, args.games, args.baseline_games, args.seed,
                            args.reps)
            print(found.line(), flush=True)
            if found.gin is not None:
                gin_rates = [r.rate(u) for pair in found.gin for r in pair for u in UNITS[:1]]
                turns = [r.rate("turns") for pair in found.gin for r in pair]
                print(f"  gin rummy around it: decisions/s {spread(gin_rates)}; "
                      f"turns/s {spread(turns)}", flush=True)


if __name__ == "__main__":
    main()
