"""``handfoot review RECORD``: where each player lost points (docs/review.md)."""

from __future__ import annotations

import argparse
import json
import math
import sys

from handfoot.cli.options import PROG, UsageError
from handfoot.game.record import RecordError, read_record, replay
from handfoot.runs.review import DEFAULT_BUDGET, DRAW_FACTOR
from handfoot.runs.review_report import GameReview, game_review, lines, why

__all__ = ["add_review_command", "cmd_review", "review_table"]


def add_review_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``review``: judge every decision of a recorded game."""
    cmd = commands.add_parser(
        "review", help="judge every decision of a recorded game: what each move cost",
        description="For every decision of the chosen seats, what the strongest practical "
                    "bot would have played from what that seat knew, and how many points "
                    "the move played cost (docs/review.md). The same record, seats and "
                    "budget give the same review.")
    cmd.add_argument("file", metavar="RECORD", help="a game record (JSON)")
    cmd.add_argument("--seat", type=int, action="append", metavar="N",
                     help="review seat N only (its index in the record, from 0, as in the "
                          "record's JSON); repeat for several (default: every seat)")
    cmd.add_argument("--json", action="store_true", help="print the review as JSON")
    cmd.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
                     help="about how long the review may take on one core of a compiled "
                          "build; it sets the play-outs per decision before work starts "
                          f"(default {DEFAULT_BUDGET:g})")
    cmd.add_argument("--timeline", action="store_true",
                     help="with --json: every decision, not only the three costliest")
    cmd.set_defaults(func=cmd_review)


def cmd_review(args: argparse.Namespace) -> int:
    """Review a record and print the table (or JSON)."""
    if args.timeline and not args.json:
        raise UsageError("--timeline goes with --json (the table shows each seat's costliest "
                         "decisions)")
    budget = args.budget
    if not math.isfinite(budget) or budget <= 0 or budget > 86400:
        raise UsageError(f"--budget {budget:g}: give a number of seconds above 0 and at most "
                         "86400")
    try:
        record = read_record(args.file)
    except RecordError as exc:  # named by its file, as replay names it
        raise UsageError(f"{args.file}: {exc}") from None
    players = len(record.seats)
    seats = args.seat
    if seats is not None:
        for s in seats:
            if not 0 <= s < players:
                raise UsageError(f"--seat {s}: the record has seats 0 to {players - 1}")
    done = [0, 0]

    def progress(n: int, total: int) -> None:
        done[:] = [n, total]

    try:
        review = game_review(record, seats, budget=budget, progress=progress)
    except KeyboardInterrupt:
        print(f"{PROG} review: interrupted after {done[0]} of {done[1]} decisions; nothing "
              "printed", file=sys.stderr)
        return 1
    over = replay(record).state.is_over
    if args.json:
        data = review.to_data(all_decisions=args.timeline)
        data["over"] = over
        print(json.dumps(data, ensure_ascii=False))
        return 0
    review_table(review)
    if not over:
        print("The game is not over: the moves recorded so far are reviewed.")
    return 0


def review_table(review: GameReview) -> None:
    """The review as Rich tables on standard output."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # names come from the record: printed as they are, never read as Rich markup
    console = Console(file=sys.stdout, highlight=False)
    table = Table(title="Game review", title_justify="left")
    for head in ("Seat", "Name", "Moves", "Loss", "Acc.", "Good", "Inacc.", "Mist.", "Blund."):
        if head == "Name":  # a long name wraps; the other columns' heads are never cut
            table.add_column(head, justify="left", overflow="fold")
        else:
            table.add_column(head, justify="right", no_wrap=True, min_width=len(head))
    for s in review.seats:
        c = s.classes()
        table.add_row(str(s.seat), Text(s.name), str(len(s.decisions)), f"{s.mean_loss:.0f}",
                      f"{s.accuracy:.0f}", str(c["good"]), str(c["inaccuracy"]),
                      str(c["mistake"]), str(c["blunder"]))
    console.print(table)
    console.print("Moves: decisions reviewed; Loss: mean points lost a decision; Acc.: "
                  "accuracy, 0-100; then how many were good, inaccuracies, mistakes, "
                  "blunders.")
    for s in review.seats:
        worst = s.costliest()
        if not worst:
            console.print(f"{s.name}: no costly decision found.", markup=False)
            continue
        console.print(f"{s.name}'s costliest decisions:", markup=False)
        for d in worst:
            console.print(f"  round {d.round_number}, turn {d.turn}: {d.played.words}; "
                          f"lost {d.loss:.0f} ± {d.se:.0f} points. "
                          f"{why(d.played, d.best, d.loss)}.", soft_wrap=True, markup=False)
    console.print(f"Reviewer: {review.policy}, {review.samples} determinizations a decision "
                  f"({review.samples * DRAW_FACTOR} where the pile could be taken); "
                  "points are the round's margin (your side's score minus the best other "
                  "side's).")
    line = lines(review.scale)
    stakes = "" if review.scale == 1.0 else (
        f": these rules' rounds put {review.scale:.2f} times partnership-13's points at "
        "stake")
    console.print(f"A loss counts from {line['inaccuracy']:g} points (inaccuracy), "
                  f"{line['mistake']:g} (mistake), {line['blunder']:g} (blunder){stakes}.",
                  soft_wrap=True, markup=False)
