"""``review`` after a game at the prompt: a person's three costliest decisions
(docs/review.md), judged from what that seat could see."""

from __future__ import annotations

from handfoot.game.record import GameRecord
from handfoot.runs.review_report import game_review, why

__all__ = ["REVIEW_BUDGET", "costliest_lines"]

REVIEW_BUDGET = 10.0
"""Seconds (of a compiled build; about three times as long pure) a review at the prompt is
planned for."""


def costliest_lines(record: GameRecord, seat: int, *, budget: float | None = None,
                    who: str = "your") -> list[str]:
    """The lines that tell ``seat``'s three costliest decisions, with its accuracy
    (``budget``: :data:`REVIEW_BUDGET` by default)."""
    budget = REVIEW_BUDGET if budget is None else budget
    review = game_review(record, [seat], budget=budget).seats[0]
    head = (f"Review of {who} {len(review.decisions)} decisions: accuracy "
            f"{review.accuracy:.0f}, {review.mean_loss:.0f} points lost a decision on average "
            f"(judged by the learned bot from what you saw).")
    worst = review.costliest()
    if not worst:
        return [head, "No costly decision: every move was as good as the reviewer's, or too "
                      "close to tell."]
    lines = [head, f"{who.capitalize()} costliest decisions:"]
    for n, d in enumerate(worst, 1):
        lines.append(f"  {n}. Round {d.round_number}, turn {d.turn}: you {d.played.words}, "
                     f"about {d.loss:.0f} points lost. {why(d.played, d.best, d.loss)}.")
    return lines
